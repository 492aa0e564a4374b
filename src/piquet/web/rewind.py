"""The replay of a partie (``/t/{id}/replay``): every step of it again, as the engine made it.

A partie whose deals hold N actions has N + 1 frames: frame k is what the table showed after
k of them (step 0: the first deal as dealt).  The frames are not worked out by rules of their
own: each deal of the record is dealt again from its cards and its ``history`` is applied to it
action by action (``Deal.apply``), and each frame is read off the engine after that action.  As
at the table, when a deal ends and the partie goes on, the next deal is dealt at once: the
frame of a deal's last card shows the next deal as dealt, its words tell how the last one
ended, and its ``trick`` is that deal's last trick.  The cut (Law 4) is no step: the JSON gives
the cards cut, and each deal its dealer; a partie not yet dealt has no frame.  At Piquet au cent
each frame has its ``"game"`` (the game in play, its score, the games won), a deal stopped at a
hundred says so, and the next deal opens a new game at nothing (p. 20).

Who may see what (the laws hide the hands, the discards and the stock; Laws 21-25, 33, 36, 55):

* A **finished** partie's record is public (the games list offers it for download), so its
  replay is ``"view": "all"``: both hands, the discards, the cards taken in and the stock left,
  at every step.
* A partie **in progress** is replayed only to a seat, with that seat's token (checked as the
  websocket checks it; sent as ``Authorization: Bearer T``, never in the address), and each of its
  frames holds only what that seat's observation held at that step (``observation.observe``): his
  own cards, the cards of the stock he saw, the cards shown, played or announced, and counts of the
  rest. No frame goes past the current version.

>>> from piquet.core.partie import Partie
>>> doc = replay_frames(Partie(), {"A": "Ann", "B": "Bob"})
>>> doc["steps"], doc["frames"]
(0, [])
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from piquet.core.cards import FULL_PACK, Card, Mask, card_name, cards_of, mask_of
from piquet.core.deal import Deal, Phase
from piquet.core.events import ELDER, SCORE_KINDS, YOUNGER
from piquet.core.observation import observe
from piquet.core.partie import Partie
from piquet.core.state import seed_cut
from piquet.records.record import PartieRecord, RecordError, replay
from piquet.study.review import WORLDS, ReviewOptions, review_partie
from piquet.talk.words import (
    SCORE_LABELS,
    Cards,
    Line,
    Narrator,
    Segment,
    cut_words,
    deal_words,
    dealer_words,
    settlement_words,
)

from .guard import token_of
from .pages import static_page
from .protocol import SEATS, cut_json, table_trick
from .store import SeatRow, Store, TableRow
from .table import Seat

log = logging.getLogger("piquet.web")

ALL = "all"
#: A token longer than this is no seat's (``new_token`` makes 32 characters).
MAX_TOKEN = 256
#: Below this size a reply is not worth compressing.
_GZIP_FROM = 1024


# ---------------------------------------------------------------- the frames


def _names(mask: Mask) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def _stock_left(deal: Deal) -> tuple[Card, ...]:
    """The cards still in the stock, top first: none taken yet, the elder's leavings, or the last."""
    if deal.younger_takes >= 0:
        return deal.left_by_younger()
    if deal.elder_takes >= 0:
        return deal.stock[deal.elder_takes:]
    return deal.stock


