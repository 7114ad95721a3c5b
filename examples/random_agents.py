"""Random masked agents play one battle through the PettingZoo environment (docs/RL.md).

    python examples/random_agents.py [SCENARIO] [--seed N]

Each side picks uniformly among its unmasked actions; the script prints how many decisions were made,
the rewards, and the battle's C-1 summary line (`result: winner=... rounds=... seed=...`).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from skirmish.content.errors import ContentError
from skirmish.env import env as make_env


def play(scenario: str | None, seed: int) -> tuple[str, int, dict[str, float]]:
    """One battle of random masked agents: (summary line, decisions, total reward per agent)."""
    aec = make_env(scenario, seed=seed)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)  # the agents' own choices, seeded too: the same seed, the same battle
    steps, totals = 0, dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(rng.choice(legal)))
        steps += 1
    summary = aec.unwrapped.battle.outcome.summary()
    aec.close()
    return summary, steps, totals


def main(argv: list[str] | None = None) -> int:
    """Play one battle and print the summary line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
    parser.add_argument("--seed", type=int, default=1, help="battle and agents' seed (default: 1)")
    args = parser.parse_args(argv)
    start = time.process_time()
    try:
        summary, steps, totals = play(args.scenario, args.seed)
    except (ContentError, OSError) as exc:  # a scenario that does not load: the message, exit 2 (C-6)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cpu = time.process_time() - start
    print(f"decisions: {steps} ({steps / cpu:.0f} per CPU second)", file=sys.stderr)
    print("rewards: " + " ".join(f"{agent}={value:+g}" for agent, value in totals.items()))
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
