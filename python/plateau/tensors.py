"""Observations as tensors: one fixed encoding per game, read from the observation a seat gets.

Every encoder takes the observation JSON (``State.observation_json(seat)``, already parsed) and
writes a flat ``numpy.float32`` vector whose shape depends only on the game and its config
(``shape(state)``), so an observation tensor never holds more than the seat may know: it is
built from that seat's view alone. The encodings, by game:

``mad`` -- shape ``(18, 24)``: planes over the 24 cells in the observation's order
    (``cells``). Planes 0-7: a red ship of each of the 8 kinds, planes 8-15 a blue one; a kind is
    its three digits of 1 or 2 read as a binary number (``111`` -> 0, ``222`` -> 7). Plane 16 is
    1 everywhere when red is to move; plane 17 holds the plies since the last exile divided by
    the config's ``tiebreak_limit``.

``moonleap`` -- shape ``(12, L)`` with ``L`` the board's track length: planes 0-3, the
    number of pawns of seat 0-3 on each track cell (the ``track``, labels ``a``..``d`` per
    seat); plane 4, the mercenaries (label ``m``, the variant's neutral astronauts); plane
    5+k, 1 on every cell when the seat to move is ``k`` (k < 4); plane 9, the die shown
    (``roll`` ``1``..``5``) divided by 5 on every cell, 0 when none; plane 10, 1 when the die
    shows the star (``*``); plane 11, the cell values divided by 30.

``chakart`` -- shape ``(52 + 1 + 4, 8, 8)`` (rank 8 first, file a first): planes 0-51, one-hot
    of the FEN letter on each square (``A``..``Z`` then ``a``..``z``: white pieces uppercase,
    black pieces and items lowercase, docs/rules/chakart.md section 2); plane 52, 1 when white
    is to move; planes 53-56, the four flags (shells and stealths still available).

``naval`` -- shape ``(4, 6, 14, 14)``: one block per seat's board, in seat order, each of 6
    planes over its 14 x 14 cells (row, column): 0, the cells of that seat's ships (only on the
    viewer's own board: another seat's fleet is hidden), 1 hits, 2 misses, 3 deflected shots,
    4 first hits, 5 holds on every cell the board's public flags: ``(ready, eliminated,
    shield_up, viewer)`` in its first row's first four cells.
"""

from __future__ import annotations

import json
import math

import numpy as np

__all__ = ["shape", "encode"]


def _mad_shape(_obs: dict) -> tuple[int, ...]:
    return (18, 24)


def _mad(obs: dict, out: np.ndarray, config: dict) -> None:
    planes = out.reshape(18, 24)
    for i, ship in enumerate(obs["cells"]):
        if ship:
            side = 0 if ship[0] == "R" else 1
            kind = int("".join("1" if d == "2" else "0" for d in ship[1:4]), 2)
            planes[side * 8 + kind, i] = 1.0
    if obs["side"] == "r":
        planes[16, :] = 1.0
    limit = max(1, config.get("tiebreak_limit", 40))
    planes[17, :] = obs.get("since", 0) / limit


def _moonleap_shape(obs: dict) -> tuple[int, ...]:
    return (12, len(obs["track"]))


def _moonleap(obs: dict, out: np.ndarray, _config: dict) -> None:
    track = obs["track"]
    planes = out.reshape(12, len(track))
    for i, cell in enumerate(track):
        if cell:
            # A cell holds one or more pawn labels such as "a3" (seat letter, pawn number).
            for label in [cell[j : j + 2] for j in range(0, len(cell), 2)]:
                plane = 4 if label[0] == "m" else ord(label[0]) - ord("a")
                planes[plane, i] += 1.0
    mover = obs.get("to_move")
    if mover is not None:
        planes[5 + mover, :] = 1.0
    roll = obs.get("roll")
    if roll == "*":
        planes[10, :] = 1.0
    elif roll is not None:
        planes[9, :] = int(roll) / 5.0
    planes[11, :] = np.asarray(obs["values"], dtype=np.float32)[: len(track)] / 30.0


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _chakart_shape(_obs: dict) -> tuple[int, ...]:
    return (57, 8, 8)


def _chakart(obs: dict, out: np.ndarray, _config: dict) -> None:
    planes = out.reshape(57, 8, 8)
    for rank, row in enumerate(obs["board"].split("/")):
        file = 0
        digits = ""
        for ch in row + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                file += int(digits)
                digits = ""
            if ch != " ":
                planes[_LETTERS.index(ch), rank, file] = 1.0
                file += 1
    if obs["turn"] == "w":
        planes[52] = 1.0
    for k, flag in enumerate(obs["flags"]):
        planes[53 + k] = float(flag == "1")


def _naval_shape(_obs: dict) -> tuple[int, ...]:
    return (4, 6, 14, 14)


def _cell(text: str) -> tuple[int, int]:
    return int(text[1:]) - 1, ord(text[0]) - ord("a")


def _naval(obs: dict, out: np.ndarray, _config: dict) -> None:
    planes = out.reshape(4, 6, 14, 14)
    viewer = obs.get("viewer")
    for board in obs["boards"]:
        seat = board["seat"]
        for piece in board.get("fleet") or []:
            for c in piece["cells"]:
                planes[seat, 0][_cell(c)] = 1.0
        for plane, key in ((1, "hits"), (2, "misses"), (3, "deflected"), (4, "first_hits")):
            for c in board.get(key) or []:
                planes[seat, plane][_cell(c if isinstance(c, str) else c["cell"])] = 1.0
        flags = (board["ready"], board["eliminated"], board["shield_up"], seat == viewer)
        planes[seat, 5, 0, :4] = [float(f) for f in flags]


_ENCODERS = {
    "mad": (_mad_shape, _mad),
    "moonleap": (_moonleap_shape, _moonleap),
    "chakart": (_chakart_shape, _chakart),
    "naval": (_naval_shape, _naval),
}


def shape(state) -> tuple[int, ...]:
    """The tensor shape of ``state``'s game and config (the same for every state and seat)."""
    obs = json.loads(state.observation_json(0))
    return _ENCODERS[state.game][0](obs)


def encode(state, seat: int | None, out: np.ndarray | None = None, config: dict | None = None) -> np.ndarray:
    """``seat``'s observation of ``state`` (``None``: a spectator's) as a flat float32 vector of ``prod(shape(state))``
    values, written into ``out`` (cleared first) when given. ``config`` is the game's config
    (the default when ``None``), for the encodings that scale by it."""
    obs = json.loads(state.observation_json(seat))
    shape_fn, fill = _ENCODERS[state.game]
    size = math.prod(shape_fn(obs))
    if out is None:
        out = np.zeros(size, np.float32)
    else:
        out.fill(0.0)
    fill(obs, out, config or {})
    return out