class _Teller:
    """The words of one deal, told step by step from its new events (``piquet.words.Narrator``).

    ``seat`` is the seat whose replay this is (None: everything may be told).  The private
    additions, the cards of an exchange and of a look at the cards left, are told only to the
    player who saw them (Laws 24-25, 33) or in a public replay.
    """

    def __init__(self, deal: Deal, names: tuple[str, str], seats: tuple[str, str], viewer: int | None,
                 public: bool) -> None:
        self.deal = deal
        self.seats = seats
        self.names = names
        self.viewer = viewer
        self.public = public
        # "Which king do you not reckon?" is worked out from the asker's own cards (p. 92): only in a
        # public replay, where both hands are known.
        self.narrator = Narrator(names, (FULL_PACK, FULL_PACK) if public else None)
        self.told = 0

    def _may_see(self, role: int) -> bool:
        return self.public or self.viewer == role

    def tell(self) -> list[dict[str, Any]]:
        """The lines of the new events, each with the ``"seat"`` of its speaker (a deal's last lines are shown
        with the next deal, where the roles are the other way round)."""
        return [{**line.to_json(), "seat": None if line.speaker is None else self.seats[line.speaker]}
                for line in self._lines()]

    def _lines(self) -> list[Line]:
        deal = self.deal
        if self.public:
            held = tuple(deal.dealt[r] | mask_of(deal.taken(r)) for r in (ELDER, YOUNGER))
            self.narrator.viewer_cards = (held[0], held[1])
        out: list[Line] = []
        new = deal.events[self.told:]
        self.told = len(deal.events)
        for line in self.narrator.lines(new, hold=not deal.is_over):
            out.append(line)
            out.extend(self._private(line))
        return out

    def _private(self, line: Line) -> list[Line]:
        deal = self.deal
        if line.kind == "exchange" and self._may_see(line.role):
            return [said("discard", line.role, f"{self.names[line.role]}'s discard: ",
                         Cards(deal.discards[line.role]), "; taken in: ", Cards(mask_of(deal.taken(line.role))), ".")]
        if line.kind == "look" and line.role == ELDER and deal.elder_looked and self._may_see(ELDER):
            return [said("left", ELDER, "The cards he left: ", Cards(mask_of(deal.left_by_elder())), ".")]
        return []


def said(kind: str, role: int, *segments: Segment) -> Line:
    """A narrator's line of the replay's own: a deal begun or ended, a private exchange, the settlement."""
    return Line(None, segments, kind, role)


def _said(kind: str, role: int, text: str) -> dict[str, Any]:
    return {**said(kind, role, text).to_json(), "seat": None}


def _trick(deal: Deal, seats: tuple[str, str], number: int) -> dict[str, Any] | None:
    """The card led to the trick in play, or else the last trick completed, as the table shows it."""
    shown = table_trick(observe(deal, ELDER), seats)  # public: the cards played
    return None if shown is None else {"deal": number, **shown}


def _by_seat(seats: tuple[str, str], values: tuple[Any, Any]) -> dict[str, Any]:
    return {seats[ELDER]: values[ELDER], seats[YOUNGER]: values[YOUNGER]}


def _frame(live: Partie, index: int, step: int, by: str | None, lines: list[dict[str, Any]], seat: str | None,
           trick: dict[str, Any] | None) -> dict[str, Any]:
    """What is shown at ``step``: the engine's deal as it is now, whole or as ``seat`` observes it."""
    deal = live.deals[index]
    seats = (live.seat(index, ELDER), live.seat(index, YOUNGER))
    frame: dict[str, Any] = {
        "step": step,
        "deal": index + 1,
        "phase": deal.phase.name.lower(),
        "to_move": None if deal.to_move is None else seats[deal.to_move],
        "by": by,
        "lines": lines,
        "trick": trick,
        "counts": _by_seat(seats, (deal.hands[ELDER].bit_count(), deal.hands[YOUNGER].bit_count())),
        "tricks_won": _by_seat(seats, (deal.tricks_won[ELDER], deal.tricks_won[YOUNGER])),
        "scores": _by_seat(seats, (list(deal.scores[ELDER]), list(deal.scores[YOUNGER]))),
        "totals": {"deal": _by_seat(seats, (deal.totals[ELDER], deal.totals[YOUNGER])),
                   "counted": live.deal_score(index), "partie": live.scores},
        "game": _game(live),
    }
    if seat is None:
        frame["hands"] = _by_seat(seats, (_names(deal.hands[ELDER]), _names(deal.hands[YOUNGER])))
        frame["discards"] = _by_seat(seats, (_names(deal.discards[ELDER]), _names(deal.discards[YOUNGER])))
        frame["taken"] = _by_seat(seats, ([card_name(c) for c in deal.taken(ELDER)],
                                          [card_name(c) for c in deal.taken(YOUNGER)]))
        stock = _stock_left(deal)
        frame["stock"] = [card_name(c) for c in stock]
        frame["stock_count"] = len(stock)
    else:
        role = live.role(index, seat)
        obs = observe(deal, role)  # exactly what the laws let this seat know now
        frame["hands"] = {seat: _names(obs.hand)}
        frame["discards"] = {seat: _names(obs.discard)}
        frame["taken"] = {seat: _names(obs.taken)}
        frame["seen_left"] = _names(obs.seen_left)
        frame["stock_count"] = obs.stock_left
        frame["shown"] = {seats[1 - role]: _names(obs.adversary_known())}
    return frame


