"""Chouette: piquet for three (p. 106), as a state machine and a runner, outside the core.

"The three players (A, B, C,) cut.  The one who cuts the highest card (A) has
choice of deal and cards, and plays one partie, à la chouette, against the
other two in consultation.  The player who cuts the lowest card (C) sits out,
and advises B."  The rotation after each partie is ``Places.after`` (p. 106,
``stakes.chouette_seats_after``); the single player "has choice of deal and
cards throughout, and plays double stakes"; the totals of each partie go on a
chouette card (p. 102, ``stakes.ChouetteSession``).

Each partie is an ordinary two-handed partie, driven by the partie's state machine
(``piquet.core.state.PartieState``) from the choice of deal on: the single player, who "has choice
of deal and cards throughout", chooses whether to deal; whoever deals first chooses to deal by twos or
by threes for the partie (Law 9; the state's ``DealBy``): the single player, dealing, in the same
choice (as the winner of the cut at the web table of two), or the one who plays for the pair, when
he is let deal (his adviser has nothing to suggest here).  Chance deals each hand from the seed.  The
single player sits at seat ``A``, the other two at seat ``B``, where the one who plays acts and the
one who advises may suggest.  Both of them see the observation of seat ``B`` (the hand they consult
on), never the single player's cards; a suggestion is shown to the pair only, for it names their cards.

``ChouetteMatch`` is the state: whose turn, the suggestion standing, what each
may see, the card; it is what a server drives.  ``ChouetteRunner`` plays it
between players (computer levels, or a person at a terminal):

- a person playing for the pair is shown his adviser's suggestion when the
  adviser is the computer (its level's own choice);
- a computer playing for the pair with a person advising asks his advice and
  follows it when it is legal (the person may leave the choice to him);
- between two computers nothing is said.

>>> from piquet.players.base import SimplePlayer
>>> match = ChouetteMatch(("Ann", "Bob", "Cy"), seed=3)
>>> ChouetteRunner(match, {name: SimplePlayer() for name in match.players}).play_parties(2)
>>> len(match.card().parties), match.card().parties[0].single == match.cut_places.single
(2, True)
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from piquet.core.actions import Action, parse_action
from piquet.core.cards import Card, CardError, card_name, parse_card, rank_of
from piquet.core.deal import IllegalAction, deal_from_pack
from piquet.core.events import ELDER, YOUNGER
from piquet.core.observation import Observation
from piquet.core.partie import Partie
from piquet.core.rules import RUBICON, Rules, rules_named
from piquet.core.state import CHANCE, ChooseDeal, Cut, DealBy, PartieState, Shuffle, Stage, shuffle_of
from piquet.players.base import Correctable, Player
from piquet.records.jsontext import read_json
from piquet.records.record import PartieRecord, RecordError, record_of, replay
from piquet.stakes.settlement import ChouettePartie, ChouetteSession, chouette_seats_after

FORMAT = "piquet-chouette/1"
#: The single player sits at seat A of each partie, the two in consultation at seat B.
SINGLE_SEAT, PAIR_SEAT = "A", "B"


class ChouetteError(ValueError):
    """Something a player may not do at chouette now: the message says why."""


@dataclass(frozen=True)
class Places:
    """Who plays alone, who plays for the other two, and who advises him, in one partie (p. 106)."""

    single: str
    playing: str
    advising: str

    def after(self, single_won: bool | None) -> Places:
        """The places of the next partie: the single player continues while he wins (or draws); when he
        loses, the one who played against him plays alone, the adviser plays, and he advises (p. 106)."""
        return Places(*chouette_seats_after(self.single, self.playing, self.advising, single_won))

    def role(self, name: str) -> str:
        """``single``, ``playing`` or ``advising``."""
        for role in ("single", "playing", "advising"):
            if getattr(self, role) == name:
                return role
        raise ChouetteError(f"{name!r} is not at this table")


def cut_for_chouette(players: Sequence[str], rng: random.Random) -> tuple[dict[str, Card], Places]:
    """The three cut (ace high): the highest plays alone, the lowest advises the third (p. 106).

    Cards of equal rank cut again (all three, as Law 5 would have a fresh cut)."""
    while True:
        cards = rng.sample(range(32), 3)
        ranks = [rank_of(c) for c in cards]
        if len(set(ranks)) == 3:
            break
    cut = dict(zip(players, cards, strict=True))
    order = sorted(players, key=lambda p: rank_of(cut[p]), reverse=True)
    return cut, Places(order[0], order[1], order[2])


@dataclass(frozen=True)
class Suggestion:
    """An adviser's suggestion: the action he would take for the pair at this step of this deal."""

    by: str
    deal: int  # index of the deal in the partie
    step: int  # how many actions had been taken in that deal
    action: Action


