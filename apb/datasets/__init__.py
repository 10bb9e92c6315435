"""Datasets, the one owner of problem sources: a domain plus problems (plus optional gold plans and NL
descriptions). `resolve(source, split=None)` answers "which problems does this name or path mean?" for every
caller (envs, eval, CLI); `load_dataset` loads a folder with all of its splits.

```python
from apb.datasets import load_dataset, resolve
ds = resolve("blocksworld")                                  # a bundled domain's test split (p01-p20)
ds = resolve("../shared/reference/autoplanbench/blocksworld")  # its test view (orig without the few-shot copy)
ds = load_dataset("../shared/reference/autoplanbench/blocksworld")   # every split
ds.domain; ds.problems[0].id; ds.task("orig/instance-1"); ds.gold_plan(1); ds.descriptions[1]
```
- Bundled domains (`bundled`): splits `example` (p00), `test` (p01-p20), `scaled` where it exists.
- AutoPlanBench folders (`from_autoplanbench`): splits `orig`, `adapted`, `few_shot`; ids `<split>/<stem>`.
- PDDLGym's library (`from_pddlgym`): splits `train`, `test`; ids `<split>/<stem>`; normalised to standard PDDL.
- PlanBench's configs (`planbench:<config>`, `planbench:<folder>/<config>`: apb.datasets.planbench, bundled or
  `$APB_PLANBENCH`): split `test` (the config's start..end), `generalized`; ids `instance-N`.
- Plain folders (`from_folder`): `domain.pddl` with problem files or `problems/`, plans in `plans/`; ids are stems.
A problem is named by its number (`1` or `"1"`: the number its id ends with, see `Dataset.numbers`), its id, its
id without split prefix (when unique) or its file path. Errors are `DatasetError` (an `ApbError`).
"""

from __future__ import annotations

from apb.datasets.autoplanbench import from_autoplanbench
from apb.datasets.dataset import Dataset, DatasetError, ProblemEntry, UnknownProblemError, number_ranges
from apb.datasets.folder import from_folder
from apb.datasets.loading import load_dataset
from apb.datasets.pddlgym_library import from_pddlgym, pddlgym_domains, pddlgym_root
from apb.datasets.sources import (
    bundled,
    from_files,
    is_bundled,
    optimal_length,
    resolve,
    source_name,
    step_limit,
)

__all__ = [
    "Dataset",
    "DatasetError",
    "ProblemEntry",
    "UnknownProblemError",
    "bundled",
    "from_autoplanbench",
    "from_files",
    "from_folder",
    "from_pddlgym",
    "is_bundled",
    "load_dataset",
    "number_ranges",
    "optimal_length",
    "pddlgym_domains",
    "pddlgym_root",
    "resolve",
    "source_name",
    "step_limit",
]
