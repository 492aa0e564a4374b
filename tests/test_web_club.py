"""A club table online (issue 15): the agreement ``club`` at a table between two persons, where calls are taken at
the player's word (Laws 52-54).

Over the websocket: the elder calls a point of cards he does not hold (one of them discarded), the younger sinks
his and allows it good, and before the younger plays to the first trick both seats' views show the ``miscall``
and Law 54's ``penalty``, told in the talk; the same call at the strict table is refused with Law 54's message;
the computer's table and a chouette with a computer seat refuse the agreement, a chouette of three persons takes
it.  No view of either seat names a card of the adversary's hand beyond what the events reveal (the calls shown,
the cards played, the miscalls), checked on every message and on random parties with random calls at word.  In
the browser: a club table opened from the lobby, and a call at word typed into the page.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")  # Starlette now prefers httpx2 to httpx
    from starlette.testclient import TestClient

from piquet.core.actions import PLAYS, DeclarePoint, DeclareSequences
from piquet.core.cards import card_name, cards_of, mask_of, parse_card
from piquet.core.deal import Deal
from piquet.core.events import ELDER, SEQUENCES, Miscall, Score, played
from piquet.core.partie import Partie
from piquet.core.rules import rules_named
from piquet.records.record import PartieRecord, replay
from piquet.web.chouette import ChouetteMessage, ChouetteTable
from piquet.web.protocol import decode_action, state_message
from piquet.web.table import Seat, Table, TableError
from test_club import deal as club_deal
from test_irregular_deals import declare_nothing, m
from test_web import (
    HiddenChecker,
    allowed_in_deal,
    cards_named,
    expect_error,
    listed,
    new_table,
    public_cards,
    random_action,
    receive,
    said_lines,
    stored,
    ws_path,
)

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

Message = dict[str, Any]
SEED = 17


# ---------------------------------------------------------------- what a seat may see at a club table


def club_public(deal: Deal) -> int:
    """The cards the events show both seats (``test_web.public_cards``: shown, played, looked at), the cards of
    each score that names them (what counted, shown as it is reckoned: at a club table a player reckons, after his
    adversary's miscall, what he sank, Case II), and the cards of each miscall: the call as it was made, which
    it names when it comes to light (Law 54)."""
    m = public_cards(deal)
    for e in deal.events:
        if type(e) in (Miscall, Score):
            m |= e.cards
    return m


def allowed(partie: Partie) -> dict[str, tuple[set[str], set[str]]]:
    """What each seat may see of the deal in play and of the one before, the miscalls' calls included."""
    i = len(partie.deals) - 1
    cur = allowed_in_deal(partie.deals[i], club_public(partie.deals[i]))
    prev = allowed_in_deal(partie.deals[i - 1], club_public(partie.deals[i - 1])) if i else (set(), set())
    return {seat: (cur[partie.role(i, seat)], prev[partie.role(i - 1, seat)] if i else set()) for seat in "AB"}


def allowed_by_version(record_json: str, choices: int) -> list[dict[str, tuple[set[str], set[str]]]]:
    """For each version of a partie from its record (``choices``: the versions before the first deal), what
    each seat may see then."""
    final = replay(PartieRecord.from_json(record_json))
    p = Partie(final.rules, final.first_dealer, final.deal_by)
    out = [{seat: (set[str](), set[str]()) for seat in "AB"}] * choices
    for i, d in enumerate(final.deals):
        p.deal_cards(d.dealt[0], d.dealt[1], d.stock)
        out.append(allowed(p))
        for action in d.history:
            p.deals[i].apply(action)
            out.append(allowed(p))
    return out


def adversary_cards_named(v: dict[str, Any], deal: Deal, role: int) -> set[str]:
    """The cards of the adversary's hand this deal (as dealt, taken in, discarded) that ``v``, a view of ``role``,
    names anywhere (the deal before and the cut aside) but those the laws let him see: his own cards, the cards left
    he looked at, and what the events reveal (the calls shown, the cards played, the miscalls' calls); and but the
    answer to "Which king do you not reckon?", which names that card wherever it is (p. 92)."""
    other = 1 - role
    his = {card_name(c) for c in cards_of(deal.dealt[other] | deal.discards[other] | mask_of(deal.taken(other)))}
    hidden = his - allowed_in_deal(deal, club_public(deal))[role]
    told = {k: x for k, x in v.items() if k not in ("cut", "last_deal", "game_news")}
    told["lines"] = said_lines(v["lines"])
    return cards_named(told) & hidden


# ---------------------------------------------------------------- two persons at a table, over the websocket


def nothing(v: dict[str, Any]) -> dict[str, Any]:
    """The plainest choice of a seat's options: deal, by twos; discard his first card; do not look; declare
    nothing; play his first card."""
    o = v["options"][0]
    kind = o["kind"]
    if kind == "deal":
        return {"kind": "deal", "deal": True, "by": 2}
    if kind == "deal_by":
        return {"kind": "deal_by", "by": 2}
    if kind == "discard":
        return {"kind": "discard", "cards": v["hand"][:1]}
    if kind == "look":
        return {"kind": "look", "look": False}
    if kind == "play":
        return {"kind": "play", "card": o["cards"][0]}
    return {"kind": kind, {"point": "cards", "sequences": "runs", "sets": "sets"}[kind]: []}


def a_point_not_held(v: dict[str, Any]) -> list[str]:
    """The elder's call of a point at his word: the cards he holds of the suit of his first card discarded, and
    that card, which he does not hold (he could have: no penalty is spared him, Law 54)."""
    gone = v["discard"][0]
    return [c for c in v["hand"] if c[-1] == gone[-1]] + [gone]


@contextmanager
def two_seats(client: TestClient, t: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Message],
                                                                      dict[str, list[Message]]]]:
    """Both seats connected (Ann's, then Bob's by the invite): their sockets, the last state of each, their logs."""
    with client.websocket_connect(ws_path(t)) as wa:
        logs: dict[str, list[Message]] = {"A": [receive(wa)], "B": []}
        with client.websocket_connect(ws_path(t, "invite") + "&name=Bob") as wb:
            socks = {"A": wa, "B": wb}
            last = {"A": receive(wa), "B": receive(wb)}
            for s in "AB":
                logs[s].append(last[s])
            yield socks, last, logs


