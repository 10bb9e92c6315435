"""A test corpus of answers to ACPBench's released dev questions: the gold in every format the official readers
accept, and wrong or malformed answers (other actions and atoms, reordered or re-cased ones, chatter, garbage,
empty), built deterministically from each record and its PDDL (apb's engine lists the task's actions and atoms).

`corpus(reference, task, fmt)` returns (record, text) pairs; the tests count the wrong ones with the official
verdict itself.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from apb.engine import load_task


def dev_records(reference: Path, task: str, fmt: str) -> list[dict]:
    return json.loads((reference / "dataset" / task / f"dev.{fmt}.json").read_text())


def _task(record: dict):
    try:
        return load_task(record["PDDL_domain"], record["PDDL_problem"])
    except Exception:
        return None


def _actions(task, rng: random.Random, count: int) -> list[str]:
    if task is None:
        return []
    found = [str(a) for a in task.applicable(task.initial_state)]
    names = [(s.name, s.parameters) for s in task.domain.actions]
    objects = sorted(task.objects)
    for _ in range(count * 3):
        name, params = rng.choice(names)
        found.append("(" + " ".join([name] + [rng.choice(objects) for _ in params]) + ")")
    rng.shuffle(found)
    return found[:count]


def _atoms(task, rng: random.Random, count: int) -> list[str]:
    if task is None:
        return []
    found = list(task.fact_names)
    objects = sorted(task.objects)
    for name, schema in task.domain.predicates.items():
        found.append("(" + " ".join([name] + [rng.choice(objects) for _ in schema.parameters]) + ")")
        found.append("(" + " ".join([name] + [rng.choice(objects) for _ in range(len(schema.parameters) + 1)]) + ")")
    found += ["(no-such-predicate " + rng.choice(objects) + ")"]
    rng.shuffle(found)
    return found[:count]


def _wrap(rng: random.Random, core: str) -> list[str]:
    """The same answer written as models write it."""
    return [core, f"The answer is {core}.", f"**Final Answer**: {core}", f"{core}\n\nI hope this helps.",
            core.upper(), f"Answer:\n{core}"][: rng.randint(2, 6)]


def _choice_texts(record: dict, fmt: str, rng: random.Random) -> list[str]:
    gold = str(record["answer"])
    if fmt == "bool":
        other = "no" if gold == "yes" else "yes"
        texts = [gold, gold.capitalize(), gold.upper(), f"The answer is {gold}.", f"the answer is {gold}",
                 f"**Final Answer**: {gold.capitalize()}.", f"Step 1: think. **Final Answer**: {other}.",
                 f"No doubt about it. Answer: {gold}", "True", other, other.capitalize(), f"The answer is {other}.",
                 "", "maybe", f"{gold}, but also {other}", "The answer is ."]
    else:
        letters = ["A", "B", "C", "D"]
        other = rng.choice([x for x in letters if x != gold])
        text = record["choices"]["text"][letters.index(gold)] if gold in letters else ""
        texts = [gold, f"({gold})", f"[{gold}]", f"The answer is {gold}.", f"**Final Answer**: {gold}.",
                 gold.lower(), f"answer is {other}", other, f"The answer is {other}.", text, "", "None of these",
                 f"{gold}\n", f"I think {gold} is wrong, so {other}.", "text", "label", f"Answer: {gold.lower()}"]
    rng.shuffle(texts)
    return texts[:12]


def _gen_texts(record: dict, task_name: str, rng: random.Random) -> list[str]:
    gold = record["answer"]
    task = _task(record)
    texts: list[str] = ["", "None", "I don't know.", "((("]
    if task_name == "app":
        texts += ["[" + ", ".join(gold) + "]", " ".join(gold), "\n".join(gold), "[" + ", ".join(reversed(gold)) + "]",
                  "[" + ", ".join(a.upper() for a in gold) + "]", "[" + ", ".join(gold[1:]) + "]",
                  "The applicable actions are " + ", ".join(gold) + ".", "[]"]
        texts += ["[" + ", ".join([*gold, a]) + "]" for a in _actions(task, rng, 3)]
    elif task_name == "prog":
        pos, neg = gold["pos"], gold["neg"]
        texts += ["[" + ", ".join(pos) + "] [" + ", ".join(neg) + "]",
                  "Positive effects: " + ", ".join(pos) + ". Negative effects: " + ", ".join(neg) + ".",
                  "**Positive Effects**: " + " ".join(pos) + "\n**Negative Effects**: " + " ".join(neg),
                  "[" + ", ".join(neg) + "] [" + ", ".join(pos) + "]", "[] []", "[" + ", ".join(pos) + "]",
                  "[" + ", ".join(a.upper() for a in pos) + "] [" + ", ".join(a.upper() for a in neg) + "]",
                  "[" + ", ".join(pos[1:]) + "] [" + ", ".join(neg) + "]",
                  "[" + ", ".join(pos + neg) + "] []", "pos: " + " ".join(pos) + " neg: " + " ".join(neg)]
        texts += ["[" + ", ".join([*pos, a]) + "] [" + ", ".join(neg) + "]" for a in _atoms(task, rng, 2)]
    elif task_name in ("reach", "areach", "land", "nexta"):
        if task_name == "reach":
            listed = [f"({a})" for a in gold] + list(gold[:2])
        elif task_name == "areach":
            listed = list(gold)
        else:
            listed = list(gold["yes"]) + list(gold["no"][:3]) + list(gold.get("maybe", [])[:4])
        rng.shuffle(listed)
        for item in listed[:5]:
            texts += _wrap(rng, item)
        pool = _actions(task, rng, 6) if task_name in ("areach", "nexta") else _atoms(task, rng, 6)
        texts += pool + [p.upper() for p in pool[:2]] + [f"The fact {p[1:-1]} can never hold." for p in pool[:1]]
    elif task_name == "val":
        texts += [*_wrap(rng, str(gold)), str(gold + 1), str(max(gold - 1, 0)), "-1", f"0{gold}", "step 2 or 3",
                  f"The first inapplicable action is at index {gold}"]
    elif task_name == "just":
        plan = record["question"][19:-147].replace(") (", ")######(").split("######")
        for removal in gold[:4]:
            texts += _just_removed(plan, removal, rng)
        texts += ["[" + ", ".join(plan) + "]", "[" + ", ".join(plan[1:]) + "]", "[" + ", ".join(plan[:-1]) + "]",
                  "[" + ", ".join(a.upper() for a in plan[2:]) + "]", "[" + ", ".join(plan[::2]) + "]"]
    return texts


def _just_removed(plan: list[str], removal: list[str], rng: random.Random) -> list[str]:
    """Texts of the plan with a released removal ([a1, a2, '-1'] or [a1, '-1']) applied at each place it fits."""
    actions = [a for a in removal if a != "-1"]
    out = []
    for i in range(len(plan) - len(actions) + 1):
        if plan[i:i + len(actions)] == actions:
            short = plan[:i] + plan[i + len(actions):]
            out += ["[" + ", ".join(short) + "]", "Simplified plan: " + " ".join(short)]
            break
    return out


def corpus(reference: Path, task: str, fmt: str, seed: int = 0, limit: int | None = None) -> list[tuple[dict, str]]:
    """(record, answer text) pairs for every dev record of a task and format; `limit` keeps a deterministic sample
    (every record keeps at least one answer)."""
    rng = random.Random(f"{seed}-{task}-{fmt}")
    pairs = []
    for record in dev_records(reference, task, fmt):
        texts = _choice_texts(record, fmt, rng) if fmt in ("bool", "mcq") else _gen_texts(record, task, rng)
        seen = set()
        for text in texts:
            if text not in seen:
                seen.add(text)
                pairs.append((record, text))
    if limit is not None and len(pairs) > limit:
        pairs = sorted(rng.sample(pairs, limit), key=lambda pair: pairs.index(pair))
    return pairs
