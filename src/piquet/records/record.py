"""The piquet record format (``piquet-record/1``): read, write and replay.

A record describes deals completely enough to replay them: the cards, every
choice each player made and the rules in force (see
``docs/record-format.md``).  Reading keeps the cards in the order written;
``replay`` puts every step through the engine, which checks it against the
laws, and computes every score.  ``record_of`` writes the record of a partie
in the canonical orders, so that a record the program wrote reads back and
replays to the same record, byte for byte.  A deal's ``irregularities`` are
the referee's rulings on it (``Ruled``: kind, facts, remedy chosen), from
which its standing exchange (Laws 40-43), its exchanges against the laws
(Laws 30, 31, 35) and its penalties (Laws 44, 58) are derived.

>>> r = parse_record('{"deals": []}')
>>> r.rules, r.deals
('rubicon', [])
>>> replay(r).scores
{'A': 0, 'B': 0}
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

from piquet.core.actions import (
    PLAYS,
    Action,
    DeclarePoint,
    DeclareSequences,
    DeclareSets,
    Discard,
    LookAtLeft,
    Play,
)
from piquet.core.cards import Card, CardError, Mask, card_name, cards_of, parse_card
from piquet.core.deal import PENALTY, STANDING, TAKE_IN, Deal, IllegalAction, Irregular, Limits, Phase
from piquet.core.events import ELDER, ROLES, YOUNGER
from piquet.core.events import Play as Played
from piquet.core.partie import Partie
from piquet.core.referee import (
    ENTRIES,
    FACTS,
    IRREGULARITIES,
    PENALTIES,
    TABLE_ONLY,
    Irregularity,
    Kind,
    Option,
    Remedy,
    Ruling,
    deal_limits,
    rule,
)
from piquet.core.rules import RUBICON, RULES, SEATS, Rules, rules_named
from piquet.records.jsontext import JSONRefused, brief, read_json

FORMAT = "piquet-record/1"

CATEGORIES = ("point", "sequences", "sets")
_CATEGORY_LAWS = ("Law 62", "Law 63", "Law 64")
_DISCARD_LAWS = ("Law 21", "Laws 22, 34")
_LOOK_LAWS = ("Law 33", "Law 36")
#: Pack problems: a card unknown, named twice or missing (Law 75: an incorrect pack).
_PACK_LAW = "Law 75"
#: Twelve cards to each player, eight in the stock (Law 9).
_DEAL_LAW = "Law 9"
#: The steps a penalty of reckoning nothing may follow: it is entered before the calling begins.
AFTER_STEPS = ("elder_discard", "elder_looks_at_left", "younger_discard")
_RULED_KEYS = ("kind", "facts", "law", "remedy", "took_in", "after")


def remedy_name(remedy: Remedy) -> str:
    """A remedy's name in a record.

    >>> remedy_name(Remedy.MORE_THAN_TWELVE), remedy_name(Remedy.WAIVE)
    ('more-than-twelve', 'waive')
    """
    return remedy.name.lower().replace("_", "-")


_REMEDIES = {remedy_name(r): r for r in Remedy}


class RecordError(ValueError):
    """A record that cannot be read or replayed: where (deal, step), what is wrong, and the law.

    >>> str(RecordError("QS is not in the elder hand", deal=2, step="elder's discard", law="Law 21"))
    "deal 2, elder's discard: QS is not in the elder hand (Law 21)"
    """

    def __init__(self, message: str, deal: int | None = None, step: str | None = None,
                 law: str | None = None) -> None:
        self.message = message
        self.deal = deal
        self.step = step
        self.law = law
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ", ".join(p for p in (f"deal {self.deal}" if self.deal is not None else "", self.step or "") if p)
        text = f"{where}: {self.message}" if where else self.message
        return f"{text} ({self.law})" if self.law else text


# ---------------------------------------------------------------- the data


@dataclass(frozen=True)
class HandCalls:
    """What one player declared, as the cards counted, in the order written.

    ``None`` means the field is absent (the record stops before it).  A point
    of ``()`` is a call of no point (written ``null``); empty ``sequences`` or
    ``sets`` declare none.  Anything held and not listed was sunk (p. 93).
    """

    point: tuple[Card, ...] | None = None
    sequences: tuple[tuple[Card, ...], ...] | None = None
    sets: tuple[tuple[Card, ...], ...] | None = None

    def get(self, category: int) -> tuple[Card, ...] | tuple[tuple[Card, ...], ...] | None:
        return (self.point, self.sequences, self.sets)[category]

    @property
    def empty(self) -> bool:
        return self.point is None and self.sequences is None and self.sets is None


@dataclass(frozen=True)
class Calls:
    """The declarations of the elder and of the younger hand."""

    elder: HandCalls = field(default_factory=HandCalls)
    younger: HandCalls = field(default_factory=HandCalls)

    def of(self, role: int) -> HandCalls:
        return self.elder if role == ELDER else self.younger

    @property
    def empty(self) -> bool:
        return self.elder.empty and self.younger.empty


@dataclass(frozen=True)
class Ruled:
    """An irregularity of a deal as the referee ruled it (``piquet.core.referee``): what happened at the table
    (``irregularity``: its kind and facts) and the remedy chosen, with what it did to the deal.

    A ``wrong-count`` ruled to stand gives the deal's exchange (Laws 40-43).  ``took_in``: an exchange against the
    laws (Laws 30, 31, 35): the hand the remedy falls on discarded the cards of his ``*_discard`` and took in this
    many.  A penalty remedy enters his reckoning nothing (Law 58) after the step ``after`` names (one of
    ``AFTER_STEPS``), or, if ``None``, at once: after its exchange, else before the elder discards; ``waive``
    enters none (Law 44).  ``law``: the ruling's law as written, checked when replayed.
    """

    irregularity: Irregularity
    remedy: Remedy
    took_in: int | None = None
    after: str | None = None
    law: str | None = None

    def ruling(self, rules: Rules = RUBICON) -> Ruling:
        """The referee's ruling on it (``ValueError`` if the facts do not say enough)."""
        return rule(self.irregularity, rules)


@dataclass
class DealRecord:
    """One deal as recorded: the cards dealt and every choice, cards in the order written."""

    dealer: str
    elder: tuple[Card, ...]
    younger: tuple[Card, ...]
    stock: tuple[Card, ...]
    elder_discard: tuple[Card, ...] | None = None
    younger_discard: tuple[Card, ...] | None = None
    younger_looks_at_left: bool | None = None
    #: Project field: whether the elder looked at the cards he left (Law 33); absent is false.
    elder_looks_at_left: bool | None = None
    calls: Calls = field(default_factory=Calls)
    play: tuple[Card, ...] = ()
    #: Project field: the irregularities of the deal and the remedies chosen (Laws 25-58), in order.
    irregularities: tuple[Ruled, ...] = ()
    #: Project field: the players' names from this deal on, where they changed during the partie (``piquet play
    #: --resume --level``: the computer's level is in its name); absent, the names in force go on.
    players: dict[str, str] | None = None


