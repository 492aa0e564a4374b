"""A table: two seats, each a person or the computer, and the partie they play.

A ``Table`` holds no socket and no database: it checks and applies a seat's action (its turn,
the version it answers, the laws), deals the next deal when one ends, chooses the computer's
actions from the computer's observation only, writes its record and is rebuilt from it.  The
app (``piquet.web.app``) stores and broadcasts; the tests drive tables directly too.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from piquet.core.actions import Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, Play
from piquet.core.cards import Card, Mask
from piquet.core.deal import Deal, IllegalAction
from piquet.core.observation import Observation
from piquet.core.partie import Partie, cut_for_deal, first_dealer_after_cut, other_seat
from piquet.core.rules import Rules
from piquet.players.base import Player
from piquet.players.levels import make_player
from piquet.players.runner import cut_rng, deal_rng
from piquet.records.record import PartieRecord, record_of, replay

from .protocol import ChooseDeal, WireAction, cut_view, state_message, view

log = logging.getLogger("piquet.web")

#: The level that stands in for a computer level that fails (``Table.choose``).
FALLBACK_LEVEL = "cavendish"


class TableError(Exception):
    """An action refused: ``code`` is one of the protocol's error codes; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Seat:
    """Who sits at a seat: ``kind`` is ``"human"`` or ``"computer"`` (with its ``level``)."""

    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None
    joined: bool = False

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    def token_matches(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, hash_token(token))


def _cards_named(action: Action) -> Mask:
    """Every card an action names."""
    if isinstance(action, Discard | DeclarePoint):
        return action.cards
    if isinstance(action, Play):
        return 1 << action.card
    if isinstance(action, DeclareSequences):
        return sum_masks(action.runs)
    if isinstance(action, DeclareSets):
        return sum_masks(action.sets)
    return 0


def sum_masks(masks: tuple[Mask, ...]) -> Mask:
    m = 0
    for x in masks:
        m |= x
    return m


def verify_action(deal: Deal, role: int, action: Action) -> None:
    """``TableError`` ("illegal") unless ``role`` may take ``action`` in ``deal`` now; nothing is changed.

    Cards not in the hand are refused without naming them, and the same wherever they are: the engine's
    own reason would tell whether the adversary holds a card (Law 59 II-III), which the laws hide."""
    if _cards_named(action) & ~deal.hands[role]:
        raise TableError("illegal", "you do not hold every card you named: you discard, call and play "
                                    "only the cards in your hand (Laws 21, 54, 57)")
    try:
        deal.verify(action)
    except IllegalAction as e:
        raise TableError("illegal", str(e)) from None


def choose_with_fallback(players: dict[str, Player], key: str, level: str, seed: int, obs: Observation,
                         where: str) -> Action:
    """The choice of the computer ``players[key]`` (made of ``level`` with ``seed`` when first needed) from
    its observation.  A level that fails (one that cannot play these rules) is logged and stood in for, for
    this move, by the ``cavendish`` level (kept as ``players[key + "-fallback"]``), then by a legal choice at
    random: the table goes on, and nobody is shown the failure but the log.  ``where``: the table, for it."""
    try:
        if key not in players:
            players[key] = make_player(level, seed)
        return players[key].choose(obs)
    except Exception:
        log.exception("%s: the computer (%s) failed at %s under %s; the %s level stands in", where, level,
                      obs.phase.name.lower(), obs.rules.spec, FALLBACK_LEVEL)
    try:
        fallback = players.get(f"{key}-fallback")
        if fallback is None:
            fallback = players[f"{key}-fallback"] = make_player(FALLBACK_LEVEL, seed)
        return fallback.choose(obs)
    except Exception:
        log.exception("%s: the %s level failed too; a legal choice at random", where, FALLBACK_LEVEL)
        return obs.sample(random.Random())


@dataclass(frozen=True)
class Job:
    """What a computer seat of a table is to do now: ``kind`` is ``"act"`` (choose his action), ``"deal"``
    (choose whether to deal) or ``"suggest"`` (advise at chouette); ``seat``: the seat's key at its table."""

    kind: str
    seat: str


def actions_played(partie: Partie) -> int:
    """The version of a partie: how many actions have been applied in it."""
    return sum(len(d.history) for d in partie.deals)


