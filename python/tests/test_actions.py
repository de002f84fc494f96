"""The fixed action space of each game (python/README.md, "Action ids"): the ids of a legal list
are distinct, name the same actions as its texts and read back both ways; an id names the same
action in every state; an illegal id is refused."""

import random

import pytest

import plateau

SIZES = {"mad": 5193, "moonleap": 27, "chakart": 33221, "naval": 17091}


def states(name: str, games: int, seed: int, **kw):
    """Every seat decision of a few random games: (state, seat)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = plateau.State(name, **kw)
        while True:
            kind, seats = state.to_act()
            if kind == "terminal":
                break
            if kind == "chance":
                texts, weights = zip(*state.chance_outcomes())
                state.apply(None, rng.choices(texts, weights)[0])
                continue
            yield state, seats[0]
            state.apply(seats[0], rng.choice(state.legal_actions(seats[0])))


@pytest.mark.parametrize(("name", "kw"), [
    ("mad", {}), ("mad", {"config": '{"positioning_turn": true}'}),
    ("moonleap", {"seats": 4}), ("moonleap", {"seats": 3, "config": '{"mercenaries": true}'}),
    ("chakart", {}), ("chakart", {"config": '{"randomness": 2}'}), ("naval", {})])
def test_legal_ids_name_the_legal_texts(name, kw):
    seen = {}
    for n, (state, seat) in enumerate(states(name, 1 if name == "naval" else 6, 3, **kw)):
        pairs = state.legal_by_id(seat)
        ids = [i for i, _ in pairs]
        assert ids == state.legal_ids(seat) == sorted(set(ids))
        assert all(0 <= i < state.num_actions == SIZES[name] for i in ids)
        assert sorted(t for _, t in pairs) == state.legal_actions(seat)
        for i, text in pairs[:: 1 + len(pairs) // 40]:
            assert state.action_id(text) == i
            assert state.action_text(i, seat) == text
            # The same id, the same action, wherever it was seen (a MAD movement writes whether
            # it expels, which the board says, with `x`).
            same = text.replace("x", "-") if name == "mad" else text
            assert seen.setdefault(i, same) == same
        if n > 300:
            break


@pytest.mark.parametrize("name", ["mad", "moonleap", "chakart", "naval"])
def test_every_id_reads_back_to_itself(name):
    state = (plateau.State(name, '{"mercenaries": true}', 3) if name == "moonleap"
             else plateau.State(name))
    named = 0
    for i in range(state.num_actions):
        try:
            text = state.action_text(i)
        except ValueError:
            continue  # a gap of the layout (a buoy on end, an area aim that is not normalised)
        assert state.action_id(text) == i, text
        named += 1
    with pytest.raises(ValueError):
        state.action_text(state.num_actions)
    assert named > state.num_actions * 3 // 4


def test_the_layouts_documented():
    mad = plateau.State("mad")
    assert mad.action_id("c2-c3") == (6 * 24 + 10) * 9
    assert mad.action_id("P(112,221)") == 5184 + 1 and mad.action_id("pass") == 5192
    moonleap = plateau.State("moonleap", '{"mercenaries": true}', 3)
    assert moonleap.action_id("m2") == 6 and moonleap.action_id("m2+m3") == 18 + 6
    assert moonleap.action_id("pass") == 26
    chakart = plateau.State("chakart")
    assert chakart.action_id("e2e4") == (12 * 64 + 28) * 8
    assert chakart.action_id("e7e8q") == (52 * 64 + 60) * 8 + 2 + 4
    assert chakart.action_id("=q") == 33215 + 4
    naval = plateau.State("naval")
    assert naval.action_id("ready") == 3528
    assert naval.action_id("carrier@c3v") == (0 * 196 + 2 * 14 + 2) * 2 + 1
    assert naval.action_id("cruiser:fire 2:f7") == 3535 + (1 * 4 + 1) * 196 + 6 * 14 + 5
    with pytest.raises(ValueError, match="chance"):
        naval.action_id("first 2")


def test_an_illegal_id_is_refused_and_changes_nothing():
    state = plateau.State("mad")
    before = state.to_json()
    with pytest.raises(ValueError, match="not legal"):
        state.apply_id(0, state.action_id("pass"))
    with pytest.raises(ValueError):
        state.apply_id(0, 10**6)
    assert state.to_json() == before
    legal = state.legal_ids(0)
    assert state.apply_id(0, legal[0]) == state.action_text(legal[0])
