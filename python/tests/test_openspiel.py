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
    legal, chance, length = plateau_openspiel.BOUNDS[info["name"]]
    assert game.num_distinct_actions() == legal
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
