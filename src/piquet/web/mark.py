"""The marker in the browser (``/mark``): a partie played with real cards, the score kept by the laws.

The page is made for a phone lying on the table between the two players.  The server keeps no state of
its own: the partie lives in the browser as a marked record (``piquet.marker.record``, the file
``piquet replay`` and ``piquet settle`` read), and every request carries it.  The server reads it again,
checks it whole by the laws (``MarkedPartie``), applies the entry, and answers the new record with the
state the page shows::

    POST /api/mark  {"action": "new", "players": ["Ann", "Bob"], "rules": "rubicon", "first_dealer": "A"}
    POST /api/mark  {"action": "add", "record": {...}, "deal": {...}}      # a deal as the record writes it
    POST /api/mark  {"action": "undo" | "annul" | "void" | "state", "record": {...}}
    POST /api/mark  {"action": "state", "record": {...}, "stake": "10s a hundred", "custom": "fifty"}
    POST /api/mark  {"action": "rule", "record": {...}, "kind": "took-more", "facts": {"offender": "younger"},
                     "pending": {"dealer": "A", "out_of_turn": false, "reckons_nothing": [], "waived": []}}
    POST /api/mark  {"action": "wrong", ... as "rule" ..., "remedy": "reckons-nothing",
                     "correct": {"deal": 2, "scored": {...}, "tricks": {...}, "play_points": {...}}}
    GET  /api/mark/referee                                                  # the irregularities, by group

Something went wrong at the table (``piquet.core.referee``; ``piquet.marker.wrong`` applies the choice):
``rule`` answers the ruling on the irregularity of that kind and facts (``"ruling"``: the law, what it says,
who chooses, the options), changing nothing; ``wrong`` applies the option of that remedy and answers
``"applied"``: what happened, in words citing the law, whether the deal in progress is over (annulled, void,
a game lost), and ``"pending"``, the deal being entered as the page must send it with ``add`` (its dealer,
out of turn; who reckons nothing in it, and of those the penalties waived); and ``"not_held"``, after the
ruling on a call of what is not held (Law 54), whose call the page lets mark ``"held": false`` and what to
do, for the hands as spoken and as quick scores (Case II), else null.  ``pending`` in the request is that
deal as the page holds it (its dealer defaults to the next by Law 16); ``correct``, for a score corrected
(Laws 70, 74), the deal (by its index in the record) and its scores entered again, quickly.

A deal's calls carry their suit and a point's top card where entered (the record's ``"suit"``, ``"head"``):
the younger's reckoning that the elder's cards shown bar (Case IV) is refused by the field of its category.

Answers: ``200 {"record", "state"}``; an entry the laws refuse, ``422 {"error", "law", "field"}`` (the
record sent is unchanged, and the page keeps what was typed); a record that cannot be read or is not a
partie by the laws, ``400 {"error"}``; a body too large, 413.  ``field`` names where the page shows the
message: ``players``, ``rules``, ``first_dealer``, ``carte_blanche``, ``point``, ``sequences``, ``sets``,
``hands``, ``play``, ``pique``, ``first_to_goal``, ``stake``, ``deal``, ``wrong`` (the irregularity, its
facts, the remedy), ``correct`` (the deal put right).

The words are the marker's and the narrator's (``piquet.marker.telling``, ``piquet.talk.words``): each deal's
lines, its scores in Law 67's order, the opening of the next deal, the settlement (Laws 71-73; p. 20), and at
a stake the book's (``piquet.stakes``, p. 100-101).

>>> doc = mark_request({"action": "new", "players": ["Ann", "Bob"], "rules": "rubicon", "first_dealer": "B"})
>>> doc["state"]["next"]["words"]
'Deal 1 of 6: Bob deals; Ann is elder hand.'
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from piquet.core.observation import PartieContext
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
    by_group,
    rule,
)
from piquet.core.rules import SEATS, rules_named
from piquet.marker.calls import ELDER, ROLES, YOUNGER, MarkError
from piquet.marker.deal import (
    CardPlay,
    FullCalls,
    MarkedDeal,
    PlayTotals,
    QuickScores,
    check_cards,
    check_full,
    check_quick,
    check_totals,
)
from piquet.marker.partie import MarkedPartie, card_partie
from piquet.marker.record import deal_from_json, deal_to_json, marked_from_json, marked_to_json
from piquet.marker.telling import deal_lines
from piquet.marker.wrong import CORRECTIONS, Applied, Pending, apply_choice, correctable, not_held_says
from piquet.stakes.settlement import Session
from piquet.talk.laws import with_law
from piquet.talk.words import MARKED_HEADINGS, deal_words, reckoning_words, settlement_words

from .pages import BadBody, json_body, static_page
from .settle import SettleError, stake_and_custom

#: The most entries (deals, annulled and void ones too) a record may hold.
MAX_DEALS: Final = 200
#: The longest name of a player.
MAX_NAME: Final = 40
ACTIONS: Final = ("new", "state", "add", "undo", "annul", "void", "rule", "wrong")
#: Where a refusal of one category's reckoning is shown (Case IV: the younger's barred).
CATEGORY_FIELDS: Final = ("point", "sequences", "sets")
#: Where a refusal is shown, by its law, when the deal is checked whole.
_FIELD_OF_LAW: Final = {"Law 16": "deal", "Law 18": "carte_blanche", "Law 62": "point", "Law 63": "sequences",
                        "Law 64": "sets", "Law 46": "hands", "Laws 62-64": "hands", "Law 65": "play",
                        "Law 59": "play", "Law 75": "play", "Law 69": "pique", "p. 20": "play"}


class RecordRefused(ValueError):
    """The record sent cannot be read, or is no partie by the laws: a 400."""


@dataclass
class Refused(ValueError):
    """An entry the laws refuse: the message, the law, and the field the page shows it by (a 422)."""

    message: str
    law: str | None
    field: str

    def __str__(self) -> str:
        return self.message


# ---------------------------------------------------------------- the record


def read_record(value: object) -> MarkedPartie:
    """The partie of the record sent (an object, or its text); ``RecordRefused`` says what is wrong."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, dict):
        text = json.dumps(value)
    else:
        raise RecordRefused("the record: a marked partie's record is a JSON object (\"marked\": true)")
    deals = value.get("deals") if isinstance(value, dict) else None
    if isinstance(deals, list) and len(deals) > MAX_DEALS:
        raise RecordRefused(f"the record: at most {MAX_DEALS} deals, found {len(deals)}")
    try:
        partie = marked_from_json(text)
    except MarkError as e:
        raise RecordRefused(f"the record: {e}") from None
    except (TypeError, AttributeError, ValueError, RecursionError):
        raise RecordRefused("the record: not a marked partie's record as piquet writes it") from None
    if len(partie.deals) > MAX_DEALS:
        raise RecordRefused(f"the record: at most {MAX_DEALS} deals, found {len(partie.deals)}")
    return partie