def to_move(last: dict[str, Message]) -> str:
    seat = "A" if last["A"]["view"]["my_turn"] else "B"
    assert last[seat]["view"]["my_turn"]
    return seat


def act(socks: dict[str, Any], last: dict[str, Message], logs: dict[str, list[Message]], seat: str,
        action: dict[str, Any]) -> None:
    """``seat`` sends ``action``; both seats are sent the new state."""
    socks[seat].send_json({"type": "action", "version": last[seat]["version"], "action": action})
    for s in "AB":
        last[s] = receive(socks[s])
        logs[s].append(last[s])
        assert last[s]["type"] == "state", last[s]


def until_elder_point(socks: dict[str, Any], last: dict[str, Message], logs: dict[str, list[Message]]) -> str:
    """Play the plainest choices until the elder is to call his point; the elder's seat."""
    while (seat := to_move(last)) and last[seat]["view"]["phase"] != "elder_point":
        assert last[seat]["view"]["at_word"] is None
        act(socks, last, logs, seat, nothing(last[seat]["view"]))
    return seat


def test_a_call_at_word_allowed_good_is_a_miscall_with_its_penalty(client: TestClient, db: str) -> None:
    t = new_table(client, opponent="person", rules="rubicon", agreements=["club"], name="Ann", seed=SEED)
    with two_seats(client, t) as (socks, last, logs):
        v = last["A"]["view"]
        assert v["agreements"] == ["club"] and "club table" in v["title"] and v["partie"]["rules"] == "rubicon+club"
        elder = until_elder_point(socks, last, logs)
        younger = "B" if elder == "A" else "A"
        v = last[elder]["view"]
        assert v["at_word"] == {"kind": "point", "label": "Or call at your word: name the cards of your point, all "
                                "of one suit", "hint": v["at_word"]["hint"], "button": "Call at your word",
                                "note": v["at_word"]["note"]} and "Law 54" in v["at_word"]["note"]
        assert last[younger]["view"]["at_word"] is None  # not his turn
        called = a_point_not_held(v)
        assert not set(called) <= set(v["hand"])
        # A point in two suits is refused by the engine, at a club table too; a card's name it cannot read as such.
        socks[elder].send_json({"type": "action", "version": last[elder]["version"],
                                "action": {"kind": "point", "cards": ["AS", "AH"]}})
        assert "one suit (Law 62)" in expect_error(socks[elder], "illegal")["message"]
        socks[elder].send_json({"type": "action", "version": last[elder]["version"],
                                "action": {"kind": "point", "cards": ["KX"]}})
        expect_error(socks[elder], "malformed")
        before = stored(db, t["table"])
        act(socks, last, logs, elder, {"kind": "point", "cards": called})  # taken at his word
        assert stored(db, t["table"])[0] == before[0] + 1
        assert last[younger]["view"]["at_word"]["kind"] == "point"
        act(socks, last, logs, younger, {"kind": "point", "cards": []})  # he sinks his point: "Good"
        while not ((seat := to_move(last)) == younger and last[seat]["view"]["phase"] == "play"):
            act(socks, last, logs, seat, nothing(last[seat]["view"]))
        record = stored(db, t["table"])[1]
        for s in "AB":  # the younger is to play to the first trick: the miscall has come to light
            v = last[s]["view"]
            assert v["trick"] == 1 and v["phase"] == "play"
            assert {"kind": "miscall", "role": "elder", "category": "point", "cards": in_order(called),
                    "impossible": False} in v["events"]
            assert {"kind": "penalty", "role": "elder", "law": "Law 54"} in v["events"]
            said = " ".join(line["text"] for line in v["lines"])
            assert "not hold the point called" in said and "nothing this deal (Law 54)" in said, said
            assert v["totals"]["deal"][elder] == 0  # he reckons nothing, not even his lead (Law 54)
        # The hidden cards: every message to each seat, against what it may see at that version.
        deal = replay(PartieRecord.from_json(record)).deals[0]
        roles = {elder: ELDER, younger: 1 - ELDER}
        by_version = allowed_by_version(record, 1)  # the winner of the cut chose to deal: version 1
        checker = HiddenChecker(SEED, rules_named("rubicon+club"))
        for s in "AB":
            for msg in logs[s]:
                cur, prev = by_version[msg["version"]][s]
                checker.check(s, msg, cur, prev)
            assert not adversary_cards_named(last[s]["view"], deal, roles[s])
        assert checker.messages == len(logs["A"]) + len(logs["B"])


