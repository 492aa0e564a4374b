"""The replay of a partie (``piquet.web.rewind``, ``/t/{id}/replay``): frames from the engine, hidden cards kept hidden.

A finished partie's frames are checked against the engine re-applying its record step by step;
an in-progress partie's frames, as one seat's, are checked card by card against what that seat
may see at each step, worked out from the deal itself (``test_web.allowed_now``), not from
``observe``.  The HTTP routes: 403 without a seat's token while the partie goes on, 404 for no
table, 500 for a record that cannot be rebuilt, and the page.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from piquet.core.cards import card_name, card_words, cards_of
from piquet.core.deal import Deal
from piquet.core.events import ELDER, SCORE_KINDS, YOUNGER
from piquet.core.partie import Partie
from piquet.core.rules import FOUR_DEAL, RUBICON
from piquet.core.state import seed_cut
from piquet.records.record import PartieRecord, replay
from piquet.web.protocol import view
from piquet.web.rewind import replay_frames
from piquet.web.store import SeatRow, Store, TableRow, database_url
from piquet.web.table import Table, hash_token
from test_web import allowed_now, cards_named, listed, make_table, new_table, play_against_computer, stored

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

NAMES = {"A": "Ann", "B": "Bob"}


# ---------------------------------------------------------------- parties and the engine, step by step


def random_partie(seed: int, rules: Any = RUBICON, stop: int | None = None) -> Table:
    """A table played at random from its seats' observations, to its end or to ``stop`` actions."""
    table = make_table(seed, rules)
    rng = random.Random(seed)
    while not table.finished and (stop is None or table.version < stop):
        seat = table.to_move()
        assert seat is not None
        table.apply(seat, table.observation(seat).sample(rng), table.version)
    return table


def steps(record_json: str) -> Iterator[tuple[int, Partie]]:
    """The partie after each step of its record, as the table had it: each deal dealt again and its actions
    applied one by one, the next deal dealt as soon as one ends.  The same ``Partie`` object, changed."""
    final = replay(PartieRecord.from_json(record_json))
    p = Partie(final.rules, final.first_dealer, final.deal_by)

    def deal_again(d: Deal) -> None:  # the same cards, under the partie's rules (and its game, at au cent)
        p.deal_cards(d.dealt[ELDER], d.dealt[YOUNGER], d.stock)

    deal_again(final.deals[0])
    step = 0
    yield step, p
    for i, d in enumerate(final.deals):
        for action in d.history:
            p.deals[i].apply(action)
            if p.deals[i].is_over and i + 1 < len(final.deals):
                deal_again(final.deals[i + 1])
            step += 1
            yield step, p


def names_of(mask: int) -> set[str]:
    return {card_name(c) for c in cards_of(mask)}


def by_seat(p: Partie, values: tuple[Any, Any]) -> dict[str, Any]:
    i = len(p.deals) - 1
    return {p.seat(i, ELDER): values[ELDER], p.seat(i, YOUNGER): values[YOUNGER]}


def engine_frame(p: Partie) -> dict[str, Any]:
    """What a public frame must show: read off the engine's current deal."""
    i = len(p.deals) - 1
    d = p.deals[i]
    taken = (set(map(card_name, d.taken(ELDER))), set(map(card_name, d.taken(YOUNGER))))
    return {
        "deal": i + 1,
        "phase": d.phase.name.lower(),
        "hands": by_seat(p, (names_of(d.hands[ELDER]), names_of(d.hands[YOUNGER]))),
        "discards": by_seat(p, (names_of(d.discards[ELDER]), names_of(d.discards[YOUNGER]))),
        "taken": by_seat(p, taken),
        "stock": {card_name(c) for c in d.stock} - taken[0] - taken[1],
        "tricks_won": by_seat(p, (d.tricks_won[ELDER], d.tricks_won[YOUNGER])),
        "scores": by_seat(p, (list(d.scores[ELDER]), list(d.scores[YOUNGER]))),
        "partie": p.scores,
    }


