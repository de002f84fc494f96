"""Plateau's games as OpenSpiel games: ``import plateau_openspiel`` registers them with pyspiel.

Each game of the registry is registered as ``plateau_<name>`` (``plateau_mad``,
``plateau_moonleap``, ``plateau_chakart``, ``plateau_naval``) with the parameter ``players``
(the seat count, the game's usual one by default) and one parameter per field of the game's
config, a nested field named by its path (``costs.shield``), a field whose default is null
taking the empty string for null (Moon Leap's ``board``). For example
``pyspiel.load_game("plateau_moonleap(players=3,mercenaries=true)")`` or
``pyspiel.load_game("plateau_naval", {"max_rounds": 50, "costs.shield": 300})``. One parameter
per field, rather than the config as JSON text, because OpenSpiel writes a game's parameters
into its name (``str(game)``, the first line of a serialized state) separated by commas.

How the engine maps onto OpenSpiel (docs/architecture.md section 2):

- **Action ids.** A seat's action has one id in every state: the game's fixed action space
  (``plateau.State.legal_ids``, built in Rust from the engine's typed actions; python/README.md,
  "Action ids", gives each game's layout), and ``num_distinct_actions`` is its size, so a legal
  mask and a policy over ids mean the same in every state. At a chance node, an id is the
  position of the outcome in the game's list of outcomes. ``action_to_string`` gives the
  action's text in the game's notation; ``action_id(state, text)`` goes the other way.
- **Simultaneous nodes.** The engine's simultaneous nodes are independent moves in any order
  (Bataille Navale's placement: each seat moves its own pieces, then says ``ready``). The bridge
  presents them as sequential: the lowest seat of the set acts first, and no seat's observation
  shows another's placement, so the games are ``SEQUENTIAL`` with imperfect information where
  the engine says some seat knows what another does not.
- **Returns.** Terminal only: ``2 * utility - 1`` per seat, with ``utility`` the engine's share of
  the other seats beaten (a tie counting half), so returns lie in [-1, 1] and always sum to 0:
  the games are ``ZERO_SUM``.
- **Observations.** ``observation_string(seat)`` is the seat's observation JSON (the view the
  match service sends it); ``observation_tensor(seat)`` is ``plateau.tensors``' encoding of the
  same view. An observer asked for public information only gets a spectator's view.
- **Information states.** ``information_state_string(seat)`` is what the seat has been told,
  in order: a line per entry of its move list (each action it may learn of, as the match shows it
  to that seat; others' secret actions and hidden draws leave no line), each with a digest of
  the seat's observation right after it, then its current observation JSON. Two histories the
  seat cannot tell apart give the same string; no other seat's hidden fact enters it. There is
  no information-state tensor. ``resample_from_infostate`` draws a state the seat cannot tell
  apart (the engine's determinization), so OpenSpiel's information-set MCTS runs.
- **Bounds.** ``max_chance_outcomes`` and ``max_game_length`` are twice the largest values seen
  in random games of the game at each seat count and config variant (``BOUNDS``;
  python/README.md gives the command and the figures). A state past a bound raises rather than
  hand OpenSpiel an id out of range.
"""

from __future__ import annotations

import hashlib
import json
import math

import numpy as np
import pyspiel

import plateau
from plateau import tensors

__all__ = ["BOUNDS", "PlateauGame", "PlateauState", "action_id", "short_name"]

# (most chance outcomes, longest game) per game: twice the largest seen in random games of each
# seat count and config variant (python/README.md, "Bounds").
BOUNDS = {
    "mad": (0, 372),
    "moonleap": (12, 680),
    "chakart": (34, 1368),
    "naval": (602, 2050),
}


def short_name(game: str) -> str:
    """The OpenSpiel name of Plateau's game ``game``: ``plateau_<game>``."""
    return f"plateau_{game}"


def action_id(state: "PlateauState", text: str) -> int:
    """The id of the action (or chance outcome) written ``text`` in ``state``; ``ValueError``
    when it is not legal there."""
    if state.is_chance_node():
        texts = [t for t, _ in state.plateau.chance_outcomes()]
        if text in texts:
            return texts.index(text)
    elif not state.is_terminal():
        id = state.plateau.action_id(text)
        if id in state.legal_actions():
            return id
    raise ValueError(f"{text!r} is not legal here")


