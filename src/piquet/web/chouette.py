"""The chouette table in the browser (p. 106): three seats, the single player against the other two in
consultation, one playing and one advising.

A ``ChouetteTable`` is to a chouette what ``Table`` is to a partie of two: it holds no socket and no
database; it checks and applies what a seat sends (its place, the version it answers, the laws), has the
computer seats choose and advise from their observation only, writes its document
(``ChouetteMatch.to_json``) and is rebuilt from it.  The rules are ``piquet.stakes.chouette``'s
(``ChouetteMatch``): the cut of three, the places and their rotation, the suggestions; this module adds
the seats, the views and the messages of the browser.

Each person is sent the VIEW of the partie's seat whose cards he may see (``protocol.view``): the single
player seat A's, the two in consultation seat B's (the hand they consult on, never the single player's),
with a ``"chouette"`` key (``ChouetteTable.about``): the places, the suggestion standing (to the pair
only), the chouette card.  The adviser may not act: his VIEW has no ``options`` and ``my_turn`` is false;
what he may suggest is in ``"chouette"["suggest_options"]``.

The messages (``action``, ``suggest``, ``leave``, ``next_partie``, ``end``), the order of their checks,
the VIEW's ``"chouette"`` and the routes are written out in docs/web.md, "The chouette table".
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from piquet.core.actions import Action
from piquet.core.cards import card_name, card_words
from piquet.core.deal import IllegalAction
from piquet.core.observation import Observation
from piquet.core.rules import Rules
from piquet.players.base import Player
from piquet.players.levels import make_player
from piquet.records.jsontext import brief
from piquet.stakes.chouette import PAIR_SEAT, ChouetteError, ChouetteMatch, Places, Suggestion, single_choice
from piquet.stakes.settlement import ChouettePartie, ChouetteSession, scoring_card_html, to_json
from piquet.talk.words import YOU, action_words, choice_prompt, deal_label, partie_headline, verb

from .protocol import (
    ChooseDeal,
    DealBy,
    ProtocolError,
    WireAction,
    choice_options,
    cut_view,
    encode_action,
    message_action,
    message_version,
    state_message,
    view,
)
from .table import (
    ADJOURNED,
    Job,
    Seat,
    TableError,
    actions_played,
    choose_with_fallback,
    seats_connected,
    sitting_view,
    verify_action,
)

#: The messages a chouette's seat may send, besides ``ping``.
MESSAGE_TYPES = ("action", "suggest", "leave", "next_partie", "end")
PLACES = ("single", "playing", "advising")


@dataclass(frozen=True)
class ChouetteMessage:
    """A message from a browser at a chouette: ``ping``; ``action`` or ``suggest`` (with an action);
    ``leave`` (the adviser leaves the choice to the computer playing); ``next_partie``; ``end``."""

    type: str
    version: int = 0
    action: WireAction | None = None


def decode_chouette_message(obj: object) -> ChouetteMessage:
    """A chouette's client message from its parsed JSON; ``ProtocolError`` if it is malformed."""
    if not isinstance(obj, dict):
        raise ProtocolError("a message is a JSON object with a \"type\"")
    kind = obj.get("type")
    if kind == "ping":
        return ChouetteMessage("ping")
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(f"unknown message type {brief(kind)}; known: {', '.join(MESSAGE_TYPES)}, ping")
    what = f"a {kind}"
    version = message_version(obj, what)
    action = message_action(obj, what) if kind in ("action", "suggest") else None
    return ChouetteMessage(kind, version, action)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def rotation_words(before: Places, result: ChouettePartie, number: int) -> str:
    """Why the places of the next partie are what they are (p. 106), after partie ``number``."""
    after = before.after(result.single_won)
    if result.single_won is False:
        return (f"{before.single} lost partie {number}: {after.single}, who played against {before.single}, now "
                f"plays alone; {after.playing}, who advised, plays for the pair, and {after.advising} advises "
                f"{after.playing} (p. 106).")
    how = "won" if result.single_won else "did not lose (a drawn partie)"
    return (f"{before.single} {how} partie {number} and plays alone again; {after.playing}, who advised, now "
            f"plays for the pair, and {after.advising} advises {after.playing} (p. 106).")