@dataclass
class PartieRecord:
    """A record: the rules, the players' names and the deals, in order."""

    rules: str = "rubicon"
    players: dict[str, str] | None = None
    deals: list[DealRecord] = field(default_factory=list)
    #: Project fields, written only when set: the seed of the shuffles, dealing by 2 or 3 (Law 9).
    seed: int | None = None
    deal_by: int | None = None
    #: Piquet au cent's options by agreement (p. 19), by their canonical names: "small-cards", "fours".
    agreements: tuple[str, ...] = ()

    def players_at(self, index: int) -> dict[str, str] | None:
        """The players' names in force at deal ``index`` (from 0): the record's, as the deals up to it change
        them (their ``players``)."""
        names = None if self.players is None else dict(self.players)
        for d in self.deals[:index + 1]:
            if d.players is not None:
                names = {**(names or {}), **d.players}
        return names

    @property
    def rules_in_force(self) -> Rules:
        """The rules object the record names, with its agreements; ``RecordError`` if unknown."""
        return _rules_of(self.rules, self.agreements)

    def to_json(self) -> str:
        """The record as pretty JSON: one key per line, each card list on one line."""
        return _write_partie(self)

    @classmethod
    def from_json(cls, text: str) -> PartieRecord:
        """Read a record; ``RecordError`` if it is not JSON or not shaped like a record."""
        try:
            doc = read_json(text)
        except JSONRefused as e:
            raise RecordError(f"refused: {e.msg} (line {e.lineno}, column {e.colno})", step="JSON") from None
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})",
                              step="JSON") from None
        return _read_partie(doc)


def parse_record(text: str) -> PartieRecord:
    """Read a record from its JSON text."""
    return PartieRecord.from_json(text)