class _Shared:
    """A value that copies of a state share: pyspiel clones a Python state by deep-copying its
    attributes, and these never change once made (a copy appends to its own log)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __deepcopy__(self, memo):
        return self


class _Log:
    """The actions played, a link per action (the previous link, the action, the count), shared
    by clones as ``_Shared`` values are; pickled as the list of its actions (a chain of links
    would nest as deep as the game is long)."""

    __slots__ = ("prev", "entry", "length")

    def __init__(self, prev: "_Log | None", entry: tuple[int | None, str]):
        self.prev, self.entry = prev, entry
        self.length = 1 + (prev.length if prev else 0)

    def since(self, start: int) -> list[tuple[int | None, str]]:
        """The actions from the ``start``-th on, in order."""
        out, link = [], self
        while link is not None and link.length > start:
            out.append(link.entry)
            link = link.prev
        return out[::-1]

    @staticmethod
    def of(entries: list) -> "_Log | None":
        log = None
        for entry in entries:
            log = _Log(log, tuple(entry))
        return log

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Log.of, (self.since(0),))


class PlateauState(pyspiel.State):
    """An OpenSpiel state over a ``plateau.State`` (``state.plateau``)."""

    def __init__(self, game: "PlateauGame", inner: plateau.State | None = None,
                 history: list | None = None, start: plateau.State | None = None):
        super().__init__(game)
        if inner is None:
            inner = game.start.clone()
        self._s = inner
        self._bounds = BOUNDS[game.plateau_name]
        # The actions played from ``start``, as (seat or None for chance, text): what the
        # information states are read from. A state made from another (``inner``) starts there.
        self._start = _Shared(start or inner.clone())
        self._log = _Log.of(history or [])
        self._moves = self._log.length if self._log else 0
        # Per seat, what ``told`` has read so far: (actions read, the state after them, lines).
        self._told: dict[int, _Shared] = {}
        self._forget()

    def _record(self, entry: tuple[int | None, str]) -> None:
        self._log = _Log(self._log, entry)
        self._moves += 1

    def _history(self, since: int = 0) -> list[tuple[int | None, str]]:
        """The actions played from the start, from the ``since``-th on."""
        return self._log.since(since) if self._log else []

    def _forget(self) -> None:
        self._to_act = self._s.to_act()
        self._outcomes: list[tuple[str, float]] | None = None

    def _chance(self) -> list[tuple[str, float]]:
        if self._outcomes is None:
            self._outcomes = self._s.chance_outcomes()
        return self._outcomes

    @property
    def plateau(self) -> plateau.State:
        """The engine's state this one wraps."""
        return self._s

    def current_player(self) -> int:
        kind, seats = self._to_act
        if kind == "terminal":
            return pyspiel.PlayerId.TERMINAL
        if kind == "chance":
            return pyspiel.PlayerId.CHANCE
        return seats[0]

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self._s.legal_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._chance()
        if len(outcomes) > self._bounds[0]:
            raise RuntimeError(f"{len(outcomes)} chance outcomes, past max_chance_outcomes")
        return [(i, p) for i, (_, p) in enumerate(outcomes)]

    def _apply_action(self, action: int) -> None:
        if self._to_act[0] == "chance":
            text = self._chance()[action][0]
            self._s.apply(None, text)
            self._record((None, text))
        else:
            player = self.current_player()
            self._record((player, self._s.apply_id(player, action)))
        if self._moves > self._bounds[1]:
            raise RuntimeError(f"{self._moves} actions, past max_game_length")
        self._forget()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = self._chance()
            return outcomes[action][0] if 0 <= action < len(outcomes) else f"#{action}"
        try:
            seat = player if 0 <= player < self._s.seats else None
            return self._s.action_text(action, seat)
        except (ValueError, OverflowError):
            return f"#{action}"

    def is_terminal(self) -> bool:
        return self._to_act[0] == "terminal"

    def returns(self) -> list[float]:
        utilities = self._s.utilities()
        if utilities is None:
            return [0.0] * self._s.seats
        return [2.0 * u - 1.0 for u in utilities]

    def told(self, player: int) -> str:
        """What seat ``player`` has been told (module docstring, "Information states"): pyspiel's
        ``information_state_string``."""
        done, replay, lines = self._told[player].value if player in self._told else (0, None, ())
        replay = (self._start.value if replay is None else replay).clone()
        lines = list(lines)
        for actor, text in self._history(done):
            shown = replay.display_text(actor, text, player)
            replay.apply(actor, text)
            if shown is not None:
                who = "chance" if actor is None else f"seat {actor + 1}"
                seen = hashlib.sha256(replay.observation_json(player).encode()).hexdigest()[:16]
                lines.append(f"{who}: {shown} | {seen}")
        self._told[player] = _Shared((self._moves, replay, tuple(lines)))
        return "\n".join([*lines, self._s.observation_json(player)])

    def resample_from_infostate(self, player: int, sampler) -> "PlateauState":
        """A state ``player`` cannot tell from this one, its hidden parts drawn by the engine's
        determinization with a seed from ``sampler`` (a pyspiel probability sampler: a number
        in [0, 1) a call), for OpenSpiel's information-set MCTS. ``player``'s information state
        is this one's; every other seat's starts at the draw (its past here is not the seat's to
        know)."""
        self.told(player)
        lines = self._told[player].value[2]
        inner = self._s.determinize(player, int(sampler() * 2**63))
        drawn = PlateauState(self.get_game(), inner)
        drawn._log, drawn._moves = self._log, self._moves
        drawn._told = {seat: _Shared((self._moves, inner.clone(), lines if seat == player else ()))
                       for seat in range(inner.seats)}
        return drawn

    def __str__(self) -> str:
        return self._s.position()

    def __getstate__(self):
        return {"game": self.get_game(), "state": self._s, "history": self._history(),
                "start": self._start.value}

    def __setstate__(self, saved):
        self.__init__(saved["game"], saved["state"], saved["history"], saved["start"])


