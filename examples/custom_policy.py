"""Plug your own policy into an apb environment: any function from (observation, info) to a PDDL action.

    python examples/custom_policy.py
"""

import random

import gymnasium


def greedy_goal_policy(observation: str, info: dict, rng: random.Random) -> str:
    """Prefer actions that mention an object named in the goal; otherwise pick any admissible action."""
    actions = info["admissible_actions"]
    goal_objects = {word for fact in info["goal_pddl"] for word in fact.strip("()").split()[1:]}
    preferred = [a for a in actions if goal_objects & set(a.strip("()").split()[1:])]
    return rng.choice(preferred or actions)


def main() -> None:
    env = gymnasium.make("apb/Blocksworld-v0", max_episode_steps=24)
    rng = random.Random(0)
    observation, info = env.reset(seed=0, options={"problem": 1})
    print(observation)
    steps = 0
    while True:
        action = greedy_goal_policy(observation, info, rng)
        observation, _reward, terminated, truncated, info = env.step(action)
        steps += 1
        print(f"{steps:>2} {action}: {observation}")
        if terminated or truncated:
            break
    print(f"goal reached: {info['goal_reached']} after {steps} steps")


if __name__ == "__main__":
    main()
