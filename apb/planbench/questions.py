"""PlanBench's prompts as questions for other frameworks (Inspect, lm-eval, reasoning-gym; apb.integrations): the
messages `apb planbench eval` sends, the gold answer as a model is asked to write it, and both verdicts of an answer
(`verdict`: PlanBench's `official`, apb's `sound`, which training rewards use)."""

from __future__ import annotations

from dataclasses import dataclass, field

from apb.datasets.planbench import load_config
from apb.planbench.prompts import GENERATORS, prompt_file, prompt_task
from apb.planbench.render import COLOUR_NAMED, action_text, state_text
from apb.planbench.runs import official_correct, system_message
from apb.planbench.verdicts import score_record, task_kind

TASKS = tuple(GENERATORS)  # the tasks apb writes prompts for (apb.planbench.prompts)


@dataclass
class PlanBenchQuestion:
    """One prompt of a task file: its config, task (file stem) and PlanBench's prompt record."""

    config: str
    folder: str
    task: str
    record: dict = field(repr=False)

    @property
    def id(self) -> str:
        return f"{self.config}/{self.task}/{self.record['instance_id']}"

    def messages(self) -> list[dict]:
        """The chat `apb planbench eval` sends: PlanBench's system message and the query."""
        return [{"role": "system", "content": system_message()}, {"role": "user", "content": self.record["query"]}]

    def to_dict(self) -> dict:
        return {"config": self.config, "folder": self.folder, "task": self.task, "record": self.record}

    @classmethod
    def from_dict(cls, data: dict) -> PlanBenchQuestion:
        return cls(data["config"], data["folder"], data["task"], data["record"])


def parse_instances(text: str | None) -> set[int] | None:
    """`2,5,10-20` -> the ids; None for no text (all); DatasetError for anything else."""
    from apb.datasets.dataset import DatasetError

    if not text:
        return None
    found: set[int] = set()
    for part in filter(None, (p.strip() for p in str(text).split(","))):
        low, _, high = part.partition("-")
        try:
            found.update(range(int(low), int(high or low) + 1))
        except ValueError:
            raise DatasetError(f"--instances: {part!r} is not an id or a range (e.g. 2,5,10-20)") from None
    return found


def questions(config: str, task: str = "t1", *, folder: str | None = None, variant: str = "prompts",
              instances: set[int] | None = None) -> list[PlanBenchQuestion]:
    """The prompts of a config's task (a released file's stem or t1..t8_3) as questions."""
    loaded = load_config(config, folder)
    _, stem = prompt_task(task)
    data = prompt_file(loaded, task, variant, instances)
    return [PlanBenchQuestion(loaded.name, loaded.folder, stem, record) for record in data["instances"]]


def gold_answer(question: PlanBenchQuestion) -> str:
    """The right answer as the prompt asks for it: the gold plan in the config's words ending in `[PLAN END]` (t2:
    with its time), t3's verification text, t7's state in the config's words."""
    data = load_config(question.config, question.folder).data
    gold = question.record.get("ground_truth_plan")
    kind = task_kind(question.task)
    if kind == "verification":
        return str(gold).strip()
    if kind == "state":
        return state_text(gold, data)
    if isinstance(gold, str) and "[PLAN END]" in gold:  # t8: already in words
        return gold.strip()
    lines = gold if isinstance(gold, list) else str(gold).split("\n")
    colour = ({str(v).split()[0]: k for k, v in (data.get("encoded_objects") or {}).items()}
              if data.get("domain_name") in COLOUR_NAMED else {})
    words = []
    for line in (str(x).strip() for x in lines):
        if line.startswith("(") and line.endswith(")"):
            name, *args = line[1:-1].split()
            words.append(action_text("_".join([name, *(colour.get(a, a) for a in args)]), data))
    text = "\n".join(words) + "\n[PLAN END]"
    if "optimality" in question.task:
        text += f"\nThe total time to execute the plan is {len(words)} minute{'s' if len(words) != 1 else ''}."
    return text


def verdict(question: PlanBenchQuestion, response) -> dict:
    """{"official", "sound", "record"}: PlanBench's verdict (t3: binary) and apb's on a response (any value: a
    non-string is no answer), with the scored record."""
    if not isinstance(response, str) or not response.strip():
        return {"official": False, "sound": False, "record": None}
    config = load_config(question.config, question.folder)
    scored = score_record(config, question.task, {**question.record, "llm_raw_response": response.strip()})
    return {"official": official_correct(scored, question.task), "sound": bool(scored.get("apb_correct")),
            "record": scored}
