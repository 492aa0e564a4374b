"""``GET /api/tables/{id}/hint`` with ``Authorization: Bearer T``: the hint for a seat's decision
(``piquet.study.hint``), its advice and reasons, read from that seat's own observation only: the token opens
one seat, and the hint sees what that seat sees, never the adversary's cards (issue 16, item 2). The browser's
Hint button asks it.

A hint is given to the seat whose turn it is (the choice of deal included, Laws 4-5, 9); at another moment the
answer is 409.  The table is rebuilt from its stored record, as the hub rebuilds it, so the hint is for the
decision the page shows.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from piquet.core.state import Stage
from piquet.study.hint import PLAY_WORLDS, deal_by_hint, deal_hint, hint

from .guard import token_of
from .rewind import seat_of_token
from .store import Store, TableRow
from .table import Seat, Table

log = logging.getLogger("piquet.web")


class NotYourTurn(Exception):
    """The seat has no decision to make now."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def hint_document(row: TableRow, seat: str, worlds: int = PLAY_WORLDS) -> dict[str, Any]:
    """The hint for ``seat``'s decision at the stored table ``row``, from ``seat``'s observation only."""
    seats = {s: Seat(r.kind, r.name, r.level, r.token_hash, r.joined) for s, r in row.seats.items()}
    table = Table.from_record(row.id, seats, row.record, row.opponent, row.version)
    if table.choosing is not None:
        if table.choosing != seat:
            raise NotYourTurn
        which = "deal" if table.state.stage is Stage.CHOICE else "deal_by"
        advice = deal_hint(table.rules.small_cards_count) if which == "deal" else deal_by_hint()
        return {"version": table.version, "decision": which, **advice.to_json()}
    if table.finished or table.to_move() != seat:
        raise NotYourTurn
    obs = table.observation(seat)
    return {"version": table.version, "decision": obs.phase.name.lower(), **hint(obs, worlds).to_json()}


async def hint_json(request: Request) -> Response:
    """``GET /api/tables/{id}/hint`` (``Authorization: Bearer T``): the hint for the seat the token opens, when it is
    his turn."""
    store: Store = request.app.state.hub.store
    table_id = request.path_params["table_id"]
    row = await asyncio.to_thread(store.load, table_id)
    if row is None:
        return _error(404, "there is no such table")
    seat = seat_of_token(row, token_of(request.headers))
    if seat is None:
        return _error(403, "a hint is given to a player only, for his own hand: send your seat's token "
                           "(Authorization: Bearer T; the table's page sends the one of its link)")
    try:
        doc = await asyncio.to_thread(hint_document, row, seat)
    except NotYourTurn:
        return _error(409, "there is nothing for you to decide now: a hint is given when it is your turn")
    except ValueError as e:  # the stored record is at fault
        log.error("table %s: no hint, its record cannot be rebuilt: %s", table_id, e)
        return _error(500, f"the record of this table cannot be rebuilt, so no hint can be given ({e})")
    return JSONResponse(doc, headers={"Cache-Control": "private, no-store"})


routes: list[BaseRoute] = [Route("/api/tables/{table_id}/hint", hint_json)]

__all__ = ["hint_document", "routes"]
