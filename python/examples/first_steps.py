"""A first look at the package: a Moon Leap game of three seats between Plateau's bots, then the
same game through OpenSpiel with its MCTS bot in seat 0 against the club level.

    pip install ./python[openspiel]
    python python/examples/first_steps.py
"""

import json
import random

import plateau

# The registry: every game with its seat counts and its five levels.
for game in plateau.games():
    print(game["name"], game["title"], f"{game['min_seats']}-{game['max_seats']} seats")

# A state, its legal actions in words (their parts) and in notation, and a chance node.
state = plateau.State("moonleap", seats=3)
print(state.to_act(), state.chance_outcomes())  # ('chance', []) and six faces of 1/6
state.apply(None, "r3")
seat = state.to_act()[1][0]
for text, parts in state.legal_info(seat):
    print(text, json.loads(parts))
# The same actions by their ids in the game's fixed action space (python/README.md, "Action ids").
print(state.num_actions, state.legal_by_id(seat))

# Bots as policies: one per seat, kept for the whole game.
bots = [plateau.Bot("moonleap", level, seed=i) for i, level in enumerate(["beginner", "club", "casual"])]
plateau.play(state, bots, random.Random(1))
print("ranks, scores, ending:", state.outcome())

# The same game through OpenSpiel: registered on import, loaded by name.
import pyspiel  # noqa: E402
import plateau_openspiel  # noqa: E402,F401
from open_spiel.python.algorithms import mcts  # noqa: E402

game = pyspiel.load_game("plateau_moonleap", {"players": 2})
searcher = mcts.MCTSBot(game, 2.0, 50, mcts.RandomRolloutEvaluator())
club = plateau.Bot("moonleap", "club", seed=7)
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        state.apply_action(random.choices(ids, probs)[0])
    elif state.current_player() == 0:
        state.apply_action(searcher.step(state))
    else:
        text = club.act(state.plateau, 1)
        state.apply_action(plateau_openspiel.action_id(state, text))
print("OpenSpiel returns (MCTS, club):", state.returns())
print("seat 0's observation tensor:", state.observation_tensor(0)[:12], "...")