def shown_frame(f: dict[str, Any]) -> dict[str, Any]:
    """The same things, as the frame shows them."""
    return {
        "deal": f["deal"], "phase": f["phase"],
        "hands": {s: set(v) for s, v in f["hands"].items()},
        "discards": {s: set(v) for s, v in f["discards"].items()},
        "taken": {s: set(v) for s, v in f["taken"].items()},
        "stock": set(f["stock"]),
        "tricks_won": f["tricks_won"], "scores": f["scores"], "partie": f["totals"]["partie"],
    }


def said(f: dict[str, Any]) -> list[str]:
    """A frame's lines in plain text (a player's words with his name, as the page shows them)."""
    assert all(ln.keys() == {"speaker", "seat", "kind", "role", "trick", "text", "segments"} for ln in f["lines"])
    return [ln["text"] if ln["speaker"] is None else f"{NAMES[ln['seat']]}: \u201c{ln['text']}\u201d"
            for ln in f["lines"]]


# ---------------------------------------------------------------- a finished partie: everything, from the engine


@pytest.mark.slow
def test_a_finished_partie_replays_as_the_engine_played_it() -> None:
    """30 random parties (a third of them four-deal): one frame per action and one more, each frame the engine's
    deal at that step, the words told in step with it, the last frame the record's replayed totals."""
    checked = 0
    for n in range(30):
        table = random_partie(500 + n, FOUR_DEAL if n % 3 == 0 else RUBICON)
        record = table.record_json()
        final = replay(PartieRecord.from_json(record))
        doc = replay_frames(final, NAMES)
        frames = doc["frames"]
        actions = sum(len(d.history) for d in final.deals)
        assert doc["view"] == "all" and doc["actions"] == actions == table.version
        assert doc["steps"] == len(frames) == actions + 1
        assert doc["score_kinds"] == list(SCORE_KINDS)
        starts = [d["first_step"] for d in doc["deals"]]
        assert len(doc["deals"]) == len(final.deals) and starts[0] == 0
        previous: dict[str, Any] | None = None
        for step, p in steps(record):
            f = frames[step]
            assert f["step"] == step
            assert shown_frame(f) == engine_frame(p), f"party {n}, step {step}"
            assert (f["deal"] == len(p.deals)) and (step in starts) == (step == 0 or f["deal"] != previous["deal"])
            to_move = p.deals[-1].to_move
            assert f["to_move"] == (None if to_move is None else p.seat(len(p.deals) - 1, to_move))
            assert f["counts"] == {s: len(h) for s, h in f["hands"].items()}
            what = said(f)
            words = " ".join(what)
            assert what and all(isinstance(x, str) and x for x in what)
            if previous is not None:
                # The trick just completed, its winner from the engine's tricks won, told in words.
                before, after = previous["tricks_won"], f["tricks_won"]
                same_deal = f["deal"] == previous["deal"]
                won = [s for s in "AB" if same_deal and after[s] == before[s] + 1]
                if same_deal and won:
                    assert f["trick"]["winner"] == won[0] and len(f["trick"]["plays"]) == 2
                    assert any(x.startswith(f"{NAMES[won[0]]} wins the ") and x.endswith("trick.") for x in what)
                if not same_deal:  # a deal has ended: its last trick and its end are told
                    assert f["trick"]["deal"] == previous["deal"] and f["trick"]["number"] == 12
                    assert f"Deal {previous['deal']} is over" in words and f"Deal {f['deal']} of" in words
                if same_deal and previous["phase"] in ("elder_discard", "younger_discard"):
                    assert "discards" in words and "'s discard: " in words
            previous = f
            checked += 1
        last = frames[-1]
        assert last["totals"]["partie"] == final.scores == table.scores
        assert doc["settlement"]["scores"] == final.scores and doc["settlement"]["words"] in said(last)
        assert said(frames[0])[0].startswith("Deal 1 of ")
        for d, played in zip(doc["deals"], final.deals, strict=True):
            i = d["number"] - 1
            assert d["counted"] == final.deal_score(i) and d["multiplier"] == final.rules.multiplier(i)
            assert {s: set(v) for s, v in d["dealt"].items()} == {
                final.seat(i, r): names_of(played.dealt[r]) for r in (ELDER, YOUNGER)}
            assert d["stock"] == [card_name(c) for c in played.stock]
        assert [d["last_step"] + 1 for d in doc["deals"][:-1]] == starts[1:]
    assert checked > 30 * 150