def load_record(path: str | PathLike[str]) -> PartieRecord:
    """Read a record from a file."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {str(path)!r}: {e.strerror or e}", step="file") from None
    except UnicodeDecodeError:
        raise RecordError(f"{str(path)!r} is not UTF-8 text", step="file") from None
    return parse_record(text)


# ---------------------------------------------------------------- writing


def _cards_json(cards: Iterable[Card]) -> str:
    return "[" + ", ".join(f'"{card_name(c)}"' for c in cards) + "]"


def _lists_json(lists: Iterable[Iterable[Card]]) -> str:
    return "[" + ", ".join(_cards_json(x) for x in lists) + "]"


def _object(items: list[tuple[str, str]], indent: int) -> str:
    """A JSON object with one key per line, its values already written."""
    if not items:
        return "{}"
    pad = " " * (indent + 2)
    body = ",\n".join(f"{pad}{json.dumps(k)}: {v}" for k, v in items)
    return "{\n" + body + "\n" + " " * indent + "}"


def _write_hand_calls(hc: HandCalls, indent: int) -> str:
    items: list[tuple[str, str]] = []
    if hc.point is not None:
        items.append(("point", _cards_json(hc.point) if hc.point else "null"))
    if hc.sequences is not None:
        items.append(("sequences", _lists_json(hc.sequences)))
    if hc.sets is not None:
        items.append(("sets", _lists_json(hc.sets)))
    return _object(items, indent)


def _write_ruled(r: Ruled, indent: int) -> str:
    """One irregularity: its kind, every fact its kind asks (on one line), the law, the remedy and its effect."""
    i = r.irregularity
    facts: dict[str, object] = {}
    for name in ENTRIES[i.kind].facts:
        value = getattr(i, name)
        if name == "offender":
            if value is None:
                continue
            value = ROLES[value]
        facts[name] = value
    items: list[tuple[str, str]] = [("kind", json.dumps(i.kind.value))]
    if facts:
        items.append(("facts", json.dumps(facts)))
    if r.law is not None:
        items.append(("law", json.dumps(r.law)))
    items.append(("remedy", json.dumps(remedy_name(r.remedy))))
    if r.took_in is not None:
        items.append(("took_in", json.dumps(r.took_in)))
    if r.after is not None:
        items.append(("after", json.dumps(r.after)))
    return _object(items, indent)


def _write_deal(d: DealRecord, indent: int) -> str:
    items: list[tuple[str, str]] = [
        ("dealer", json.dumps(d.dealer)),
        *([("players", json.dumps(d.players, ensure_ascii=False))] if d.players is not None else []),
        ("elder", _cards_json(d.elder)),
        ("younger", _cards_json(d.younger)),
        ("stock", _cards_json(d.stock)),
    ]
    if d.irregularities:
        pad = " " * (indent + 4)
        body = ",\n".join(pad + _write_ruled(r, indent + 4) for r in d.irregularities)
        items.append(("irregularities", "[\n" + body + "\n" + " " * (indent + 2) + "]"))
    if d.elder_discard is not None:
        items.append(("elder_discard", _cards_json(d.elder_discard)))
    if d.elder_looks_at_left is not None:
        items.append(("elder_looks_at_left", json.dumps(d.elder_looks_at_left)))
    if d.younger_discard is not None:
        items.append(("younger_discard", _cards_json(d.younger_discard)))
    if d.younger_looks_at_left is not None:
        items.append(("younger_looks_at_left", json.dumps(d.younger_looks_at_left)))
    if not d.calls.empty:
        hands = [(ROLES[r], _write_hand_calls(d.calls.of(r), indent + 4))
                 for r in (ELDER, YOUNGER) if not d.calls.of(r).empty]
        items.append(("calls", _object(hands, indent + 2)))
    if d.play:
        items.append(("play", _cards_json(d.play)))
    return _object(items, indent)


def _write_partie(r: PartieRecord) -> str:
    items: list[tuple[str, str]] = [("format", json.dumps(FORMAT)), ("rules", json.dumps(r.rules))]
    if r.agreements:
        items.append(("agreements", json.dumps(list(r.agreements))))
    if r.players is not None:
        items.append(("players", json.dumps(r.players, ensure_ascii=False)))
    if r.seed is not None:
        items.append(("seed", json.dumps(r.seed)))
    if r.deal_by is not None:
        items.append(("deal_by", json.dumps(r.deal_by)))
    if r.deals:
        deals = ",\n".join("    " + _write_deal(d, 4) for d in r.deals)
        items.append(("deals", "[\n" + deals + "\n  ]"))
    else:
        items.append(("deals", "[]"))
    return _object(items, 0) + "\n"


# ---------------------------------------------------------------- reading

_TOP_KEYS = {"format", "rules", "agreements", "players", "deals", "seed", "deal_by"}
_DEAL_KEYS = {"dealer", "elder", "younger", "stock", "elder_discard", "younger_discard",
              "younger_looks_at_left", "elder_looks_at_left", "calls", "play", "irregularities", "players"}
_STEP_NAMES = {
    "dealer": "dealer", "elder": "elder's cards", "younger": "younger's cards", "stock": "the stock",
    "elder_discard": "elder's discard", "younger_discard": "younger's discard",
    "elder_looks_at_left": "elder's look at the cards left",
    "younger_looks_at_left": "younger's look at the cards left", "calls": "calls", "play": "play",
    "irregularities": "irregularities",
    "players": "players",
}


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)


def _said(text: str) -> str:
    """A string of the record in an error message: quoted, and cut short if long (``brief``)."""
    return repr(text) if len(text) <= 40 else brief(text)


#: The longest player's name a record holds (the web's are at most 40 letters).
MAX_NAME = 100
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def name_problem(name: str) -> str | None:
    """What is wrong with a player's name, or None: at most ``MAX_NAME`` characters, none of them a control
    character (a name is printed to a terminal: an escape sequence in it would act on the terminal).

    >>> name_problem("Ann"), name_problem("A" * 101), name_problem("Ann\x1b[2J")
    (None, 'a name is at most 100 characters, not 101', 'a name has no control characters')
    """
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters, not {len(name):,}"
    if _CONTROL.search(name):
        return "a name has no control characters"
    return None


def _read_players(value: object, deal: int | None, example: str) -> dict[str, str] | None:
    """The names of seats A and B (``None`` when absent), each one checked (``name_problem``)."""
    if value is None:
        return None
    if not isinstance(value, dict) or any(k not in SEATS or not isinstance(v, str) for k, v in value.items()):
        raise RecordError(f"players are the names of seats A and B, as {example}", deal, "players")
    for seat, name in value.items():
        problem = name_problem(name)
        if problem is not None:
            raise RecordError(f"seat {seat}: {problem}", deal, "players")
    return value


def _read_cards(value: object, deal: int | None, step: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(f"expected a list of cards, found {_kind(value)}", deal, step)
    out: list[Card] = []
    for item in value:
        if not isinstance(item, str):
            raise RecordError(f"expected a card such as \"10H\", found {_kind(item)}", deal, step)
        try:
            out.append(parse_card(item))
        except CardError:
            raise RecordError(f"{_said(item)} is not a card of the piquet pack (ranks A K Q J 10 9 8 7, "
                              "suits S H D C)", deal, step, _PACK_LAW) from None
    return tuple(out)


def _read_lists(value: object, deal: int | None, step: str) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(f"expected a list of card lists, found {_kind(value)}", deal, step)
    return tuple(_read_cards(x, deal, step) for x in value)


def _read_bool(value: object, deal: int | None, step: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise RecordError(f"expected true or false, found {_kind(value)}", deal, step)
    return value


def _read_hand_calls(value: object, n: int, role: str) -> HandCalls:
    if not isinstance(value, dict):
        raise RecordError(f"expected an object, found {_kind(value)}", n, f"calls: {role}'s calls")
    for k in value:
        if k not in CATEGORIES:
            raise RecordError(f"unknown field {_said(k)} (expected point, sequences, sets)", n,
                              f"calls: {role}'s calls")
    point: tuple[Card, ...] | None = None
    if "point" in value:
        point = () if value["point"] is None else _read_cards(value["point"], n, f"calls: {role}'s point")
    seqs = None if value.get("sequences") is None else _read_lists(value["sequences"], n,
                                                                      f"calls: {role}'s sequences")
    sets = None if value.get("sets") is None else _read_lists(value["sets"], n, f"calls: {role}'s sets")
    return HandCalls(point, seqs, sets)


def _read_fact(name: str, value: object, n: int, step: str) -> object:
    """A fact as the referee asks it: who is in error, a number of cards, or yes or no."""
    if name == "offender":
        if value not in ROLES:
            raise RecordError(f"'offender' is \"elder\" or \"younger\", found {brief(value)}", n, step)
        return ROLES.index(value)
    if FACTS[name].number:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 32:
            raise RecordError(f"{name!r} is a number of cards, found {brief(value)}", n, step)
        return value
    if not isinstance(value, bool):
        raise RecordError(f"{name!r} is true or false, found {_kind(value)}", n, step)
    return value


def _read_ruled(value: object, n: int, k: int) -> Ruled:
    """One irregularity and the remedy chosen, each field checked (what the laws make of it is checked when the
    deal is replayed, the rules known)."""
    step = f"irregularity {k}"
    if not isinstance(value, dict):
        raise RecordError(f"an irregularity is an object such as {{\"kind\": \"took-more\", ...}}, found "
                          f"{_kind(value)}", n, step)
    for key in value:
        if key not in _RULED_KEYS:
            raise RecordError(f"unknown field {_said(key)} (expected {', '.join(_RULED_KEYS)})", n, step)
    raw = value.get("kind")
    if not isinstance(raw, str) or raw not in {k.value for k in Kind}:
        found = "no 'kind'" if raw is None else f"the kind {brief(raw)} is not one the referee knows"
        raise RecordError(f"{found}: say what happened by the referee's name for it, such as \"took-more\" or "
                          "\"wrong-count\" (piquet.core.referee)", n, step)
    kind = Kind(raw)
    step = f"irregularity {k} ({kind.value})"
    asks = ENTRIES[kind].facts
    raw_facts = value.get("facts")
    if raw_facts is None:
        raw_facts = {}
    if not isinstance(raw_facts, dict):
        raise RecordError(f"'facts' is an object such as {{\"offender\": \"younger\"}}, found {_kind(raw_facts)}",
                          n, step)
    facts: dict[str, Any] = {}
    for name, fact in raw_facts.items():
        if name not in asks:
            raise RecordError(f"{_said(name)} is not a fact of {kind.value} (it asks "
                              f"{', '.join(asks) if asks else 'none'})", n, step)
        facts[name] = _read_fact(name, fact, n, step)
    law = value.get("law")
    if law is not None and not isinstance(law, str):
        raise RecordError(f"'law' is a string such as \"Law 35\", found {_kind(law)}", n, step)
    remedy = value.get("remedy")
    if remedy not in _REMEDIES:
        found = "no 'remedy'" if remedy is None else f"the remedy {brief(remedy)} is not one the referee knows"
        raise RecordError(f"{found}: say the option chosen, such as \"more-than-twelve\" or \"waive\"", n, step)
    took_in = value.get("took_in")
    if took_in is not None and (isinstance(took_in, bool) or not isinstance(took_in, int) or not 0 <= took_in <= 8):
        raise RecordError(f"'took_in' is the number of cards he took in, 0 to 8, found {brief(took_in)}", n,
                          step)
    after = value.get("after")
    if after is not None and after not in AFTER_STEPS:
        raise RecordError(f"'after' is the step the penalty follows, one of {', '.join(AFTER_STEPS)}; found "
                          f"{brief(after)}", n, step)
    if kind is Kind.WRONG_COUNT and (took_in is not None or after is not None):
        raise RecordError("a wrong count is ruled on the deal as dealt: it has no 'took_in' or 'after'", n, step)
    return Ruled(Irregularity(kind, **facts), _REMEDIES[remedy], took_in, after, law)


def _read_deal(value: object, n: int) -> DealRecord:
    if not isinstance(value, dict):
        raise RecordError(f"a deal is an object, found {_kind(value)}", n, "the deal")
    for k in value:
        if k not in _DEAL_KEYS:
            raise RecordError(f"unknown field {_said(k)}", n, "the deal")
    for k in ("dealer", "elder", "younger", "stock"):
        if k not in value:
            raise RecordError(f"the deal has no {k!r}", n, _STEP_NAMES[k])
    dealer = value["dealer"]
    if dealer not in SEATS:
        raise RecordError(f"the dealer is seat \"A\" or \"B\", found {brief(dealer)}", n, "dealer")
    cards = {k: _read_cards(value[k], n, _STEP_NAMES[k]) for k in ("elder", "younger", "stock")}
    discards = {k: None if value.get(k) is None else _read_cards(value[k], n, _STEP_NAMES[k])
                for k in ("elder_discard", "younger_discard")}
    looks = {k: _read_bool(value.get(k), n, _STEP_NAMES[k])
             for k in ("elder_looks_at_left", "younger_looks_at_left")}
    calls = Calls()
    raw_calls = value.get("calls")
    if raw_calls is not None:
        if not isinstance(raw_calls, dict):
            raise RecordError(f"expected an object, found {_kind(raw_calls)}", n, "calls")
        for k in raw_calls:
            if k not in ROLES:
                raise RecordError(f"unknown field {_said(k)} (expected elder, younger)", n, "calls")
        calls = Calls(*(HandCalls() if raw_calls.get(role) is None else
                        _read_hand_calls(raw_calls[role], n, role) for role in ROLES))
    play = () if value.get("play") is None else _read_cards(value["play"], n, "play")
    irregularities: tuple[Ruled, ...] = ()
    raw_irregular = value.get("irregularities")
    if raw_irregular is not None:
        if not isinstance(raw_irregular, list):
            raise RecordError(f"'irregularities' is a list of rulings, found {_kind(raw_irregular)}", n,
                              "irregularities")
        irregularities = tuple(_read_ruled(x, n, k) for k, x in enumerate(raw_irregular, 1))
    players = _read_players(value.get("players"), n, "{\"B\": \"Computer (expert)\"}")
    return DealRecord(
        dealer=dealer, elder=cards["elder"], younger=cards["younger"], stock=cards["stock"],
        elder_discard=discards["elder_discard"], younger_discard=discards["younger_discard"],
        younger_looks_at_left=looks["younger_looks_at_left"],
        elder_looks_at_left=looks["elder_looks_at_left"], calls=calls, play=play, irregularities=irregularities,
        players=players,
    )


def _read_int(doc: dict[str, Any], key: str) -> int | None:
    v = doc.get(key)
    if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
        raise RecordError(f"{key!r} is a whole number, found {_kind(v)}", step="record")
    return v


def _read_partie(doc: object) -> PartieRecord:
    if not isinstance(doc, dict):
        raise RecordError(f"a record is a JSON object, found {_kind(doc)}", step="record")
    if doc.get("marked") is True:
        raise RecordError("a marked partie, played with real cards: its cards were not entered, so the engine "
                          "cannot replay it; piquet replay and piquet settle read it as marked (piquet.marker)",
                          step="record")
    for k in doc:
        if k not in _TOP_KEYS:
            raise RecordError(f"unknown field {_said(k)}", step="record")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unknown format {brief(fmt)} (this program reads {FORMAT!r})", step="record")
    rules = doc.get("rules", "rubicon")
    if not isinstance(rules, str):
        raise RecordError(f"the rules are named by a string, found {_kind(rules)}", step="rules")
    rules, agreements = _read_agreements(rules, doc.get("agreements"))
    players = _read_players(doc.get("players"), None, "{\"A\": \"Ann\", \"B\": \"Bob\"}")
    if "deals" not in doc:
        raise RecordError("the record has no 'deals'", step="record")
    deals = doc["deals"]
    if not isinstance(deals, list):
        raise RecordError(f"'deals' is a list, found {_kind(deals)}", step="record")
    return PartieRecord(
        rules=rules, players=players, deals=[_read_deal(d, i) for i, d in enumerate(deals, 1)],
        seed=_read_int(doc, "seed"), deal_by=_read_int(doc, "deal_by"), agreements=agreements,
    )


def _rules_of(name: str, agreements: Sequence[str] = ()) -> Rules:
    """The rules named, with the agreements given (``rules_named``), or a ``RecordError``."""
    for given, what in ((name, "rules"), *((a, "agreements") for a in agreements)):
        if len(given) > 40:
            raise RecordError(f"unknown {'rules' if what == 'rules' else 'agreement'} {brief(given)}", step=what)
    try:
        return rules_named(name, agreements)
    except ValueError as e:
        base = name.strip().split("+")[0]
        options = bool(agreements) or "+" in name
        raise RecordError(str(e), step="agreements" if options and base in RULES else "rules") from None


def _read_agreements(rules: str, value: object) -> tuple[str, tuple[str, ...]]:
    """The rules' name and the agreements in force, by their canonical names (p. 19), from ``"agreements"``
    and any ``+option`` after the name; a name without either is kept as written (checked when replayed)."""
    if value is None and "+" not in rules:
        return rules, ()
    names = [] if value is None else value
    if not isinstance(names, list):
        raise RecordError(f"'agreements' is a list of names such as \"small-cards\", found {_kind(names)}",
                          step="agreements")
    for a in names:
        if not isinstance(a, str):
            raise RecordError(f"an agreement is named by a string such as \"fours\", found {_kind(a)}",
                              step="agreements")
    found = _rules_of(rules, names)
    return found.name, found.agreements


# ---------------------------------------------------------------- replaying

_LAW_AT_END = re.compile(r"\s*\((Laws? [^():]+?)(?::\s*([^()]*))?\)\s*$")


def _from_illegal(e: IllegalAction | CardError, deal: int, step: str) -> RecordError:
    """The engine's refusal as a ``RecordError``, the law it cites taken out of the message."""
    text = str(e)
    m = _LAW_AT_END.search(text)
    if not m:
        return RecordError(text, deal, step)
    message = text[:m.start()]
    if m.group(2):
        message += f"; {m.group(2)}"
    return RecordError(message, deal, step, m.group(1))


