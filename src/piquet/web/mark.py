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

Answers: ``200 {"record", "state"}``; an entry the laws refuse, ``422 {"error", "law", "field"}`` (the
record sent is unchanged, and the page keeps what was typed); a record that cannot be read or is not a
partie by the laws, ``400 {"error"}``; a body too large, 413.  ``field`` names where the page shows the
message: ``players``, ``rules``, ``first_dealer``, ``carte_blanche``, ``point``, ``sequences``, ``sets``,
``hands``, ``play``, ``pique``, ``first_to_goal``, ``stake``, ``deal``.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from piquet.core.observation import PartieContext
from piquet.core.rules import SEATS, rules_named
from piquet.marker.calls import ELDER, ROLES, YOUNGER, MarkError
from piquet.marker.deal import (
    CardPlay,
    FullCalls,
    PlayTotals,
    QuickScores,
    check_cards,
    check_full,
    check_quick,
    check_totals,
)
from piquet.marker.partie import MarkedPartie, card_partie
from piquet.marker.record import deal_from_json, marked_from_json, marked_to_json
from piquet.marker.telling import deal_lines
from piquet.stakes.settlement import Session
from piquet.talk.words import MARKED_HEADINGS, deal_words, reckoning_words, settlement_words

from .settle import SettleError, stake_and_custom

STATIC = Path(__file__).resolve().parent / "static"
#: The largest request body, in bytes.
MAX_BODY: Final = 256 * 1024
#: The most entries (deals, annulled and void ones too) a record may hold.
MAX_DEALS: Final = 200
#: The longest name of a player.
MAX_NAME: Final = 40
ACTIONS: Final = ("new", "state", "add", "undo", "annul", "void")
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
        field = _reply_field(e) if e.law == "Law 46" else _FIELD_OF_LAW.get(e.law or "", "hands")
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


def _next_deal(partie: MarkedPartie) -> dict[str, Any] | None:
    """The deal to enter: its number, who deals and who is elder (Laws 9, 16), in the narrator's words."""
    if partie.is_finished:
        return None
    rules, after = partie.rules, partie.scores_after
    dealer = partie.next_dealer
    elder = "B" if dealer == "A" else "A"
    game = rules.game_scores(after)
    games = rules.games(after)
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


# ---------------------------------------------------------------- the request


def mark_request(body: object) -> dict[str, Any]:
    """The answer to ``POST /api/mark``: ``{"record", "state"}``; ``RecordRefused`` (400) or ``Refused`` (422)."""
    if not isinstance(body, dict):
        raise RecordRefused("the body is a JSON object: {\"action\": ..., \"record\": {...}}")
    action = body.get("action", "state")
    if action not in ACTIONS:
        raise RecordRefused(f"unknown action {json.dumps(action)}: one of {', '.join(ACTIONS)}")
    if action == "new":
        partie = new_partie(body)
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
    return {"record": record_json(partie), "state": state(partie, body.get("stake"), body.get("custom"))}


def _error(status: int, message: str, **more: object) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status, headers={"Cache-Control": "no-store"})


async def mark_page(request: Request) -> Response:
    """``GET /mark``: the page (it keeps the partie in the browser and asks the server to score it)."""
    path = STATIC / "mark.html"
    if not path.is_file():
        return _error(404, "mark.html is not installed")
    return FileResponse(path, headers={"Cache-Control": "no-cache"})


async def mark_json(request: Request) -> Response:
    """``POST /api/mark``: the new record and state, a refusal with its law (422), or what is wrong (400)."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return _error(413, f"the request is larger than {MAX_BODY // 1024} KiB")
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return _error(400, "the body is a JSON object: {\"action\": ..., \"record\": {...}}")
    try:
        doc = await asyncio.to_thread(mark_request, body)
    except Refused as e:
        return _error(422, e.message, law=e.law, field=e.field)
    except RecordRefused as e:
        return _error(400, str(e))
    return JSONResponse(doc, headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [
    Route("/mark", mark_page),
    Route("/api/mark", mark_json, methods=["POST"]),
]

__all__ = ["MAX_DEALS", "RecordRefused", "Refused", "add_deal", "mark_request", "new_partie", "read_record", "routes",
           "state"]
