"""Shared settings of the package's tests.

``PLATEAU_PY_GAMES`` (default 1000): how many seeded games per game the agreement test plays,
``PLATEAU_PY_NAVAL_GAMES`` (default 100) for Bataille Navale, whose games take about a second
each through the bridge (python/README.md gives the full run's time).
"""

import os

GAMES = int(os.environ.get("PLATEAU_PY_GAMES", "1000"))
NAVAL_GAMES = int(os.environ.get("PLATEAU_PY_NAVAL_GAMES", "100"))

# Every game with the configurations the tests cover: (game, params for pyspiel.load_game).
CONFIGURATIONS = [
    ("mad", {}),
    ("mad", {"config": '{"positioning_turn": true}'}),
    ("moonleap", {"players": 2}),
    ("moonleap", {"players": 3}),
    ("moonleap", {"players": 4}),
    ("moonleap", {"players": 3, "config": '{"mercenaries": true}'}),
    ("chakart", {}),
    ("chakart", {"config": '{"randomness": 1}'}),
    ("chakart", {"config": '{"randomness": 2}'}),
    ("naval", {}),
    ("naval", {"config": '{"max_rounds": 30}'}),
]