def _mask(cards: Sequence[Card], deal: int, step: str, law: str | None) -> Mask:
    m = 0
    for c in cards:
        if m >> c & 1:
            raise RecordError(f"{card_name(c)} is named twice", deal, step, law)
        m |= 1 << c
    return m


def _check_cards(n: int, d: DealRecord, standing: bool = False) -> tuple[Mask, Mask]:
    """The 32 cards, each once (Law 75); twelve to each player and eight in the stock (Law 9), or, ``standing``,
    a deal of eleven or thirteen, or a stock of seven, that stands (Laws 40-43)."""
    seen: dict[Card, str] = {}
    for where, cards in (("the elder hand", d.elder), ("the younger hand", d.younger), ("the stock", d.stock)):
        for c in cards:
            if c in seen:
                also = "" if seen[c] == where else f" and {where}"
                raise RecordError(f"{card_name(c)} is named twice (in {seen[c]}{also})", n,
                                  "the cards dealt", _PACK_LAW)
            seen[c] = where
    sizes = (len(d.elder), len(d.younger), len(d.stock))
    if not (standing and sizes in STANDING):
        for where, cards, want in (("elder hand", d.elder, 12), ("younger hand", d.younger, 12),
                                   ("stock", d.stock, 8)):
            if len(cards) != want:
                stands = ("; a deal of eleven or thirteen, or a stock of seven, that stands is written with its "
                          "ruling (\"irregularities\": wrong-count, Laws 40-43)" if sizes in STANDING else "")
                raise RecordError(f"the {where} has {len(cards)} cards; the dealer gives twelve to each "
                                  f"player and leaves eight in the stock{stands}", n, "the cards dealt", _DEAL_LAW)
    return _mask(d.elder, n, "the cards dealt", _PACK_LAW), _mask(d.younger, n, "the cards dealt", _PACK_LAW)


