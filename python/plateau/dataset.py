"""Game records as training rows: one row per seat decision, (observation, legal actions,
action, returns), from the records ``plateau play --record`` writes or a replay page downloads.

    python -m plateau.dataset OUT.npz RECORD...

writes a NumPy ``.npz`` file (``numpy.load(OUT)``) of the decisions of every record, all of
one game and config. A RECORD file holds one record (its JSON or its text form) or several, one
JSON record per line (JSON Lines, as ``plateau arena --records FILE`` writes them). The arrays:

- ``observation``: ``(N, size)`` float32, the acting seat's observation tensor before its action
  (``plateau.tensors``; ``shape`` holds the tensor's shape, so ``observation[i].reshape(shape)``);
- ``seat``: ``(N,)`` int8, the acting seat;
- ``legal`` and ``legal_start``: the ids of the seat's legal actions (python/README.md, "Action
  ids"; the OpenSpiel bridge's), row ``i``'s being ``legal[legal_start[i]:legal_start[i + 1]]``
  (int32, ``legal_start`` has N + 1 entries); ``legal_mask(data, i)`` gives row ``i``'s mask of
  ``num_actions`` booleans;
- ``num_actions``: the size of the game's action space;
- ``action``: ``(N,)`` int32, the id of the action played;
- ``action_text``: ``(N,)`` str, the action's canonical text;
- ``returns``: ``(N, seats)`` float32, the game's final returns per seat, ``2 * utility - 1``
  (as the OpenSpiel bridge's);
- ``game_index``: ``(N,)`` int32, which record (in the order given) the row comes from;
- ``game`` and ``config``: the game's name and the first record's config as JSON text (``{}``
  for Moon Leap, whose serialized state holds its options apart).

A record that does not replay (a wrong action, a seed that does not match its hash) is refused
with the engine's reason; a record of an unfinished game gives no rows (it has no returns).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable

import numpy as np

from . import tensors
from ._plateau import State

__all__ = ["rows", "arrays", "save", "legal_mask", "read_records"]


def rows(record: str) -> list[dict]:
    """The rows of one record (JSON or text form): a dict per seat decision with ``seat``,
    ``observation`` (flat float32), ``legal`` (the legal ids, increasing), ``action`` (id),
    ``action_text`` and ``returns`` (list per seat); ``[]`` for an unfinished game."""
    decisions, final = State.record_decisions(record)
    utilities = final.utilities()
    if utilities is None:
        return []
    returns = [2.0 * u - 1.0 for u in utilities]
    config = _config(final)
    out = []
    for seat, state, text in decisions:
        out.append({
            "seat": seat,
            "observation": tensors.encode(state, seat, config=config),
            "legal": state.legal_ids(seat),
            "action": state.action_id(text),
            "action_text": text,
            "returns": returns,
        })
    return out


def _config(state: State) -> dict:
    """The config the tensors scale by, from the serialized state (``{}`` where it holds none:
    the games whose tensors do not read it)."""
    return json.loads(state.to_json()).get("config") or {}


def arrays(records: Iterable[str]) -> dict[str, np.ndarray]:
    """The arrays ``save`` writes, for ``records`` of one game and tensor shape (module
    docstring). ``ValueError`` for records of different games or shapes, or none with a
    decision."""
    columns: dict[str, list] = {k: [] for k in
                                ("observation", "seat", "legal", "action", "action_text",
                                 "returns", "game_index")}
    game = config = None
    size = 0
    shape = None
    for index, record in enumerate(records):
        final = State.from_record(record)
        identity = (final.game, tensors.shape(final))
        if game is None:
            game, shape = identity
            config = json.dumps(_config(final), sort_keys=True)
            size = final.num_actions
        elif identity != (game, shape):
            raise ValueError(f"record {index} is of {identity}, not {(game, shape)}")
        for row in rows(record):
            for key in ("observation", "seat", "legal", "action", "action_text", "returns"):
                columns[key].append(row[key])
            columns["game_index"].append(index)
    if not columns["seat"]:
        raise ValueError("no decision in these records")
    return {
        "observation": np.stack(columns["observation"]).astype(np.float32),
        "shape": np.asarray(shape, dtype=np.int32),
        "seat": np.asarray(columns["seat"], dtype=np.int8),
        "legal": np.asarray([i for ids in columns["legal"] for i in ids], dtype=np.int32),
        "legal_start": np.cumsum([0] + [len(ids) for ids in columns["legal"]], dtype=np.int64),
        "num_actions": np.asarray(size, dtype=np.int32),
        "action": np.asarray(columns["action"], dtype=np.int32),
        "action_text": np.asarray(columns["action_text"], dtype=str),
        "returns": np.asarray(columns["returns"], dtype=np.float32),
        "game_index": np.asarray(columns["game_index"], dtype=np.int32),
        "game": np.asarray(game),
        "config": np.asarray(config),
    }


def legal_mask(data, i: int) -> np.ndarray:
    """Row ``i``'s legal mask: ``num_actions`` booleans, true at its legal ids (``data`` as
    ``arrays`` returns it or ``numpy.load`` reads it)."""
    mask = np.zeros(int(data["num_actions"]), dtype=bool)
    mask[data["legal"][data["legal_start"][i]:data["legal_start"][i + 1]]] = True
    return mask


def read_records(text: str) -> list[str]:
    """The records of a file's text: one record (JSON, pretty or not, or the text form), or one
    JSON record per line."""
    if text.lstrip().startswith("{"):
        try:
            json.loads(text)
            return [text]
        except json.JSONDecodeError:
            return [line for line in text.splitlines() if line.strip()]
    return [text]


def save(records: Iterable[str], path: str) -> None:
    """Writes the rows of ``records`` to ``path`` as a compressed ``.npz`` (module docstring)."""
    np.savez_compressed(path, **arrays(records))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python -m plateau.dataset OUT.npz RECORD...")
    texts = []
    for name in sys.argv[2:]:
        with open(name, encoding="utf-8") as f:
            texts.extend(read_records(f.read()))
    save(texts, sys.argv[1])
