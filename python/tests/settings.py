"""Shared settings of the package's tests.

``PLATEAU_PY_GAMES`` (default 1000): how many seeded games per game the agreement test plays,
``PLATEAU_PY_NAVAL_GAMES`` (default 1000) for Bataille Navale (python/README.md gives their
cost).
"""

import os

GAMES = int(os.environ.get("PLATEAU_PY_GAMES", "1000"))
NAVAL_GAMES = int(os.environ.get("PLATEAU_PY_NAVAL_GAMES", "1000"))

# Every game with the configurations the tests cover: (game, params for pyspiel.load_game).
CONFIGURATIONS = [
    ("mad", {}),
    ("mad", {"positioning_turn": True, "tiebreak_limit": 30}),
    ("moonleap", {"players": 2}),
    ("moonleap", {"players": 3}),
    ("moonleap", {"players": 4}),
    ("moonleap", {"players": 3, "mercenaries": True}),
    ("chakart", {}),
    ("chakart", {"randomness": 1}),
    ("chakart", {"randomness": 2}),
    ("naval", {}),
    ("naval", {"max_rounds": 30, "costs.shield": 300}),
]
