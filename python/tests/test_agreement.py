"""The OpenSpiel bridge against the Rust engine's driver on seeded random games: the engine
plays each game (``plateau.random_game``: its driver, its generator) and writes per step who
acted, the action's id, a digest of the legal ids (or of the chance outcomes with their texts
and probabilities) and a digest of the position after it; the bridge replays the ids through
pyspiel, computes the same digests of what it offers, and the two traces must be equal, with
the same returns and ranks at the end. Every 64th step of every 16th game also goes through
pyspiel's serialization and pickle and checks the state read back.

Bataille Navale's games are long (about 1,000 steps, legal lists of 1,900 ids in the placement),
so in 15 games of 16 its legal ids and its chance outcomes are digested in Rust from the bridge's
own state (``legal_digest``, ``chance_digest``), rather than listed through pyspiel into Python
and hashed there (every 16th game does that), and its positions (9 KB texts) every 64th step and
at the end; the other games' at every step. That keeps its 1,000 games to about 40 CPU-seconds."""

import hashlib
import pickle
import struct
from array import array

import pytest
import pyspiel

import plateau
import plateau_openspiel
from settings import GAMES, NAVAL_GAMES


def digest(data: bytes) -> int:
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "little")


def replay(game, name: str, seed: int, every: int, listed: bool = True) -> None:
    trace = plateau.random_game(name, seed, position_every=every)
    state = game.new_initial_state()
    actors, legal, positions = [], [], []
    chance = pyspiel.PlayerId.CHANCE
    for i, action in enumerate(trace["actions"]):
        if state.is_chance_node():
            actors.append(-1)
            if listed:
                outcomes = [(state.action_to_string(chance, a), p)
                            for a, p in state.chance_outcomes()]
                legal.append(digest(b"".join(
                    t.encode() + b"\0" + struct.pack("<d", p) for t, p in outcomes)))
            else:
                legal.append(state.plateau.chance_digest())
        else:
            player = state.current_player()
            actors.append(player)
            if listed:
                legal.append(digest(array("I", state.legal_actions()).tobytes()))
            else:
                legal.append(state.plateau.legal_digest(player))
        state.apply_action(action)
        due = (i + 1) % every == 0 or state.is_terminal()
        positions.append(digest(str(state).encode()) if due else None)
        if seed % 16 == 0 and i % 64 == 63:
            text = pyspiel.serialize_game_and_state(game, state)
            assert str(pyspiel.deserialize_game_and_state(text)[1]) == str(state)
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
    assert actors == trace["actors"], seed
    assert legal == trace["legal"], seed
    assert positions == trace["positions"], seed
    assert state.is_terminal(), seed
    assert state.returns() == [2 * u - 1 for u in trace["utilities"]], seed
    assert state.plateau.outcome()[0] == trace["ranks"], seed


@pytest.mark.parametrize("name", ["mad", "moonleap", "chakart", "naval"])
def test_the_bridge_replays_the_engines_seeded_games(name):
    game = pyspiel.load_game(plateau_openspiel.short_name(name))
    naval = name == "naval"
    for seed in range(NAVAL_GAMES if naval else GAMES):
        replay(game, name, seed, 64 if naval else 1, listed=not naval or seed % 16 == 0)