@dataclass(frozen=True)
class _Checked:
    """A recorded irregularity with the referee's ruling on it and the option chosen; ``step``: its name in an
    error; ``after``: the step its penalty follows ("" before the first; None: it enters no penalty)."""

    ruled: Ruled
    ruling: Ruling
    option: Option
    step: str
    after: str | None


def _check_rulings(n: int, d: DealRecord, rules: Rules) -> tuple[Limits | None, list[_Checked]]:
    """The deal's irregularities ruled by the laws (``referee.rule``): each remedy one of its ruling's options,
    the law as written, a wrong count that stands matching the cards dealt; the limits of the exchange it sets
    (Laws 40-43).  Remedies that would undo the deal (a fresh deal, the deal void) have no place in it."""
    limits: Limits | None = None
    out: list[_Checked] = []
    exchanges: set[int] = set()
    for k, r in enumerate(d.irregularities, 1):
        i = r.irregularity
        step = f"irregularity {k} ({i.kind.value})"
        try:
            ruling = r.ruling(rules)
        except ValueError as e:
            raise RecordError(str(e).removeprefix(f"{i.kind.value}: "), n, step) from None
        law = ruling.law
        if r.law is not None and r.law != law:
            raise RecordError(f"the law is {law}, not {r.law}", n, step, law)
        try:
            option = ruling.option(r.remedy)
        except KeyError:
            options = ", ".join(remedy_name(x) for x in ruling.remedies)
            raise RecordError(f"{remedy_name(r.remedy)} is not an option of the ruling (the options: {options})", n,
                              step, law) from None
        name = remedy_name(r.remedy)
        if i.kind is Kind.WRONG_COUNT:
            if not option.limits:
                raise RecordError(f"{name}: {option.says}; a record holds the deal that stood and was played", n,
                                  step, law)
            if limits is not None:
                raise RecordError("the deal's count of cards is ruled on twice", n, step)
            dealt = (len(d.elder), len(d.younger), len(d.stock))
            if (i.elder_cards, i.younger_cards, i.stock_cards) != dealt:
                raise RecordError(f"the facts give the elder {i.elder_cards} cards, the younger {i.younger_cards} and "
                                  f"the stock {i.stock_cards}; the cards dealt are {dealt[0]}, {dealt[1]} and "
                                  f"{dealt[2]}", n, step, law)
            limits = deal_limits(option.limits)
        elif r.remedy not in PENALTIES and r.remedy is not Remedy.WAIVE and r.remedy not in TABLE_ONLY:
            raise RecordError(f"{name} ({r.remedy.value}) has no place in a record, which holds the deal as it "
                              "was played", n, step, law)
        role = option.role
        if r.took_in is not None:
            if role is None:
                raise RecordError(f"{name} falls on neither hand: it has no exchange ('took_in')", n, step, law)
            if role in exchanges:
                raise RecordError(f"the {ROLES[role]} hand exchanges once: another irregularity gives his "
                                  "exchange", n, step, law)
            exchanges.add(role)
        after: str | None = None
        if r.remedy in PENALTIES:
            after = r.after or ("" if r.took_in is None else f"{ROLES[role or 0]}_discard")
            if r.took_in is not None and AFTER_STEPS.index(after) < AFTER_STEPS.index(f"{ROLES[role or 0]}_discard"):
                raise RecordError(f"the penalty follows the exchange it punishes: 'after' is {ROLES[role or 0]}"
                                  "_discard or later", n, step, law)
        elif r.after is not None:
            raise RecordError(f"'after' places a penalty of reckoning nothing, and {name} enters none", n, step, law)
        out.append(_Checked(r, ruling, option, step, after))
    return limits, out


