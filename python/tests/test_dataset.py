"""Records as training rows (``plateau.dataset``)."""

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import plateau
from plateau import dataset, tensors


def mad_record(seed: int) -> tuple[str, list[tuple[int, str]], plateau.State]:
    """A random MAD game as a record JSON (MAD has no chance, so it needs no seed), with its
    actions and final state."""
    rng = random.Random(seed)
    state = plateau.State("mad")
    actions = []
    while not state.is_terminal():
        seat = state.to_act()[1][0]
        text = rng.choice(state.legal_actions(seat))
        actions.append((seat, text))
        state.apply(seat, text)
    ranks, scores, kind = state.outcome()
    record = {
        "game": "mad", "config": None, "seats": ["random", "random"], "seed_hash": "",
        "actions": [{"by": {"seat": s}, "action": a} for s, a in actions],
        "outcome": {"ranks": ranks, "scores": scores, "kind": kind},
    }
    return json.dumps(record), actions, state


def test_rows_follow_the_record_decision_by_decision():
    text, actions, final = mad_record(4)
    rows = dataset.rows(text)
    assert [(r["seat"], r["action_text"]) for r in rows] == actions
    replay = plateau.State("mad")
    for row in rows:
        assert row["legal"] == replay.legal_ids(row["seat"])
        assert row["action"] in row["legal"]
        assert replay.action_text(row["action"], row["seat"]) == row["action_text"]
        assert np.array_equal(row["observation"], tensors.encode(replay, row["seat"],
                                                                config={"tiebreak_limit": 40}))
        replay.apply(row["seat"], row["action_text"])
        assert row["returns"] == [2 * u - 1 for u in final.utilities()]


def test_saved_arrays_read_back(tmp_path):
    records = [mad_record(s)[0] for s in range(3)]
    path = tmp_path / "mad.npz"
    dataset.save(records, str(path))
    data = np.load(path)
    n = sum(len(dataset.rows(r)) for r in records)
    assert data["observation"].shape == (n, 18 * 24)
    assert tuple(data["shape"]) == (18, 24)
    assert data["returns"].shape == (n, 2)
    assert sorted(set(data["game_index"])) == [0, 1, 2]
    assert len(data["legal_start"]) == n + 1 and data["legal_start"][-1] == len(data["legal"])
    assert int(data["num_actions"]) == 5193
    for i in (0, n // 2, n - 1):
        mask = dataset.legal_mask(data, i)
        assert mask.shape == (5193,) and mask[data["action"][i]]
        assert mask.sum() == data["legal_start"][i + 1] - data["legal_start"][i]
    assert str(data["game"]) == "mad"


def test_a_record_that_does_not_replay_is_refused():
    text, actions, _ = mad_record(5)
    record = json.loads(text)
    record["actions"][3]["action"] = "a1-a1"
    with pytest.raises(ValueError):
        dataset.rows(json.dumps(record))


@pytest.mark.skipif("PLATEAU_BIN" not in os.environ, reason="PLATEAU_BIN names the plateau binary")
def test_records_of_the_command_line_with_chance(tmp_path):
    paths = []
    for seed in (1, 2):
        path = tmp_path / f"{seed}.json"
        subprocess.run([os.environ["PLATEAU_BIN"], "play", "chakart", "--seed", str(seed),
                        "--record", str(path), "--no-color", "--seat=1=random",
                        "--seat=2=random"], check=True, capture_output=True,
                       stdin=subprocess.DEVNULL)
        paths.append(path.read_text())
    data = dataset.arrays(paths)
    assert data["observation"].shape[1] == 57 * 8 * 8
    assert set(data["seat"]) == {0, 1}
    assert sorted(set(data["returns"][:, 0] + data["returns"][:, 1])) == [0.0]


@pytest.mark.skipif("PLATEAU_BIN" not in os.environ, reason="PLATEAU_BIN names the plateau binary")
def test_records_of_an_arena_become_rows(tmp_path):
    records = tmp_path / "games.jsonl"
    subprocess.run([os.environ["PLATEAU_BIN"], "arena", "moonleap", "--bots", "random,greedy",
                    "--games", "2", "--players", "3", "--threads", "1", "--quiet", "--records",
                    str(records)], check=True, capture_output=True, stdin=subprocess.DEVNULL)
    texts = dataset.read_records(records.read_text())
    assert len(texts) == 2  # one table (random against two greedy seats), two games
    out = tmp_path / "rows.npz"
    subprocess.run([sys.executable, "-m", "plateau.dataset", str(out), str(records)], check=True)
    data = np.load(out)
    assert sorted(set(data["game_index"])) == list(range(len(texts)))
    assert data["returns"].shape[1] == 3
    assert all(dataset.legal_mask(data, i)[data["action"][i]] for i in range(len(data["action"])))
