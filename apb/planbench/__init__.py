"""PlanBench in apb: its tasks, prompts, verdicts and runs on its released configs."""

RUN_KIND = "planbench"  # run.json's kind of an `apb planbench eval` run folder