#: A declaration of nothing makes no event: what is said of it (Laws 46-49; p. 93).
_SILENT = {
    Phase.ELDER_POINT: "calls no point", Phase.ELDER_SEQUENCES: "calls no sequence",
    Phase.ELDER_SETS: "calls no quatorze or trio", Phase.YOUNGER_RECKON_POINT: "reckons no point",
    Phase.YOUNGER_RECKON_SEQUENCES: "reckons no sequence", Phase.YOUNGER_RECKON_SETS: "reckons no quatorze or trio",
}


def _game(live: Partie) -> dict[str, Any] | None:
    """At a game of so many up (Piquet au cent, p. 20): the game in play, its score and the games won."""
    if not live.rules.partie_of_games:
        return None
    won = live.games()
    deal = live.deals[-1]
    number = len(won) + (0 if won and won[-1].last_deal == len(live.deals) - 1 else 1)
    tally = {s: sum(g.counts for g in won if g.winner == s) for s in SEATS}
    return {"number": number, "scores": live.scores, "tally": tally, "goal": live.rules.line,
            "won": deal.game_won is not None}


def _opening(live: Partie, names: Mapping[str, str]) -> dict[str, Any]:
    """The deal just dealt (the partie's last), opened in the narrator's words (``deal_words``)."""
    return _said("deal", ELDER, deal_words(live.context("A"), names))


def _ending(live: Partie, index: int, names: Mapping[str, str]) -> dict[str, Any]:
    return _said("deal_over", ELDER, _ending_words(live, index, names))


def _ending_words(live: Partie, index: int, names: Mapping[str, str]) -> str:
    deal = live.deals[index]
    seats = (live.seat(index, ELDER), live.seat(index, YOUNGER))
    counted = live.deal_score(index)
    text = (f"Deal {index + 1} is over: {names[seats[ELDER]]} {deal.totals[ELDER]}, "
            f"{names[seats[YOUNGER]]} {deal.totals[YOUNGER]}")
    if live.rules.multiplier(index) > 1:
        text += f"; counting double, {counted[seats[ELDER]]} and {counted[seats[YOUNGER]]}"
    if deal.game is not None:
        scores = live.scores
        won = deal.game_won
        if won is None:
            text += f"; the game stands at {names['A']} {scores['A']}, {names['B']} {scores['B']}"
        else:
            winner = seats[won[0]]
            loser = "B" if winner == "A" else "A"
            double = ", a double game" if won[1] else ""
            text += (f"; it stopped there: {names[winner]} wins the game, {scores[winner]} to "
                     f"{scores[loser]}{double} (p. 20)")
    return text + "."


def _settlement(live: Partie, names: Mapping[str, str]) -> dict[str, Any] | None:
    """The end of the partie, as the table's VIEW gives it (Laws 71-73), or None while it goes on."""
    if not live.is_finished:
        return None
    s = live.settlement()
    scores = live.scores
    played = sum(1 for d in live.deals if d.is_over)
    return {"winner": s.winner, "points": s.points_won, "rubicon": s.rubicon, "scores": dict(scores),
            "words": settlement_words(s, scores, live.rules, dict(names), played, live.deals_needed)}


