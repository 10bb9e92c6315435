"""PlanBench in apb: its tasks, prompts, verdicts and runs on its released configs."""
