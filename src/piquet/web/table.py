"""A table: two seats, each a person or the computer, and the partie they play.

A ``Table`` holds no socket and no database: it drives the partie's state machine
(``piquet.core.state.PartieState``): it checks and applies a seat's action (its turn, the version
it answers, the laws), lets chance cut and deal, has a computer seat make the choices of deal and
of dealing by twos or threes as the terminal's computer does and choose its actions from its
observation only, writes its record and is rebuilt from it.  The app (``piquet.web.app``) stores
and broadcasts; the tests drive tables directly too.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import hmac
import json
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
from piquet.core.partie import Partie
from piquet.core.rules import Rules
from piquet.core.state import CHANCE, DealBy, PartieAction, PartieState, SeedChance, Stage, seed_cut
from piquet.core.state import ChooseDeal as ChooseDealAction
from piquet.players.base import Player
from piquet.players.levels import make_player
from piquet.players.runner import choice_of
from piquet.records.record import PartieRecord, record_of, replay

from .protocol import (
    ChooseDeal,
    WireAction,
    choice_options,
    cut_view,
    decode_action,
    encode_action,
    state_message,
    view,
)

#: The most actions a table's log holds before its record is stored whole again (``Table.snapshot_due``).
SNAPSHOT_EVERY = 64

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
    own reason would tell whether the adversary holds a card (Law 59 II-III), which the laws hide.  At a club
    table (``deal.club``) a declaration is taken at the player's word: it may name cards not held, and the engine
    checks its form only (Laws 52-54); a discard or a card played still names only cards held."""
    call = isinstance(action, DeclarePoint | DeclareSequences | DeclareSets)
    if not (call and deal.club) and _cards_named(action) & ~deal.hands[role]:
        if call:
            raise TableError("illegal", "you do not hold every card you called: at this table you call only the "
                                        "cards in your hand (Law 54: call only what you hold)")
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


#: Why nothing is done at an adjourned table.
ADJOURNED = "the partie is adjourned: take it up first (the \"Take up the partie\" button)"


def seats_connected(seats: dict[str, Seat], present: frozenset[str]) -> dict[str, bool]:
    """Each seat, whether someone sits at it now: a person when a connection of his is open, the computer always."""
    return {key: seat.is_computer or key in present for key, seat in seats.items()}


