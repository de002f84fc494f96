"""Measures the largest legal list, chance list and game length in random games of each game and
seat count: the figures behind ``plateau_openspiel.BOUNDS`` (twice the last two).

    python tools/bounds.py [GAMES [GAME]]   # GAMES random games per game and seat count (2000)
"""

import random
import sys

import plateau


def measure(name: str, seats: int, games: int) -> tuple[int, int, int]:
    rng = random.Random(seats)
    most = [0, 0, 0]
    for _ in range(games):
        state = plateau.State(name, seats=seats)
        length = 0
        while True:
            kind, acting = state.to_act()
            if kind == "terminal":
                break
            if kind == "chance":
                outcomes = state.chance_outcomes()
                most[1] = max(most[1], len(outcomes))
                texts, weights = zip(*outcomes)
                state.apply(None, rng.choices(texts, weights)[0])
            else:
                legal = state.legal_actions(acting[0])
                most[0] = max(most[0], len(legal))
                state.apply(acting[0], rng.choice(legal))
            length += 1
        most[2] = max(most[2], length)
    return tuple(most)


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    only = sys.argv[2] if len(sys.argv) > 2 else None
    for info in plateau.games():
        if only and info["name"] != only:
            continue
        for seats in range(info["min_seats"], info["max_seats"] + 1):
            legal, chance, length = measure(info["name"], seats, games)
            print(f"{info['name']} seats={seats} games={games}: legal {legal}, chance {chance}, length {length}", flush=True)
