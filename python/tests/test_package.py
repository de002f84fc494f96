"""The package's own API: the registry, refusals, serialization, determinization, records,
tensors and bots."""

import json
import os
import random
import subprocess

import numpy as np
import pytest

import plateau
from plateau import tensors


def random_state(name: str, steps: int, seed: int, **kw) -> plateau.State:
    """A state reached by ``steps`` random actions (fewer if the game ends first)."""
    rng = random.Random(seed)
    state = plateau.State(name, **kw)
    for _ in range(steps):
        kind, seats = state.to_act()
        if kind == "terminal":
            break
        if kind == "chance":
            texts, weights = zip(*state.chance_outcomes())
            state.apply(None, rng.choices(texts, weights)[0])
        else:
            state.apply(seats[0], rng.choice(state.legal_actions(seats[0])))
    return state


def test_the_registry_lists_the_four_games_with_their_levels():
    names = [g["name"] for g in plateau.games()]
    assert names == ["mad", "moonleap", "chakart", "naval"]
    moonleap = plateau.game("moonleap")
    assert (moonleap["min_seats"], moonleap["max_seats"]) == (2, 4)
    assert sorted(moonleap["levels"]) == ["2", "3", "4"]
    assert [l["level"] for l in moonleap["levels"]["2"]] == [
        "beginner", "casual", "club", "strong", "expert"]
    with pytest.raises(KeyError, match="known: mad, moonleap, chakart, naval"):
        plateau.game("chess")


def test_moon_leap_rolls_six_faces_of_one_sixth():
    state = plateau.State("moonleap")
    assert state.to_act() == ("chance", [])
    outcomes = state.chance_outcomes()
    assert sorted(t for t, _ in outcomes) == ["r*", "r1", "r2", "r3", "r4", "r5"]
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in outcomes)


def test_bad_input_is_refused_and_changes_nothing():
    state = plateau.State("mad")
    before = state.to_json()
    with pytest.raises(ValueError, match="cannot read the action"):
        state.apply(0, "zz-zz")
    with pytest.raises(ValueError):
        state.apply(1, state.legal_actions(0)[0])  # not seat 1's turn
    with pytest.raises(ValueError, match="no seat 5"):
        state.legal_actions(5)
    with pytest.raises(ValueError):
        plateau.State("mad", config='{"tiebreak_limit": -1}')
    with pytest.raises(ValueError):
        plateau.State.from_position("mad", "not a position")
    assert state.to_json() == before


@pytest.mark.parametrize("name", ["mad", "moonleap", "chakart", "naval"])
def test_serialized_states_and_positions_read_back(name):
    state = random_state(name, 20, seed=3)
    again = plateau.State.from_json(name, state.to_json())
    assert again.to_json() == state.to_json()
    assert again.position() == state.position()
    for seat in range(state.seats):
        assert again.legal_actions(seat) == state.legal_actions(seat)
    # A finished game's position may be refused as impossible (docs/architecture.md section
    # 2.2); Bataille Navale's position is the same JSON document as its state.
    if name != "naval" and not state.is_terminal():
        assert plateau.State.from_position(name, state.position()).position() == state.position()


@pytest.mark.parametrize("name", ["chakart", "naval"])
def test_a_determinized_state_looks_the_same_to_its_seat(name):
    state = random_state(name, 120, seed=5)
    for seat in range(state.seats):
        drawn = state.determinize(seat, seed=seat + 11)
        assert drawn.observation_json(seat) == state.observation_json(seat)
        assert drawn.legal_actions(seat) == state.legal_actions(seat)
        assert drawn.to_act() == state.to_act()


def test_naval_determinization_redraws_what_the_seat_cannot_see():
    state = random_state("naval", 300, seed=7)
    drawn = [state.determinize(0, seed=s).to_json() for s in range(4)]
    assert len(set(drawn)) > 1


@pytest.mark.parametrize("name", ["mad", "moonleap", "chakart", "naval"])
def test_tensors_keep_one_shape_and_follow_the_seats_view(name):
    state = random_state(name, 60, seed=9)
    size = int(np.prod(tensors.shape(state)))
    for seat in range(state.seats):
        vector = tensors.encode(state, seat)
        assert vector.shape == (size,) and vector.dtype == np.float32
        assert vector.any()
        drawn = state.determinize(seat, seed=1)
        assert np.array_equal(tensors.encode(drawn, seat), vector)


def test_mad_tensor_of_the_start():
    state = plateau.State("mad")
    planes = tensors.encode(state, 0).reshape(18, 24)
    obs = json.loads(state.observation_json(0))
    ships = sum(1 for c in obs["cells"] if c)
    assert planes[:16].sum() == ships == 16
    assert planes[16].all() == (obs["side"] == "r")


@pytest.mark.parametrize(("name", "spec"), [
    ("mad", "beginner"), ("moonleap", "club"), ("chakart", "mcts:i20"), ("naval", "random")])
def test_bots_play_legal_actions(name, spec):
    state = random_state(name, 200 if name == "naval" else 4, seed=1)
    while state.to_act()[0] == "chance":
        state.apply(None, state.chance_outcomes()[0][0])
    kind, seats = state.to_act()
    assert kind in ("player", "simultaneous")
    bot = plateau.Bot(name, spec, seed=4)
    action = bot.act(state, seats[0])
    assert action in state.legal_actions(seats[0])


def test_a_bad_bot_is_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        plateau.Bot("mad", "mcts:fast", seed=1)


def test_bots_play_whole_games():
    bots = [plateau.Bot("moonleap", "beginner", 1), plateau.Bot("moonleap", "club", 2)]
    state = plateau.play(plateau.State("moonleap"), bots, random.Random(3))
    assert state.is_terminal()
    assert sorted(state.utilities()) == [0.0, 1.0]


@pytest.mark.skipif("PLATEAU_BIN" not in os.environ, reason="PLATEAU_BIN names the plateau binary")
@pytest.mark.parametrize("name", ["mad", "moonleap", "chakart", "naval"])
def test_records_of_the_command_line_replay(name, tmp_path):
    record = tmp_path / "game.json"
    seats = plateau.game(name)["default_seats"]
    bots = [f"--seat={i + 1}=random" for i in range(seats)]
    subprocess.run([os.environ["PLATEAU_BIN"], "play", name, "--seed", "17", "--record",
                    str(record), "--no-color", *bots], check=True, capture_output=True,
                   stdin=subprocess.DEVNULL)
    text = record.read_text()
    state = plateau.State.from_record(text)
    assert state.is_terminal()
    ranks, _, kind = state.outcome()
    saved = json.loads(text)["outcome"]
    assert ranks == saved["ranks"] and kind == saved["kind"]