def sitting_view(v: dict[str, Any], connected: dict[str, bool], adjourned: bool,
                 what: str = "partie") -> dict[str, Any]:
    """The VIEW's ``"connected"`` (seat: whether someone sits at it); at an adjourned table nobody is to act: no
    options, no turn, and the prompt says so."""
    v["connected"] = connected
    if adjourned:
        v.update(my_turn=False, options=[], at_word=None, turn=None,
                 prompt=f"The {what} is adjourned: nobody plays until a player takes it up.")
    return v


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
    state: PartieState
    opponent: str = "computer"
    version: int = 0
    _players: dict[str, Player] = field(default_factory=dict, repr=False)
    _cut: tuple[Card, Card, str] | None = field(default=None, repr=False)
    _blank: Partie | None = field(default=None, repr=False)
    #: The computer players who make the choices before the deal, of their seat's seed (``_computer_choice``).
    _choosers: dict[str, Player] = field(default_factory=dict, repr=False)
    #: The last action applied, by whom (what the store's log keeps of it); the stored snapshot's version and
    #: how many deals it held (``snapshot_due``).
    last_act: tuple[str, WireAction] | None = field(default=None, repr=False)
    snapshot: int = 0
    snapshot_deals: int = 0
    #: The partie is adjourned: nobody acts, the computer neither, until a seat takes it up (stored as the status).
    adjourned: bool = False
    #: The persons' seats with a connection open (to this server process): the VIEW's ``"connected"``.
    present: frozenset[str] = frozenset()

    # ------------------------------------------------------------ making

    @classmethod
    def new(cls, table_id: str, seats: dict[str, Seat], seed: int, rules: Rules, opponent: str = "computer") -> Table:
        """The cut (Law 4): a person who wins it chooses whether to deal, and how if he deals; a person the
        other makes dealer chooses by twos or threes (Law 9); a computer chooses as at the terminal.

        At Piquet au cent nobody chooses: the lower cut deals, by twos (p. 16).
        """
        table = cls(table_id, seats, seed, PartieState(rules, SeedChance(seed)), opponent, 0)
        table._advance()
        return table

    @classmethod
    def from_record(cls, table_id: str, seats: dict[str, Seat], record_json: str, opponent: str,
                    version: int | None = None) -> Table:
        """Rebuild a table by replaying its record through the engine.

        Before the first deal the record holds no choice: ``version`` (the stored one) says whether the
        winner of the cut, a person, has let the other, a person, deal (version 1: the other is choosing how
        he deals, Law 9) or has still to choose (0, or None)."""
        record = PartieRecord.from_json(record_json)
        if record.seed is None:
            raise ValueError("a table's record carries its seed")
        partie = replay(record)
        chance = SeedChance(record.seed)
        if partie.deals:
            table = cls(table_id, seats, record.seed, PartieState.resume(partie, chance), opponent, 0)
            table.version = actions_played(partie) + table.choices_made()
            table._advance()
            return table
        table = cls(table_id, seats, record.seed, PartieState(partie.rules, chance), opponent, 0)
        table._advance()
        if version and table.state.stage is Stage.CHOICE:  # the winner let the other deal
            table._apply_choice([ChooseDealAction(False)])
            table.version = 1
        return table

    @classmethod
    def from_log(cls, table_id: str, seats: dict[str, Seat], record_json: str, opponent: str, snapshot: int,
                 actions: tuple[tuple[int, str, str], ...]) -> Table:
        """Rebuild a table from its record's snapshot (at version ``snapshot``) and the log of the actions
        since, each (version, seat, ACTION JSON), applied in turn as they were when played.  ``ValueError``
        (a ``RecordError``, a ``TableError`` or a ``ProtocolError``) if they do not follow one another."""
        table = cls.from_record(table_id, seats, record_json, opponent, snapshot)
        if table.version != snapshot:
            if actions:
                raise ValueError(f"the record has {table.version} actions, its snapshot says {snapshot}")
            log.warning("table %s: the record has %d actions, the row says version %d", table_id, table.version,
                         snapshot)
            table.version = snapshot
        table.snapshot, table.snapshot_deals = snapshot, len(table.partie.deals)
        for version, seat, text in actions:
            if version != table.version + 1:
                raise ValueError(f"the log goes from version {table.version} to {version}")
            try:
                table.apply(seat, decode_action(json.loads(text)))
            except TableError as e:
                raise ValueError(f"the logged action of version {version} is refused: {e.message}") from None
        return table

    def snapshot_due(self) -> bool:
        """Whether the record is to be stored whole with this version: at a new deal, when the partie is over,
        or when the log has grown long (``SNAPSHOT_EVERY``)."""
        return (self.finished or len(self.partie.deals) != self.snapshot_deals
                or self.version - self.snapshot >= SNAPSHOT_EVERY)

    def logged(self) -> tuple[str, str] | None:
        """The last action as the store's log keeps it: its seat and ACTION JSON."""
        if self.last_act is None:
            return None
        seat, action = self.last_act
        return seat, json.dumps(encode_action(action))

    # ------------------------------------------------------------ reading

    @property
    def partie(self) -> Partie:
        """The partie; before the dealer and his mode are known, an empty one (nothing dealt)."""
        if self.state.partie is not None:
            return self.state.partie
        if self._blank is None:
            self._blank = Partie(self.state.rules)
        return self._blank

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def cut(self) -> tuple[Card, Card, str]:
        """The cards cut by A and B, and who won the cut (Law 4): from the seed, as ``PartieRunner.begin``."""
        if self._cut is None:
            self._cut = self.state.cut or seed_cut(self.seed)
        return self._cut

    def is_person(self, seat: str) -> bool:
        return not self.seats[seat].is_computer

    def choices_made(self) -> int:
        """The versions the choices before the first deal took, once it is dealt: the choice of a person who
        won the cut (Law 4; dealing, he says how, Law 9), and that of a person the other made dealer."""
        rules, partie = self.rules, self.state.partie
        if partie is None:
            return 0
        winner = self.cut[2]
        chose = rules.higher_cut_chooses and self.is_person(winner)
        dealer = partie.first_dealer
        told_by = len(rules.deal_modes) > 1 and self.is_person(dealer) and not (chose and dealer == winner)
        return int(chose) + int(told_by)

    @property
    def choosing(self) -> str | None:
        """The seat making a choice before the first deal: the winner of the cut whether to deal (Law 4), or
        the dealer how he deals (Law 9); else None."""
        stage = self.state.stage
        return self.state.to_act if stage in (Stage.CHOICE, Stage.DEAL_BY) else None

    @property
    def names(self) -> dict[str, str]:
        return {s: seat.name for s, seat in self.seats.items()}

    @property
    def levels(self) -> dict[str, str]:
        return {s: seat.level for s, seat in self.seats.items() if seat.is_computer and seat.level}

    @property
    def finished(self) -> bool:
        return self.state.is_over

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        if self.adjourned:
            return "adjourned"
        if any(not seat.is_computer and not seat.joined for seat in self.seats.values()):
            return "waiting"
        return "playing"

    def connected(self) -> dict[str, bool]:
        """The VIEW's ``"connected"``: each seat, whether someone sits at it now (the computer always does)."""
        return seats_connected(self.seats, self.present)

    def to_move(self) -> str | None:
        """The seat to act, or None when the partie is finished."""
        seat = self.state.to_act
        return None if seat == CHANCE else seat

    def computer_to_move(self) -> str | None:
        seat = self.to_move()
        return seat if seat is not None and self.seats[seat].is_computer else None

    def seat_of_token(self, token: str) -> str | None:
        for s, seat in self.seats.items():
            if not seat.is_computer and seat.token_matches(token):
                return s
        return None

    def view(self, seat: str, told: bool = False) -> dict[str, Any]:
        """The VIEW of ``seat`` (``protocol.view``; ``told``: its shared parts as the texts kept for them)."""
        choosing = self.choosing
        if choosing is not None:
            which = "deal" if self.state.stage is Stage.CHOICE else "deal_by"
            v = cut_view(self.rules, seat, self.cut, players=self.names, status=self.status,
                         opponent=self.opponent, levels=self.levels, chooser=choosing == seat,
                         options=choice_options(self.rules, which) if choosing == seat else [], which=which)
            v["choice"] = which
            v["partie"]["dealer"] = self.state.dealer
        else:
            v = view(self.partie, seat, players=self.names, status=self.status, cut=self.cut,
                     opponent=self.opponent, levels=self.levels, told=told)
        return sitting_view(v, self.connected(), self.adjourned)

    def record(self) -> PartieRecord:
        return record_of(self.partie, self.names, self.seed)

    def record_json(self) -> str:
        return self.record().to_json()

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.partie.scores)

    # ------------------------------------------------------------ acting

    def _choice_actions(self, action: WireAction) -> list[PartieAction] | None:
        """The state's actions a choice sent by the page stands for (None: not a choice): dealing, the winner of
        the cut says how (by twos when he does not say, Law 9)."""
        if isinstance(action, ChooseDeal):
            out: list[PartieAction] = [ChooseDealAction(action.deal)]
            if action.deal and len(self.rules.deal_modes) > 1 and self.state.stage is Stage.CHOICE:
                out.append(DealBy(action.by or 2))
            elif action.by is not None and not action.deal:
                raise TableError("illegal", "the one who deals chooses how he deals (Law 9): letting the other "
                                            "deal, you do not say how")
            return out
        if isinstance(action, DealBy):
            return [action]
        return None

    def _verify_choice(self, actions: list[PartieAction]) -> None:
        scratch = copy.copy(self.state)  # before the deal: no deal to copy
        for a in actions:
            try:
                scratch.verify(a)
            except IllegalAction as e:
                raise TableError("illegal", str(e)) from None
            scratch.apply(a)

    def check(self, seat: str, version: int | None, action: WireAction) -> WireAction:
        """Raise ``TableError`` unless ``seat`` may take ``action`` now; the table is not changed."""
        if version is not None and version != self.version:
            raise TableError("stale", f"the table has moved on (version {self.version}, not {version}): "
                                      "look again and choose")
        if self.finished:
            raise TableError("illegal", "the partie is over")
        if self.adjourned:
            raise TableError("illegal", ADJOURNED)
        if self.to_move() != seat:
            raise TableError("turn", "it is not your turn")
        choice = self._choice_actions(action)
        if choice is not None:
            self._verify_choice(choice)
            return action
        if self.choosing is not None:
            if self.state.stage is Stage.CHOICE:
                raise TableError("illegal", "first the winner of the cut chooses whether to deal (Law 4)")
            raise TableError("illegal", "first the dealer chooses to deal by twos or by threes (Law 9)")
        deal = self.partie.current
        assert deal is not None and not isinstance(action, ChooseDeal | DealBy)
        verify_action(deal, self.partie.role(len(self.partie.deals) - 1, seat), action)
        return action

    def apply(self, seat: str, action: WireAction, version: int | None = None) -> None:
        """Check and apply ``seat``'s action; deal the next deal if this one is over."""
        checked = self.check(seat, version, action)
        choice = self._choice_actions(checked)
        self.last_act = (seat, checked)
        if choice is not None:
            self._apply_choice(choice)
            self.version += 1
            self._advance()
            return
        assert not isinstance(checked, ChooseDeal | DealBy)
        try:
            self.state.apply(checked)
        except IllegalAction as e:  # verify() passed, so this does not happen; nothing was changed
            raise TableError("illegal", str(e)) from None
        self.version += 1
        self._advance()

    def _apply_choice(self, actions: list[PartieAction]) -> None:
        for a in actions:
            self.state.apply(a)

    def _advance(self) -> None:
        """Let chance cut and deal, and a computer make the choices before the first deal, until a seat is to
        act or the partie is over.  A computer's choice has no version of its own."""
        state = self.state
        while True:
            seat = state.to_act
            if seat == CHANCE:
                state.run_chance()
            elif seat is not None and self.choosing == seat and self.seats[seat].is_computer:
                state.apply(self._computer_choice(seat))
            else:
                return

    def _computer_choice(self, seat: str) -> PartieAction:
        """The computer's choice of deal or of dealing by twos or threes, as at the terminal: its level's, made
        by a player of its own seed (so the same again when the table is rebuilt); by twos, dealing, if the
        level fails."""
        try:
            if seat not in self._choosers:
                self._choosers[seat] = make_player(self.seats[seat].level or "random", self._seed_of(seat))
            action = choice_of(self._choosers[seat], self.state)
            self.state.verify(action)
        except Exception:
            log.exception("table %s: the computer (%s) failed to choose before the deal", self.id,
                          self.seats[seat].level)
            action = ChooseDealAction(True) if self.state.stage is Stage.CHOICE else DealBy(2)
        return action

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

    def message(self, seat: str, told: bool = False) -> dict[str, Any]:
        """The state message for ``seat``: the version and its VIEW (``told``: as a server sends it)."""
        return state_message(self.version, seat, self.view(seat, told))

    def computer_job(self) -> Job | None:
        """The computer's move to make now, if he is to move (never at an adjourned partie)."""
        seat = None if self.adjourned else self.computer_to_move()
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


__all__ = ["ADJOURNED", "FALLBACK_LEVEL", "SNAPSHOT_EVERY", "Job", "Seat", "Table", "TableError", "actions_played",
           "choose_with_fallback", "hash_token", "new_token", "seats_connected", "sitting_view", "verify_action"]