class ChouetteChance:
    """The cards of partie ``number`` (from 0) of a chouette: deal ``i`` shuffled by ``deal_rng(seed, number,
    i)``; the cut is the chouette's, of three (``cut_for_chouette``), not the partie's."""

    def __init__(self, seed: int, number: int) -> None:
        self.seed = seed
        self.number = number

    def cut(self, attempt: int) -> Cut:
        raise ChouetteError("the three cut once for the chouette (p. 106): its parties have no cut of their own")

    def shuffle(self, index: int) -> Shuffle:
        return shuffle_of(deal_rng(self.seed, self.number, index))


@dataclass
class ChouetteGame:
    """One partie of the chouette: its places, its state (from the single player's choice of deal on), and
    the suggestions made in it."""

    places: Places
    state: PartieState | None = None
    suggestions: list[Suggestion] = field(default_factory=list)

    @property
    def partie(self) -> Partie | None:
        """The partie, once the single player has chosen whether to deal and the dealer how (None before)."""
        return None if self.state is None else self.state.partie

    @property
    def dealer(self) -> str | None:
        """The seat of the first dealer, once the single player has chosen (``SINGLE_SEAT`` or ``PAIR_SEAT``)."""
        return None if self.state is None else self.state.dealer

    def result(self) -> ChouettePartie | None:
        """The partie's line on the chouette card (p. 102), once it is finished."""
        if self.partie is None or not self.partie.is_finished:
            return None
        s = self.partie.settlement()
        if s.winner is None:
            return ChouettePartie(self.places.single, None, 0)
        winner = self.places.single if s.winner == SINGLE_SEAT else self.places.playing
        return ChouettePartie(self.places.single, winner, s.points_won or 0)


