"""Oracle for tests/test_planbench_lpa.py: runs llm_planning_analysis's own prompt generation (PlanBench's
`prompt_generation.PromptGenerator`) and prints the prompt file it writes.

Usage: python lpa_prompts.py REFERENCE_FOLDER WORK_DIR CONFIG METHOD PLANS_JSON ID [ID ...]
WORK_DIR holds `instances` and `configs` (linked to the release). Two things are stubbed, as the brief allows:
`utils/llm_utils.py` (it has a syntax error, and holds only LLM calls) and the Fast Downward binary: `$FAST_DOWNWARD`
names a folder whose `fast-downward.py` writes `sas_plan` from PLANS_JSON (instance file -> `name_a_b` actions, apb's
gold plans) in Fast Downward's format, and none for an instance without a plan (as Fast Downward leaves none).
Everything else (reading the instance, the wording, the file) is PlanBench's code, unchanged.
"""

import os
import stat
import sys
import types

reference, work, config, method, plans_file, *ids = sys.argv[1:]
os.chdir(work)
planner = os.path.join(work, "fd")
os.makedirs(planner, exist_ok=True)
script = os.path.join(planner, "fast-downward.py")
with open(script, "w") as f:
    f.write(f"""#!{sys.executable}
import json, os, sys
plans = json.load(open({plans_file!r}))
if os.path.exists("sas_plan"):
    os.remove("sas_plan")
plan = plans.get(os.path.normpath(sys.argv[2]))
if plan:
    with open("sas_plan", "w") as f:
        f.write("".join("(" + " ".join(a.split("_")) + ")\\n" for a in plan) + f"; cost = {{len(plan)}} (unit cost)\\n")
""")
os.chmod(script, os.stat(script).st_mode | stat.S_IEXEC)
os.environ["FAST_DOWNWARD"] = planner
os.environ.setdefault("OPENAI_API_KEY", "unused")
sys.path.insert(0, reference)
sys.modules["utils.llm_utils"] = types.ModuleType("utils.llm_utils")
import random  # noqa: E402

random.seed(10)  # prompt_generation's __main__
import prompt_generation  # noqa: E402

generator = prompt_generation.PromptGenerator(f"./configs/{config}.yaml", False, True, 42)
sys.stdout = sys.stderr  # tqdm and rich print there; the file goes to the real stdout
getattr(generator, method)([int(i) for i in ids], False)
with open(f"prompts/{generator.data['domain_name']}/{method}.json", "rb") as f:
    sys.__stdout__.buffer.write(f.read())