# ---------------------------------------------------------------- a seat's replay: only what the seat may see


def check_seat_frame(frame: dict[str, Any], seat: str, cur: set[str], prev: set[str], opens_deal: bool) -> int:
    """Every card a seat's frame names is one the seat may see at that step (``cur``); the words and the trick of
    the step that ended the last deal may name cards of that deal (``prev``).  Returns the cards checked."""
    other = "B" if seat == "A" else "A"
    assert set(frame["hands"]) == set(frame["discards"]) == set(frame["taken"]) == {seat}, frame
    assert set(frame["shown"]) == {other} and "stock" not in frame
    told_here = {k: frame[k] for k in ("lines", "trick")}
    rest = {k: v for k, v in frame.items() if k not in told_here}
    named = cards_named(rest)
    leaked = named - cur
    assert not leaked, f"seat {seat} was sent {sorted(leaked)} (hidden) at step {frame['step']}"
    told = cards_named(told_here)
    leaked = told - (prev if opens_deal else cur)
    assert not leaked, f"seat {seat} was told {sorted(leaked)} (hidden) at step {frame['step']}: {told_here}"
    if frame["trick"] is not None:
        assert frame["trick"]["deal"] == frame["deal"] - (1 if opens_deal else 0)
    return len(named) + len(told)


def check_seat_replay(doc: dict[str, Any], seat: str, record_json: str) -> int:
    """A seat's whole replay: its frames one per step up to the current one, each checked for hidden cards."""
    frames = doc["frames"]
    starts = {d["first_step"] for d in doc["deals"][1:]}
    cards = 0
    last = -1
    for step, p in steps(record_json):
        cur, prev = allowed_now(p)[seat]
        cards += check_seat_frame(frames[step], seat, cur, prev, step in starts)
        last = step
    assert doc["view"] == seat and doc["actions"] == last and doc["steps"] == len(frames) == last + 1
    for d in doc["deals"]:  # his own cards as dealt, and nothing of the stock
        assert set(d["dealt"]) == {seat} and "stock" not in d
        assert len(d["dealt"][seat]) == 12
    assert not cards_named({k: v for k, v in doc.items() if k not in ("frames", "deals", "cut")})
    if "cut" in doc:  # the cards cut for deal are public (Law 4), as in the VIEW
        assert set(doc["cut"]) == {"A", "B", "winner", "lower_deals", "words"}
        assert cards_named(doc["cut"]["words"]) == {doc["cut"]["A"], doc["cut"]["B"]}
    return cards


@pytest.mark.slow
def test_a_seat_sees_only_its_own_cards_at_every_step() -> None:
    """30 random parties stopped at random versions (some finished): each seat's replay, frame by frame, names
    no card the laws hide from it then; its last frame is the table's view now."""
    rng = random.Random(77)
    cards = 0
    for n in range(30):
        stop = None if n % 5 == 0 else rng.randrange(0, 220)
        table = random_partie(900 + n, FOUR_DEAL if n % 2 else RUBICON, stop)
        record = table.record_json()
        final = replay(PartieRecord.from_json(record))
        for seat in "AB":
            doc = replay_frames(final, NAMES, seat)
            cards += check_seat_replay(doc, seat, record)
            # No frame beyond the current version: the last one is what the table shows the seat now.
            assert doc["actions"] == table.version
            now, v = doc["frames"][-1], table.view(seat)
            assert now["hands"][seat] == v["hand"] and now["discards"][seat] == v["discard"]
            assert now["taken"][seat] == v["taken"] and now["seen_left"] == v["seen_left"]
            assert now["phase"] == v["phase"] and now["stock_count"] == v["stock_left"]
            assert now["totals"]["partie"] == v["totals"]["partie"]
    assert cards > 50_000


