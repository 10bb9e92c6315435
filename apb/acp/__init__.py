"""ACP reasoning questions (ACPBench's eight tasks) generated from any domain, with proved gold.

```python
from apb.acp import generate, oracle_answer, score
questions, stats = generate("ferry", tasks=["app", "reach"], formats=["bool", "gen"], count=2, seed=0)
q = questions[0]; q.acpbench(); score(q, oracle_answer(q)).sound   # True
```
- tasks: app, prog, reach, areach, val, just, land (bool, mcq, gen) and nexta (gen); `records` for the names. Each
  task is one module, `tasks/<task>.py` (its generator, solver, bool/MCQ decision, official and sound verdicts,
  audit and replay), registered by name in `tasks.TASKS` (the protocol: `tasks.base.ACPTask`); the analyses several
  tasks share are `tasks.common`, `tasks.reachability`, `tasks.plans`, `tasks.goals`.
- Shared machinery: `proofs` (proofs over a state), `space` (state spaces), `truth` (the engine's view of a
  question), `sampling`, `wording` (English or PDDL), `budget`.
- `generate` samples states, has each task prove the gold and words questions (`wording`).
- `question_files.read_questions` reads apb JSONL or ACPBench's released files (`importer` reads those);
  `question_files.write_questions` writes both, `question_files.read_results` reads result files.
- `official.official_verdict(q, text)`: ACPBench's official evaluation reproduced on a response's text (lm-eval
  filters for bool/MCQ, its Lark grammar reading and each task's released evaluator for generative answers,
  planner calls decided with the engine); `scorers.score` / `scorers.score_response`: official and sound verdicts;
  `scorers.extract` reads LLM answers for the sound scorer.
- `solver.solve_question` answers questions from their PDDL (never from the gold; released bool/MCQ records are
  read from their English by `english`); `oracle_answer` echoes the gold; `acceptance.judge` says why the official
  scorer rejects an answer (a gold a replayed proof contradicts, a correct answer the official check cannot accept,
  or a wrong one).
- `evaluate.evaluate` runs an LLM (resumable JSONL), `report` summarises, `audit` checks released gold (each
  finding's proof replays with `audit.replays`), `verify.verify` replays the gold and proofs of generated questions.
"""

from apb.acp.errors import ACPError
from apb.acp.generate import generate
from apb.acp.oracle import oracle_answer
from apb.acp.question_files import read_questions, write_questions
from apb.acp.records import FORMATS, TASKS, Question
from apb.acp.scorers import MISSING, Score, extract, score

__all__ = ["FORMATS", "MISSING", "TASKS", "ACPError", "Question", "Score", "extract", "generate", "oracle_answer",
           "read_questions", "score", "write_questions"]