def replay_frames(final: Partie, players: Mapping[str, str], seat: str | None = None) -> dict[str, Any]:
    """The deals and the frames of ``final`` (a partie as replayed from its record), step 0 to the last.

    ``seat`` None: the public replay of a finished partie, every card shown.  ``seat`` "A" or
    "B": each frame is what that seat observed at that step, and nothing more.  Each deal is
    dealt again from its cards and its actions are applied one by one through the engine.
    """
    if seat is not None and seat not in SEATS:
        raise ValueError(f"a seat is A or B, not {seat!r}")
    names = {s: players.get(s) or s for s in SEATS}
    live = Partie(final.rules, final.first_dealer, final.deal_by)
    deals: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
    step = 0
    carried: tuple[str | None, list[dict[str, Any]], dict[str, Any] | None] = (None, [], None)  # a deal's last action
    for index, played in enumerate(final.deals):
        deal = live.deal_cards(played.dealt[ELDER], played.dealt[YOUNGER], played.stock)
        seats = (live.seat(index, ELDER), live.seat(index, YOUNGER))
        role_names = (names[seats[ELDER]], names[seats[YOUNGER]])
        viewer = None if seat is None else live.role(index, seat)
        teller = _Teller(deal, role_names, seats, viewer, seat is None)
        game = _game(live)
        deals.append({
            "number": index + 1, "dealer": live.dealer(index),
            "of": live.deals_needed if game is None else None, "game": None if game is None else game["number"],
            "roles": {"elder": seats[ELDER], "younger": seats[YOUNGER]},
            "multiplier": live.rules.multiplier(index), "first_step": step,
            "dealt": ({s: _names(deal.dealt[live.role(index, s)]) for s in SEATS} if seat is None
                      else {seat: _names(deal.dealt[live.role(index, seat)])}),
            **({"stock": [card_name(c) for c in deal.stock]} if seat is None else {}),
            "counted": None,
        })
        by, words, trick = carried
        frames.append(_frame(live, index, step, by, words + [_opening(live, names)] + teller.tell(), seat,
                             trick))
        for action in played.history:
            mover = seats[_to_move(deal)]
            phase = deal.phase
            deal.apply(action)
            step += 1
            words = teller.tell() or [_said("silent", live.role(index, mover),
                                            f"{names[mover]} {_SILENT.get(phase, 'moves')}.")]
            if deal.is_over:
                words.append(_ending(live, index, names))
                if index + 1 < len(final.deals):  # the next deal is dealt at once: its frame tells this
                    carried = (mover, words, _trick(deal, seats, index + 1))
                    continue
                settlement = _settlement(live, names)
                if settlement is not None:
                    words.append(_said("settlement", ELDER, settlement["words"]))
            frames.append(_frame(live, index, step, mover, words, seat, _trick(deal, seats, index + 1)))
        if deal.is_over:
            deals[index]["counted"] = live.deal_score(index)
    for i, d in enumerate(deals):
        d["last_step"] = deals[i + 1]["first_step"] - 1 if i + 1 < len(deals) else step
    return {
        "view": ALL if seat is None else seat,
        "actions": step,
        "steps": len(frames),
        "score_kinds": list(SCORE_KINDS),
        "score_labels": SCORE_LABELS,
        "deals": deals,
        "frames": frames,
        "settlement": _settlement(live, names),
    }


def _to_move(deal: Deal) -> int:
    role = deal.to_move
    if role is None:  # replay() has checked the record: this does not happen
        raise RecordError("an action after the end of the deal", step="replay")
    return role


# ---------------------------------------------------------------- the routes


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def seat_opened(seats: Iterable[tuple[str, SeatRow]], token: str) -> str | None:
    """The person's seat among the stored ``seats`` (key, row) this token opens, as ``Table.seat_of_token``
    (``Seat.token_matches``), or None."""
    if not token or len(token) > MAX_TOKEN:
        return None
    for s, r in seats:
        seat = Seat(r.kind, r.name, r.level, r.token_hash, r.joined)
        if not seat.is_computer and seat.token_matches(token):
            return s
    return None


def seat_of_token(row: TableRow, token: str) -> str | None:
    """The person's seat of a stored table this token opens, or None."""
    return seat_opened(row.seats.items(), token)


def replay_document(row: TableRow, seat: str | None) -> dict[str, Any]:
    """The replay JSON of a stored table; ``RecordError`` (a ``ValueError``) if its record cannot be rebuilt."""
    partie = replay(PartieRecord.from_json(row.record))
    players = {s: r.name for s, r in row.seats.items()}
    cut = seed_cut(row.seed)  # public, as in the VIEW (Law 4; au cent, p. 16)
    rules = partie.rules
    lower = not rules.higher_cut_chooses
    told = cut_words(players, {"A": cut[0], "B": cut[1]}, cut[2], lower, "A")
    doc = {"table": row.id, "players": players, "rules": rules.spec, "title": rules.title, "status": row.status,
           "cut": {**cut_json(rules, cut), "words": [told, *dealer_words(players, cut[2], partie.first_dealer,
                                                                         partie.deal_by, lower)]}}
    doc.update(replay_frames(partie, players, seat))
    return doc


