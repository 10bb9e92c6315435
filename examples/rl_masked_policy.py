"""Train a masked policy on a Blocksworld problem with numpy only.

apb's `MultiHotObservations` turns the text env into numbers: the observation is a multi-hot vector of the state's
facts and the goal over a fixed fact index, actions are discrete, and `info["action_mask"]` marks the applicable
ones. Tabular Q-learning over those vectors, exploring and choosing only among masked-in actions (optimistic
initial values make it try every applicable action once), solves the problem in a few hundred episodes.

    python examples/rl_masked_policy.py
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from apb.envs.encodings import MultiHotObservations


def choose(values: np.ndarray, mask: np.ndarray, rng: np.random.Generator, epsilon: float) -> int:
    """An applicable action: a random one with probability epsilon, else the best by `values`."""
    allowed = np.flatnonzero(mask)
    if rng.random() < epsilon:
        return int(rng.choice(allowed))
    return int(allowed[np.argmax(values[allowed])])


def train(env: gym.Env, episodes: int = 300, seed: int = 0, alpha: float = 0.5, gamma: float = 0.9,
          epsilon: float = 0.1) -> dict[bytes, np.ndarray]:
    """Q-learning with action masking; returns the Q table (observation bytes -> value of every action)."""
    rng = np.random.default_rng(seed)
    q_table: dict[bytes, np.ndarray] = {}
    size = env.action_space.n

    def values_of(obs: np.ndarray) -> np.ndarray:
        return q_table.setdefault(obs.tobytes(), np.ones(size))  # optimistic: untried actions look good

    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            values = values_of(obs)
            action = choose(values, info["action_mask"], rng, epsilon)
            obs, reward, terminated, truncated, info = env.step(action)
            allowed = np.flatnonzero(info["action_mask"])
            future = 0.0 if terminated or not len(allowed) else gamma * float(values_of(obs)[allowed].max())
            values[action] += alpha * (reward + future - values[action])
            done = terminated or truncated
    return q_table


def greedy_plan(env: gym.Env, q_table: dict[bytes, np.ndarray], seed: int = 0) -> list[str]:
    """The actions the trained policy takes from the start until the episode ends."""
    obs, info = env.reset(seed=seed)
    names = env.get_wrapper_attr("action_names")
    plan, done = [], False
    while not done:
        values = q_table.get(obs.tobytes(), np.zeros(env.action_space.n))
        action = choose(values, info["action_mask"], np.random.default_rng(0), epsilon=0.0)
        plan.append(names[action])
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return plan


def main() -> None:
    env = MultiHotObservations(gym.make("apb/Blocksworld-v0", problem=1))
    _, info = env.reset(seed=0)
    print(f"{len(env.fact_names)} facts, {env.action_space.n} actions, optimal plan length "
          f"{info['optimal_plan_length']}")
    q_table = train(env, episodes=300, seed=0)
    plan = greedy_plan(env, q_table)
    reached = env.unwrapped.task.validate(plan).valid
    print(f"greedy policy after training: {len(plan)} steps: {' '.join(plan)}")
    print(f"goal reached: {reached}")


if __name__ == "__main__":
    main()