def result_words(places: Places, result: ChouettePartie, number: int) -> str:
    """A partie's line on the chouette card, in words: who won, by how much, what goes on the card (p. 102)."""
    if result.single_won is None:
        return f"Partie {number} is drawn: nothing goes on the chouette card."
    tens = result.tens
    single = f"{places.single} {'+' if result.single_won else '-'}{2 * tens}"
    pair = ", ".join(f"{q} {'-' if result.single_won else '+'}{tens}" for q in (places.playing, places.advising))
    who = (f"{places.single}, playing alone, wins" if result.single_won
           else f"{places.playing} and {places.advising} win against {places.single}")
    return (f"{who} partie {number} by {result.points} points: {tens} on the chouette card, in tens (p. 102), "
            f"the single player's stake double (p. 106): {single}, {pair}.")


def headline_words(places: Places, result: ChouettePartie, me: str) -> str:
    """The end of a partie of the chouette, as ``me`` is told it: ``You win the partie, playing alone.``,
    ``Bob and Cy win the partie.``, ``The partie is drawn.``"""
    if result.single_won is None:
        return partie_headline(None, {})
    if result.single_won:
        return f"{verb(YOU if places.single == me else places.single, 'wins')} the partie, playing alone."
    return f"{places.playing} and {places.advising} win the partie."


def cut_words(match: ChouetteMatch) -> str:
    """The cut of three, in words (p. 106)."""
    cut = ", ".join(f"{name} the {card_words(card)}" for name, card in match.cut.items())
    p = match.cut_places
    return (f"The cut: {cut}. {p.single} cut the highest card and plays alone, with the choice of deal; "
            f"{p.advising} cut the lowest and advises {p.playing} (p. 106).")