def test_each_seat_frame_is_the_seats_view_then() -> None:
    """Frame k of a seat's replay holds what ``protocol.view`` gave that seat at version k."""
    for n in range(4):
        table = random_partie(300 + n, RUBICON, stop=120 + 20 * n)
        record = table.record_json()
        final = replay(PartieRecord.from_json(record))
        docs = {s: replay_frames(final, NAMES, s) for s in "AB"}
        for step, p in steps(record):
            for s in "AB":
                f, v = docs[s]["frames"][step], view(p, s, players=NAMES)
                assert (f["hands"][s], f["discards"][s], f["taken"][s], f["seen_left"], f["stock_count"],
                        f["phase"]) == (v["hand"], v["discard"], v["taken"], v["seen_left"], v["stock_left"],
                                        v["phase"]), (n, step, s)
                role = v["role"]
                assert f["scores"][s] == list(v["scores"][role].values())
                assert f["totals"]["deal"] == v["totals"]["deal"] and f["totals"]["partie"] == v["totals"]["partie"]
                assert f["tricks_won"][s] == v["tricks_won"][role]


def test_the_seat_check_sees_a_leak() -> None:
    """The hidden-card check fails on a frame given a card of the adversary's hand, in any field."""
    table = random_partie(41, RUBICON, stop=60)
    record = table.record_json()
    final = replay(PartieRecord.from_json(record))
    doc = replay_frames(final, NAMES, "A")
    step, p = list(steps(record))[-1]
    cur, prev = allowed_now(p)["A"]
    frame = doc["frames"][step]
    check_seat_frame(frame, "A", cur, prev, False)  # as sent: clean
    i = len(p.deals) - 1
    theirs = sorted(names_of(p.deals[i].hands[p.role(i, "B")]) - cur)
    assert theirs
    hidden = theirs[0]
    rank, suit = hidden[:-1], hidden[-1]
    words = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}[suit]
    rank_word = {"7": "seven", "8": "eight", "9": "nine", "10": "ten", "J": "knave", "Q": "queen", "K": "king",
                 "A": "ace"}[rank]
    for leak in ({"hands": {"A": frame["hands"]["A"] + [hidden]}}, {"shown": {"B": [hidden]}},
                 {"lines": [*frame["lines"], {"speaker": None, "seat": None, "kind": "play", "role": "younger",
                                              "trick": 1, "text": f"Bob leads the {rank_word} of {words}.",
                                              "segments": [f"Bob leads the {rank_word} of {words}."]}]},
                 {"lines": [{"speaker": None, "seat": None, "kind": "discard", "role": "younger", "trick": None,
                             "text": "Bob's discard: .", "segments": ["Bob's discard: ", {"cards": [hidden]}, "."]}]},
                 {"seen_left": [hidden]},
                 {"trick": {"deal": frame["deal"], "number": 1, "winner": None,
                            "plays": [{"seat": "B", "role": "elder", "card": hidden}]}}):
        with pytest.raises(AssertionError):
            check_seat_frame({**frame, **leak}, "A", cur, prev, False)
    with pytest.raises(AssertionError):  # the other seat's cards, in a replay that claims to be A's
        check_seat_frame({**frame, "hands": {**frame["hands"], "B": theirs}}, "A", cur, prev, False)


# ---------------------------------------------------------------- the routes


def insert(db: str, table: Table, status: str, tokens: dict[str, str] | None = None, record: str | None = None,
           table_id: str | None = None) -> str:
    """Store a table played in the test, as the server stores its tables; its persons' seats get ``tokens``."""
    tokens = tokens or {}
    seats = {s: SeatRow("human" if s in tokens else "computer", NAMES[s], None if s in tokens else "random",
                        hash_token(tokens[s]) if s in tokens else None, True) for s in "AB"}
    row = TableRow(id=table_id or table.id, created=time.time(), updated=time.time(), rules=table.partie.rules.spec,
                   opponent="person" if tokens else "computer", seed=table.seed, status=status,
                   version=table.version, scores=table.scores, seats=seats,
                   record=table.record_json() if record is None else record)
    store = Store(database_url(db))
    try:
        store.insert(row)
    finally:
        store.close()
    return row.id


