"""The scoring card and the settlement of stakes in the browser (``/settle``; p. 100-102, 106).

``POST /api/settle`` takes a JSON object::

    {"parties": [{"table": "3f9c0a1b2c3d"},              # a finished table of this server
                 {"Ann": 131, "Bob": 113},               # a partie by its totals
                 {"Ann": [27, 15, 44, 18, 35, 25],       # or deal by deal
                  "Bob": "13, 31, 6, 29, 12, 23"}],
     "stake": "10s a hundred", "custom": "fifty"}

or ``{"chouette": {...}, "stake": ..., "custom": ...}`` with a chouette in the JSON format
``stakes.from_json`` reads (p. 102).  A partie given as figures names its two players by its
keys (``{"A": 131, "B": 113}`` when they have no other names), the first key being the first
player; each figure is a whole number (the total), or a list of the deal scores (a list, or a
string of whole numbers separated by commas or spaces); ``"rules"`` may say ``"four-deal"``.
The stake is optional (without it only the points are settled); the custom is one of
``stakes.CUSTOMS`` or ``book`` (the book's custom for the stake, p. 101).

The answer: the card as an HTML table (``scoring_card_html``), the result and the settlement in
words, the settlement for each player (points, money in farthings and in words) and the CSV and
JSON exports (``to_csv``, ``to_json``) as strings.  Every bad input is answered 400 with
``{"error": "..."}``, the message being the one ``piquet.stakes.settlement`` gives; a table that does not
exist is 404.  A table whose partie is in progress is refused (400) and nothing of it is read
but its status: its cards stay hidden.

>>> names, partie = figures_partie({"Ann": 131, "Bob": 113})
>>> names, partie.points
(('Ann', 'Bob'), 118)
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from piquet.records.record import PartieRecord, RecordError, replay
from piquet.stakes.settlement import (
    FIFTY,
    CardPartie,
    ChouetteSession,
    Custom,
    Session,
    Stake,
    StakesSettlement,
    book_reckoning,
    custom_named,
    from_json,
    money_words,
    scoring_card_html,
    to_csv,
    to_json,
)

from .pages import BadBody, json_body, static_page
from .store import Store

log = logging.getLogger("piquet.web")

#: The most parties one request may settle.
MAX_PARTIES = 200
#: Keys of a partie given as figures that are not players' names.
_RESERVED = frozenset({"rules", "table", "chouette"})
_FIGURES = re.compile(r"-?\d+")
_FIGURES_TEXT = re.compile(r"-?\d+(?:[\s,;]+-?\d+)*[\s,;]*")


class SettleError(ValueError):
    """A request that cannot be settled: its HTTP status and a message for the player."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------- reading the request