class _DealReplay:
    """Feeds one deal's recorded steps to the engine in the order its phases ask for them, and its irregular
    steps where they happened: an exchange against the laws at that hand's discard, a penalty after its step."""

    def __init__(self, n: int, record: DealRecord, deal: Deal, rulings: Sequence[_Checked] = ()) -> None:
        self.n = n
        self.r = record
        self.deal = deal
        self.used: set[str] = set()
        self.played = 0
        self.exchanges = {c.option.role: c for c in rulings if c.ruled.took_in is not None}
        self.penalties = [c for c in rulings if c.after is not None]
        self.entered: set[int] = set()  # the penalties entered, by index

    def _given(self) -> list[str]:
        """The recorded steps that decide something (discards, calls, play), by key."""
        r = self.r
        keys = [k for k, v in (("elder_discard", r.elder_discard), ("younger_discard", r.younger_discard))
                if v is not None]
        for role in (ELDER, YOUNGER):
            for cat in range(3):
                if r.calls.of(role).get(cat) is not None:
                    keys.append(f"{ROLES[role]}_{CATEGORIES[cat]}")
        return keys

    def _later_given(self, key: str) -> bool:
        """Whether the record goes on past this step (so an absent step is not where it stops)."""
        if self.played < len(self.r.play):
            return True
        return any(k != key and k not in self.used for k in self._given())

    def _next(self) -> tuple[str, str, Action | None, str | None]:
        """The phase's key, step name, the recorded action (None if absent) and its law."""
        d, r = self.deal, self.r
        p = d.phase
        if p == Phase.ELDER_DISCARD:
            return ("elder_discard", "elder's discard", self._discard(ELDER, r.elder_discard), _DISCARD_LAWS[0])
        if p == Phase.YOUNGER_DISCARD:
            return ("younger_discard", "younger's discard", self._discard(YOUNGER, r.younger_discard),
                    _DISCARD_LAWS[1])
        if p in (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK):
            looker = ELDER if p == Phase.ELDER_LOOK else YOUNGER
            look = r.elder_looks_at_left if looker == ELDER else r.younger_looks_at_left
            key = f"{ROLES[looker]}_looks_at_left"
            return (key, _STEP_NAMES[key], None if look is None else LookAtLeft(look), _LOOK_LAWS[looker])
        role = d.to_move
        assert role is not None
        category = _category(p)
        who = ROLES[role]
        step = f"calls: {who}'s {CATEGORIES[category]}"
        return (f"{who}_{CATEGORIES[category]}", step, self._declaration(role, category, step),
                _CATEGORY_LAWS[category])

    def _discard(self, role: int, cards: tuple[Card, ...] | None) -> Action | None:
        if cards is None:
            return None
        return Discard(_mask(cards, self.n, f"{ROLES[role]}'s discard", _DISCARD_LAWS[role]))

    def _declaration(self, role: int, category: int, step: str) -> Action | None:
        law = _CATEGORY_LAWS[category]
        hc = self.r.calls.of(role)
        if category == 0:
            return None if hc.point is None else DeclarePoint(_mask(hc.point, self.n, step, law))
        items = hc.sequences if category == 1 else hc.sets
        if items is None:
            return None
        masks = tuple(_mask(x, self.n, step, law) for x in items)
        return DeclareSequences(masks) if category == 1 else DeclareSets(masks)

    def run(self) -> None:
        """Apply every recorded step; stop quietly where the record stops (but not before an irregularity)."""
        self._steps()
        for c in self.exchanges.values():
            if f"{ROLES[c.option.role or 0]}_discard" not in self.used:
                raise RecordError(f"the record stops before the {ROLES[c.option.role or 0]}'s exchange it rules on",
                                  self.n, c.step, c.ruling.law)
        for k, c in enumerate(self.penalties):
            if k not in self.entered:
                raise RecordError(f"the penalty is entered after {c.after}, but the deal has no such step (the "
                                  "record stops before it, or the elder left no cards to look at)", self.n, c.step,
                                  c.ruling.law)

    def _enter(self, after: str) -> None:
        """The penalties entered after this step ("" before the first), in the order written (Law 58)."""
        for k, c in enumerate(self.penalties):
            if c.after == after and k not in self.entered:
                self.entered.add(k)
                try:
                    self.deal.reckons_nothing(c.option.role or 0, c.ruling.law)
                except IllegalAction as e:
                    raise _from_illegal(e, self.n, c.step) from None

    def _take_in(self, role: int) -> str:
        """The hand's exchange against the laws: his discard, and the number he took in (Laws 30, 31, 35)."""
        c = self.exchanges[role]
        key = f"{ROLES[role]}_discard"
        cards = self.r.elder_discard if role == ELDER else self.r.younger_discard
        law = c.ruling.law
        if cards is None:
            raise RecordError(f"an exchange against the laws is the cards he discarded and the number he took in: "
                              f"write his discard in {key}", self.n, c.step, law)
        took = c.ruled.took_in or 0
        kind = c.ruled.irregularity.kind
        if (kind is Kind.TOOK_MORE and took <= len(cards)) or (kind is Kind.DISCARDED_MORE and took >= len(cards)):
            raise RecordError(f"{kind.value}, but he takes in {took} for the {len(cards)} he discards", self.n, c.step,
                              law)
        try:
            self.deal.take_in(role, _mask(cards, self.n, _STEP_NAMES[key], _DISCARD_LAWS[role]), took, law)
        except IllegalAction as e:
            raise _from_illegal(e, self.n, c.step) from None
        return key

    def _steps(self) -> None:
        d = self.deal
        self._enter("")
        while not d.is_over:
            if d.phase == Phase.PLAY:
                if self.played >= len(self.r.play):
                    return
                self._apply(PLAYS[self.r.play[self.played]], f"play, trick {d.trick}")
                self.played += 1
                continue
            exchanging = ELDER if d.phase == Phase.ELDER_DISCARD else YOUNGER if d.phase == Phase.YOUNGER_DISCARD \
                else None
            if exchanging is not None and exchanging in self.exchanges:
                key = self._take_in(exchanging)
                self.used.add(key)
                self._enter(key)
                continue
            key, step, action, law = self._next()
            if action is None:
                if not self._later_given(key):
                    return  # the record stops here: the deal is unfinished
                action = self._default(key, step, law)
            self.used.add(key)
            self._apply(action, step)
            self._enter(key)
        if d.game_won is not None:
            self._check_stopped()
        extra = len(self.r.play) - self.played
        if extra:
            raise RecordError(f"the deal is over after twelve tricks, but {extra} more "
                              f"card{'s are' if extra > 1 else ' is'} played", self.n, "play, trick 13", "Law 65")

    def _check_stopped(self) -> None:
        """A deal stopped at the goal (p. 20): nothing may be recorded after the step that reached it."""
        d, r = self.deal, self.r
        role = (d.game_won or (0, False))[0]
        before = d.game[role] if d.game else 0
        tricks = [e.trick for e in d.events if isinstance(e, Played)]
        when = f"at trick {tricks[-1]}" if tricks else "before the play"
        won = (f"the {ROLES[role]} hand reaches {before} + {d.total(role)} = {before + d.total(role)} {when}: "
               "the game is won and the deal stops there")
        extra = len(r.play) - self.played
        if extra:
            raise RecordError(f"{won}, but {extra} more card{'s are' if extra > 1 else ' is'} played", self.n,
                              f"play, card {self.played + 1}", "p. 20")
        looks = [k for k, v in (("elder_looks_at_left", r.elder_looks_at_left),
                                ("younger_looks_at_left", r.younger_looks_at_left)) if v is not None]
        later = [k for k in (*self._given(), *looks) if k not in self.used]
        if later:
            raise RecordError(f"{won}, but the record goes on", self.n,
                              _STEP_NAMES.get(later[0]) or _step_of(later[0]), "p. 20")

    def _default(self, key: str, step: str, law: str | None) -> Action:
        """An absent step followed by later ones: a look is declined, a declaration is nothing (p. 93)."""
        if key.endswith("discard"):
            if key == "younger_discard" and self.deal.min_discard(YOUNGER) == 0:
                raise RecordError("missing, but later steps are given: a younger hand who discards nothing "
                                  "is written []", self.n, step, "p. 17")
            raise RecordError("missing, but later steps are given: each player must discard at least one card",
                              self.n, step, law)
        if key.endswith("looks_at_left"):
            return LookAtLeft(False)
        category = CATEGORIES.index(key.split("_", 1)[1])
        return (DeclarePoint(), DeclareSequences(), DeclareSets())[category]

    def _apply(self, action: Action, step: str) -> None:
        d = self.deal
        try:
            d.apply(action)
        except IllegalAction as e:
            raise _from_illegal(e, self.n, step) from None