def record_json(partie: MarkedPartie) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(marked_to_json(partie))
    return doc


# ---------------------------------------------------------------- a new partie


def new_partie(body: dict[str, Any]) -> MarkedPartie:
    """The partie begun: the two names, the rules (and au cent's agreements), who deals first (Law 4)."""
    players = body.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(n, str) for n in players):
        raise Refused("give the two players' names", None, "players")
    names = [" ".join(n.split()) for n in players]
    if not all(names):
        raise Refused("each player has a name", None, "players")
    if any(len(n) > MAX_NAME for n in names):
        raise Refused(f"a name is at most {MAX_NAME} letters", None, "players")
    if names[0].lower() == names[1].lower():
        raise Refused("the two players have different names", None, "players")
    rules_name, agreements = body.get("rules", "rubicon"), body.get("agreements", [])
    if not isinstance(rules_name, str) or not isinstance(agreements, list) \
            or not all(isinstance(a, str) for a in agreements):
        raise Refused("the rules are rubicon, four-deal or au-cent (with small-cards, fours)", None, "rules")
    try:
        rules = rules_named(rules_name, agreements)
    except ValueError as e:
        raise Refused(str(e), None, "rules") from None
    first = body.get("first_dealer")
    if first not in SEATS:
        raise Refused("say who deals first", "Law 4", "first_dealer")
    return MarkedPartie(rules, (names[0], names[1]), str(first))