@dataclass
class Table:
    """A partie at a table, its seats and its version; see the module docstring."""

    id: str
    seats: dict[str, Seat]
    seed: int
    partie: Partie
    opponent: str = "computer"
    version: int = 0
    _players: dict[str, Player] = field(default_factory=dict, repr=False)
    _cut: tuple[Card, Card, str] | None = field(default=None, repr=False)
    #: Whether the first dealer is known: the winner of the cut has chosen, or he is the computer and deals.
    dealer_chosen: bool = True

    # ------------------------------------------------------------ making

    @classmethod
    def new(cls, table_id: str, seats: dict[str, Seat], seed: int, rules: Rules, opponent: str = "computer") -> Table:
        """The cut (Law 4): a person who wins it chooses whether to deal; a computer deals, by twos.

        At Piquet au cent nobody chooses: the lower cut deals (p. 16).
        """
        _, _, winner = cut_for_deal(cut_rng(seed))
        dealer = first_dealer_after_cut(rules, winner)
        table = cls(table_id, seats, seed, Partie(rules, first_dealer=dealer, deal_by=2), opponent, 0)
        table.dealer_chosen = not table.offers_choice
        table._deal_if_needed()
        return table

    @classmethod
    def from_record(cls, table_id: str, seats: dict[str, Seat], record_json: str, opponent: str) -> Table:
        """Rebuild a table by replaying its record through the engine."""
        record = PartieRecord.from_json(record_json)
        if record.seed is None:
            raise ValueError("a table's record carries its seed")
        partie = replay(record)
        table = cls(table_id, seats, record.seed, partie, opponent, 0)
        table.dealer_chosen = bool(partie.deals) or not table.offers_choice
        if not partie.deals and table.dealer_chosen:  # nothing dealt yet: the dealer follows from the cut
            table.partie = Partie(partie.rules, first_dealer_after_cut(partie.rules, table.cut[2]), deal_by=2)
        table._deal_if_needed()
        table.version = actions_played(partie) + (table.choice_version if partie.deals else 0)
        return table

    # ------------------------------------------------------------ reading

    @property
    def cut(self) -> tuple[Card, Card, str]:
        """The cards cut by A and B, and who won the cut (Law 4): from the seed, as ``PartieRunner.begin``."""
        if self._cut is None:
            self._cut = cut_for_deal(cut_rng(self.seed))
        return self._cut

    @property
    def offers_choice(self) -> bool:
        """Whether the winner of the cut chooses whether to deal: a person, under rules that give him the
        choice (Law 4); a computer deals, and at Piquet au cent the lower cut deals (p. 16)."""
        return self.partie.rules.higher_cut_chooses and not self.seats[self.cut[2]].is_computer

    @property
    def choice_version(self) -> int:
        """1 if the winner of the cut chooses whether to deal, his choice being an action of the table; else 0."""
        return 1 if self.offers_choice else 0

    @property
    def choosing(self) -> str | None:
        """The seat that won the cut while he has still to choose whether to deal (Law 4), else None."""
        return None if self.dealer_chosen else self.cut[2]

    @property
    def names(self) -> dict[str, str]:
        return {s: seat.name for s, seat in self.seats.items()}

    @property
    def levels(self) -> dict[str, str]:
        return {s: seat.level for s, seat in self.seats.items() if seat.is_computer and seat.level}

    @property
    def finished(self) -> bool:
        return self.partie.is_finished

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        if any(not seat.is_computer and not seat.joined for seat in self.seats.values()):
            return "waiting"
        return "playing"

    def to_move(self) -> str | None:
        """The seat to act, or None when the partie is finished."""
        if self.choosing is not None:
            return self.choosing
        deal = self.partie.current
        if deal is None or deal.to_move is None:
            return None
        return self.partie.seat(len(self.partie.deals) - 1, deal.to_move)

    def computer_to_move(self) -> str | None:
        seat = self.to_move()
        return seat if seat is not None and self.seats[seat].is_computer else None

    def seat_of_token(self, token: str) -> str | None:
        for s, seat in self.seats.items():
            if not seat.is_computer and seat.token_matches(token):
                return s
        return None

    def view(self, seat: str) -> dict[str, Any]:
        if self.choosing is not None:
            return cut_view(self.partie.rules, seat, self.cut, players=self.names, status=self.status,
                            opponent=self.opponent, levels=self.levels)
        return view(self.partie, seat, players=self.names, status=self.status, cut=self.cut,
                    opponent=self.opponent, levels=self.levels)

    def record(self) -> PartieRecord:
        return record_of(self.partie, self.names, self.seed)

    def record_json(self) -> str:
        return self.record().to_json()

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.partie.scores)

    # ------------------------------------------------------------ acting

    def check(self, seat: str, version: int | None, action: WireAction) -> WireAction:
        """Raise ``TableError`` unless ``seat`` may take ``action`` now; the table is not changed."""
        if version is not None and version != self.version:
            raise TableError("stale", f"the table has moved on (version {self.version}, not {version}): "
                                      "look again and choose")
        if self.finished:
            raise TableError("illegal", "the partie is over")
        if self.to_move() != seat:
            raise TableError("turn", "it is not your turn")
        if self.choosing is not None:
            if not isinstance(action, ChooseDeal):
                raise TableError("illegal", "first the winner of the cut chooses whether to deal (Law 4)")
            return action
        if isinstance(action, ChooseDeal):
            if not self.partie.rules.higher_cut_chooses:
                raise TableError("illegal", f"there is no choice of deal at {self.partie.rules.title}: "
                                            "the lower cut deals (p. 16)")
            raise TableError("illegal", "the dealer is chosen: there is no choice of deal to make now (Law 4)")
        deal = self.partie.current
        assert deal is not None
        verify_action(deal, self.partie.role(len(self.partie.deals) - 1, seat), action)
        return action

    def apply(self, seat: str, action: WireAction, version: int | None = None) -> None:
        """Check and apply ``seat``'s action; deal the next deal if this one is over."""
        checked = self.check(seat, version, action)
        if isinstance(checked, ChooseDeal):
            dealer = seat if checked.deal else other_seat(seat)
            self.partie = Partie(self.partie.rules, first_dealer=dealer, deal_by=2)
            self.dealer_chosen = True
            self.version += 1
            self._deal_if_needed()
            return
        deal = self.partie.current
        assert deal is not None
        try:
            deal.apply(checked)
        except IllegalAction as e:  # verify() passed, so this does not happen; nothing was changed
            raise TableError("illegal", str(e)) from None
        self.version += 1
        self._deal_if_needed()

    def _deal_if_needed(self) -> None:
        """Deal the next deal when the last is over (not while the winner of the cut is choosing)."""
        partie = self.partie
        if partie.current is None and not partie.is_finished and self.choosing is None:
            partie.deal_shuffled(deal_rng(self.seed, len(partie.deals)))

    # ------------------------------------------------------------ the computer

    def player(self, seat: str) -> Player:
        """The computer player of ``seat``, made once per table in memory."""
        if seat not in self._players:
            self._players[seat] = make_player(self.seats[seat].level or "random", self._seed_of(seat))
        return self._players[seat]

    def _seed_of(self, seat: str) -> int:
        return self.seed * 2 + (0 if seat == "A" else 1)

    def observation(self, seat: str) -> Observation:
        return self.partie.observation(seat)

    def choose(self, seat: str, obs: Observation) -> Action:
        """The computer's choice from its observation (``choose_with_fallback``: a level that fails is stood
        in for, and the table goes on)."""
        return choose_with_fallback(self._players, seat, self.seats[seat].level or "random", self._seed_of(seat),
                                    obs, f"table {self.id}")

    # ------------------------------------------------------------ what the hub asks of a table

    def message(self, seat: str) -> dict[str, Any]:
        """The state message for ``seat``: the version and its VIEW."""
        return state_message(self.version, seat, self.view(seat))

    def computer_job(self) -> Job | None:
        """The computer's move to make now, if he is to move."""
        seat = self.computer_to_move()
        return None if seat is None else Job("act", seat)

    def thinking(self, job: Job) -> tuple[dict[str, Any], frozenset[str] | None]:
        """The ``thinking`` message while the computer decides, and who is told (None: every seat)."""
        return {"type": "thinking", "seat": job.seat}, None

    def decider(self, job: Job) -> Callable[[], Action]:
        """The computer's choice, to be made in a worker thread: from his observation now (taken here, under
        the table's lock), never from the table as it may be by then."""
        obs = self.observation(job.seat)
        return functools.partial(self.choose, job.seat, obs)

    def fallback(self, job: Job) -> Action:
        """A legal choice at random, when the level's choice was refused."""
        return self.observation(job.seat).sample(random.Random())

    def perform(self, job: Job, action: Action) -> bool:
        """Apply the computer's choice (``TableError`` if refused); True: the table changed."""
        self.apply(job.seat, action, self.version)
        return True


__all__ = ["FALLBACK_LEVEL", "Job", "Seat", "Table", "TableError", "actions_played", "choose_with_fallback",
           "hash_token", "new_token", "verify_action"]