def _figures(value: object, who: str) -> int | list[int]:
    """A player's figures in a partie: a total (a whole number) or the deal scores (a list, or a string)."""
    if isinstance(value, bool):
        raise ValueError(f"{who}'s score is a whole number or a list of deal scores, found {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not _FIGURES_TEXT.fullmatch(text):
            raise ValueError(f"{who}'s score is a whole number or deal scores separated by commas, "
                             f"found {value!r}")
        numbers = [int(x) for x in _FIGURES.findall(text)]
        return numbers[0] if len(numbers) == 1 else numbers
    if isinstance(value, list):
        if not value or not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            raise ValueError(f"{who}'s deal scores are a list of whole numbers, found {value!r}")
        return list(value)
    raise ValueError(f"{who}'s score is a whole number or a list of deal scores, found {value!r}")


def figures_partie(d: dict[str, Any]) -> tuple[tuple[str, str], CardPartie]:
    """A partie given as figures, ``{"Ann": 131, "Bob": 113}`` or deal by deal: its players, in order, and the
    partie settled by Laws 71-73 (``ValueError`` says what is wrong)."""
    rules = d.get("rules", "rubicon")
    if not isinstance(rules, str):
        raise ValueError("\"rules\" is \"rubicon\" or \"four-deal\"")
    names = [k for k in d if k not in _RESERVED]
    if len(names) != 2:
        raise ValueError("a partie is given as the two players' figures, e.g. {\"A\": 131, \"B\": 113} or "
                         "{\"A\": [27, 15, 44, 18, 35, 25], \"B\": [13, 31, 6, 29, 12, 23]}; found "
                         f"{len(names)} player{'' if len(names) == 1 else 's'}")
    first, second = (" ".join(n.split()) for n in names)
    if not first or not second:
        raise ValueError("a player's name is not blank")
    if first == second:
        raise ValueError(f"the partie names {first} twice")
    a, b = _figures(d[names[0]], first), _figures(d[names[1]], second)
    if isinstance(a, int) and isinstance(b, int):
        return (first, second), CardPartie.from_scores(a, b, rules)
    if isinstance(a, int) or isinstance(b, int):
        raise ValueError("give both players' totals, or both players' deal scores")
    if len(a) != len(b):
        raise ValueError(f"{first} has {len(a)} deal scores and {second} {len(b)}")
    return (first, second), CardPartie.from_deals(list(zip(a, b, strict=True)), rules)


def _table_partie(store: Store, table_id: object) -> tuple[tuple[str, str], CardPartie]:
    """A finished table's partie, from its stored record, with its players' names (called off the event loop)."""
    if not isinstance(table_id, str) or not table_id:
        raise SettleError("\"table\" is a table's id, as GET /api/tables lists it")
    row = store.load(table_id)
    if row is None:
        raise SettleError(f"there is no table {table_id!r} on this server", 404)
    if row.status != "finished":
        raise SettleError(f"table {table_id} is not finished ({row.status}): a partie in progress is not settled, "
                          "and its cards stay hidden")
    names = (row.seats["A"].name, row.seats["B"].name)
    try:
        partie = CardPartie.from_partie(replay(PartieRecord.from_json(row.record)))
    except (RecordError, ValueError) as e:
        log.error("table %s: its record cannot be settled: %s", table_id, e)
        raise SettleError(f"the record of table {table_id} cannot be rebuilt, so it cannot be settled ({e})",
                          500) from None
    if names[0] == names[1]:
        names = (f"{names[0]} (A)", f"{names[1]} (B)")
    return names, partie


def _chouette(value: object) -> ChouetteSession:
    text = value if isinstance(value, str) else json.dumps(value)
    try:
        card = from_json(text)
    except ValueError as e:
        raise SettleError(f"the chouette: {e}") from None
    if not isinstance(card, ChouetteSession):
        raise SettleError("the chouette: not a chouette (it is of three players: \"kind\": \"chouette\")")
    if not card.parties:
        raise SettleError("the chouette: no parties to settle")
    return card


def stake_and_custom(stake_text: object, custom_text: object) -> tuple[Stake | None, Custom, str | None]:
    """The stake (None: the points only), the custom and a note (the book's reckoning of the stake, p. 101)."""
    if stake_text is not None and not isinstance(stake_text, str):
        raise SettleError("\"stake\" is words, e.g. \"10s a hundred\"")
    if custom_text is not None and not isinstance(custom_text, str):
        raise SettleError("\"custom\" is a name, e.g. \"fifty\"")
    if stake_text is None or not stake_text.strip():
        if custom_text is not None and custom_text.strip():
            raise SettleError("the custom says how the money is reckoned: give a stake with it")
        return None, FIFTY, None
    stake = Stake.parse(stake_text)
    if custom_text is not None and custom_text.strip().lower() == "book":
        book_stake, custom = book_reckoning(stake)
        note = f"{stake} is reckoned at {book_stake} (p. 101)." if book_stake != stake else None
        return book_stake, custom, note
    if custom_text is None or not custom_text.strip():
        return stake, FIFTY, None
    return stake, custom_named(custom_text), None


@dataclass(frozen=True)
class Settled:
    """A card and its settlement, ready to answer."""

    card: Session | ChouetteSession
    settlement: StakesSettlement | None
    note: str | None


def _request_card(store: Store, body: dict[str, Any]) -> Session | ChouetteSession:
    parties, chouette = body.get("parties"), body.get("chouette")
    if isinstance(parties, list) and len(parties) == 1 and isinstance(parties[0], dict) \
            and set(parties[0]) == {"chouette"} and chouette is None:
        parties, chouette = [], parties[0]["chouette"]
    if chouette is not None:
        if parties:
            raise SettleError("a chouette is settled alone: give no other parties with it")
        return _chouette(chouette)
    if parties is None or parties == []:
        raise SettleError("nothing to settle: give \"parties\" (finished tables or figures) or a \"chouette\"")
    if not isinstance(parties, list):
        raise SettleError("\"parties\" is a list of parties: {\"table\": id} or {\"A\": 131, \"B\": 113}")
    if len(parties) > MAX_PARTIES:
        raise SettleError(f"at most {MAX_PARTIES} parties are settled at once, found {len(parties)}")
    named: list[tuple[tuple[str, str], CardPartie]] = []
    for n, d in enumerate(parties, 1):
        if not isinstance(d, dict):
            raise SettleError(f"partie {n}: a partie is {{\"table\": id}} or the players' figures, "
                              "e.g. {\"A\": 131, \"B\": 113}")
        if "chouette" in d:
            raise SettleError(f"partie {n}: a chouette is settled alone: give no other parties with it")
        if "table" in d:
            if len(d) != 1:
                raise SettleError(f"partie {n}: a table is given by its id alone: {{\"table\": id}}")
            try:
                named.append(_table_partie(store, d["table"]))
            except SettleError as e:
                raise SettleError(f"partie {n}: {e}", e.status) from None
            continue
        try:
            named.append(figures_partie(d))
        except ValueError as e:
            raise SettleError(f"partie {n}: {e}") from None
    return Session.of(named)


def settle_request(store: Store, body: object) -> Settled:
    """The card of a request's parties and its settlement; ``SettleError`` (or the ``ValueError`` of
    ``piquet.stakes.settlement``) says what is wrong.  Reads the store: call it off the event loop."""
    if not isinstance(body, dict):
        raise SettleError("the body is a JSON object: {\"parties\": [...], \"stake\": \"10s a hundred\", "
                          "\"custom\": \"fifty\"}")
    unknown = set(body) - {"parties", "chouette", "stake", "custom"}
    if unknown:
        raise SettleError(f"unknown field {sorted(unknown)[0]!r}: give \"parties\" or \"chouette\", \"stake\" "
                          "and \"custom\"")
    stake, custom, note = stake_and_custom(body.get("stake"), body.get("custom"))
    card = _request_card(store, body)
    settlement = None if stake is None else card.settle(stake, custom)
    return Settled(card, settlement, note)


# ---------------------------------------------------------------- the answer


def _points_words(player: str, points: int) -> str:
    if points > 0:
        return f"{player} wins {points} points"
    if points < 0:
        return f"{player} loses {-points} points"
    return f"{player} neither wins nor loses"


def answer(settled: Settled) -> dict[str, Any]:
    """The JSON answer to ``POST /api/settle``."""
    card, settlement = settled.card, settled.settlement
    balances = card.balances()
    players: list[dict[str, Any]] = []
    for player, points in balances.items():
        entry: dict[str, Any] = {"player": player, "points": points, "farthings": None, "money": None}
        words = _points_words(player, points)
        if settlement is not None:
            r = settlement.of(player)
            entry["farthings"] = r.farthings
            entry["money"] = ("" if r.farthings >= 0 else "-") + money_words(r.farthings)
            entry["reckoned"] = int(r.reckoned) if r.reckoned.denominator == 1 else str(r.reckoned)
            if r.farthings > 0:
                words += f" and receives {money_words(r.farthings)}"
            elif r.farthings < 0:
                words += f" and pays {money_words(r.farthings)}"
            else:
                words += ": no money changes hands" if points == 0 else ", and neither receives nor pays"
        entry["words"] = words + "."
        players.append(entry)
    lines = [card.result_words()]
    if isinstance(card, ChouetteSession):
        lines += [f"Note: {note}." for note in card.rotation_notes()]
    if settlement is not None:
        lines += settlement.lines()
    if settled.note:
        lines.append(settled.note)
    return {
        "kind": "scoring card" if isinstance(card, Session) else "chouette",
        "players": list(card.players),
        "parties": len(card.parties),
        "card_html": scoring_card_html(card),
        "words": lines,
        "settlement": {
            "stake": None if settlement is None else str(settlement.stake),
            "custom": None if settlement is None else settlement.custom.name,
            "players": players,
        },
        "csv": to_csv(card, settlement),
        "json": to_json(card, settlement),
    }


# ---------------------------------------------------------------- the routes


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def settle_page(request: Request) -> Response:
    """``GET /settle``: the page (it asks the server for the games and the settlement itself)."""
    return static_page("settle.html")


async def settle_json(request: Request) -> Response:
    """``POST /api/settle``: the card, the settlement and the exports, or 400 with what is wrong."""
    store: Store = request.app.state.store
    try:
        body = await json_body(request, "{\"parties\": [...], \"stake\": \"10s a hundred\", \"custom\": \"fifty\"}")
    except BadBody as e:
        return _error(e.status, str(e))
    try:
        settled = await asyncio.to_thread(settle_request, store, body)
        doc = answer(settled)
    except SettleError as e:
        return _error(e.status, str(e))
    except ValueError as e:  # the messages of piquet.stakes.settlement
        return _error(400, str(e))
    return JSONResponse(doc, headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [
    Route("/settle", settle_page),
    Route("/api/settle", settle_json, methods=["POST"]),
]

__all__ = ["MAX_PARTIES", "SettleError", "Settled", "answer", "figures_partie", "routes", "settle_request",
           "stake_and_custom"]