# ---------------------------------------------------------------- a deal entered


def _refuse_at(e: MarkError, field: str) -> Refused:
    return Refused(str(e), e.law, field)


def add_deal(partie: MarkedPartie, value: object) -> MarkedPartie:
    """The partie with the deal entered; ``Refused`` (the partie unchanged) names the field at fault.

    The deal is in the record's form; its dealer, if not given, is the next by Law 16.  It is checked by
    parts, so that a refusal is shown by what it refuses: the hands (``check_full``, ``check_quick``), the
    play (``check_totals``, ``check_cards``), then the deal whole in the partie (pique, Law 69; the goal, p. 20)."""
    if not isinstance(value, dict):
        raise Refused("the deal is an object, as the record writes it", None, "deal")
    number = len(partie.deals) + 1
    value = {"dealer": partie.next_dealer} | value
    if value.get("carte_blanche") not in (None, *ROLES):
        raise Refused("a carte blanche is the elder's or the younger's: \"elder\" or \"younger\"", "Law 18",
                      "carte_blanche")
    try:
        deal = deal_from_json(value, number)
    except MarkError as e:
        raise _refuse_at(e, _field_of(e)) from None
    rules = partie.rules
    decl, play = deal.declarations, deal.play
    if deal.status != "played":
        raise Refused("a deal annulled or void is entered by its own button", None, "deal")
    if decl is None:
        raise Refused("enter the hands: the calls as spoken, or what each scored", None, "hands")
    if play is None:
        raise Refused("enter the play: the tricks and the play points, or the cards", None, "play")
    try:
        if isinstance(decl, FullCalls):
            check_full(decl, rules)
        elif isinstance(decl, QuickScores):
            check_quick(decl, rules)
    except MarkError as e:
        field = CATEGORY_FIELDS[e.category] if e.category is not None else \
            _reply_field(e) if e.law == "Law 46" else _FIELD_OF_LAW.get(e.law or "", "hands")
        raise _refuse_at(e, field) from None
    try:
        if isinstance(play, PlayTotals):
            check_totals(play, rules)
        elif isinstance(play, CardPlay):
            check_cards(play)
    except MarkError as e:
        raise _refuse_at(e, "play") from None
    try:
        return partie.add(deal)
    except MarkError as e:
        raise _refuse_at(e, _field_of(e)) from None


def _reply_field(e: MarkError) -> str:
    for name in ("point", "sequence", "set"):
        if f" {name}" in e.message:
            return {"point": "point", "sequence": "sequences", "set": "sets"}[name]
    return "hands"


def _field_of(e: MarkError) -> str:
    if e.law == "Law 69" and "say whether" in e.message:
        return "pique"
    if e.law == "p. 20" and "who reached it first" in e.message:
        return "first_to_goal"
    if e.law == "Law 18":
        return "carte_blanche"
    if e.law is None:  # the deal as sent cannot be read: say where, by the words of the message
        for words, field in (("tricks", "play"), ("play", "play"), ("point", "point"), ("sequence", "sequences"),
                             ("set", "sets"), ("first_to_goal", "first_to_goal")):
            if words in e.message:
                return field
    return _FIELD_OF_LAW.get(e.law or "", "deal")


# ---------------------------------------------------------------- the state shown


def _names(partie: MarkedPartie) -> dict[str, str]:
    return {"A": partie.players[0], "B": partie.players[1]}