def in_order(names: list[str]) -> list[str]:
    """Cards in the order the server writes them: spades, hearts, clubs, diamonds, high cards first."""
    return [card_name(c) for c in cards_of(mask_of(parse_card(n) for n in names))]


def test_the_strict_table_refuses_the_same_call_by_law_54(client: TestClient, db: str) -> None:
    t = new_table(client, opponent="person", rules="rubicon", name="Ann", seed=SEED)
    with two_seats(client, t) as (socks, last, logs):
        assert last["A"]["view"]["agreements"] == [] and "club" not in last["A"]["view"]["title"]
        elder = until_elder_point(socks, last, logs)
        v = last[elder]["view"]
        assert v["at_word"] is None
        before = stored(db, t["table"])
        socks[elder].send_json({"type": "action", "version": last[elder]["version"],
                                "action": {"kind": "point", "cards": a_point_not_held(v)}})
        err = expect_error(socks[elder], "illegal")
        assert "Law 54" in err["message"] and not cards_named(err), err
        assert stored(db, t["table"]) == before


def test_a_club_table_still_takes_only_cards_held_for_a_discard_or_a_card_played() -> None:
    seats = {"A": Seat("human", "Ann"), "B": Seat("human", "Bob")}
    table = Table.new("club", seats, SEED, rules_named("rubicon+club"), "person")
    while table.choosing is not None:
        table.apply(table.to_move() or "A", decode_action(nothing(table.view(table.to_move() or "A"))))
    seat = table.to_move()
    assert seat is not None
    v = table.view(seat)
    not_held = next(card_name(c) for c in range(32) if card_name(c) not in v["hand"])
    with pytest.raises(TableError, match="you do not hold every card you named"):
        table.apply(seat, decode_action({"kind": "discard", "cards": [not_held]}), table.version)
    deal = table.partie.current
    assert deal is not None and deal.club