def _step_of(key: str) -> str:
    """``elder_point`` -> ``calls: elder's point``."""
    role, category = key.split("_", 1)
    return f"calls: {role}'s {category}"


def _category(p: Phase) -> int:
    if p in (Phase.ELDER_POINT, Phase.YOUNGER_POINT, Phase.YOUNGER_RECKON_POINT):
        return 0
    if p in (Phase.ELDER_SEQUENCES, Phase.YOUNGER_SEQUENCES, Phase.YOUNGER_RECKON_SEQUENCES):
        return 1
    return 2


def replay(record: PartieRecord) -> Partie:
    """Play the record's deals through the engine, which checks every step and scores it.

    A deal the record leaves unfinished stays unfinished (it must be the last).
    At Piquet au cent a deal stops where a player reaches a hundred (p. 20):
    its record stops there too.  ``RecordError`` names the deal, the step and
    the law of anything invalid.
    """
    rules = record.rules_in_force
    first = record.deals[0].dealer if record.deals else "B"
    if first not in SEATS:
        raise RecordError(f"the dealer is seat \"A\" or \"B\", found {first!r}", 1, "dealer")
    by = 2 if record.deal_by is None else record.deal_by
    if by not in (2, 3):
        raise RecordError(f"the cards are dealt by two or by three, not by {by}", step="deal_by", law=_DEAL_LAW)
    try:
        partie = Partie(rules, first_dealer=first, deal_by=by)
    except ValueError:
        raise RecordError(f"the deal is by two cards at a time at {rules.title}, not by {by}",
                          step="deal_by", law="p. 16") from None
    for n, dr in enumerate(record.deals, 1):
        if partie.current is not None:
            raise RecordError(f"deal {n - 1} is not finished, yet another deal follows it", n, "dealer")
        if partie.is_finished:
            raise RecordError(f"the partie is over after {n - 1} deals ({rules.title})", n, "dealer",
                              rules.partie_end_law)
        expected = partie.dealer(n - 1)
        if dr.dealer != expected:
            raise RecordError(f"{dr.dealer} deals, but the players deal alternately: it is {expected}'s deal",
                              n, "dealer", "Law 16")
        limits, rulings = _check_rulings(n, dr, rules)
        elder, younger = _check_cards(n, dr, standing=limits is not None)
        try:
            deal = partie.deal_cards(elder, younger, dr.stock, limits=limits)
        except CardError as e:
            raise _from_illegal(e, n, "the cards dealt") from None
        _DealReplay(n, dr, deal, rulings).run()
    return partie


# ---------------------------------------------------------------- the record of a partie


def _names(mask: Mask) -> tuple[Card, ...]:
    return tuple(cards_of(mask))


def deal_record(deal: Deal, dealer: str) -> DealRecord:
    """The record of one deal so far, in canonical orders, from its cards, ``history`` and ``irregular`` steps."""
    fresh = Deal(deal.dealt[ELDER], deal.dealt[YOUNGER], deal.stock, deal.rules, deal.game, limits=deal.limits)
    rec = DealRecord(dealer=dealer, elder=_names(deal.dealt[ELDER]), younger=_names(deal.dealt[YOUNGER]),
                     stock=tuple(deal.stock))
    calls: list[dict[str, Any]] = [{}, {}]
    play: list[Card] = []
    irregular = list(deal.irregular)
    placed: list[tuple[Irregular, str]] = []  # each irregular step, and the key of the step before it
    last = ""
    for at in range(len(deal.history) + 1):
        while irregular and irregular[0][0] == at:
            step = irregular.pop(0)
            _, what, hand, cards, take, law = step
            placed.append((step, last))
            if what == TAKE_IN:
                fresh.take_in(hand, cards, take, law)
                last = f"{ROLES[hand]}_discard"
                if hand == ELDER:
                    rec.elder_discard = _names(cards)
                else:
                    rec.younger_discard = _names(cards)
            else:
                fresh.reckons_nothing(hand, law)
        if at == len(deal.history):
            break
        action = deal.history[at]
        role = fresh.to_move
        assert role is not None
        who = ROLES[role]
        if isinstance(action, Discard):
            last = f"{who}_discard"
            if role == ELDER:
                rec.elder_discard = _names(action.cards)
            else:
                rec.younger_discard = _names(action.cards)
        elif isinstance(action, LookAtLeft):
            last = f"{who}_looks_at_left"
            if role == ELDER:
                rec.elder_looks_at_left = action.look
            else:
                rec.younger_looks_at_left = action.look
        elif isinstance(action, DeclarePoint):
            calls[role]["point"] = _names(action.cards)
        elif isinstance(action, DeclareSequences):
            calls[role]["sequences"] = tuple(_names(m) for m in action.runs)
        elif isinstance(action, DeclareSets):
            calls[role]["sets"] = tuple(_names(m) for m in action.sets)
        else:
            assert isinstance(action, Play)
            play.append(action.card)
        fresh.apply(action)
    rec.calls = Calls(HandCalls(**calls[ELDER]), HandCalls(**calls[YOUNGER]))
    rec.play = tuple(play)
    rec.irregularities = _rulings_of(deal, placed)
    return rec