def _next_deal(partie: MarkedPartie, dealer: str | None = None) -> dict[str, Any] | None:
    """The deal to enter: its number, who deals and who is elder (Laws 9, 16), in the narrator's words;
    ``dealer``: who dealt it, if not the next by Law 16 (dealt out of turn, found too late)."""
    if partie.is_finished:
        return None
    rules, after = partie.rules, partie.scores_after
    dealer = dealer or partie.next_dealer
    elder = "B" if dealer == "A" else "A"
    game = partie.game_scores
    games = partie.games
    tally = {k: sum(g.counts for g in games if g.winner == k) for k in SEATS}
    context = PartieContext(seat="A", dealer=dealer, deal_number=len(after) + 1, deals_in_partie=partie.deals_needed,
                            rules=rules.spec, scores=dict(game) if game is not None else dict(partie.scores),
                            multiplier=rules.multiplier(len(after)), games=tally,
                            game_number=len(games) + 1 if rules.partie_of_games else 0)
    return {"number": len(after) + 1, "of": partie.deals_needed, "dealer": dealer, "elder": elder,
            "younger": dealer, "words": deal_words(context, _names(partie)),
            "multiplier": rules.multiplier(len(after)), "game": game}


def _deals(partie: MarkedPartie) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    scored, points, after = partie.deal_scores, partie.deal_points, partie.scores_after
    number = 0
    for i, (d, s) in enumerate(zip(partie.deals, scored, strict=True)):
        entry: dict[str, Any] = {"index": i, "dealer": d.dealer, "status": d.status, "counts": d.counts}
        if s is None:
            entry["lines"] = deal_lines(partie, i, 0)
            out.append(entry)
            continue
        number += 1
        seats = (partie.seat(d, ELDER), partie.seat(d, YOUNGER))
        running = [0, 0]
        order = []
        for item in s.order:
            running[item.role] += item.points
            order.append({"seat": seats[item.role], "name": partie.name(seats[item.role]),
                          "heading": MARKED_HEADINGS[item.kind], "points": item.points,
                          "words": reckoning_words(item.kind, item.points, running[item.role])})
        entry |= {"number": number, "elder": seats[ELDER], "lines": deal_lines(partie, i, number), "order": order,
                  "lost_by": None if d.lost_by is None else seats[d.lost_by],
                  "totals": {seats[ELDER]: s.total(ELDER), seats[YOUNGER]: s.total(YOUNGER)},
                  "tricks": {seats[ELDER]: s.tricks[ELDER], seats[YOUNGER]: s.tricks[YOUNGER]},
                  "counts_as": points[number - 1], "after": after[number - 1],
                  "game_won": None if s.game_won is None else {"seat": seats[s.game_won[0]],
                                                               "double": s.game_won[1]}}
        out.append(entry)
    return out


def _stakes(partie: MarkedPartie, stake_text: object, custom_text: object) -> list[str] | None:
    """The settlement at a stake (p. 100-101), by ``piquet.stakes``: None without a stake."""
    if stake_text is None or (isinstance(stake_text, str) and not stake_text.strip()):
        return None
    if not partie.is_finished:
        raise Refused("the stakes are settled when the partie is over", None, "stake")
    try:
        stake, custom, note = stake_and_custom(stake_text, custom_text)
        if stake is None:
            return None
        card = Session.of([(partie.players, card_partie(partie))])
        lines = card.settle(stake, custom).lines()
    except (SettleError, ValueError) as e:
        raise Refused(str(e), None, "stake") from None
    return lines + ([note] if note else [])