class _Observer:
    """A seat's observation as the JSON string and the tensor of ``plateau.tensors``; with
    perfect recall, its information state as the string (no tensor)."""

    def __init__(self, game: "PlateauGame", iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._public_only = (
            iig_obs_type is not None
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        self._recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if self._recall and self._public_only:
            raise ValueError("Plateau's games offer no public information state")
        if self._recall:
            # pyspiel asks for this observer while it builds the game: nothing of it is read.
            self.tensor = np.zeros(0, np.float32)
            self.dict = {}
            return
        self._config = game.config
        shape = tensors.shape(game.start)
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def _viewer(self, player: int) -> int | None:
        return None if self._public_only else player

    def set_from(self, state: PlateauState, player: int) -> None:
        if self._recall:
            raise ValueError("Plateau's games offer no information-state tensor")
        tensors.encode(state.plateau, self._viewer(player), out=self.tensor, config=self._config)

    def string_from(self, state: PlateauState, player: int) -> str:
        if self._recall:
            return state.told(player)
        return state.plateau.observation_json(self._viewer(player))


class PlateauGame(pyspiel.Game):
    """An OpenSpiel game over one Plateau game (a subclass per game sets ``plateau_name``)."""

    plateau_name: str = ""

    def __init__(self, params=None):
        params = dict(params or {})
        info = plateau.game(self.plateau_name)
        players = int(params.get("players", info["default_seats"]))
        self.config = _config(info["default_config"], params)
        self.config_text = json.dumps(self.config)
        # The start state, which every new state copies: a bad config or seat count is refused
        # here, by load_game, with the engine's words.
        self.start = plateau.State(self.plateau_name, self.config_text, players)
        chance, length = BOUNDS[self.plateau_name]
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.start.num_actions,
            max_chance_outcomes=chance,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(_game_type(info), game_info, params)

    def new_initial_state(self) -> PlateauState:
        return PlateauState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        return _Observer(self, iig_obs_type, params)


def _leaves(config: dict, prefix: str = "") -> dict:
    """The config's fields by path (``costs.shield``), nested objects flattened."""
    out = {}
    for key, value in config.items():
        if isinstance(value, dict):
            out.update(_leaves(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _parameters(info: dict) -> dict:
    """OpenSpiel's parameter specification: ``players`` and each config field's default (the
    empty string for a null one)."""
    fields = {k: ("" if v is None else v) for k, v in _leaves(info["default_config"]).items()}
    return {"players": info["default_seats"], **fields}


def _config(default: dict, params: dict) -> dict:
    """The config the parameters give: the default with each given field replaced."""
    config = json.loads(json.dumps(default))
    for path, default_value in _leaves(default).items():
        if path not in params:
            continue
        value = params[path]
        if default_value is None and value == "":
            value = None
        *parents, last = path.split(".")
        node = config
        for key in parents:
            node = node[key]
        node[last] = value
    return config


def _game_type(info: dict) -> pyspiel.GameType:
    Type = pyspiel.GameType
    return Type(
        short_name=short_name(info["name"]),
        long_name=f"Plateau {info['title']}",
        dynamics=Type.Dynamics.SEQUENTIAL,
        chance_mode=(
            Type.ChanceMode.EXPLICIT_STOCHASTIC if info["chance"] else Type.ChanceMode.DETERMINISTIC
        ),
        information=(
            Type.Information.IMPERFECT_INFORMATION
            if info["hidden_information"]
            else Type.Information.PERFECT_INFORMATION
        ),
        utility=Type.Utility.ZERO_SUM,
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=info["max_seats"],
        min_num_players=info["min_seats"],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(info),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def _register() -> None:
    registered = {g.short_name for g in pyspiel.registered_games()}
    for info in plateau.games():
        if short_name(info["name"]) in registered:
            continue
        cls = type(
            f"Plateau{info['name'].capitalize()}Game",
            (PlateauGame,),
            {"plateau_name": info["name"], "__module__": __name__},
        )
        globals()[cls.__name__] = cls
        pyspiel.register_game(_game_type(info), cls)


_register()