class ChouetteMatch:
    """A chouette in progress: the parties played and the one in play; who is to act; what each may see."""

    def __init__(self, players: Sequence[str], seed: int, rules: Rules = RUBICON) -> None:
        names = tuple(players)
        if len(names) != 3 or len(set(names)) != 3 or not all(n.strip() for n in names):
            raise ChouetteError(f"a chouette is of three players with different names, found {list(names)}")
        if rules.partie_of_games:
            raise ChouetteError(f"a chouette is of parties of Rubicon Piquet (p. 106), not of {rules.title}")
        self.players: tuple[str, str, str] = (names[0], names[1], names[2])
        self.seed = seed
        self.rules = rules
        self.cut, self.cut_places = cut_for_chouette(self.players, random.Random(f"piquet:{seed}:chouette:cut"))
        self.games: list[ChouetteGame] = [self._game(self.cut_places, 0)]

    def _game(self, places: Places, number: int) -> ChouetteGame:
        """Partie ``number`` (from 0), the choice of deal the single player's (p. 106)."""
        return ChouetteGame(places, PartieState.after_cut(self.rules, ChouetteChance(self.seed, number), SINGLE_SEAT))

    # ------------------------------------------------------------ where things stand

    @property
    def game(self) -> ChouetteGame:
        """The partie in play (or the last one, finished, until the next is begun)."""
        return self.games[-1]

    @property
    def places(self) -> Places:
        return self.game.places

    def partie_over(self) -> bool:
        """The partie in play is finished: ``next_partie`` begins another."""
        p = self.game.partie
        return p is not None and p.is_finished

    def seat_of(self, name: str) -> str:
        """The seat of the partie in play whose observation ``name`` sees."""
        return SINGLE_SEAT if self.places.role(name) == "single" else PAIR_SEAT

    def name_of(self, seat: str) -> str:
        """Who acts for ``seat`` in the partie in play: the single player, or the one who plays for the pair."""
        return self.places.single if seat == SINGLE_SEAT else self.places.playing

    def to_act(self) -> str | None:
        """Who must act now: the single player choosing the deal, the first dealer choosing how he deals, or
        the one who plays for his side."""
        p = self.game.partie
        if p is None:
            dealer = self.game.dealer
            return self.places.single if dealer is None else self.name_of(dealer)
        deal = p.current
        if deal is None or deal.to_move is None:
            return None
        return self.name_of(p.seat(len(p.deals) - 1, deal.to_move))

    def pair_to_move(self) -> bool:
        """The pair is to act: the adviser may suggest."""
        p = self.game.partie
        return p is not None and self.to_act() == self.places.playing

    def observation(self, name: str) -> Observation | None:
        """What ``name`` may see: the single player his hand, the other two theirs (never the other's)."""
        p = self.game.partie
        if p is None or not p.deals:
            return None
        return p.observation(self.seat_of(name))

    def suggestion(self, name: str) -> Suggestion | None:
        """The adviser's suggestion standing for this step, as ``name`` may see it (the pair only)."""
        if self.places.role(name) == "single" or not self.pair_to_move():
            return None
        p = self.game.partie
        assert p is not None and p.current is not None
        here = (len(p.deals) - 1, len(p.current.history))
        for s in reversed(self.game.suggestions):
            if (s.deal, s.step) == here:
                return s
        return None

    # ------------------------------------------------------------ acting

    def choose_deal(self, name: str, deals: bool, by: int | None = None) -> Partie | None:
        """The single player's choice of deal (p. 106: he has it throughout), as the winner of the cut's at the
        table of two: dealing, he says how, by two or by three cards at a time (``by``; by twos when he does
        not say, Law 9), and the partie is dealt; letting the pair deal, the one who plays for it is to say how
        (``deal_by``).  The partie, once dealt (None while the pair chooses how).  ``ChouetteError`` if it is
        not his to choose, ``IllegalAction`` for a mode the laws do not know; either way nothing changes."""
        state = self.game.state
        if self.game.partie is not None or state is None or state.stage is not Stage.CHOICE:
            raise ChouetteError("the deal is chosen: the partie has begun" if self.game.partie is not None
                                else "the deal is chosen: the dealer is choosing how he deals (Law 9)")
        if name != self.places.single:
            raise ChouetteError(f"{self.places.single}, who plays alone, chooses whether to deal (p. 106)")
        if not deals:
            if by is not None:
                raise ChouetteError("the one who deals chooses how he deals (Law 9): letting the other deal, "
                                    "you do not say how")
            state.apply(ChooseDeal(False))
            return None
        by = 2 if by is None else by
        _verify(state, [ChooseDeal(True), DealBy(by)])
        state.apply(ChooseDeal(True))
        return self.deal_by(name, by)

    def deal_by(self, name: str, by: int) -> Partie:
        """The first dealer deals by two or by three cards at a time, for the partie (Law 9); the first deal is
        dealt.  The pair, when the single player lets it deal: the one who plays for it says how (his adviser
        has nothing to suggest here).  ``ChouetteError`` or ``IllegalAction`` as ``choose_deal``."""
        state = self.game.state
        if state is None or state.stage is not Stage.DEAL_BY:
            raise ChouetteError("the partie has begun: the dealer chose how he deals (Law 9)"
                                if self.game.partie is not None else
                                f"{self.places.single}, who plays alone, has first to choose whether to deal "
                                "(p. 106)")
        dealer = self.to_act()
        if name != dealer:
            raise ChouetteError(f"{dealer}, who deals first, chooses how he deals (Law 9), not {name}")
        state.apply(DealBy(by))  # PartieError, nothing changed, for a mode the laws do not know
        state.run_chance()
        assert state.partie is not None
        return state.partie

    def apply(self, name: str, action: Action) -> None:
        """``name`` acts; ``ChouetteError`` if it is not his to act, ``IllegalAction`` if the laws forbid it.
        Either way nothing changes."""
        p = self.game.partie
        if p is None:
            if self.game.dealer is not None:
                raise ChouetteError(f"{self.to_act()} has first to choose how he deals (Law 9)")
            raise ChouetteError(f"{self.places.single} has first to choose whether to deal (p. 106)")
        actor = self.to_act()
        if actor is None:
            raise ChouetteError("the partie is over")
        if name != actor:
            if self.places.role(name) == "advising" and actor == self.places.playing:
                raise ChouetteError(f"{name} advises {actor}: he may suggest, and {actor} plays (p. 106)")
            raise ChouetteError(f"it is for {actor} to act, not {name}")
        state = self.game.state
        assert state is not None
        state.apply(action)
        if state.to_act == CHANCE:
            state.run_chance()

    def suggest(self, name: str, action: Action) -> Suggestion:
        """The adviser suggests an action for his side: legal now, shown to the pair only."""
        if self.places.role(name) != "advising":
            raise ChouetteError(f"{self.places.advising} advises in this partie, not {name}")
        if not self.pair_to_move():
            raise ChouetteError(f"{self.places.playing} is not to play: there is nothing to advise on")
        p = self.game.partie
        assert p is not None and p.current is not None
        p.current.verify(action)  # IllegalAction: the laws forbid it, whoever suggests it
        s = Suggestion(name, len(p.deals) - 1, len(p.current.history), action)
        self.game.suggestions.append(s)
        return s

    def next_partie(self) -> Places:
        """After a finished partie, the places of the next by the rotation of p. 106."""
        result = self.game.result()
        if result is None:
            raise ChouetteError("the partie in play is not finished")
        places = self.places.after(result.single_won)
        self.games.append(self._game(places, len(self.games)))
        return places

    # ------------------------------------------------------------ the card and the record

    def card(self) -> ChouetteSession:
        """The chouette card of the parties finished (p. 102)."""
        done = [r for r in (g.result() for g in self.games) if r is not None]
        return ChouetteSession(self.players, tuple(done))

    def to_json(self) -> str:
        """The chouette as a document: the cut, and for each partie its places, record and suggestions."""
        doc: dict[str, Any] = {
            "format": FORMAT, "players": list(self.players), "rules": self.rules.spec, "seed": self.seed,
            "cut": {name: card_name(c) for name, c in self.cut.items()},
            "parties": [_game_json(g) for g in self.games],
        }
        return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> ChouetteMatch:
        """Read a chouette written by ``to_json``, every partie replayed by the engine; ``ChouetteError``
        says what is wrong (the file is left as it was)."""
        try:
            doc = read_json(text)
        except json.JSONDecodeError as e:
            raise ChouetteError(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ChouetteError(f"not a chouette: the document's \"format\" is not {FORMAT!r}")
        try:
            match = cls(doc["players"], int(doc["seed"]), rules_named(str(doc.get("rules", "rubicon"))))
            cut = {str(k): parse_card(str(v)) for k, v in dict(doc.get("cut", {})).items()}
            if cut and cut != match.cut:
                raise ChouetteError("the cut does not follow from the seed")
            match.games = []
            places = match.cut_places
            for n, g in enumerate(doc["parties"], 1):
                match.games.append(_game_from_json(g, n, places, match))
                _check_cards(match.games[-1], match.seed, n)
                result = match.games[-1].result()
                if result is not None:
                    places = places.after(result.single_won)
                elif n < len(doc["parties"]):
                    raise ChouetteError(f"partie {n} is not finished, yet another follows it")
            if not match.games:
                match.games = [match._game(match.cut_places, 0)]
        except (KeyError, TypeError) as e:
            raise ChouetteError(f"not shaped like a chouette: {e}") from None
        except (RecordError, CardError, IllegalAction) as e:
            raise ChouetteError(str(e)) from None
        return match


def single_choice(player: Player) -> tuple[bool, int | None]:
    """What the single player answers to his choice of deal (p. 106): whether he deals (his ``choose_deal``) and,
    dealing, how (``deal_by``, Law 9): ``ChouetteMatch.choose_deal``'s ``deals`` and ``by``."""
    deals = player.choose_deal(True)
    return deals, player.deal_by() if deals else None


def _verify(state: PartieState, choices: list[ChooseDeal | DealBy]) -> None:
    """``PartieError`` (an ``IllegalAction``) unless the state allows ``choices`` in turn now; nothing changed."""
    scratch = copy.copy(state)  # before the deal: nothing of the state's is changed in place
    for c in choices:
        scratch.apply(c)


def deal_rng(seed: int, partie: int, deal: int) -> random.Random:
    """The generator of the shuffle of deal ``deal`` of partie ``partie`` (both from 0): a seed deals the
    same cards again."""
    return random.Random(f"piquet:{seed}:chouette:{partie}:deal:{deal}")


def _check_cards(game: ChouetteGame, seed: int, n: int) -> None:
    """Every deal of partie ``n`` (from 1) is the one the seed deals, by twos or threes as the partie is (Law 9)."""
    if game.partie is None:
        return
    for i, deal in enumerate(game.partie.deals):
        order = list(range(32))
        deal_rng(seed, n - 1, i).shuffle(order)
        elder, younger, stock = deal_from_pack(order, game.partie.deal_by)
        if (deal.dealt[ELDER], deal.dealt[YOUNGER], deal.stock) != (elder, younger, stock):
            raise ChouetteError(f"partie {n}, deal {i + 1}: the cards are not those the seed {seed} deals")


def _game_json(g: ChouetteGame) -> dict[str, Any]:
    out: dict[str, Any] = {"single": g.places.single, "playing": g.places.playing, "advising": g.places.advising}
    if g.partie is not None:  # the record says how the partie is dealt ("deal_by": 3; none: by twos)
        names = {SINGLE_SEAT: g.places.single, PAIR_SEAT: g.places.playing}
        out["record"] = json.loads(record_of(g.partie, names).to_json())
    if g.dealer is not None:  # before the record: the dealer chosen, choosing how he deals (Law 9)
        out["first_dealer"] = g.dealer
    out["suggestions"] = [{"by": s.by, "deal": s.deal, "step": s.step, "action": str(s.action)}
                          for s in g.suggestions]
    return out


def _game_from_json(g: dict[str, Any], n: int, places: Places, match: ChouetteMatch) -> ChouetteGame:
    stated = Places(str(g["single"]), str(g["playing"]), str(g["advising"]))
    if stated != places:
        raise ChouetteError(f"partie {n}: the places are not those of the rotation (p. 106): by it "
                            f"{places.single} plays alone, {places.playing} plays and {places.advising} advises")
    rules = match.rules
    game = match._game(places, n - 1)
    if "record" in g:
        record = PartieRecord.from_json(json.dumps(g["record"]))
        if record.rules_in_force != rules:
            raise ChouetteError(f"partie {n} is not played under the chouette's rules ({rules.spec})")
        partie = replay(record)
        if partie.first_dealer != g.get("first_dealer", partie.first_dealer):
            raise ChouetteError(f"partie {n}: the first dealer does not match its record")
        game.state = PartieState.resume(partie, ChouetteChance(match.seed, n - 1))
    elif "first_dealer" in g:  # the single player let the pair deal; it has yet to say how (Law 9)
        if g["first_dealer"] != PAIR_SEAT:
            raise ChouetteError(f"partie {n}: a first dealer with no record is the pair ({PAIR_SEAT}), whom the "
                                f"single player let deal, not {g['first_dealer']!r}")
        assert game.state is not None
        game.state.apply(ChooseDeal(False))
    for s in g.get("suggestions", []):
        game.suggestions.append(Suggestion(str(s["by"]), int(s["deal"]), int(s["step"]),
                                           parse_action(str(s["action"]))))
    _check_suggestions(game, n)
    return game


def _check_suggestions(game: ChouetteGame, n: int) -> None:
    """Every suggestion of partie ``n`` is one the adviser could make (p. 106): his, at a step the partie
    reached with his side to act, and legal there (the deals replayed from their cards)."""
    if not game.suggestions:
        return
    done = game.partie
    if done is None:
        raise ChouetteError(f"partie {n}: a suggestion before any deal")
    waiting: dict[tuple[int, int], list[Suggestion]] = {}
    for s in game.suggestions:
        if s.by != game.places.advising:
            raise ChouetteError(f"partie {n}: a suggestion by {s.by}, but {game.places.advising} advises")
        waiting.setdefault((s.deal, s.step), []).append(s)
    partie = Partie(done.rules, done.first_dealer, done.deal_by)
    for i, played in enumerate(done.deals):
        deal = partie.deal_cards(played.dealt[ELDER], played.dealt[YOUNGER], played.stock)
        for j in range(len(played.history) + 1):
            for s in waiting.pop((i, j), []):
                where = f"partie {n}, deal {i + 1}, step {j + 1}"
                if deal.to_move is None or partie.seat(i, deal.to_move) != PAIR_SEAT:
                    raise ChouetteError(f"{where}: a suggestion when {game.places.playing} is not to play")
                try:
                    deal.verify(s.action)
                except IllegalAction as e:
                    raise ChouetteError(f"{where}: the suggestion {s.action} is not legal: {e}") from None
            if j < len(played.history):
                deal.apply(played.history[j])
    if waiting:
        i, j = min(waiting)
        raise ChouetteError(f"partie {n}: a suggestion at deal {i + 1}, step {j + 1}, which the partie never reached")


# ---------------------------------------------------------------- playing it


@runtime_checkable
class Adviser(Protocol):
    """A person who advises: asked for a suggestion, he may give one or leave the choice (None)."""

    def advise(self, obs: Observation, playing: str) -> Action | None: ...


@runtime_checkable
class Advised(Protocol):
    """A person who plays for the pair: told his adviser's suggestion before he chooses."""

    def advised(self, adviser: str, action: Action) -> None: ...


class ChouetteListener:
    """What a runner tells as the chouette goes; every method does nothing unless overridden."""

    def partie_started(self, match: ChouetteMatch) -> None:
        """A partie is dealt: ``match.places`` says who plays alone, who plays and who advises."""

    def suggested(self, match: ChouetteMatch, suggestion: Suggestion) -> None:
        """The adviser suggested an action."""

    def action_applied(self, match: ChouetteMatch, name: str, action: Action) -> None:
        """``name`` acted (save the record here)."""

    def partie_finished(self, match: ChouetteMatch, result: ChouettePartie) -> None:
        """A partie is over: its line on the chouette card."""


def _is_person(player: object) -> bool:
    return isinstance(player, Correctable)


class ChouetteRunner:
    """Plays a chouette between three players, by name: computer levels, or persons (``Correctable``)."""

    def __init__(self, match: ChouetteMatch, players: Mapping[str, Player],
                 listener: ChouetteListener | None = None) -> None:
        if set(players) != set(match.players):
            raise ChouetteError(f"players are needed for {', '.join(match.players)}")
        self.match = match
        self.players = dict(players)
        self.listener = listener or ChouetteListener()

    def play_partie(self) -> ChouettePartie:
        """Play the partie in play to its end (beginning it if need be) and return its line on the card."""
        m = self.match
        if m.partie_over():
            m.next_partie()
        if m.game.dealer is None:
            single = m.places.single
            m.choose_deal(single, *single_choice(self.players[single]))
        if m.game.partie is None:  # the pair deals: the one who plays for it says how (Law 9)
            m.deal_by(m.places.playing, self.players[m.places.playing].deal_by())
        self.listener.partie_started(m)
        while (actor := m.to_act()) is not None:
            action = self._decide(actor)
            self.listener.action_applied(m, actor, action)
        result = m.game.result()
        assert result is not None
        self.listener.partie_finished(m, result)
        return result

    def play_parties(self, n: int) -> None:
        for _ in range(n):
            self.play_partie()

    def _advice(self, obs: Observation) -> Action | None:
        """The adviser's suggestion, when someone will hear it (a person advising, or a person playing) and
        there is a choice to advise on."""
        if obs.legal_count() < 2:
            return None
        m = self.match
        adviser, playing = self.players[m.places.advising], self.players[m.places.playing]
        if isinstance(adviser, Adviser) and _is_person(adviser):
            return adviser.advise(obs, m.places.playing)
        if _is_person(playing) and not _is_person(adviser):
            return adviser.choose(obs)
        return None

    def _decide(self, actor: str) -> Action:
        m = self.match
        player = self.players[actor]
        obs = m.observation(actor)
        assert obs is not None
        advice = self._advice(obs) if actor == m.places.playing else None
        if advice is not None:
            try:
                s = m.suggest(m.places.advising, advice)
            except IllegalAction as e:
                adviser = self.players[m.places.advising]
                if isinstance(adviser, Correctable):
                    adviser.rejected(e)
                advice = None
            else:
                self.listener.suggested(m, s)
                if isinstance(player, Advised):
                    player.advised(m.places.advising, advice)
        while True:
            # A computer playing for the pair follows a person's legal suggestion (their consultation).
            follow = advice is not None and not _is_person(player)
            action = advice if follow and advice is not None else player.choose(obs)
            try:
                m.apply(actor, action)
            except IllegalAction as e:
                if isinstance(player, Correctable):
                    player.rejected(e)
                    obs = m.observation(actor) or obs
                    continue
                raise
            return action


__all__ = [
    "FORMAT", "Advised", "Adviser", "ChouetteError", "ChouetteGame", "ChouetteListener", "ChouetteMatch",
    "ChouetteChance", "ChouetteRunner", "PAIR_SEAT", "Places", "SINGLE_SEAT", "Suggestion",
    "cut_for_chouette", "deal_rng", "single_choice",
]