def _rulings_of(deal: Deal, placed: Sequence[tuple[Irregular, str]]) -> tuple[Ruled, ...]:
    """The deal's irregularities as the referee rules them, from what the engine keeps: the limits of a deal
    that stands (Laws 40-43), and each irregular step with the step before it.  The kind and facts written are
    the first of the referee's catalogue whose ruling cites the step's law (``_catalogue_ruling``).  An exchange
    against the laws and a later penalty of the same hand under the same ruling are one irregularity, its remedy
    the penalty; an exchange without one has the remedy ``waive`` (Law 44), or plays with fewer cards (Law 30)."""
    out: list[Ruled] = []
    if deal.limits is not None:
        out.append(_standing_ruled(deal))
    paired: set[int] = set()
    for k, ((_, what, role, cards, take, law), before) in enumerate(placed):
        if k in paired:
            continue
        if what == PENALTY:
            irr, option, ruling = _catalogue_ruling(deal.rules, law, role, "penalty")
            out.append(Ruled(irr, option.remedy, after=before or None, law=ruling.law))
            continue
        n = cards.bit_count()
        count = "more" if take > n else "fewer" if take < n else "as many"
        # Ruled first as if no penalty followed, then with one under that ruling's law: the choice of ruling then
        # depends only on laws a ruling cites, and a record written back is written the same.
        alone = _catalogue_ruling(deal.rules, law, role, "fewer" if take < n else "waive", count)
        with_penalty = _catalogue_ruling(deal.rules, alone[2].law, role, "penalty", count)
        penalty = next((j for j in range(k + 1, len(placed)) if placed[j][0][1] == PENALTY and placed[j][0][2] == role
                        and _catalogue_ruling(deal.rules, placed[j][0][5], role, "penalty")[2].law
                        == with_penalty[2].law), None)
        irr, option, ruling = alone if penalty is None else with_penalty
        after = None
        if penalty is not None:
            paired.add(penalty)
            after = None if placed[penalty][1] == f"{ROLES[role]}_discard" else placed[penalty][1]
        out.append(Ruled(irr, option.remedy, took_in=take, after=after, law=ruling.law))
    return tuple(out)


def _standing_ruled(deal: Deal) -> Ruled:
    """The ruling that stands a deal of eleven or thirteen cards, or a stock of seven, with the deal's limits."""
    e, y, s = deal.dealt[ELDER].bit_count(), deal.dealt[YOUNGER].bit_count(), len(deal.stock)
    for took, announced in ((False, False), (True, False), (True, True)):
        irr = Irregularity(Kind.WRONG_COUNT, hand_taken_up=True, elder_cards=e, younger_cards=y, stock_cards=s,
                           elder_took_stock=took, announced=announced)
        ruling = rule(irr, deal.rules)
        for o in ruling.options:
            if o.limits and deal_limits(o.limits) == deal.limits:
                return Ruled(irr, o.remedy, law=ruling.law)
    raise ValueError(f"the deal's exchange {deal.limits} is not one a ruling on a deal of {e}, {y} and {s} gives "
                     "(Laws 40-43): it cannot be recorded")


def _fact_choices(names: Sequence[str], role: int) -> Iterator[dict[str, Any]]:
    """The facts of a kind, the offender being ``role``: every answer, the fewest yeses first."""
    values: list[tuple[object, ...]] = []
    for name in names:
        values.append((role,) if name == "offender" else (13, 11) if FACTS[name].number else (False, True))
    choices = sorted(itertools.product(*values), key=lambda c: sum(v is True for v in c))
    for choice in choices:
        yield dict(zip(names, choice, strict=True))


def _catalogue_ruling(rules: Rules, law: str, role: int, want: str,
                      count: str = "") -> tuple[Irregularity, Option, Ruling]:
    """The first irregularity of the catalogue whose ruling cites ``law`` with an option for ``role`` of the
    remedy wanted: a penalty, playing with fewer than twelve cards, or a penalty waived (Law 44); failing that
    law, the first with such an option.  ``count``: whether the exchange took in more or fewer than discarded."""
    def fits(o: Option) -> bool:
        if o.role != role:
            return False
        if want == "penalty":
            return o.remedy in PENALTIES
        return o.remedy is (Remedy.FEWER_THAN_TWELVE if want == "fewer" else Remedy.WAIVE)

    for by_law in (True, False):
        for entry in IRREGULARITIES:
            if entry.kind is Kind.WRONG_COUNT or (entry.kind is Kind.TOOK_MORE and count not in ("", "more")) \
                    or (entry.kind is Kind.DISCARDED_MORE and count != "fewer"):
                continue
            for facts in _fact_choices(entry.facts, role):
                irr = Irregularity(entry.kind, **facts)
                try:
                    ruling = rule(irr, rules)
                except ValueError:
                    continue
                if by_law and ruling.law != law:
                    continue
                option = next((o for o in ruling.options if fits(o)), None)
                if option is not None:
                    return irr, option, ruling
    raise ValueError(f"no ruling of the laws gives the {ROLES[role]} hand's irregular step ({law or 'no law'})")


def record_of(partie: Partie, players: dict[str, str] | None = None, seed: int | None = None,
              deal_players: Mapping[int, dict[str, str]] | None = None) -> PartieRecord:
    """The record of a partie so far, the deal in progress included; ``deal_players``: by deal (from 0), the
    names that change from that deal on."""
    deals = [deal_record(d, partie.dealer(i)) for i, d in enumerate(partie.deals)]
    for i, names in (deal_players or {}).items():
        if i < len(deals):
            deals[i].players = dict(names)
    return PartieRecord(
        rules=partie.rules.name,
        agreements=partie.rules.agreements,
        players=None if players is None else dict(players),
        deals=deals,
        seed=seed,
        deal_by=None if partie.deal_by == 2 else partie.deal_by,
    )


__all__ = [
    "AFTER_STEPS", "FORMAT", "Calls", "DealRecord", "HandCalls", "PartieRecord", "RecordError", "Ruled",
    "deal_record", "load_record", "parse_record", "record_of", "remedy_name", "replay",
]
