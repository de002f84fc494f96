"""Plateau's four board games for Python: MAD, Moon Leap, Chakart and Bataille Navale.

The rules are the Rust engine's own (``plateau._plateau``, built from the repository by maturin);
this package adds nothing to them. Seats count from 0. An action is its canonical text in the
game's notation (``docs/rules/<game>.md``) and has an id in the game's fixed action space
(``State.legal_ids``, ``State.action_id``, ``State.action_text``; python/README.md, "Action
ids"), the ids of the OpenSpiel bridge (``plateau_openspiel``). ``State.legal_info(seat)``
gives each action's parts as JSON, which is how a program puts an action in words without
reading notation.

Example::

    import plateau
    state = plateau.State("moonleap", seats=3)
    while not state.is_terminal():
        kind, seats = state.to_act()
        ...
"""

from __future__ import annotations

import functools
import json
import random as _random

from ._plateau import Bot, State, games_json, random_game_json
from . import dataset, tensors

__all__ = ["Bot", "State", "dataset", "games", "game", "random_game", "play", "tensors"]


@functools.cache
def _games() -> tuple[dict, ...]:
    return tuple(json.loads(games_json()))


def games() -> list[dict]:
    """Every game of the registry, in the lobby's order.

    Each is a dict: ``name``, ``title``, ``min_seats``, ``max_seats``, ``default_seats``,
    ``chance``, ``hidden_information``, ``simultaneous`` (booleans), ``default_config`` (the
    config object with every field) and ``levels`` (seat count as text -> the five levels,
    weakest first, each ``{"level", "bot", "rating"}``).
    """
    return [dict(g) for g in _games()]


def game(name: str) -> dict:
    """The entry of ``games()`` named ``name``; ``KeyError`` if there is none."""
    for g in _games():
        if g["name"] == name:
            return dict(g)
    raise KeyError(f"unknown game {name!r} (known: {', '.join(g['name'] for g in _games())})")


def random_game(name: str, seed: int, config: dict | None = None, seats: int | None = None,
                position_every: int = 1) -> dict:
    """A uniformly random game played by the Rust engine's driver, seeded with ``seed``.

    Returns parallel lists, one entry per step: ``{"actors": [seat, or -1 for chance],
    "actions": [the seat's action id, or the outcome's position in the chance list], "legal":
    [digest], "positions": [digest or None], "ranks": [...] | None, "utilities": [...] |
    None}``. ``legal`` is, at a seat's step, the digest of its legal ids in increasing order (4
    bytes little-endian each), at a chance step that of its outcomes in order (each its text, a
    zero byte and its probability as a little-endian double); ``positions`` the digest of the
    position text after the step, every ``position_every``-th step and at the last. A digest is
    the first 8 bytes of the bytes' SHA-256 read as a little-endian integer. At a simultaneous
    node the lowest seat of the set acts.
    """
    text = random_game_json(name, seed, None if config is None else json.dumps(config), seats,
                            position_every=position_every)
    return json.loads(text)


def play(state: State, bots: list[Bot], rng: _random.Random | None = None) -> State:
    """Plays ``state`` to its end, seat ``i`` by ``bots[i]`` and chance by its probabilities drawn
    from ``rng`` (a fresh ``random.Random()`` by default); returns the final state (the same
    object, changed in place)."""
    rng = rng or _random.Random()
    while True:
        kind, seats = state.to_act()
        if kind == "terminal":
            return state
        if kind == "chance":
            texts, weights = zip(*state.chance_outcomes())
            state.apply(None, rng.choices(texts, weights)[0])
        else:
            seat = seats[0]
            state.apply(seat, bots[seat].act(state, seat))