def _json_response(doc: dict[str, Any], request: Request, private: bool) -> Response:
    body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    headers = {"Cache-Control": "private, no-store" if private else "no-cache", "Vary": "Accept-Encoding"}
    if len(body) >= _GZIP_FROM and "gzip" in request.headers.get("accept-encoding", ""):
        body = gzip.compress(body, 6)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


async def replay_json(request: Request) -> Response:
    """``GET /api/tables/{id}/replay`` (``Authorization: Bearer T`` while it goes on): the frames, public or as one
    seat saw them."""
    store: Store = request.app.state.hub.store
    table_id = request.path_params["table_id"]
    row = await asyncio.to_thread(store.load, table_id)
    if row is None:
        return _error(404, "there is no such table")
    seat: str | None = None
    if row.status != "finished":
        token = token_of(request.headers)
        if not token:
            return _error(403, "this partie is in progress: its replay is shown only to a player, with his "
                               "seat's token (Authorization: Bearer T; the replay page sends the one of its link), "
                               "and only what he has seen; a finished partie's replay is open to all")
        seat = seat_of_token(row, token)
        if seat is None:
            return _error(403, "that token does not open a seat at this table: use the link of your own seat")
    try:
        doc = await asyncio.to_thread(replay_document, row, seat)
    except ValueError as e:  # RecordError, CardError, IllegalAction: the stored record is at fault
        log.error("table %s: its record cannot be replayed: %s", table_id, e)
        return _error(500, f"the record of this table cannot be rebuilt, so it cannot be replayed ({e}); "
                           "nothing was changed")
    return _json_response(doc, request, private=seat is not None)


#: The most worlds a review asked of the server may sample for each discard.
MAX_WORLDS = 64


@lru_cache(maxsize=16)
def _review(record: str, a: str, b: str, worlds: int) -> dict[str, Any]:
    """The review of a finished partie's record (``piquet.study.review``), kept: a record finished does not
    change."""
    return review_partie(replay(PartieRecord.from_json(record)), {"A": a, "B": b}, ReviewOptions(worlds)).to_json()


def review_document(row: TableRow, worlds: int = WORLDS) -> dict[str, Any]:
    """The review of a stored finished table, as ``piquet analyse --json`` gives it (deals from 1)."""
    names = {s: r.name for s, r in row.seats.items()}
    return {"table": row.id, **_review(row.record, names.get("A") or "A", names.get("B") or "B", worlds)}


async def review_json(request: Request) -> Response:
    """``GET /api/tables/{id}/review[?worlds=N]``: the review of a finished partie (the exchange, the calls, the
    play); a partie in progress has none, as it would tell the cards still hidden."""
    store: Store = request.app.state.hub.store
    table_id = request.path_params["table_id"]
    row = await asyncio.to_thread(store.load, table_id)
    if row is None:
        return _error(404, "there is no such table")
    if row.status != "finished":
        return _error(403, "this partie is in progress: its review, which values every card with both hands open, "
                           "is given when it is finished")
    raw = request.query_params.get("worlds", str(WORLDS))
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_WORLDS:
        return _error(400, f"worlds is a whole number from 1 to {MAX_WORLDS}, not {raw[:20]!r}")
    try:
        doc = await asyncio.to_thread(review_document, row, int(raw))
    except ValueError as e:
        log.error("table %s: its record cannot be reviewed: %s", table_id, e)
        return _error(500, f"the record of this table cannot be rebuilt, so it cannot be reviewed ({e})")
    return _json_response(doc, request, private=False)


async def replay_page(request: Request) -> Response:
    """``GET /t/{id}/replay``: the page (it fetches the JSON itself; 404 when there is no such table)."""
    store: Store = request.app.state.hub.store
    row = await asyncio.to_thread(store.load, request.path_params["table_id"])
    return static_page("replay.html", 200 if row is not None else 404)


routes: list[BaseRoute] = [
    Route("/api/tables/{table_id}/replay", replay_json),
    Route("/api/tables/{table_id}/review", review_json),
    Route("/t/{table_id}/replay", replay_page),
]

__all__ = ["ALL", "MAX_TOKEN", "replay_document", "replay_frames", "review_document", "routes", "seat_of_token",
           "seat_opened"]
