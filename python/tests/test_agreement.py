"""The OpenSpiel bridge against the Rust engine's driver on seeded random games: the engine
plays each game (``plateau.random_game``: its driver, its generator) and the bridge replays it
action by action, holding at every step the same legal list (length and SHA-256 of the texts)
or the same chance outcomes and probabilities, the same state after the action (SHA-256 of the
position text), and at the end the same returns; every 64th step it also goes through
pyspiel's serialization and pickle and checks the state read back."""

import hashlib
import pickle

import pytest
import pyspiel

import plateau
import plateau_openspiel
from settings import GAMES, NAVAL_GAMES


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def replay(game, name: str, seed: int) -> None:
    trace = plateau.random_game(name, seed)
    state = game.new_initial_state()
    for i, step in enumerate(trace["steps"]):
        if step["actor"] is None:
            assert state.is_chance_node(), (seed, i)
            outcomes = state.chance_outcomes()
            texts = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes]
            assert [[t, p] for t, (_, p) in zip(texts, outcomes)] == step["chance"], (seed, i)
        else:
            assert state.current_player() == step["actor"], (seed, i)
            legal = state.legal_actions()
            texts = state._texts(step["actor"])
            assert legal == list(range(len(texts))), (seed, i)
            assert [len(texts), sha256("\n".join(texts))] == step["legal"], (seed, i)
        state.apply_action(plateau_openspiel.action_id(state, step["action"]))
        assert sha256(str(state)) == step["position"], (seed, i)
        if i % 64 == 63:
            text = pyspiel.serialize_game_and_state(game, state)
            assert str(pyspiel.deserialize_game_and_state(text)[1]) == str(state)
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
    assert state.is_terminal(), seed
    assert state.returns() == [2 * u - 1 for u in trace["utilities"]], seed
    ranks = state.plateau.outcome()[0]
    assert ranks == trace["ranks"], seed


@pytest.mark.parametrize("name", ["mad", "moonleap", "chakart", "naval"])
def test_the_bridge_replays_the_engines_seeded_games(name):
    game = pyspiel.load_game(plateau_openspiel.short_name(name))
    for seed in range(NAVAL_GAMES if name == "naval" else GAMES):
        replay(game, name, seed)