def test_a_finished_partie_over_http(client: TestClient, db: str) -> None:
    """A partie played to its end against the computer over the websocket: its replay is open to all, every card
    shown, and it ends on the totals of the record and of the games list."""
    t, log = play_against_computer(client, db, seed=17, level="random")
    version, record = stored(db, t["table"])
    final = replay(PartieRecord.from_json(record))
    actions = sum(len(d.history) for d in final.deals)
    a, b, winner = seed_cut(17)
    for token in (None, "not-a-token", t["token"]):
        r = client.get(f"/api/tables/{t['table']}/replay", headers=bearer(token))
        assert r.status_code == 200, r.text
        doc = r.json()
        assert doc["view"] == "all" and doc["status"] == "finished" and doc["table"] == t["table"]
        assert doc["players"]["A"] == "Ann" and doc["rules"] == "rubicon"
        # The table's version counts the person's choice of deal, when he won the cut: no step of the replay.
        assert doc["actions"] == actions and version - actions in (0, 1) and doc["steps"] == actions + 1
        assert version == log[-1]["version"]
        told = doc["cut"].pop("words")
        assert doc["cut"] == {"A": card_name(a), "B": card_name(b), "winner": winner, "lower_deals": False}
        assert told[0].startswith(f"The cut for deal (Law 4): Ann cut the {card_words(a)}, ")
        by = "threes" if final.deal_by == 3 else "twos"
        assert told[-1].endswith(f"first, by {by} for the whole partie (Law 9).")
        last = doc["frames"][-1]
        assert last["totals"]["partie"] == final.scores == log[-1]["view"]["totals"]["partie"]
        assert all(len(f["hands"]) == 2 for f in doc["frames"])
    games = listed(client, t)
    assert [g["scores"] for g in games if g["table"] == t["table"]] == [final.scores]
    assert doc == replay_frames(final, doc["players"]) | {k: doc[k] for k in ("table", "players", "rules", "title",
                                                                               "status", "cut")}


def test_the_size_of_a_six_deal_replay(client: TestClient, db: str) -> None:
    """The JSON of a six-deal partie's replay, as sent and compressed (the server compresses when asked)."""
    table = random_partie(23, RUBICON)
    assert len(table.partie.deals) >= 6
    insert(db, table, "finished")
    url = f"/api/tables/{table.id}/replay"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers and packed.headers["content-encoding"] == "gzip"
    assert packed.json() == plain.json()
    raw = len(plain.content)
    wire = len(gzip.compress(plain.content, 6))
    print(f"\nthe replay of a six-deal partie ({table.version} actions, {plain.json()['steps']} frames): "
          f"{raw / 1024:.0f} KiB of JSON, {wire / 1024:.1f} KiB compressed")
    assert raw < 300 * 1024 and wire < 40 * 1024


def bearer(token: str | None) -> dict[str, str]:
    """The header that carries a seat's token (none for None)."""
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def test_a_partie_in_progress_needs_a_seats_token(client: TestClient, db: str) -> None:
    """In progress: 403 without a token or with a wrong one; each person's token gives his own replay, checked for
    hidden cards at every step, and no frame beyond the table's version."""
    tokens = {"A": "token-of-ann-" + "x" * 20, "B": "token-of-bob-" + "y" * 20}
    table = random_partie(61, RUBICON, stop=75)
    tid = insert(db, table, "playing", tokens)
    base = f"/api/tables/{tid}/replay"
    for token in (None, "", "nope", tokens["A"][:-1], "x" * 5000, "%E2%99%A0", f"{tokens['A']} x"):
        r = client.get(base, headers=bearer(token))
        assert r.status_code == 403, (token, r.text)
        body = r.json()
        assert set(body) == {"error"} and ("token" in body["error"]) and not cards_named(body)
    record = stored(db, tid)[1]
    for seat in "AB":
        assert client.get(f"{base}?token={tokens[seat]}").status_code == 403  # the address is no place for it
        r = client.get(base, headers=bearer(tokens[seat]))
        assert r.status_code == 200 and "no-store" in r.headers["cache-control"]
        doc = r.json()
        assert doc["status"] == "playing" and doc["settlement"] is None
        assert check_seat_replay(doc, seat, record) > 1000
        assert doc["actions"] == table.version == 75 and len(doc["frames"]) == 76
    # A computer seat has no token: nothing opens it.
    table2 = random_partie(62, RUBICON, stop=10)
    tid2 = insert(db, table2, "playing")
    assert client.get(f"/api/tables/{tid2}/replay", headers=bearer("")).status_code == 403
    assert client.get(f"/api/tables/{tid2}/replay", headers=bearer("None")).status_code == 403


