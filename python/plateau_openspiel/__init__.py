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

- **Action ids.** At a decision node, the id of an action is its position in the acting seat's
  legal list sorted by the action's text (``plateau.State.legal_actions``); at a chance node, the
  position of the outcome in the game's list of outcomes. So ids are local to a state, as the
  engine's actions are (an action's identity is its text: ``state.action_to_string(id)``), and
  ``num_distinct_actions`` bounds the longest legal list, not a global action vocabulary.
  ``action_id(state, text)`` goes the other way.
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
  same view. An observer asked for public information only gets a spectator's view. No
  information-state (perfect recall) observer is offered.
- **Bounds.** ``num_distinct_actions``, ``max_chance_outcomes`` and ``max_game_length`` are
  twice the largest values seen in random games of the game at each seat count and config
  variant (``BOUNDS``; python/README.md gives the command and the figures). A state past a
  bound raises rather than hand OpenSpiel an id out of range.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pyspiel

import plateau
from plateau import tensors

__all__ = ["BOUNDS", "PlateauGame", "PlateauState", "action_id", "short_name"]

# (most legal actions, most chance outcomes, longest game) per game: twice the largest seen in
# random games of each seat count and config variant (python/README.md, "Bounds").
BOUNDS = {
    "mad": (96, 0, 372),
    "moonleap": (20, 12, 680),
    "chakart": (716, 34, 1368),
    "naval": (3822, 602, 2050),
}


def short_name(game: str) -> str:
    """The OpenSpiel name of Plateau's game ``game``: ``plateau_<game>``."""
    return f"plateau_{game}"


def action_id(state: "PlateauState", text: str) -> int:
    """The id of the action (or chance outcome) written ``text`` in ``state``; ``ValueError``
    when it is not legal there."""
    if state.is_chance_node():
        texts = [t for t, _ in state.plateau.chance_outcomes()]
    else:
        texts = state._texts(state.current_player())
    try:
        return texts.index(text)
    except ValueError:
        raise ValueError(f"{text!r} is not legal here") from None


class PlateauState(pyspiel.State):
    """An OpenSpiel state over a ``plateau.State`` (``state.plateau``)."""

    def __init__(self, game: "PlateauGame", inner: plateau.State | None = None):
        super().__init__(game)
        if inner is None:
            inner = game.start.clone()
        self._s = inner
        self._bounds = BOUNDS[game.plateau_name]
        self._moves = 0
        self._forget()

    def _forget(self) -> None:
        self._to_act = self._s.to_act()
        self._legal: tuple[int, list[str]] | None = None

    @property
    def plateau(self) -> plateau.State:
        """The engine's state this one wraps."""
        return self._s

    def _texts(self, player: int) -> list[str]:
        if self._legal is None or self._legal[0] != player:
            texts = self._s.legal_actions(player) if player in self._to_act[1] else []
            if len(texts) > self._bounds[0]:
                raise RuntimeError(f"{len(texts)} legal actions, past num_distinct_actions")
            self._legal = (player, texts)
        return self._legal[1]

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
        return list(range(len(self._texts(player))))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._s.chance_outcomes()
        if len(outcomes) > self._bounds[1]:
            raise RuntimeError(f"{len(outcomes)} chance outcomes, past max_chance_outcomes")
        return [(i, p) for i, (_, p) in enumerate(outcomes)]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            text = self._s.chance_outcomes()[action][0]
            self._s.apply(None, text)
        else:
            player = self.current_player()
            self._s.apply(player, self._texts(player)[action])
        self._moves += 1
        if self._moves > self._bounds[2]:
            raise RuntimeError(f"{self._moves} actions, past max_game_length")
        self._forget()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = self._s.chance_outcomes()
            return outcomes[action][0] if 0 <= action < len(outcomes) else f"#{action}"
        texts = self._texts(player)
        return texts[action] if 0 <= action < len(texts) else f"#{action}"

    def is_terminal(self) -> bool:
        return self._to_act[0] == "terminal"

    def returns(self) -> list[float]:
        utilities = self._s.utilities()
        if utilities is None:
            return [0.0] * self._s.seats
        return [2.0 * u - 1.0 for u in utilities]

    def __str__(self) -> str:
        return self._s.position()

    def __getstate__(self):
        return {"game": self.get_game(), "state": self._s, "moves": self._moves}

    def __setstate__(self, saved):
        self.__init__(saved["game"], saved["state"])
        self._moves = saved["moves"]


class _Observer:
    """A seat's observation as the JSON string and the tensor of ``plateau.tensors``."""

    def __init__(self, game: "PlateauGame", iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("Plateau's games offer no perfect-recall observation")
        self._public_only = (
            iig_obs_type is not None
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        self._config = game.config
        shape = tensors.shape(game.start)
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def _viewer(self, player: int) -> int | None:
        return None if self._public_only else player

    def set_from(self, state: PlateauState, player: int) -> None:
        tensors.encode(state.plateau, self._viewer(player), out=self.tensor, config=self._config)

    def string_from(self, state: PlateauState, player: int) -> str:
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
        legal, chance, length = BOUNDS[self.plateau_name]
        game_info = pyspiel.GameInfo(
            num_distinct_actions=legal,
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
        provides_information_state_string=False,
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