def state(partie: MarkedPartie, stake: object = None, custom: object = None) -> dict[str, Any]:
    """What the page shows: the players, the rules, each deal told and scored, the partie and its end."""
    rules = partie.rules
    s = partie.settlement()
    names = _names(partie)
    return {
        "players": names,
        "rules": rules.spec,
        "title": rules.title,
        "of_games": rules.partie_of_games,
        "deals": _deals(partie),
        "scores": partie.scores,
        "deals_played": len(partie.scores_after),
        "deals_needed": partie.deals_needed,
        "next": _next_deal(partie),
        "finished": partie.is_finished,
        "settlement": {"finished": s.finished, "winner": s.winner, "rubicon": s.rubicon,
                       "points_won": s.points_won, "tally": s.tally,
                       "words": settlement_words(s, partie.scores, rules, names, len(partie.scores_after),
                                                 partie.deals_needed)},
        "stakes": _stakes(partie, stake, custom),
        "can_undo": bool(partie.deals),
    }


# ---------------------------------------------------------------- something went wrong (the referee)


def _code(remedy: Remedy) -> str:
    """A remedy as the request names it: ``reckons-nothing``."""
    return remedy.name.lower().replace("_", "-")


_REMEDIES: Final = {_code(r): r for r in Remedy}
#: The most a number asked of an irregularity may be: the cards of the pack (Law 1).
_MOST_CARDS: Final = 32


def _wrong(message: str, law: str | None = None) -> Refused:
    return Refused(message, law, "wrong")


def referee_catalogue() -> dict[str, Any]:
    """The irregularities a player picks from, by group as ``piquet mark`` lists them, each with its laws and
    the facts it asks; and each fact's question, whether it is a number, and its value unless said."""
    defaults = Irregularity(Kind.DROPPED)
    return {
        "groups": [{"name": str(g), "entries": [{"kind": e.kind.value, "label": e.label, "laws": e.laws,
                                                  "facts": list(e.facts)} for e in entries]}
                   for g, entries in by_group().items() if entries],
        "facts": {f.name: {"question": f.question, "number": f.number,
                           "default": None if f.name == "offender" else getattr(defaults, f.name)}
                  for f in FACTS.values()},
    }