@pytest.mark.parametrize("rules", ["rubicon", "au-cent"])
def test_a_table_just_made_over_http(client: TestClient, db: str, rules: str) -> None:
    """A person's table as the lobby makes it, before anyone has moved: one frame, his twelve cards (at Piquet
    au cent, where the lower cut deals), or none at all (at Rubicon, where the winner of the cut, a person, has
    still to choose whether to deal: no deal, no frame)."""
    t = new_table(client, opponent="person", name="Ann", seed=5, rules=rules)
    token = t["url"].split("token=")[1]
    invite = t["invite"].split("token=")[1]
    assert client.get(f"/api/tables/{t['table']}/replay").status_code == 403
    a = client.get(f"/api/tables/{t['table']}/replay", headers=bearer(token)).json()
    b = client.get(f"/api/tables/{t['table']}/replay", headers=bearer(invite)).json()
    assert (a["view"], b["view"], a["status"]) == ("A", "B", "waiting")
    assert a["players"] == {"A": "Ann", "B": "Guest"} and a["actions"] == b["actions"] == 0
    dealt = PartieRecord.from_json(stored(db, t["table"])[1]).deals
    assert len(dealt) == (1 if rules == "au-cent" else 0)  # each case is checked: neither may pass unseen
    if not dealt:
        assert a["steps"] == b["steps"] == 0 and a["frames"] == b["frames"] == [] and a["deals"] == []
        return
    assert a["steps"] == b["steps"] == 1
    assert len(a["frames"][0]["hands"]["A"]) == 12 and not set(a["frames"][0]["hands"]["A"]) & set(
        b["frames"][0]["hands"]["B"])


def test_no_such_table(client: TestClient) -> None:
    r = client.get("/api/tables/nosuch/replay")
    assert r.status_code == 404 and r.json() == {"error": "there is no such table"}
    r = client.get("/t/nosuch/replay")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert 'src="/static/replay.js"' in r.text  # the page itself says so, in the browser


def test_a_record_that_cannot_be_rebuilt(client: TestClient, db: str) -> None:
    """A stored record the engine refuses: 500 with a clear message, and the stored table is left as it was."""
    table = random_partie(8, RUBICON)
    good = table.record_json()
    doc = json.loads(good)
    doc["deals"][1]["play"] = doc["deals"][1]["play"][1:]  # the second deal's first lead taken out
    bad = json.dumps(doc)
    tid = insert(db, table, "finished", record=bad, table_id="broken")
    before = stored(db, tid)
    r = client.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 500
    message = r.json()["error"]
    assert "cannot be rebuilt" in message and "deal 2" in message and "nothing was changed" in message
    assert stored(db, tid) == before
    tid = insert(db, table, "finished", record="{not json", table_id="garbled")
    r = client.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 500 and "not valid JSON" in r.json()["error"]
    # In progress, the token is checked first: no token, no word about the record.
    tid = insert(db, table, "playing", {"A": "tok-a"}, record=bad, table_id="broken2")
    assert client.get(f"/api/tables/{tid}/replay").status_code == 403
    assert client.get(f"/api/tables/{tid}/replay", headers=bearer("tok-a")).status_code == 500


def test_the_replay_page(client: TestClient, db: str) -> None:
    table = random_partie(3, RUBICON, stop=5)
    tid = insert(db, table, "playing", {"A": "tok"})
    for url in (f"/t/{tid}/replay", f"/t/{tid}/replay?token=tok"):  # an old link: the page moves its token
        r = client.get(url)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert re.search(r'<script type="module" src="/static/replay.js">', r.text)
        assert 'data-testid="replay"' in r.text and 'data-testid="replay-error"' in r.text
        assert not cards_named(r.text)
    js = client.get("/static/replay.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert "/replay" in js.text and "step=" in js.text