@dataclass
class ChouetteTable:
    """A chouette at a table: its three seats (by name, in the order of ``match.players``), the chouette,
    whether the players have risen (``ended``), its version; see the module docstring."""

    id: str
    seats: dict[str, Seat]
    match: ChouetteMatch
    ended: bool = False
    version: int = 0
    #: The step (partie, deal, action) whose choice the adviser left to the computer playing ("leave"):
    #: kept in memory only, so after a restart he is asked again.
    left: tuple[int, int, int] | None = None
    _players: dict[str, Player] = field(default_factory=dict, repr=False)
    _card: tuple[int, dict[str, Any]] | None = field(default=None, repr=False)
    _rotation: tuple[int, str] | None = field(default=None, repr=False)
    #: Adjourned: nobody acts, the computer neither, until a player takes it up (stored as the status).
    adjourned: bool = False
    #: The persons' seats (by name) with a connection open to this server process.
    present: frozenset[str] = frozenset()

    # ------------------------------------------------------------ making

    @classmethod
    def new(cls, table_id: str, seats: list[Seat], seed: int, rules: Rules) -> ChouetteTable:
        """The three cut (p. 106): ``ChouetteError`` for names not three and different, or rules that are
        not a partie of Rubicon Piquet."""
        match = ChouetteMatch([s.name for s in seats], seed, rules)
        table = cls(table_id, {s.name: s for s in seats}, match)
        table.version = table.count()
        return table

    @classmethod
    def from_document(cls, table_id: str, seats: list[Seat], document: str, ended: bool) -> ChouetteTable:
        """Rebuild a chouette from its document, every partie replayed by the engine (``ChouetteError``)."""
        match = ChouetteMatch.from_json(document)
        if [s.name for s in seats] != list(match.players):
            raise ChouetteError(f"the seats {[s.name for s in seats]} are not the chouette's players "
                                f"{list(match.players)}")
        table = cls(table_id, {s.name: s for s in seats}, match, ended)
        table.version = table.count()
        return table

    def count(self) -> int:
        """The version the chouette is at: every choice of deal (the single player's, and when he lets the pair
        deal, its choice of dealing by twos or threes), action and suggestion of every partie, each next partie
        begun, and the end (the same from the document as in play)."""
        n = len(self.match.games) - 1 + (1 if self.ended else 0)
        for g in self.match.games:
            if g.dealer is not None:
                n += 1 + (g.partie is not None and g.dealer == PAIR_SEAT)
            if g.partie is not None:
                n += actions_played(g.partie)
            n += len(g.suggestions)
        return n

    def document(self) -> str:
        return self.match.to_json()

    # ------------------------------------------------------------ reading

    @property
    def status(self) -> str:
        if self.ended:
            return "finished"
        if self.adjourned:
            return "adjourned"
        if any(not s.is_computer and not s.joined for s in self.seats.values()):
            return "waiting"
        return "playing"

    def is_computer(self, name: str) -> bool:
        return self.seats[name].is_computer

    def seat_of_token(self, token: str) -> str | None:
        for name, seat in self.seats.items():
            if not seat.is_computer and seat.token_matches(token):
                return name
        return None

    def step(self) -> tuple[int, int, int] | None:
        """The step the pair is at when it is to act: (partie, deal, action), all from 0."""
        p = self.match.game.partie
        if p is None or p.current is None or not self.match.pair_to_move():
            return None
        return len(self.match.games) - 1, len(p.deals) - 1, len(p.current.history)

    def forced(self) -> bool:
        """The pair has one legal action: nothing to consult on."""
        obs = self.match.observation(self.match.places.playing)
        return obs is not None and obs.legal_count() == 1

    def may_suggest(self) -> bool:
        """The adviser may suggest: his side is to act, with more than one legal choice."""
        return not self.ended and self.match.pair_to_move() and not self.forced()

    def awaiting_advice(self) -> bool:
        """The computer plays for the pair and waits for his adviser, a person: a suggestion, or "leave"."""
        m = self.match
        places = m.places
        return (not self.ended and m.pair_to_move() and self.is_computer(places.playing)
                and not self.is_computer(places.advising) and not self.forced() and self.left != self.step())

    def card(self) -> ChouetteSession:
        return self.match.card()

    def summary(self) -> dict[str, Any]:
        """For the games list: the places of the partie in play, the parties finished, the card's balances."""
        m = self.match
        card = self.card()
        return {"places": {k: getattr(m.places, k) for k in PLACES}, "partie": len(m.games),
                "parties": len(card.parties), "balances": card.balances()}

    def view(self, name: str, told: bool = False) -> dict[str, Any]:
        """The VIEW of ``name``: his side's seat's view of the partie in play, and ``"chouette"`` (``told``: its
        shared parts as the texts kept for them, ``protocol.view``)."""
        m = self.match
        places = m.places
        seat = m.seat_of(name)
        players = {"A": places.single, "B": places.playing}
        levels = {s: self.seats[n].level or "" for s, n in players.items() if self.is_computer(n)}
        opponent = "computer" if self.is_computer(players["B" if seat == "A" else "A"]) else "person"
        partie = m.game.partie
        status = "finished" if m.partie_over() or self.ended else self.status
        if partie is None:
            v = self.choice_view(name, seat, players=players, status=status, opponent=opponent, levels=levels)
        else:
            v = view(partie, seat, players=players, status=status, cut=None, opponent=opponent, levels=levels,
                     told=told)
        here = seats_connected(self.seats, self.present)
        sitting_view(v, {s: here[n] for s, n in players.items()}, self.adjourned, "chouette")
        advising = name == places.advising
        suggest_options: list[dict[str, Any]] = []
        if advising:  # he advises: he may not act, and what he may suggest is his side's options
            suggest_options = v["options"] if self.may_suggest() else []
            v["my_turn"], v["options"] = False, []
            if not suggest_options:  # a club table: he may suggest a call at word when he may suggest at all
                v["at_word"] = None
        v["chouette"] = self.about(name, suggest_options)
        return v

    def choice_view(self, name: str, seat: str, **about: Any) -> dict[str, Any]:
        """The VIEW before the first deal of a partie: the single player chooses whether to deal, by twos or by
        threes (p. 106; Laws 4, 9), or lets the pair deal, and then the one who plays for it chooses how."""
        m = self.match
        places = m.places
        dealer = m.game.dealer
        which = "deal" if dealer is None else "deal_by"
        choosing = name == m.to_act() and not self.ended
        options = choice_options(m.rules, which) if choosing else []
        if dealer is None:
            if options:  # "Let Bob deal", not "Let your adversary deal": the pair is two
                options[-1]["label"] = deal_label(False, other=places.playing)
            prompt = ("You play alone and have the choice of deal throughout (p. 106). Deal first, by two or by "
                      "three cards at a time (Law 9)?" if choosing else
                      f"{places.single}, who plays alone, is choosing whether to deal (p. 106).")
        else:
            other = places.single if choosing else m.name_of(dealer)
            prompt = choice_prompt("deal_by", choosing, other)
        v = cut_view(m.rules, seat, None, chooser=choosing, options=options, which=which, prompt=prompt, **about)
        v["choice"] = which
        v["partie"]["dealer"] = dealer
        return v

    def message(self, name: str, told: bool = False) -> dict[str, Any]:
        v = self.view(name, told)
        return state_message(self.version, v["seat"], v)

    def about(self, name: str, suggest_options: list[dict[str, Any]]) -> dict[str, Any]:
        """The VIEW's ``"chouette"``: everything of the chouette this player may know (see docs/web.md)."""
        m = self.match
        places = m.places
        place = places.role(name)
        number = len(m.games)
        over = m.partie_over()
        result = m.game.result() if over else None
        advice = m.suggestion(name)  # None for the single player, always
        can_suggest = bool(suggest_options)
        here = seats_connected(self.seats, self.present)
        return {
            "me": name, "place": place, "number": number, "status": self.status, "ended": self.ended,
            "players": [{"name": n, "kind": "computer" if s.is_computer else "person", "level": s.level,
                         "joined": s.joined, "connected": here[n]} for n, s in self.seats.items()],
            "places": {k: getattr(places, k) for k in PLACES},
            "cut": {n: card_name(c) for n, c in m.cut.items()},
            "cut_words": self.rotation() if number == 1 else cut_words(m),
            "rotation": self.rotation(),
            "to_act": m.to_act(),
            "dealt": m.game.partie is not None,
            "advice": None if advice is None else self.advice_json(advice),
            "can_suggest": can_suggest,
            "suggest_options": suggest_options,
            "can_leave": can_suggest and self.is_computer(places.playing) and self.left != self.step(),
            "awaiting_advice": self.awaiting_advice(),
            "partie_over": over,
            "result": None if result is None else {
                "single": result.single, "winner": result.winner, "points": result.points, "tens": result.tens,
                "single_won": result.single_won, "words": result_words(places, result, number),
                "headline": headline_words(places, result, name)},
            "next_places": None if result is None else {
                **{k: getattr(places.after(result.single_won), k) for k in PLACES},
                "words": rotation_words(places, result, number)},
            "can_begin": (over and not self.ended and not self.adjourned and not self.is_computer(name)),
            "card": self.card_json(number - 1 + over),
        }

    def card_json(self, finished: int) -> dict[str, Any]:
        """The VIEW's chouette card (p. 102) after ``finished`` parties: made once for them, and shared."""
        if self._card is None or self._card[0] != finished:
            card = self.card()
            assert len(card.parties) == finished
            self._card = (finished, {
                "parties": finished,
                "html": scoring_card_html(card) if card.parties else "",
                "running": card.running()[-1] if card.parties else dict.fromkeys(self.match.players, 0),
                "balances": card.balances(),
                "words": card.result_words(),
                "json": to_json(card),
            })
        return self._card[1]

    def advice_json(self, s: Suggestion) -> dict[str, Any]:
        return {"by": s.by, "computer": self.is_computer(s.by), "action": encode_action(s.action),
                "words": action_words(s.action)}

    def rotation(self) -> str:
        """Why the places of the partie in play are what they are: the cut, or the last partie (p. 106)."""
        m = self.match
        if self._rotation is None or self._rotation[0] != len(m.games):
            if len(m.games) == 1:
                words = cut_words(m)
            else:
                before = m.games[-2]
                result = before.result()
                assert result is not None
                words = rotation_words(before.places, result, len(m.games) - 1)
            self._rotation = (len(m.games), words)
        return self._rotation[1]

    # ------------------------------------------------------------ acting

    def check_version(self, version: int) -> None:
        """``stale`` unless ``version`` is the table's, or one it had before suggestions only at this step (a
        suggestion does not make the player's choice, or another suggestion, out of date)."""
        g = self.match.game
        here = self.step()
        at_step = 0
        if here is not None:
            at_step = sum(1 for s in g.suggestions if (s.deal, s.step) == here[1:])
        if not self.version - at_step <= version <= self.version:
            raise TableError("stale", f"the table has moved on (version {self.version}, not {version}): "
                                      "look again and choose")

    def act(self, name: str, msg: ChouetteMessage) -> bool:
        """Check and apply what ``name`` sent; ``TableError`` (nothing changed) if refused.  True: the chouette
        changed (store it); False: only the consultation did ("leave", kept in memory)."""
        self.check_version(msg.version)
        if self.ended:
            raise TableError("illegal", "the chouette is over: the players have risen from the table")
        if self.adjourned:
            raise TableError("illegal", ADJOURNED.replace("partie", "chouette", 1))
        if msg.type == "action":
            assert msg.action is not None
            self._action(name, msg.action)
        elif msg.type == "suggest":
            assert msg.action is not None
            self._suggest(name, msg.action)
        elif msg.type == "leave":
            self._leave(name)
            return False
        elif msg.type == "next_partie":
            if not self.match.partie_over():
                raise TableError("illegal", "the partie in play is not finished: the next begins after it")
            self.match.next_partie()
            self.left = None
        elif msg.type == "end":
            if not self.match.partie_over() and self.match.game.partie is not None:
                raise TableError("illegal", "the partie in play is not finished: the players rise after it")
            self.ended = True
        else:
            raise TableError("malformed", f"unknown message type {msg.type!r}")
        self.version = self.count()
        return True

    def _deal_choice(self, name: str, action: WireAction) -> None:
        """The single player's choice of deal (p. 106), dealing by twos or threes (by twos when he does not say,
        as at the table of two), or, when he let the pair deal, the choice of how of the one who plays for it
        (Law 9)."""
        m = self.match
        chooser = m.to_act()
        if m.game.dealer is None:
            if name != chooser:
                raise TableError("turn", f"{chooser}, who plays alone, chooses whether to deal (p. 106)")
            if not isinstance(action, ChooseDeal):
                raise TableError("illegal", f"first {chooser}, who plays alone, chooses whether to deal (p. 106)")
        else:
            if name != chooser:
                raise TableError("turn", f"{chooser}, who deals first, chooses how he deals (Law 9)")
            if not isinstance(action, DealBy):
                raise TableError("illegal", f"first {chooser}, who deals, chooses to deal by twos or by threes "
                                            "(Law 9)")
        try:
            if isinstance(action, DealBy):
                m.deal_by(name, action.by)
            else:
                assert isinstance(action, ChooseDeal)
                m.choose_deal(name, action.deal, action.by)
        except (ChouetteError, IllegalAction) as e:
            raise TableError("illegal", str(e)) from None

    def _action(self, name: str, action: WireAction) -> None:
        m = self.match
        if m.game.partie is None:
            self._deal_choice(name, action)
            return
        if m.partie_over():
            raise TableError("illegal", "the partie is over: the next partie is begun, or the players rise")
        if isinstance(action, ChooseDeal | DealBy):
            raise TableError("illegal", "the deal is chosen: there is no choice of deal to make now (p. 106)")
        actor = m.to_act()
        if name != actor:
            if m.places.role(name) == "advising" and actor == m.places.playing:
                raise TableError("turn", f"you advise {actor}: you may suggest, and {actor} plays (p. 106)")
            raise TableError("turn", "it is not your turn")
        self._verify(name, action)
        m.apply(name, action)
        self.left = None

    def _verify(self, name: str, action: Action) -> None:
        """``TableError`` unless the laws let ``name``'s side take ``action`` now (the hand's cards unnamed)."""
        p = self.match.game.partie
        assert p is not None and p.current is not None
        verify_action(p.current, p.role(len(p.deals) - 1, self.match.seat_of(name)), action)

    def _suggest(self, name: str, action: WireAction) -> None:
        m = self.match
        places = m.places
        if name != places.advising:
            raise TableError("turn", f"{places.advising} advises in this partie, not you: only the adviser "
                                     "suggests (p. 106)")
        if m.game.partie is None or m.partie_over() or not m.pair_to_move():
            raise TableError("turn", f"{places.playing} is not to play: there is nothing to advise on")
        if self.forced():
            raise TableError("illegal", f"{places.playing} has one choice only: there is nothing to advise on")
        if isinstance(action, ChooseDeal | DealBy):
            raise TableError("illegal", f"{places.single}, who plays alone, chooses whether to deal (p. 106)")
        self._verify(name, action)
        m.suggest(name, action)
        if self.is_computer(places.playing):  # a computer playing for the pair follows his adviser
            m.apply(places.playing, action)
            self.left = None

    def _leave(self, name: str) -> None:
        m = self.match
        places = m.places
        if name != places.advising:
            raise TableError("turn", f"{places.advising} advises in this partie, not you")
        if not m.pair_to_move() or m.partie_over():
            raise TableError("turn", f"{places.playing} is not to play: there is nothing to leave to him")
        if not self.is_computer(places.playing):
            raise TableError("illegal", f"{places.playing} chooses for himself: suggest, or say nothing")
        self.left = self.step()

    # ------------------------------------------------------------ the computer seats

    def computer_job(self) -> Job | None:
        """What a computer seat is to do now: choose the deal (playing alone), act, or advise a person."""
        m = self.match
        actor = m.to_act()
        if self.ended or self.adjourned or m.partie_over() or actor is None:
            return None
        places = m.places
        if m.game.partie is None:
            return Job("deal", actor) if self.is_computer(actor) else None
        if actor == places.single:
            return Job("act", actor) if self.is_computer(actor) else None
        if self.is_computer(places.playing):
            return None if self.awaiting_advice() else Job("act", places.playing)
        if self.is_computer(places.advising) and not self.forced() and m.suggestion(places.playing) is None:
            return Job("suggest", places.advising)
        return None

    def thinking(self, job: Job) -> tuple[dict[str, Any], frozenset[str] | None]:
        """The ``thinking`` message, and who is told: a computer adviser's thought is the pair's."""
        seat = self.match.seat_of(job.seat)
        msg = {"type": "thinking", "seat": seat, "name": job.seat, "kind": job.kind}
        if job.kind == "suggest":
            return msg, frozenset((self.match.places.playing, self.match.places.advising))
        return msg, None

    def observation(self, name: str) -> Observation:
        obs = self.match.observation(name)
        assert obs is not None
        return obs

    def decider(self, job: Job) -> Callable[[], WireAction]:
        """A computer seat's choice, to be made in a worker thread: from its observation now (taken here,
        under the table's lock): whether to deal and how (he plays alone), how to deal (he plays for the pair,
        which deals), his action, or his suggestion."""
        if job.kind == "deal":
            player = self._player(job.seat)
            if self.match.game.dealer is not None:
                return lambda: DealBy(player.deal_by())
            return lambda: ChooseDeal(*single_choice(player))
        return functools.partial(choose_with_fallback, self._players, job.seat, self._level(job.seat),
                                 self._seed_of(job.seat), self.observation(job.seat), f"chouette {self.id}")

    def _level(self, name: str) -> str:
        return self.seats[name].level or "random"

    def _seed_of(self, name: str) -> int:
        return self.match.seed * 3 + self.match.players.index(name)

    def _player(self, name: str) -> Player:
        """The computer player of ``name``, made once per chouette in memory."""
        if name not in self._players:
            self._players[name] = make_player(self._level(name), self._seed_of(name))
        return self._players[name]

    def fallback(self, job: Job) -> WireAction:
        if job.kind == "deal":
            return ChooseDeal(True, 2) if self.match.game.dealer is None else DealBy(2)
        return self.observation(job.seat).sample(random.Random())

    def perform(self, job: Job, action: WireAction) -> bool:
        """Apply a computer seat's choice (``TableError`` if refused)."""
        if job.kind == "deal":
            self._deal_choice(job.seat, action)
        elif isinstance(action, ChooseDeal | DealBy):
            raise TableError("illegal", "the deal is chosen")
        elif job.kind == "suggest":
            self._verify(job.seat, action)
            self.match.suggest(job.seat, action)
        else:
            self._verify(job.seat, action)
            self.match.apply(job.seat, action)
            self.left = None
        self.version = self.count()
        return True


__all__ = ["ChouetteMessage", "ChouetteTable", "MESSAGE_TYPES", "decode_chouette_message", "result_words",
           "rotation_words"]