def _pending(partie: MarkedPartie, value: object) -> Pending:
    """The deal being entered, as the page holds it: its dealer (the next by Law 16 unless said), out of turn,
    and the roles that reckon nothing in it, of which those waived (Law 44)."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise _wrong("the deal being entered (\"pending\") is an object: {\"dealer\": \"A\", ...}")
    dealer = value.get("dealer") or partie.next_dealer
    if dealer not in SEATS:
        raise _wrong(f"the dealer of the deal being entered is A or B, not {json.dumps(dealer)}", "Law 16")
    roles: list[frozenset[int]] = []
    for key in ("reckons_nothing", "waived"):
        items = value.get(key) or []
        if not isinstance(items, list) or not all(r in ROLES for r in items):
            raise _wrong(f"\"{key}\" lists roles: \"elder\", \"younger\"", "Law 44")
        roles.append(frozenset(ROLES.index(r) for r in items))
    if not roles[1] <= roles[0]:
        raise _wrong("only a penalty incurred can be waived", "Law 44")
    out_of_turn = value.get("out_of_turn", dealer != partie.next_dealer)
    if not isinstance(out_of_turn, bool) or out_of_turn != (dealer != partie.next_dealer):
        raise _wrong(f"{partie.name(dealer)} dealing is {'not ' if dealer == partie.next_dealer else ''}out of "
                     "turn", "Law 16")
    return Pending(str(dealer), out_of_turn, roles[0], roles[1])


def read_irregularity(body: dict[str, Any]) -> Irregularity:
    """The irregularity of the request: its kind, and every fact that kind asks, each of its type."""
    kind = body.get("kind")
    entry = next((e for e in IRREGULARITIES if e.kind.value == kind), None)
    if entry is None:
        raise _wrong(f"unknown irregularity {json.dumps(kind)}: one of "
                     f"{', '.join(e.kind.value for e in IRREGULARITIES)}")
    facts = body.get("facts", {})
    if not isinstance(facts, dict):
        raise _wrong("the facts are an object: {\"offender\": \"elder\", \"hand_taken_up\": true, ...}")
    extra = sorted(set(facts) - set(entry.facts))
    if extra:
        asked = ", ".join(entry.facts) or "nothing"
        raise _wrong(f"\"{entry.label}\" asks no fact {json.dumps(extra[0])}; it asks {asked}")
    given: dict[str, Any] = {}
    for name in entry.facts:
        fact, value = FACTS[name], facts.get(name)
        if value is None:
            raise _wrong(f"say the fact {name}: {fact.question}")
        if name == "offender":
            if value not in ROLES:
                raise _wrong(f"who is in error is the \"elder\" or the \"younger\", not {json.dumps(value)}")
            given[name] = ROLES.index(value)
        elif fact.number:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MOST_CARDS:
                raise _wrong(f"{name} is a number of cards, 0 to {_MOST_CARDS}, not {json.dumps(value)}: "
                             f"{fact.question}")
            given[name] = value
        else:
            if not isinstance(value, bool):
                raise _wrong(f"{name} is true or false, not {json.dumps(value)}: {fact.question}")
            given[name] = value
    return Irregularity(entry.kind, **given)


def _ruling(partie: MarkedPartie, body: dict[str, Any]) -> tuple[Irregularity, Ruling, Pending]:
    pending = _pending(partie, body.get("pending"))
    i = read_irregularity(body)
    try:
        return i, rule(i, partie.rules), pending
    except ValueError as e:
        raise _wrong(str(e)) from None


def _effect(partie: MarkedPartie, ruling: Ruling, option: Option, pending: Pending) -> str:
    """What choosing the option does to the score, in a few words."""
    r = option.remedy
    who = partie.name(pending.seat(option.role)) if option.role is not None else ""
    if r is Remedy.FRESH_DEAL:
        return "this deal is annulled: the same dealer deals again"
    if r is Remedy.VOID:
        return "this deal is void: the deals before stand, and the right dealer deals"
    if r is Remedy.DEAL_TWICE:
        return "the deal stands, out of turn: its elder deals twice running"
    if r is Remedy.GAME_LOST:
        return f"{who} loses the game; this deal scores nothing"
    if r is Remedy.WAIVE:
        return f"{who} reckons what he holds"
    if r in PENALTIES:
        return f"{who} reckons nothing in this deal"
    if r in CORRECTIONS:
        return "the deal's scores are entered again"
    if r is Remedy.STANDS and ruling.law in ("Law 16", "p. 16 (5)"):
        return "the deal stands, out of turn"
    assert r in TABLE_ONLY
    return "put right at the table: nothing changes in the score"


def _named(says: str, partie: MarkedPartie, option: Option, pending: Pending) -> str:
    """The option's words with the player it falls on named: ``Bob (the younger) reckons nothing this deal``."""
    if option.role is not None:
        words = ("the elder", "the younger")[option.role]
        says = says.replace(words + " ", f"{partie.name(pending.seat(option.role))} ({words}) ", 1)
    return says[:1].upper() + says[1:]


def ruling_json(partie: MarkedPartie, i: Irregularity, r: Ruling, pending: Pending) -> dict[str, Any]:
    """The ruling as the page shows it: the law and its words, who chooses (by role and name), the options."""
    entry = ENTRIES[i.kind]
    chooser = None if r.chooser is None else partie.name(pending.seat(r.chooser))
    who = ("The law decides; nobody chooses." if len(r.options) == 1 else
           "The players agree:" if chooser is None else f"{chooser} chooses:")
    number = 0
    deals = []
    for n, d in enumerate(partie.deals):
        number += d.counts
        if n in correctable(partie):
            pts = partie.deal_points[number - 1]
            deals.append({"index": n, "number": number, "dealer": d.dealer, "elder": "B" if d.dealer == "A" else "A",
                          "words": f"Deal {number}: {partie.players[0]} {pts['A']}, {partie.players[1]} {pts['B']}"})
    return {"kind": i.kind.value, "label": entry.label, "laws": entry.laws, "law": r.law, "says": r.says,
            "chooser": None if r.chooser is None else ROLES[r.chooser], "chooser_name": chooser, "who": who,
            "options": [{"remedy": _code(o.remedy), "says": _named(o.says, partie, o, pending),
                         "role": None if o.role is None else ROLES[o.role],
                         "name": None if o.role is None else partie.name(pending.seat(o.role)),
                         "effect": _effect(partie, r, o, pending), "corrects": o.remedy in CORRECTIONS}
                        for o in r.options],
            "deals": deals if any(o.remedy in CORRECTIONS for o in r.options) else []}