@pytest.mark.parametrize("body", [
    {"opponent": "computer", "rules": "rubicon", "agreements": ["club"]},
    {"opponent": "computer", "rules": "four-deal+club"},
    {"rules": "au-cent+club", "level": "random"},
])
def test_the_computer_does_not_sit_at_a_club_table(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/tables", json={"name": "Ann", **body})
    assert r.status_code == 400
    assert "club table" in r.json()["error"] and "two persons" in r.json()["error"]
    assert client.app.state.store.list() == []  # type: ignore[attr-defined]


def test_the_club_agreement_with_any_rules_between_persons(client: TestClient) -> None:
    for rules, agreements in (("four-deal", ["club"]), ("au-cent+small-cards", ["club"]), ("rubicon+club", [])):
        t = new_table(client, opponent="person", rules=rules, agreements=agreements, name="Ann")
        row = next(r for r in listed(client, t) if r["table"] == t["table"])
        assert row["rules"].endswith("+club") and "at a club table" in row["title"]
    r = client.post("/api/tables", json={"opponent": "person", "rules": "rubicon", "agreements": ["clubs"]})
    assert r.status_code == 400 and "club" in r.json()["error"]


def test_a_chouette_at_a_club_table_is_for_three_persons(client: TestClient) -> None:
    persons = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    with_computer = [{"name": "Ann"}, {"name": "Bob", "kind": "computer", "level": "random"}, {"name": "Cy"}]
    r = client.post("/api/chouettes", json={"players": with_computer, "rules": "rubicon", "agreements": ["club"]})
    assert r.status_code == 400 and "three persons" in r.json()["error"]
    assert client.get("/api/chouettes").json() == []
    r = client.post("/api/chouettes", json={"players": persons, "rules": "rubicon", "agreements": ["club"]})
    assert r.status_code == 201
    row = client.get("/api/chouettes").json()[0]  # an open invitation: Bob and Cy have not come yet
    assert row["rules"] == "rubicon+club" and "at a club table" in row["title"]


def test_a_chouette_of_three_persons_takes_a_call_at_word() -> None:
    """The chouette's table checks an action as the table of two does (``verify_action``): at a club table a
    call at word goes through, its miscall comes to light, and the chouette is rebuilt from its document."""
    seats = [Seat("human", n, None, None, True) for n in ("Ann", "Bob", "Cy")]
    table = ChouetteTable.new("c1", seats, 5, rules_named("rubicon+club"))
    called = False
    for _ in range(200):
        actor = table.match.to_act()
        assert actor is not None
        v = table.view(actor)
        if v["phase"] == "elder_point" and not called:
            assert v["at_word"] is not None and v["at_word"]["kind"] == "point"
            adviser = table.match.places.advising
            if table.match.places.role(actor) == "playing":
                assert table.view(adviser)["at_word"] is not None  # the adviser may suggest a call at word
            action = DeclarePoint(mask_of(parse_card(c) for c in a_point_not_held(v)))
            table.act(actor, ChouetteMessage("action", table.version, action))
            called = True
            continue
        table.act(actor, ChouetteMessage("action", table.version, decode_action(nothing(v))))
        partie = table.match.game.partie
        if partie is not None and partie.current is not None and partie.current.trick > 1:
            break
    partie = table.match.game.partie
    assert called and partie is not None and partie.current is not None
    assert any(type(e) is Miscall for e in partie.current.events)
    again = ChouetteTable.from_document("c1", seats, table.document(), False)
    assert again.version == table.version and again.match.rules.calls_at_word


# ---------------------------------------------------------------- random calls at word, every view checked


def random_call(kind: str, rng: random.Random) -> dict[str, Any]:
    """A call of that kind of any cards, of a lawful form: a point in one suit, a sequence, a quatorze or trio."""
    suit = rng.randrange(4)
    if kind == "point":
        cards = rng.sample([card_name(suit * 8 + r) for r in range(8)], rng.randint(1, 8))
        return {"kind": kind, "cards": cards}
    if kind == "sequences":
        length = rng.randint(3, 8)
        top = rng.randint(0, 8 - length)
        return {"kind": kind, "runs": [[card_name(suit * 8 + r) for r in range(top, top + length)]]}
    rank = rng.randrange(5)  # the ace to the ten: sets of tens and above (Law 64)
    return {"kind": kind, "sets": [[card_name(s * 8 + rank) for s in rng.sample(range(4), rng.choice((3, 4)))]]}


@pytest.mark.parametrize("spec", ["rubicon+club", "four-deal+club", "au-cent+small-cards+club"])
def test_hidden_cards_at_club_tables_with_random_calls_at_word(spec: str) -> None:
    """Random parties between two persons at a club table, a call at word of random cards made at about one
    declaration in three: every view of both seats names no card it may not see (the miscalls' calls aside),
    and no card of the adversary's hand beyond what the events reveal."""
    rules = rules_named(spec)
    rng = random.Random(spec)
    miscalls = 0
    for n in range(3 if rules.goal is None else 1):
        seed = 900 + n
        table = Table.new(f"club{n}", {"A": Seat("human", "Ann"), "B": Seat("human", "Bob")}, seed, rules, "person")
        checker = HiddenChecker(seed, rules)
        while True:
            views = {s: table.view(s) for s in "AB"}
            if table.partie.deals:
                now = allowed(table.partie)
                deal = table.partie.deals[-1]
                for s in "AB":
                    cur, prev = now[s]
                    checker.check(s, state_message(table.version, s, views[s]), cur, prev)
                    assert not adversary_cards_named(views[s], deal, table.partie.role(len(table.partie.deals) - 1,
                                                                                          s))
            if table.finished or len(table.partie.deals) > 6:  # Piquet au cent: six deals of its partie
                break
            seat = table.to_move()
            assert seat is not None
            v = views[seat]
            wire = random_call(v["at_word"]["kind"], rng) if v["at_word"] and rng.random() < 0.35 else \
                random_action(v, rng)
            try:
                table.apply(seat, decode_action(wire), table.version)
            except TableError as e:  # a call the laws refuse (Case IV's bar): the same choice from the options
                assert e.code == "illegal" and not cards_named(e.message), e.message
                table.apply(seat, decode_action(random_action(v, rng)), table.version)
        miscalls += sum(type(e) is Miscall for d in table.partie.deals for e in d.events)
    assert miscalls > 0


# ---------------------------------------------------------------- found on the way: the engine's


def test_no_score_names_a_card_its_scorer_does_not_hold() -> None:
    """The elder calls a quart major in hearts at his word (the knave is the younger's); the younger answers a
    quint in diamonds at his word, "Not good"; the younger's quint is found false (he could not have held it),
    which leaves the elder's quart good: it is false too, and should come to light, not score four."""
    d = club_deal()
    d.apply(DeclarePoint(0))
    d.apply(DeclareSequences((m("AH KH QH JH"),)))
    d.apply(DeclareSequences((m("AD KD QD JD TD"),)))
    declare_nothing(d)
    d.apply(PLAYS[parse_card("AS")])
    declare_nothing(d)
    assert Miscall(1 - ELDER, SEQUENCES, m("AD KD QD JD TD"), True) in d.events
    for e in d.events:
        if type(e) is Score:
            assert not e.cards & ~(d.hands[e.role] | played(d.events, e.role)), e


# ---------------------------------------------------------------- in the browser


TABLE_JS = "document.querySelector('[data-testid=table]')"


@pytest.mark.browser
def test_a_club_table_and_a_call_at_word_in_the_browser(tmp_path_factory: pytest.TempPathFactory) -> None:
    """From the lobby, a table for a person with "Club table" ticked; both seats' pages (the invite opened in a
    second page); the elder types a call of a point at his word (the cards he holds of the suit of a card he
    discarded, and that card) after a call the engine refuses (two suits, Law 62); the younger sinks his; before
    the younger plays to the first trick both pages tell the miscall and the penalty.  Forced moves are not made by
    the pages (``auto=0``)."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")
    with e2e.touch_page(tmp_path_factory.mktemp("club-server"), e2e.PHONE) as (srv, page, errors):
        page.goto(srv.base + "/")
        page.get_by_test_id("person-name-input").fill("Ann")
        page.get_by_test_id("person-club").check()
        page.get_by_test_id("new-person-game").click()
        page.get_by_test_id("invite").wait_for(state="visible")
        invite = page.get_by_test_id("invite-link").input_value()
        own = page.get_by_test_id("own-seat-link").get_attribute("href")
        assert own and invite
        row = srv.get_json("/api/tables")[0]  # an open invitation, listed to anyone
        assert row["rules"] == "rubicon+club" and "at a club table" in row["title"]
        guest = page.context.new_page()
        guest.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(srv.base + own.replace("#", "?auto=0#"))
        guest.goto(invite.replace("#", "?name=Bob&auto=0#"))
        pages = {"Ann": page, "Bob": guest}
        for p in pages.values():
            p.wait_for_function(f"() => {TABLE_JS}.dataset.version !== ''")
            assert "at a club table" in p.get_by_test_id("rules").inner_text()
        called: str | None = None  # who called at his word
        gone: str | None = None  # the elder's first card discarded
        for _ in range(60):
            who, p, st = next_to_move(pages)
            phase = st["phase"]
            if phase == "play" and called is not None and who != called:
                break  # the younger is to play to the first trick
            if phase == "cut":
                p.get_by_test_id("deal-yes").click()
            elif phase.endswith("discard"):
                card = p.locator("[data-testid=hand] > [data-card]").first
                if phase == "elder_discard":
                    gone = card.get_attribute("data-card")
                card.click(position=e2e.CARD_SPOT)
                p.get_by_test_id("discard-button").click()
                p.get_by_test_id("confirm-exchange").click()  # Law 24: the page asks first
            elif phase.endswith("look"):
                p.get_by_test_id("look-no").click()
            elif phase == "elder_point" and called is None:
                hand = p.eval_on_selector_all("[data-testid=hand] > [data-card]", "els => els.map(e => e.dataset.card)")
                assert gone and gone not in hand
                point = [c for c in hand if c[-1] == gone[-1]] + [gone]  # with a card he discarded: Law 54 bites
                p.get_by_test_id("at-word-input").fill("AS AH")
                p.get_by_test_id("at-word-call").click()
                p.get_by_test_id("error").wait_for(state="visible")
                assert "one suit (Law 62)" in p.get_by_test_id("error-text").inner_text()
                assert p.get_by_test_id("table").get_attribute("data-version") == st["version"]
                p.get_by_test_id("at-word-input").fill(" ".join(point).lower())  # names are read in any case
                p.get_by_test_id("at-word-call").click()
                called = who
            elif phase == "play":
                p.locator("[data-testid^=play-card-]").first.click(position=e2e.CARD_SPOT)
            else:  # every other declaration: nothing; the younger sinks his point, and allows the call good
                assert p.get_by_test_id("at-word").is_visible()
                p.get_by_test_id("declare-none").click()
            p.wait_for_function(f"(v) => {TABLE_JS}.dataset.version !== v", arg=st["version"])
        else:
            raise AssertionError("the younger never came to play to the first trick")
        for name, p in pages.items():
            talk = p.get_by_test_id("talk").inner_text()
            assert "not hold the point called" in talk and "nothing this deal (Law 54)" in talk, (name, talk)
            assert not p.get_by_test_id("at-word").count()  # nothing to declare now
        assert errors == []


def next_to_move(pages: dict[str, Any]) -> tuple[str, Any, dict[str, str]]:
    """The page whose seat is to act, nothing pending, with its table's data attributes (waiting for one)."""
    for _ in range(400):
        for who, p in pages.items():
            st: dict[str, str] = p.evaluate(f"() => ({{...{TABLE_JS}.dataset}})")
            if st["myTurn"] == "true" and st["pending"] == "false":
                return who, p, st
        next(iter(pages.values())).wait_for_timeout(50)
    raise AssertionError("neither page came to its turn")
