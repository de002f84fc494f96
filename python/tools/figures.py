"""The figures of python/README.md: random playouts per second through Python beside the Rust
engine's and beside OpenSpiel's C++ games driven the same way, then OpenSpiel's MCTS bot against
Plateau's beginner and club levels on every game.

    python tools/figures.py speed [SECONDS]        # playouts per second, SECONDS per figure (5)
    python tools/figures.py ismcts GAME SIMS GAMES [LEVELS]  # the same with information-set MCTS
    python tools/figures.py mcts GAME SIMS GAMES [LEVELS]  # GAMES games against each level
                                                         # (beginner,club), seats alternating

The MCTS bot is OpenSpiel's (``open_spiel.python.algorithms.mcts.MCTSBot``, UCT constant 2,
random rollouts, SIMS simulations a decision). In the games with hidden information it searches
a state determinized for its seat at each decision (``plateau.State.determinize``), so it never
reads what its seat may not know. ``ismcts`` plays OpenSpiel's information-set MCTS
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``, UCT constant 2, random rollouts) instead,
which draws the hidden parts itself (``PlateauState.resample_from_infostate``).
"""

import math
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import plateau
import plateau_openspiel


def python_playouts(state: plateau.State, seconds: float) -> float:
    """Random games per second through the package's State (text actions, Python's choices)."""
    rng = random.Random(1)
    games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        s = state.clone()
        while True:
            kind, seats = s.to_act()
            if kind == "terminal":
                break
            if kind == "chance":
                texts, weights = zip(*s.chance_outcomes())
                s.apply(None, rng.choices(texts, weights)[0])
            else:
                s.apply(seats[0], rng.choice(s.legal_actions(seats[0])))
        games += 1
    return games / (time.perf_counter() - began)


def pyspiel_playouts(game: pyspiel.Game, seconds: float) -> float:
    """Random games per second of an OpenSpiel game driven from Python by action ids."""
    rng = random.Random(1)
    games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                ids, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(ids, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        games += 1
    return games / (time.perf_counter() - began)


def speed(seconds: float) -> None:
    print("| game | Rust driver (games/s) | plateau.State from Python | OpenSpiel bridge from Python |")
    print("|---|---|---|---|")
    for info in plateau.games():
        state = plateau.State(info["name"])
        games, _, took = state.rust_random_playouts(seconds, 1)
        rust = games / took
        py = python_playouts(state, seconds)
        bridge = pyspiel_playouts(pyspiel.load_game(plateau_openspiel.short_name(info["name"])), seconds)
        print(f"| {info['name']} | {rust:,.0f} | {py:,.1f} | {bridge:,.1f} |", flush=True)
    for name in ("battleship", "backgammon", "chess"):
        rate = pyspiel_playouts(pyspiel.load_game(name), seconds)
        print(f"| OpenSpiel C++ {name} | | | {rate:,.1f} |", flush=True)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``score`` out of ``n`` games
    (a tie counted as half a win, as the score counts it)."""
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mcts_match(name: str, sims: int, games: int, levels: list[str], sets: bool = False) -> None:
    """OpenSpiel's MCTS bot (SIMS simulations a decision; its information-set MCTS with
    ``sets``) against each level in ``levels``, GAMES games a level, seats alternating; a line
    per game, then the score with its interval."""
    game = pyspiel.load_game(plateau_openspiel.short_name(name))
    hidden = plateau.game(name)["hidden_information"]
    for level in levels:
        scores = []
        began = time.perf_counter()
        for g in range(games):
            seat = g % game.num_players()
            rng = np.random.RandomState(g)
            if sets:
                bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, sims,
                                       random_state=rng)
            else:
                bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng),
                                   solve=False, random_state=rng)
            others = {s: plateau.Bot(name, level, 1000 + g * 10 + s)
                      for s in range(game.num_players()) if s != seat}
            state = game.new_initial_state()
            dice = random.Random(g)
            while not state.is_terminal():
                if state.is_chance_node():
                    ids, probs = zip(*state.chance_outcomes())
                    state.apply_action(dice.choices(ids, probs)[0])
                    continue
                player = state.current_player()
                if player == seat:
                    searched = state
                    if hidden and not sets:
                        inner = state.plateau.determinize(seat, dice.getrandbits(63))
                        searched = plateau_openspiel.PlateauState(game, inner)
                    text = searched.action_to_string(player, bot.step(searched))
                else:
                    text = others[player].act(state.plateau, player)
                state.apply_action(plateau_openspiel.action_id(state, text))
            scores.append((state.returns()[seat] + 1) / 2)
            print(f"# {name} {level} game {g} seat {seat}: {scores[-1]:.2f}", flush=True)
        took = time.perf_counter() - began
        low, high = wilson(float(np.mean(scores)), games)
        print(f"| {name} | {'ISMCTS' if sets else 'MCTS'} {sims} | {level} | {games} | {np.mean(scores):.2f} | "
              f"{low:.2f} to {high:.2f} | {took / games:.1f} s |", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "speed":
        speed(float(sys.argv[2]) if len(sys.argv) > 2 else 5.0)
    else:
        levels = sys.argv[5].split(",") if len(sys.argv) > 5 else ["beginner", "club"]
        mcts_match(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), levels,
                   sets=sys.argv[1] == "ismcts")