def _correction(partie: MarkedPartie, value: object) -> tuple[int, MarkedDeal]:
    """The deal put right (Laws 70, 74): its index, and its scores entered again (the hands and the play, in the
    record's form), checked by parts as a deal added is."""
    if not isinstance(value, dict):
        raise Refused("say which deal is put right, and its scores: {\"deal\": 0, \"scored\": ..., ...}", None,
                      "correct")
    index = value.get("deal")
    if isinstance(index, bool) or not isinstance(index, int) or index not in correctable(partie):
        raise Refused(f"there is no deal {json.dumps(index)} scored to put right: the deals are given by their index "
                      f"in the record, one of {correctable(partie)}", "Law 70", "correct")
    old = partie.deals[index]
    entered = ("scored", "declared", "tricks", "play_points", "play", "pique", "first_to_goal")
    kept = {k: v for k, v in deal_to_json(old).items() if k not in entered and k != "corrected"}
    try:  # checked as the deal it was, entered again after the deals before it
        new = add_deal(replace(partie, deals=partie.deals[:index]),
                       kept | {k: v for k, v in value.items() if k in entered})
    except Refused as e:
        raise Refused(e.message, e.law, "correct") from None
    d = new.deals[-1]
    return index, replace(old, declarations=d.declarations, play=d.play)


def _pending_json(partie: MarkedPartie, p: Pending) -> dict[str, Any]:
    nxt = _next_deal(partie, p.dealer)
    return {"dealer": p.dealer, "elder": "B" if p.dealer == "A" else "A", "younger": p.dealer,
            "out_of_turn": p.out_of_turn, "reckons_nothing": [ROLES[r] for r in sorted(p.reckons_nothing)],
            "waived": [ROLES[r] for r in sorted(p.waived)], "words": None if nxt is None else nxt["words"]}


def _not_held_json(partie: MarkedPartie, done: Applied) -> dict[str, Any] | None:
    """Where a call of what is not held came to light (Law 54): whose call the page lets mark "not held", and
    what to do, for the hands as spoken and as quick scores (``not_held_says``)."""
    if done.not_held is None:
        return None
    calls, scores = not_held_says(partie, done.pending, done.not_held)
    return {"role": ROLES[done.not_held], "name": partie.name(done.pending.seat(done.not_held)), "calls": calls,
            "scores": scores}


def wrong(partie: MarkedPartie, body: dict[str, Any]) -> Applied:
    """The remedy chosen of the ruling on the irregularity, applied (``piquet.marker.wrong.apply_choice``)."""
    i, r, pending = _ruling(partie, body)
    code = body.get("remedy")
    remedy = _REMEDIES.get(code) if isinstance(code, str) else None
    if remedy not in r.remedies:
        choices = ", ".join(_code(x) for x in r.remedies)
        raise _wrong(f"the ruling ({r.law}) gives the choice of {choices}, not {json.dumps(code)}", r.law)
    assert remedy is not None
    option = r.option(remedy)
    correction = _correction(partie, body.get("correct")) if remedy in CORRECTIONS else None
    if remedy in (Remedy.FRESH_DEAL, Remedy.VOID, Remedy.GAME_LOST) and len(partie.deals) >= MAX_DEALS:
        raise _wrong(f"at most {MAX_DEALS} deals are marked")
    try:
        return apply_choice(partie, r, option, pending, correction, i.kind)
    except MarkError as e:
        raise Refused(str(e), e.law, "correct" if correction else "wrong") from None


