"""OpenSpiel's own checks on every game and configuration: its random simulation test
(``pyspiel.random_sim_test``) and the checks of its Python game API tests
(``open_spiel/python/tests/games_sim_test.py``: clones, pyspiel and pickle serialization of
games and states at powers of two, terminal returns in range), plus the truth of each game's
``GameType`` and ``GameInfo``."""

import json
import pickle

import numpy as np
import pytest
import pyspiel
from open_spiel.python.observation import make_observation
from open_spiel.python.tests import games_sim_test

import plateau
import plateau_openspiel
from settings import CONFIGURATIONS

IDS = [f"{g}-{json.dumps(p, sort_keys=True)}" for g, p in CONFIGURATIONS]


def load(name, params):
    return pyspiel.load_game(plateau_openspiel.short_name(name), params)


@pytest.mark.parametrize(("name", "params"), CONFIGURATIONS, ids=IDS)
def test_random_sim_test(name, params):
    game = load(name, params)
    sims = 1 if name == "naval" else 20
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "params"), CONFIGURATIONS, ids=IDS)
def test_python_game_api_checks(name, params):
    game = load(name, params)
    np.random.seed(len(IDS))  # sim_game draws its actions from NumPy's global generator
    checks = games_sim_test.GamesSimTest("test_pig")
    for _ in range(1 if name == "naval" else 10):
        checks.sim_game(game)


@pytest.mark.parametrize("info", plateau.games(), ids=lambda g: g["name"])
def test_game_type_and_info_say_what_the_engine_says(info):
    game = load(info["name"], {})
    kind = game.get_type()
    Type = pyspiel.GameType
    assert kind.short_name == f"plateau_{info['name']}"
    assert kind.dynamics == Type.Dynamics.SEQUENTIAL
    assert (kind.chance_mode == Type.ChanceMode.EXPLICIT_STOCHASTIC) == info["chance"]
    assert (kind.chance_mode == Type.ChanceMode.DETERMINISTIC) == (not info["chance"])
    perfect = kind.information == Type.Information.PERFECT_INFORMATION
    assert perfect == (not info["hidden_information"])
    assert kind.utility == Type.Utility.ZERO_SUM
    assert kind.reward_model == Type.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (info["min_seats"], info["max_seats"])
    assert game.num_players() == info["default_seats"]
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    chance, length = plateau_openspiel.BOUNDS[info["name"]]
    assert game.num_distinct_actions() == plateau.State(info["name"]).num_actions
    assert game.max_chance_outcomes() == chance
    assert (chance > 0) == info["chance"]
    assert game.max_game_length() == length
    assert pickle.loads(pickle.dumps(game.get_type())) == kind


def test_a_bad_config_or_seat_count_is_refused_by_name():
    with pytest.raises(ValueError, match="randomness"):
        load("chakart", {"randomness": 7})
    with pytest.raises(ValueError, match="seat"):
        load("mad", {"players": 3})


def test_a_config_of_several_fields_survives_the_game_string_and_serialization():
    game = pyspiel.load_game("plateau_naval(max_rounds=30,costs.shield=300,players=4)")
    assert game.config["max_rounds"] == 30 and game.config["costs"]["shield"] == 300
    assert game.config["costs"]["sonar"] == plateau.game("naval")["default_config"]["costs"]["sonar"]
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.chance_outcomes()[0][0])
    again_game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert again_game.config == game.config
    assert str(again) == str(state)
    moonleap = pyspiel.load_game("plateau_moonleap(players=3,mercenaries=true,board=)")
    assert moonleap.config["board"] is None and moonleap.config["mercenaries"] is True


def test_public_observer_sees_what_a_spectator_sees():
    game = load("chakart", {})
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 1:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observation = make_observation(game, public)
    observation.set_from(state, 0)
    assert observation.string_from(state, 0) == state.plateau.observation_json(None)
    assert state.observation_string(0) == state.plateau.observation_json(0)


def play_to(state, choose, steps):
    """Plays ``steps`` steps, chance and seats alike by ``choose(state, ids)`` over the ids."""
    for _ in range(steps):
        ids = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(choose(state, ids))
    return state


def test_an_information_state_holds_what_its_seat_was_told_and_nothing_else():
    # Bataille Navale's first chance nodes draw each seat's secret layout, piece by piece: two
    # games that differ only in where seat 1's carrier was drawn look the same to seats 0, 2 and
    # 3 and differ for seat 1, whose carrier it is.
    game = load("naval", {})
    first = play_to(game.new_initial_state(), lambda s, ids: ids[0], 40)
    carrier = None
    for draws in range(40):
        probe = play_to(game.new_initial_state(), lambda s, ids: ids[0], draws)
        if probe.is_chance_node() and probe.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("2:carrier"):
            carrier = draws
            break
    assert carrier is not None
    second = play_to(game.new_initial_state(), lambda s, ids: ids[0], carrier)
    second.apply_action(second.chance_outcomes()[-1][0])
    play_to(second, lambda s, ids: ids[0], 40 - carrier - 1)
    assert str(first) != str(second)
    for seat in (0, 2, 3):
        assert first.information_state_string(seat) == second.information_state_string(seat)
    assert first.information_state_string(1) != second.information_state_string(1)
    # The seat's own placement moves are in its information state, as it sees them, not in the
    # others'.
    while first.is_chance_node() or first.current_player() != 0:
        play_to(first, lambda s, ids: ids[0], 1)
    before = [first.information_state_string(s) for s in range(4)]
    move = next(a for a in first.legal_actions() if first.action_to_string(0, a) != "ready")
    first.apply_action(move)
    after = [first.information_state_string(s) for s in range(4)]
    assert before[0] != after[0] and first.action_to_string(0, move) in after[0]
    assert before[1:] == after[1:]


def test_an_information_state_survives_clones_and_serialization():
    game = load("chakart", {})
    state = play_to(game.new_initial_state(), lambda s, ids: ids[len(ids) // 2], 30)
    told = state.information_state_string(0)
    assert state.clone().information_state_string(0) == told
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.information_state_string(0) == told
    assert pickle.loads(pickle.dumps(state)).information_state_string(1) == state.information_state_string(1)


def test_a_resampled_state_keeps_the_seats_information_state_and_redraws_the_rest():
    game = load("naval", {})
    state = play_to(game.new_initial_state(), lambda s, ids: ids[len(ids) // 3], 300)
    seat = state.current_player()
    draws = iter([0.1, 0.6, 0.35])
    drawn = [state.resample_from_infostate(seat, lambda: next(draws)) for _ in range(3)]
    for other in drawn:
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.legal_actions() == state.legal_actions()
    assert len({str(d) for d in drawn}) > 1
    # Play on in a drawn world: the seat's information state goes on from its own.
    other = drawn[0]
    other.apply_action(other.legal_actions()[0])
    assert other.information_state_string(seat).startswith(
        state.information_state_string(seat).rsplit("\n", 1)[0])