# ---------------------------------------------------------------- the request


def mark_request(body: object) -> dict[str, Any]:
    """The answer to ``POST /api/mark``: ``{"record", "state"}``; ``RecordRefused`` (400) or ``Refused`` (422)."""
    if not isinstance(body, dict):
        raise RecordRefused("the body is a JSON object: {\"action\": ..., \"record\": {...}}")
    action = body.get("action", "state")
    if action not in ACTIONS:
        raise RecordRefused(f"unknown action {json.dumps(action)}: one of {', '.join(ACTIONS)}")
    extra: dict[str, Any] = {}
    if action == "new":
        partie = new_partie(body)
    elif action in ("rule", "wrong"):
        partie = read_record(body.get("record"))
        if action == "rule":
            i, r, pending = _ruling(partie, body)
            extra["ruling"] = ruling_json(partie, i, r, pending)
        else:
            done = wrong(partie, body)
            partie = done.partie
            extra["applied"] = {"says": done.says, "note": done.note, "deal_over": done.deal_over,
                                "pending": _pending_json(partie, done.pending),
                                "not_held": _not_held_json(partie, done)}
    else:
        partie = read_record(body.get("record"))
        if action == "add":
            partie = add_deal(partie, body.get("deal"))
        elif action == "undo":
            if not partie.deals:
                raise Refused("nothing to take back", None, "deal")
            partie = partie.undo()
        elif action in ("annul", "void"):
            if partie.is_finished:
                raise Refused(f"the partie is over ({partie.rules.title})", partie.rules.partie_end_law, "deal")
            if len(partie.deals) >= MAX_DEALS:
                raise Refused(f"at most {MAX_DEALS} deals are marked", None, "deal")
            partie = partie.annul() if action == "annul" else partie.void()
    return {"record": record_json(partie), "state": state(partie, body.get("stake"), body.get("custom"))} | extra


def refusal_words(e: Refused) -> str:
    """A refusal as the page shows it: the message, its law, and what the law says (``talk.laws.with_law``, as
    the terminal's refusals do).

    >>> refusal_words(Refused("six cards discarded", "Law 21", "hands"))
    'six cards discarded (Law 21). Law 21: The elder discards and takes in one to five.'
    """
    said = e.message if e.law is None or f"({e.law})" in e.message else f"{e.message} ({e.law})"
    return with_law(said)


def _error(status: int, message: str, **more: object) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status, headers={"Cache-Control": "no-store"})


async def mark_page(request: Request) -> Response:
    """``GET /mark``: the page (it keeps the partie in the browser and asks the server to score it)."""
    return static_page("mark.html")


async def mark_json(request: Request) -> Response:
    """``POST /api/mark``: the new record and state, a refusal with its law (422), or what is wrong (400)."""
    try:
        body = await json_body(request, "{\"action\": ..., \"record\": {...}}")
    except BadBody as e:
        return _error(e.status, str(e))
    try:
        doc = await asyncio.to_thread(mark_request, body)
    except Refused as e:
        return _error(422, e.message, law=e.law, field=e.field, explained=refusal_words(e))
    except RecordRefused as e:
        return _error(400, str(e))
    return JSONResponse(doc, headers={"Cache-Control": "no-store"})


async def referee_json(request: Request) -> Response:
    """``GET /api/mark/referee``: the irregularities by group, their laws and facts (``referee_catalogue``)."""
    return JSONResponse(referee_catalogue(), headers={"Cache-Control": "no-cache"})


routes: list[BaseRoute] = [
    Route("/mark", mark_page),
    Route("/api/mark", mark_json, methods=["POST"]),
    Route("/api/mark/referee", referee_json),
]

__all__ = ["MAX_DEALS", "RecordRefused", "Refused", "add_deal", "mark_request", "new_partie", "read_irregularity",
           "read_record", "referee_catalogue", "routes", "ruling_json", "state", "wrong"]
