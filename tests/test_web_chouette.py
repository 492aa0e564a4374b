"""The chouette table in the browser (p. 106): its server, over the websocket and through its tables.

Three persons play a whole chouette of several parties through three websockets, the adviser suggesting
and the player following or not; one person plays with two computer seats until a computer has held each
place (alone, playing for the pair with the person advising, advising the person); the rotation after a
win and after a loss is the book's; every message to every seat of many random chouettes is checked for
cards the laws hide from it (the single player never sees the pair's cards or suggestions, the pair never
the single player's cards); refusals change nothing; a restart mid-partie resumes where it was; two
server processes on one database serve one chouette.
"""

from __future__ import annotations

import json
import random
import time
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")  # Starlette now prefers httpx2 to httpx
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from piquet.core.cards import card_name, card_words, cards_of
from piquet.core.deal import deal_from_pack
from piquet.core.partie import Partie
from piquet.core.rules import FOUR_DEAL, RUBICON, Rules
from piquet.stakes.chouette import PAIR_SEAT, SINGLE_SEAT, ChouetteMatch, Places
from piquet.stakes.chouette import deal_rng as chouette_deal_rng
from piquet.talk.words import action_words
from piquet.web.app import create_app
from piquet.web.chouette import ChouetteMessage, ChouetteTable, decode_chouette_message
from piquet.web.protocol import ProtocolError, decode_action, error_message
from piquet.web.store import Store, database_url
from piquet.web.table import Seat, TableError
from test_web import HiddenChecker, allowed_now, cards_named, listed, random_action, receive

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

Message = dict[str, Any]
NAMES = ("Ann", "Bob", "Cy")


# ---------------------------------------------------------------- what each player may see, from the engine


def after(places: Places, single_won: bool | None) -> Places:
    """The rotation as p. 106 words it, written out here again (not ``Places.after``): "If the single player
    (A) wins the partie, he continues to play against the other two.  C takes B's place, and B advises C ...
    As soon as A loses a partie ... B plays against the other two, and A advises C."  A draw is not a loss."""
    a, b, c = places.single, places.playing, places.advising
    return Places(a, c, b) if single_won is not False else Places(b, c, a)


def seat_of(places: Places, name: str) -> str:
    return SINGLE_SEAT if name == places.single else PAIR_SEAT


def allowed_by_version(document: str) -> list[dict[str, tuple[set[str], set[str]]]]:
    """For each version of a chouette (from its document), what each player may see then: the seat whose
    cards he sees (the single player A's, the other two B's) in the deal in play and the one before.

    The versions, in order: the single player's choice of deal (dealing, by twos or threes: the first deal
    is dealt), the pair's choice of dealing by twos or threes when he lets it deal (Law 9), each action, each
    suggestion (before the action of its step), each next partie begun, and the players' rising.  Nothing is
    seen before a deal."""
    final = ChouetteMatch.from_json(document)
    out: list[dict[str, tuple[set[str], set[str]]]] = []
    nothing = {n: (set[str](), set[str]()) for n in final.players}

    def snapshot(places: Places, partie: Partie) -> None:
        by_seat = allowed_now(partie)
        out.append({n: by_seat[seat_of(places, n)] for n in final.players})

    for g in final.games:
        out.append(nothing)  # the chouette made, or the next partie begun: nothing dealt
        if g.dealer == PAIR_SEAT:
            out.append(nothing)  # the single player lets the pair deal: nothing dealt until it says how
        if g.partie is None:
            continue
        done = g.partie
        p = Partie(done.rules, done.first_dealer, done.deal_by)
        p.deal_cards(done.deals[0].dealt[0], done.deals[0].dealt[1], done.deals[0].stock)
        snapshot(g.places, p)  # the first deal dealt
        for i, d in enumerate(done.deals):
            for j, action in enumerate(d.history):
                for _ in (s for s in g.suggestions if (s.deal, s.step) == (i, j)):
                    snapshot(g.places, p)
                p.deals[i].apply(action)
                if p.deals[i].is_over and i + 1 < len(done.deals):
                    nxt = done.deals[i + 1]
                    p.deal_cards(nxt.dealt[0], nxt.dealt[1], nxt.stock)
                snapshot(g.places, p)
    out.append(out[-1])  # the players' rising, if they rose
    return out


class ChouetteChecker:
    """Checks what one chouette sends its players: every card against what the player may see (the deal
    and the one before, through ``test_web.HiddenChecker``), the cut of three as public, the suggestion
    only to the pair and only of their cards, and the chouette's own words."""

    def __init__(self, match: ChouetteMatch) -> None:
        self.inner = HiddenChecker(0)
        self.inner.cut = None  # type: ignore[assignment]  # a chouette's VIEW has no cut of two
        self.cut = {n: card_name(c) for n, c in match.cut.items()}
        self.cut_words = {f"the {card_words(c)}" for c in match.cut.values()}
        self.messages = 0

    def check(self, name: str, msg: Message, cur: set[str], prev: set[str]) -> None:
        self.messages += 1
        if msg.get("type") != "state":
            self.inner.check(name, msg, cur, prev)
            return
        v = msg["view"]
        c = v["chouette"]
        assert c["me"] == name and c["cut"] == self.cut, c
        assert all(w in c["cut_words"] for w in self.cut_words), c["cut_words"]
        place = c["place"]
        assert msg["seat"] == v["seat"] == (SINGLE_SEAT if place == "single" else PAIR_SEAT)
        if place == "single":
            assert c["advice"] is None and c["suggest_options"] == [] and not c["can_suggest"], c
        if place == "advising":
            assert v["options"] == [] and v["my_turn"] is False, "the adviser may not act"
        else:
            assert c["suggest_options"] == [], "only the adviser suggests"
        rest = {k: x for k, x in c.items() if k not in ("cut", "cut_words", "rotation")}
        if c["number"] > 1:
            rest["rotation"] = c["rotation"]
        else:
            assert c["rotation"] == c["cut_words"]
        self.inner.messages -= 1
        # The seat's events and finished deals are checked once per seat: both of the pair see the same.
        self.inner.check(v["seat"], {**msg, "view": {**v, "chouette": rest}}, cur, prev)


def check_logs(logs: dict[str, list[Message]], document: str) -> int:
    """Every message each player received, against what he may see at that version; how many."""
    allowed = allowed_by_version(document)
    checker = ChouetteChecker(ChouetteMatch.from_json(document))
    for name, log in logs.items():
        version = 0
        for msg in log:
            if msg["type"] == "state":
                version = msg["version"]
            cur, prev = allowed[version][name]
            checker.check(name, msg, cur, prev)
    return checker.messages


# ---------------------------------------------------------------- the websocket


def new_chouette(client: TestClient, players: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    r = client.post("/api/chouettes", json={"players": players, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def ws_path(url: str) -> str:
    """The websocket of a chouette seat's link, as a script opens it (``/c/<id>#token=T`` -> ``/ws/c/<id>?token=T``)."""
    return "/ws/c/" + url.split("/c/", 1)[1].replace("#token=", "?token=")


def stored(client: TestClient, table_id: str) -> tuple[int, str, str]:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    row = store.load_chouette(table_id)
    assert row is not None
    return row.version, row.document, row.status


class Seats:
    """The persons' sockets at a chouette, their logs and the last state each received."""

    def __init__(self, socks: dict[str, Any]) -> None:
        self.socks = socks
        self.logs: dict[str, list[Message]] = {n: [] for n in socks}
        self.last: dict[str, Message] = {}

    def read(self, name: str) -> Message:
        msg = receive(self.socks[name])
        self.logs[name].append(msg)
        if msg["type"] == "state":
            self.last[name] = msg
        return msg

    def until(self, name: str, done: Any) -> Message:
        """Read ``name``'s messages until a state for which ``done(state)`` holds."""
        for _ in range(10_000):
            msg = self.read(name)
            if msg["type"] == "error":
                raise AssertionError(f"{name} was refused: {msg}")
            if msg["type"] == "state" and done(msg):
                return msg
        raise AssertionError(f"{name}: no such state came")

    def sync(self, version: int) -> None:
        """Every socket read up to a state of at least ``version``."""
        for n in self.socks:
            if self.last.get(n, {"version": -1})["version"] < version:
                self.until(n, lambda m, v=version: m["version"] >= v)

    def send(self, name: str, msg: Message) -> None:
        self.socks[name].send_json(msg)

    def any(self) -> Message:
        return max(self.last.values(), key=lambda m: int(m["version"]))


def person_players(names: tuple[str, ...] = NAMES) -> list[dict[str, Any]]:
    return [{"name": n, "kind": "person"} for n in names]


def play_partie_out(seats: Seats, rng: random.Random) -> None:
    """Play the partie in progress to its end: whoever is to act sends a random action from his VIEW."""
    while not seats.any()["view"]["chouette"]["partie_over"]:
        state = seats.any()
        actor = state["view"]["chouette"]["to_act"]
        seats.send(actor, {"type": "action", "version": seats.last[actor]["version"],
                           "action": random_action(seats.last[actor]["view"], rng)})
        seats.sync(state["version"] + 1)


def open_seats(client: TestClient, t: dict[str, Any], stack: Any) -> Seats:
    seats = Seats({})
    for seat in t["seats"]:
        if seat["url"] is not None:
            n = seat["name"]
            seats.socks[n] = stack.enter_context(client.websocket_connect(ws_path(seat["url"])))
            seats.logs[n] = []
            seats.read(n)  # his state: his arrival is told to those already there
    for n in seats.socks:  # read those, up to a pong
        seats.send(n, {"type": "ping"})
        while seats.read(n)["type"] != "pong":
            pass
    version = stored(client, t["table"])[0]
    seats.sync(version)
    return seats


def play_persons(client: TestClient, seed: int, parties: int,
                 rules: str = "rubicon") -> tuple[dict[str, Any], Seats, str, dict[str, int]]:
    """Three persons play ``parties`` parties through their sockets, the adviser suggesting now and then and
    the player following the suggestion or not; each suggestion is checked as each player sees it."""
    from contextlib import ExitStack

    rng = random.Random(seed)
    t = new_chouette(client, person_players(), rules=rules, seed=seed)
    did = {"suggested": 0, "followed": 0, "declined": 0, "parties": 0, "next": 0}
    with ExitStack() as stack:
        seats = open_seats(client, t, stack)
        for _ in range(20_000):
            state = seats.any()
            c = state["view"]["chouette"]
            places = Places(**{k: c["places"][k] for k in ("single", "playing", "advising")})
            if c["partie_over"]:
                did["parties"] += 1
                assert c["result"] is not None and c["next_places"] is not None
                expected = after(places, c["result"]["single_won"])
                assert Places(**{k: c["next_places"][k] for k in ("single", "playing", "advising")}) == expected
                if did["parties"] == parties:
                    break
                who = rng.choice(NAMES)
                seats.send(who, {"type": "next_partie", "version": state["version"]})
                seats.sync(state["version"] + 1)
                did["next"] += 1
                assert seats.last[who]["view"]["chouette"]["places"] == {
                    "single": expected.single, "playing": expected.playing, "advising": expected.advising}
                continue
            actor = c["to_act"]
            mine = seats.last[actor]
            assert mine["version"] == state["version"] and mine["view"]["my_turn"], (actor, mine["view"]["phase"])
            suggestion = None
            adviser = seats.last[places.advising]
            if actor == places.playing and not is_forced(mine["view"]) and mine["view"]["phase"] != "cut":
                assert adviser["view"]["chouette"]["can_suggest"], "the adviser may suggest at each choice"
            if actor == places.playing and adviser["view"]["chouette"]["can_suggest"] and rng.random() < 0.6:
                opts = adviser["view"]["chouette"]["suggest_options"]
                suggestion = random_action({"options": opts, "hand": adviser["view"]["hand"]}, rng)
                seats.send(places.advising, {"type": "suggest", "version": adviser["version"], "action": suggestion})
                seats.sync(state["version"] + 1)
                did["suggested"] += 1
                for n in NAMES:  # the pair sees it, the single player does not
                    advice = seats.last[n]["view"]["chouette"]["advice"]
                    if n == places.single:
                        assert advice is None
                    else:
                        assert advice == {"by": places.advising, "computer": False,
                                          "action": decode_and_encode(suggestion),
                                          "words": action_words(decode_action(suggestion))}, advice  # type: ignore[arg-type]
                mine = seats.last[actor]
            if suggestion is not None and rng.random() < 0.5:
                action = suggestion
                did["followed"] += 1
            else:
                action = random_action(mine["view"], rng)
                if suggestion is not None:
                    did["declined"] += 1
            # The action answers the state the player saw before the suggestion: still accepted.
            seats.send(actor, {"type": "action", "version": state["version"], "action": action})
            seats.sync(seats.any()["version"] + 1)
        else:
            raise AssertionError("the chouette did not come to its end")
        version, document, _ = stored(client, t["table"])
        assert all(m["version"] == version for m in seats.last.values())
    return t, seats, document, did


def decode_and_encode(action: dict[str, Any]) -> dict[str, Any]:
    """An ACTION as the server writes it back (cards in its order)."""
    from piquet.web.protocol import encode_action

    return encode_action(decode_action(action))


@pytest.mark.slow
def test_three_persons_play_a_chouette_with_suggestions(client: TestClient) -> None:
    _, seats, document, did = play_persons(client, seed=5, parties=3)
    assert did["suggested"] > 20 and did["followed"] > 5 and did["declined"] > 5 and did["next"] == 2, did
    match = ChouetteMatch.from_json(document)
    card = match.card()
    assert len(card.parties) == 3 and len(match.games) == 3
    # The places followed the book's rotation, and each suggestion followed is the action its step took.
    for g, nxt in zip(match.games, match.games[1:], strict=False):
        result = g.result()
        assert result is not None and nxt.places == after(g.places, result.single_won)
    followed = 0
    for g in match.games:
        assert g.partie is not None
        for s in g.suggestions:
            assert s.by == g.places.advising
            followed += g.partie.deals[s.deal].history[s.step] == s.action
    assert followed >= did["followed"]
    # The card each player was last shown is the card of the document.
    for n in NAMES:
        c = seats.last[n]["view"]["chouette"]
        assert c["card"]["balances"] == card.balances() and c["card"]["parties"] == 3
        assert sum(card.balances().values()) == 0
    assert check_logs(seats.logs, document) > 1500


# ---------------------------------------------------------------- computers in every place


def is_forced(v: dict[str, Any]) -> bool:
    """The seat has one legal choice: one card to play, or one declaration (nothing to declare)."""
    opts = v["options"]
    if len(opts) != 1:
        return False
    kind = opts[0]["kind"]
    return (kind == "play" and len(opts[0]["cards"]) == 1) or kind in ("point", "sequences", "sets")


@pytest.mark.slow
def test_computer_seats_in_each_place(client: TestClient) -> None:
    """Ann with two computers, until a computer has played alone, played for the pair with Ann advising (she
    suggests, and he plays it; or leaves it to him), and advised Ann (his suggestion shown at each choice)."""
    from contextlib import ExitStack

    rng = random.Random(8)
    players = [{"name": "Ann"}, {"name": "Hal", "kind": "computer", "level": "simple"},
               {"name": "Ida", "kind": "computer", "level": "random"}]
    t = new_chouette(client, players, seed=21)
    seen: dict[str, int] = {"computer-single": 0, "computer-plays-ann-advises": 0, "computer-advises-ann": 0,
                            "ann-suggested": 0, "ann-left": 0, "advice-shown": 0, "parties": 0}
    with ExitStack() as stack:
        seats = open_seats(client, t, stack)
        suggested_at = None
        first: list[Message] = [seats.last["Ann"]]  # the state read as the seats were opened
        for _ in range(50_000):
            msg = first.pop() if first else seats.read("Ann")
            if msg["type"] == "thinking" and msg["kind"] == "suggest":
                assert seats.last["Ann"]["view"]["chouette"]["place"] == "playing", "an adviser's thought told"
            if msg["type"] != "state":
                continue
            if suggested_at is not None:
                assert msg["version"] == suggested_at + 2, "the suggestion and the computer's action, at once"
                suggested_at = None
            v, c = msg["view"], msg["view"]["chouette"]
            place = c["place"]
            if c["partie_over"]:
                seen["parties"] += 1
                if all(seen[k] for k in ("computer-single", "computer-plays-ann-advises", "computer-advises-ann")) \
                        or seen["parties"] >= 12:
                    break
                seats.send("Ann", {"type": "next_partie", "version": msg["version"]})
                continue
            if place != "single":
                seen["computer-single"] += c["dealt"]
            if place == "advising" and c["awaiting_advice"]:
                seen["computer-plays-ann-advises"] += 1
                assert c["can_leave"] and c["can_suggest"]
                if rng.random() < 0.5:
                    action = random_action({"options": c["suggest_options"], "hand": v["hand"]}, rng)
                    seats.send("Ann", {"type": "suggest", "version": msg["version"], "action": action})
                    suggested_at = msg["version"]
                    seen["ann-suggested"] += 1
                else:  # the state comes again, no longer waiting; then the computer's choice
                    seats.send("Ann", {"type": "leave", "version": msg["version"]})
                    seen["ann-left"] += 1
                continue
            if not v["my_turn"]:
                continue
            if place == "playing" and v["phase"] != "cut":
                forced = is_forced(v)
                if not forced and c["advice"] is None:
                    continue  # the computer's suggestion is coming
                if not forced:
                    assert c["advice"]["by"] == c["places"]["advising"] and c["advice"]["computer"]
                    seen["computer-advises-ann"] += 1
                    seen["advice-shown"] += 1
            seats.send("Ann", {"type": "action", "version": msg["version"], "action": random_action(v, rng)})
        version, document, _ = stored(client, t["table"])
    assert seen["computer-single"] and seen["computer-plays-ann-advises"] and seen["computer-advises-ann"], seen
    assert seen["ann-suggested"] and seen["ann-left"], seen
    match = ChouetteMatch.from_json(document)
    # Whenever Ann advised a computer, her suggestion is the action he took at that step.
    for g in match.games:
        assert g.partie is not None or g is match.games[-1]
        for s in g.suggestions:
            assert g.partie is not None
            taken = g.partie.deals[s.deal].history[s.step]
            if s.by == "Ann":
                assert taken == s.action
    check_logs({"Ann": seats.logs["Ann"]}, document)


# ---------------------------------------------------------------- the rotation


def play_out(t: ChouetteTable, rng: random.Random) -> None:
    """Play the partie in play to its end directly through the table: persons at random, computers as the
    server has them (their decider, then perform)."""
    m = t.match
    for _ in range(5_000):
        if m.partie_over():
            return
        job = t.computer_job()
        if job is not None:
            t.perform(job, t.decider(job)())
            continue
        actor = m.to_act()
        assert actor is not None
        if t.awaiting_advice():
            t.act(m.places.advising, ChouetteMessage("leave", t.version))
            continue
        v = t.view(actor)
        t.act(actor, ChouetteMessage("action", t.version, decode_action(random_action(v, rng))))
    raise AssertionError("the partie did not end")


def test_the_rotation_after_a_win_and_after_a_loss() -> None:
    rng = random.Random(4)
    seen = {True: 0, False: 0}
    for seed in range(40):
        t = ChouetteTable.new(f"c{seed}", [Seat("human", n, joined=True) for n in NAMES], seed, RUBICON)
        before = t.match.places
        play_out(t, rng)
        c = t.view(NAMES[0])["chouette"]
        won = c["result"]["single_won"]
        if won is None:
            continue
        seen[won] += 1
        expected = after(before, won)
        assert c["next_places"] == {"single": expected.single, "playing": expected.playing,
                                    "advising": expected.advising, "words": c["next_places"]["words"]}
        words = c["next_places"]["words"]
        assert words.startswith(f"{before.single} {'won' if won else 'lost'} partie 1") and "(p. 106)" in words
        assert f"{expected.advising} advises {expected.playing}" in words
        t.act(NAMES[1], ChouetteMessage("next_partie", t.version))
        assert t.match.places == expected
        again = t.view(expected.single)["chouette"]
        assert again["rotation"] == words and again["number"] == 2 and not again["dealt"]
        # The single player, and only he, chooses whether to deal (p. 106).
        other = expected.playing
        with pytest.raises(TableError) as err:
            t.act(other, ChouetteMessage("action", t.version, decode_action({"kind": "deal", "deal": True})))
        assert err.value.code == "turn" and "(p. 106)" in err.value.message
        t.act(expected.single, ChouetteMessage("action", t.version, decode_action({"kind": "deal", "deal": False})))
        assert t.match.game.partie is None and t.match.to_act() == expected.playing
        by = rng.choice((2, 3))  # the pair deals: the one who plays for it says how (Law 9)
        t.act(expected.playing, ChouetteMessage("action", t.version, decode_action({"kind": "deal_by", "by": by})))
        partie = t.match.game.partie
        assert partie is not None and partie.dealer(0) == PAIR_SEAT and partie.deal_by == by
        if seen[True] >= 2 and seen[False] >= 2:
            break
    assert seen[True] >= 2 and seen[False] >= 2, seen


def test_the_cut_of_three() -> None:
    """The highest card plays alone, the lowest advises (p. 106); ace high, no two of a rank."""
    from piquet.core.cards import rank_of

    for seed in range(30):
        t = ChouetteTable.new("c", [Seat("human", n, joined=True) for n in NAMES], seed, FOUR_DEAL)
        order = sorted(NAMES, key=lambda n: rank_of(t.match.cut[n]), reverse=True)
        assert t.match.places == Places(order[0], order[1], order[2])
        v = t.view(order[0])
        assert v["phase"] == "cut" and v["my_turn"] and v["choice"] == "deal" and v["options"] == [
            {"kind": "deal", "deal": True, "by": 2, "label": "Deal by twos"},
            {"kind": "deal", "deal": True, "by": 3, "label": "Deal by threes"},
            {"kind": "deal", "deal": False, "label": f"Let {order[1]} deal"}]
        assert v["prompt"] == ("You play alone and have the choice of deal throughout (p. 106). Deal first, by two "
                               "or by three cards at a time (Law 9)?")
        assert v["hand"] == [] and v["cut"] is None and v["partie"]["rules"] == "four-deal"
        for n in order[1:]:
            assert not t.view(n)["my_turn"] and t.view(n)["options"] == []
        assert v["chouette"]["cut_words"].startswith("The cut: ") and f"{order[0]} cut the highest" in \
            v["chouette"]["cut_words"]


def test_the_dealer_chooses_twos_or_threes_over_the_websocket(client: TestClient) -> None:
    """The single player deals by threes in one choice, as the winner of the cut at the table of two; in the
    next partie he lets the pair deal, and the one who plays for it, he only, is offered twos or threes (Law
    9): the others' refusals change nothing; every message is checked for hidden cards."""
    from contextlib import ExitStack

    seed = next(s for s in range(100) if ChouetteMatch(NAMES, s).cut_places.single == "Ann")
    t = new_chouette(client, person_players(), seed=seed, rules="four-deal")
    with ExitStack() as stack:
        seats = open_seats(client, t, stack)
        v0 = seats.last["Ann"]["version"]
        assert [o.get("by") for o in seats.last["Ann"]["view"]["options"]] == [2, 3, None]
        seats.send("Ann", {"type": "action", "version": v0, "action": {"kind": "deal", "deal": True, "by": 3}})
        seats.sync(v0 + 1)
        match = ChouetteMatch.from_json(stored(client, t["table"])[1])
        game = match.games[0]
        assert game.partie is not None and game.partie.first_dealer == SINGLE_SEAT and game.partie.deal_by == 3
        for i, deal in enumerate(game.partie.deals):
            order = list(range(32))
            chouette_deal_rng(seed, 0, i).shuffle(order)
            assert (deal.dealt[0], deal.dealt[1], deal.stock) == deal_from_pack(order, 3)
        # Play the partie out at random; then the next partie, in which Ann (if she plays alone again)
        # lets the pair deal.
        rng = random.Random(seed)
        play_partie_out(seats, rng)
        state = seats.any()
        seats.send("Ann", {"type": "next_partie", "version": state["version"]})
        seats.sync(state["version"] + 1)
        c = seats.any()["view"]["chouette"]
        places = Places(**{k: c["places"][k] for k in ("single", "playing", "advising")})
        version = seats.any()["version"]
        seats.send(places.single, {"type": "action", "version": version, "action": {"kind": "deal", "deal": False}})
        seats.sync(version + 1)
        version += 1
        for n in NAMES:
            v = seats.last[n]["view"]
            assert v["phase"] == "cut" and v["choice"] == "deal_by" and v["partie"]["dealer"] == PAIR_SEAT
            if n == places.playing:
                assert v["my_turn"] and v["options"] == [{"kind": "deal_by", "by": 2, "label": "By twos"},
                                                         {"kind": "deal_by", "by": 3, "label": "By threes"}]
                assert v["prompt"].startswith(f"{places.single} lets you deal: deal by two or by three cards")
            else:
                assert not v["my_turn"] and v["options"] == [] and v["hand"] == []
                assert not v["chouette"]["can_suggest"] and v["chouette"]["suggest_options"] == []
                assert v["prompt"] == (f"{places.playing} deals, and is choosing whether to deal by twos or by "
                                       "threes (Law 9).")
        before = stored(client, t["table"])
        for name, code, action in [
            (places.advising, "turn", {"kind": "deal_by", "by": 3}),  # the adviser may not choose
            (places.single, "turn", {"kind": "deal_by", "by": 3}),
            (places.advising, "turn", {"kind": "deal_by", "by": 3, "type": "suggest"}),
            (places.playing, "illegal", {"kind": "deal", "deal": True}),
            (places.playing, "illegal", {"kind": "deal_by", "by": 4}),
            (places.playing, "illegal", {"kind": "discard", "cards": ["AS"]}),
        ]:
            kind = action.pop("type", "action")
            seats.send(name, {"type": kind, "version": version, "action": action})
            expect_error(seats, name, code)
            assert stored(client, t["table"]) == before, (name, action)
        for n in NAMES:  # nothing was sent to anyone else
            seats.send(n, {"type": "ping"})
            assert seats.read(n) == {"type": "pong"}
        seats.send(places.playing, {"type": "action", "version": version, "action": {"kind": "deal_by", "by": 3}})
        seats.sync(version + 1)
        version_now, document, _ = stored(client, t["table"])
        assert version_now == version + 1
        match = ChouetteMatch.from_json(document)
        partie = match.games[1].partie
        assert partie is not None and partie.first_dealer == PAIR_SEAT and partie.deal_by == 3
        order = list(range(32))
        chouette_deal_rng(seed, 1, 0).shuffle(order)
        assert (partie.deals[0].dealt[0], partie.deals[0].dealt[1], partie.deals[0].stock) == \
            deal_from_pack(order, 3)
        assert check_logs(seats.logs, document) > 0


# ---------------------------------------------------------------- hidden cards, many random chouettes


def random_seats(rng: random.Random) -> list[Seat]:
    """The first a person; the others persons or computers of the quick levels."""
    out = [Seat("human", NAMES[0], joined=True)]
    for n in NAMES[1:]:
        out.append(Seat("human", n, joined=True) if rng.random() < 0.5
                   else Seat("computer", n, rng.choice(["random", "random", "random", "simple"]), joined=True))
    return out


@pytest.mark.slow
def test_hidden_cards_in_every_message_of_many_random_chouettes() -> None:
    """100 chouettes of two parties (a third four-deal), the seats persons or computers at random: after every
    change, each person's state message is checked card by card against what his place lets him see; a
    suggestion leaves the single player's view as it was; refused probes name no hidden card."""
    start = time.process_time()
    rng = random.Random(2025)
    messages = suggestions = probes = 0
    places_seen: set[tuple[str, str]] = set()
    for n in range(100):
        seed = 50_000 + n
        rules: Rules = FOUR_DEAL if n % 3 == 0 else RUBICON
        t = ChouetteTable.new(f"c{n}", random_seats(rng), seed, rules)
        checker = ChouetteChecker(t.match)
        persons = [p for p, s in t.seats.items() if not s.is_computer]
        while len(t.match.games) < 2 or not t.match.partie_over():
            m = t.match
            partie = m.game.partie
            by_seat = allowed_now(partie) if partie is not None else {"A": (set(), set()), "B": (set(), set())}
            views = {}
            for p in persons:
                msg = t.message(p)  # what the server sends him
                views[p] = msg["view"]
                checker.check(p, msg, *by_seat[seat_of(m.places, p)])
                places_seen.add((p, views[p]["chouette"]["place"]))
            if m.partie_over():
                t.act(persons[0], ChouetteMessage("next_partie", t.version))
                continue
            job = t.computer_job()
            if job is not None:
                single_before = t.view(m.places.single) if job.kind == "suggest" else None
                t.perform(job, t.decider(job)())
                if single_before is not None:
                    suggestions += 1
                    assert t.view(m.places.single) == single_before, "the single player saw a suggestion"
                continue
            actor = m.to_act()
            assert actor is not None
            if partie is not None and rng.random() < 0.03:
                refused = probe(t, rng, checker)
                probes += refused
                if not refused:
                    continue  # it was allowed (a legal discard, the adviser's leave): look again
            if m.places.advising in persons and t.may_suggest() and (t.awaiting_advice() or rng.random() < 0.4):
                adviser = m.places.advising
                opts = views[adviser]["chouette"]["suggest_options"]
                if t.awaiting_advice() and rng.random() < 0.3:
                    t.act(adviser, ChouetteMessage("leave", t.version))
                    continue
                single_before = t.view(m.places.single)
                action = random_action({"options": opts, "hand": views[adviser]["hand"]}, rng)
                t.act(adviser, ChouetteMessage("suggest", t.version, decode_action(action)))
                suggestions += 1
                if not t.is_computer(m.places.playing):
                    assert t.view(m.places.single) == single_before, "the single player saw a suggestion"
                continue
            if t.is_computer(actor):
                continue  # waits for its person adviser, done above
            v = views[actor]
            t.act(actor, ChouetteMessage("action", t.version, decode_action(random_action(v, rng))))
        messages += checker.messages
        if n % 25 == 0:  # the document rebuilds the same table
            again = ChouetteTable.from_document(t.id, list(t.seats.values()), t.document(), False)
            assert again.version == t.version and all(again.view(p) == t.view(p) for p in persons)
    elapsed = time.process_time() - start
    print(f"\n100 chouettes, {messages} messages checked, {suggestions} suggestions, {probes} probes, "
          f"{elapsed:.1f} s of CPU")
    assert messages > 50_000 and suggestions > 5000 and probes > 500
    assert {place for _, place in places_seen} == {"single", "playing", "advising"}


def state_of(t: ChouetteTable) -> object:
    """What a refusal must leave as it was: the version, the places, every partie's deals and suggestions."""
    m = t.match
    return (t.version, t.count(), t.left, t.ended, len(m.games), m.places,
            [(len(g.suggestions), None if g.partie is None else
              [(len(d.history), d.phase, tuple(d.hands)) for d in g.partie.deals]) for g in m.games])


def probe(t: ChouetteTable, rng: random.Random, checker: ChouetteChecker) -> int:
    """A refused message: an action by the adviser, a suggestion by another, a card not held, out of turn.
    Its error names no card its sender may not see, and nothing changes."""
    m = t.match
    partie = m.game.partie
    assert partie is not None and partie.current is not None
    before = state_of(t)
    places = m.places
    not_held = [card_name(c) for c in range(32) if not partie.current.hands[0] >> c & 1
                and not partie.current.hands[1] >> c & 1] or ["AS"]
    sender, msg = rng.choice([
        (places.advising, ChouetteMessage("action", t.version, decode_action({"kind": "play", "card": "AS"}))),
        (places.single, ChouetteMessage("suggest", t.version, decode_action({"kind": "play", "card": "AS"}))),
        (places.playing, ChouetteMessage("suggest", t.version, decode_action({"kind": "play", "card": "AS"}))),
        (m.to_act() or places.single, ChouetteMessage("action", t.version, decode_action(
            {"kind": "discard", "cards": rng.sample([card_name(c) for c in range(32)], 2)}))),
        (m.to_act() or places.single, ChouetteMessage("action", t.version - 1 if t.version else 99,
                                                      decode_action({"kind": "play", "card": not_held[0]}))),
        (places.single, ChouetteMessage("next_partie", t.version)),
        (places.advising, ChouetteMessage("leave", t.version)),
    ])
    try:
        t.act(sender, msg)
    except TableError as e:
        by_seat = allowed_now(partie)
        checker.check(sender, error_message(e.code, e.message), *by_seat[seat_of(places, sender)])
        assert state_of(t) == before
        return 1
    return 0  # it happened to be allowed (a legal discard, the adviser's leave): nothing to check


# ---------------------------------------------------------------- refusals over the websocket


def expect_error(seats: Seats, name: str, code: str) -> Message:
    msg = seats.read(name)
    assert msg["type"] == "error" and msg["code"] == code, msg
    assert isinstance(msg["message"], str) and msg["message"]
    return msg


def test_refusals_change_nothing(client: TestClient) -> None:
    from contextlib import ExitStack

    seed = next(s for s in range(100) if ChouetteMatch(NAMES, s).cut_places.single == "Ann")
    t = new_chouette(client, person_players(), seed=seed)
    with ExitStack() as stack:
        seats = open_seats(client, t, stack)
        v0 = seats.last["Bob"]["version"]
        # Before the deal: only Ann, who plays alone, chooses whether to deal.
        seats.send("Bob", {"type": "action", "version": v0, "action": {"kind": "deal", "deal": True}})
        expect_error(seats, "Bob", "turn")
        seats.send("Ann", {"type": "action", "version": v0, "action": {"kind": "deal", "deal": True}})
        seats.sync(v0 + 1)
        state = seats.last["Ann"]
        places = Places(**{k: state["view"]["chouette"]["places"][k] for k in ("single", "playing", "advising")})
        assert places.single == "Ann" and state["view"]["role"] == "younger"
        pair_state = seats.last[places.playing]
        assert pair_state["view"]["my_turn"], "Ann deals: the pair is elder and exchanges first"
        version = pair_state["version"]
        hand = pair_state["view"]["hand"]
        ann_hand = state["view"]["hand"]
        before = stored(client, t["table"])
        cases: list[tuple[str, str, Any]] = [
            (places.playing, "malformed", "not json {"),
            (places.playing, "malformed", json.dumps({"type": "whisper", "version": version})),
            (places.advising, "malformed", json.dumps({"type": "suggest", "version": version})),
            (places.advising, "malformed", json.dumps({"type": "leave"})),
            (places.playing, "malformed", json.dumps({"type": "action", "version": version,
                                                      "action": {"kind": "discard", "cards": ["ZZ"]}})),
            (places.playing, "stale", json.dumps({"type": "action", "version": version + 1,
                                                  "action": {"kind": "discard", "cards": hand[:1]}})),
            (places.playing, "stale", json.dumps({"type": "action", "version": version - 1,
                                                  "action": {"kind": "discard", "cards": hand[:1]}})),
            # The adviser may suggest, not act.
            (places.advising, "turn", json.dumps({"type": "action", "version": version,
                                                  "action": {"kind": "discard", "cards": hand[:1]}})),
            # Only the adviser suggests: not the player, not the single player.
            (places.playing, "turn", json.dumps({"type": "suggest", "version": version,
                                                 "action": {"kind": "discard", "cards": hand[:1]}})),
            ("Ann", "turn", json.dumps({"type": "suggest", "version": version,
                                        "action": {"kind": "discard", "cards": ann_hand[:1]}})),
            # Out of turn: the single player while the pair exchanges.
            ("Ann", "turn", json.dumps({"type": "action", "version": version,
                                        "action": {"kind": "discard", "cards": ann_hand[:1]}})),
            # Suggestions the laws forbid, or of cards the pair does not hold (Ann's), said the same way.
            (places.advising, "illegal", json.dumps({"type": "suggest", "version": version,
                                                     "action": {"kind": "discard", "cards": hand[:6]}})),
            (places.advising, "illegal", json.dumps({"type": "suggest", "version": version,
                                                     "action": {"kind": "discard", "cards": ann_hand[:1]}})),
            (places.advising, "illegal", json.dumps({"type": "suggest", "version": version,
                                                     "action": {"kind": "play", "card": hand[0]}})),
            (places.advising, "illegal", json.dumps({"type": "suggest", "version": version,
                                                     "action": {"kind": "deal", "deal": True}})),
            # "Let him choose" is for a computer playing; the next partie and rising come after this one.
            (places.advising, "illegal", json.dumps({"type": "leave", "version": version})),
            ("Ann", "illegal", json.dumps({"type": "next_partie", "version": version})),
            (places.playing, "illegal", json.dumps({"type": "end", "version": version})),
            (places.playing, "illegal", json.dumps({"type": "action", "version": version,
                                                    "action": {"kind": "deal", "deal": True}})),
        ]
        errors = []
        for name, code, text in cases:
            seats.socks[name].send_text(text)
            errors.append((name, expect_error(seats, name, code)))
            assert stored(client, t["table"]) == before, (code, text)
        for name, err in errors:  # no refusal names a card its sender may not see
            visible = set(seats.last[name]["view"]["hand"]) | {"ZZ"}
            assert not cards_named(err) - visible, err
        for n in NAMES:  # nothing was sent to anyone else
            seats.send(n, {"type": "ping"})
            assert seats.read(n) == {"type": "pong"}
        # A legal suggestion, then the player's legal action, go through.
        seats.send(places.advising, {"type": "suggest", "version": version,
                                     "action": {"kind": "discard", "cards": hand[:2]}})
        seats.sync(version + 1)
        seats.send(places.playing, {"type": "action", "version": version,
                                    "action": {"kind": "discard", "cards": hand[:3]}})
        seats.sync(version + 2)
        assert stored(client, t["table"])[0] == version + 2
        # A wrong token, and no such chouette: an error, then the socket is closed.
        for path, code in ((f"/ws/c/{t['table']}?token=nope", 4403), (f"/ws/c/cnosuch?token={t['token']}", 4404),
                           (f"/ws/{t['table']}?token={t['token']}", 4404)):
            with client.websocket_connect(path) as ws:
                assert receive(ws)["code"] == "token"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == code
        assert stored(client, t["table"])[0] == version + 2


# ---------------------------------------------------------------- a restart


@pytest.mark.slow
def test_a_restart_mid_partie_resumes(db: str) -> None:
    from contextlib import ExitStack

    rng = random.Random(3)
    with TestClient(create_app(db)) as c1:
        t = new_chouette(c1, person_players(), seed=77)
        with ExitStack() as stack:
            seats = open_seats(c1, t, stack)
            for _ in range(60):
                state = seats.any()
                c = state["view"]["chouette"]
                actor = c["to_act"]
                adv = seats.last[c["places"]["advising"]]
                if adv["view"]["chouette"]["can_suggest"] and rng.random() < 0.5:
                    action = random_action({"options": adv["view"]["chouette"]["suggest_options"],
                                            "hand": adv["view"]["hand"]}, rng)
                    seats.send(c["places"]["advising"], {"type": "suggest", "version": state["version"],
                                                         "action": action})
                    seats.sync(state["version"] + 1)
                    if rng.random() < 0.3:
                        continue  # stop with a suggestion standing, sometimes
                seats.send(actor, {"type": "action", "version": seats.last[actor]["version"],
                                   "action": random_action(seats.last[actor]["view"], rng)})
                seats.sync(seats.any()["version"] + 1)
            at_stop = dict(seats.last)
        stopped = stored(c1, t["table"])
    assert stopped[0] == at_stop["Ann"]["version"]
    with TestClient(create_app(db)) as c2:
        assert stored(c2, t["table"]) == stopped
        with ExitStack() as stack:
            seats = open_seats(c2, t, stack)
            for n in NAMES:
                assert seats.last[n]["version"] == at_stop[n]["version"]
                assert seats.last[n]["view"] == at_stop[n]["view"]
            play_partie_out(seats, rng)
        version, document, _ = stored(c2, t["table"])
    assert ChouetteMatch.from_json(document).partie_over()


def test_a_computer_to_move_after_a_restart(db: str) -> None:
    """The server stops while a computer is to move: the next has him move when a person comes back."""
    players = [{"name": "Ann"}, {"name": "Hal", "kind": "computer", "level": "random"},
               {"name": "Ida", "kind": "computer", "level": "random"}]
    seed = next(s for s in range(100) if ChouetteMatch(("Ann", "Hal", "Ida"), s).cut_places.single != "Ann")
    with TestClient(create_app(db, pace=60)) as c1:  # the computers are stopped while they "think"
        t = new_chouette(c1, players, seed=seed)
        with c1.websocket_connect(ws_path(t["url"])) as ws:
            first = receive(ws)
            assert first["type"] == "state" and first["version"] == 0
            assert receive(ws)["type"] == "thinking"
    store = Store(database_url(db))
    row = store.load_chouette(t["table"])
    store.close()
    assert row is not None and row.version == 0
    with TestClient(create_app(db)) as c2, c2.websocket_connect(ws_path(t["url"])) as ws:
        first = receive(ws)
        assert first["type"] == "state" and first["version"] == 0
        thinking = receive(ws)
        assert thinking["type"] == "thinking" and thinking["kind"] == "deal"
        msg = receive(ws)
        assert msg["type"] == "state" and msg["version"] == 1


@pytest.mark.slow
def test_two_servers_on_one_database(tmp_path: Any) -> None:
    """Ann on one server process, Bob and Cy on another, one SQLite file: each server sends its own seats what
    the other stored (``Hub.refresh``), suggestions included, through a whole partie."""
    from contextlib import ExitStack

    from test_web_processes import POLL, within

    db = f"sqlite:///{tmp_path / 'shared.db'}"
    rng = random.Random(6)

    def play() -> int:
        with TestClient(create_app(db, poll=POLL)) as one, TestClient(create_app(db, poll=POLL)) as two, \
                ExitStack() as stack:
            t = new_chouette(one, person_players(), seed=6, rules="four-deal")
            clients = {"Ann": one, "Bob": two, "Cy": two}
            seats = Seats({})
            for seat in t["seats"]:
                n = seat["name"]
                seats.socks[n] = stack.enter_context(clients[n].websocket_connect(ws_path(seat["url"])))
                seats.logs[n] = []
                seats.read(n)
            # Each arrival reaches the other server by its next look at the store.
            seats.until("Ann", lambda m: all(p["joined"] for p in m["view"]["chouette"]["players"]))
            moves = 0
            while not seats.any()["view"]["chouette"]["partie_over"]:
                state = seats.any()
                c = state["view"]["chouette"]
                actor, adviser = c["to_act"], c["places"]["advising"]
                adv = seats.last[adviser]
                if adv["view"]["chouette"]["can_suggest"] and rng.random() < 0.3:
                    action = random_action({"options": adv["view"]["chouette"]["suggest_options"],
                                            "hand": adv["view"]["hand"]}, rng)
                    seats.send(adviser, {"type": "suggest", "version": state["version"], "action": action})
                    seats.sync(state["version"] + 1)
                    assert seats.last[actor]["view"]["chouette"]["advice"]["by"] == adviser
                seats.send(actor, {"type": "action", "version": seats.last[actor]["version"],
                                   "action": random_action(seats.last[actor]["view"], rng)})
                seats.sync(seats.any()["version"] + 1)
                moves += 1
            version, document, _ = stored(one, t["table"])
            assert all(m["version"] == version for m in seats.last.values())
            return moves + check_logs(seats.logs, document)

    assert within(180, play) > 500


# ---------------------------------------------------------------- the HTTP API, the end and the record


def test_the_http_api(client: TestClient) -> None:
    ok = [{"name": "Ann"}, {"name": "Bob", "kind": "computer", "level": "simple"}, {"name": "Cy"}]
    made: list[dict[str, Any]] = []
    for body, status in [
        ({"players": ok}, 201),
        ({"players": ok, "rules": "four-deal"}, 201),
        ({"players": [{}, {"kind": "computer"}, {"kind": "computer"}]}, 201),
        ({"players": ok[:2]}, 400),
        ({"players": ok, "rules": "au-cent"}, 400),
        ({"players": [ok[1], ok[0], ok[2]]}, 400),
        ({"players": [ok[0], {"kind": "robot"}, ok[2]]}, 400),
        ({"players": [ok[0], {"kind": "computer", "level": "grandmaster"}, ok[2]]}, 400),
        ({"players": [ok[0], {"name": 5}, ok[2]]}, 400),
        ({"players": ok, "seed": -1}, 400),
        ({"players": "Ann, Bob, Cy"}, 400),
    ]:
        r = client.post("/api/chouettes", json=body)
        assert r.status_code == status, (body, r.text)
        if status == 201:
            out = r.json()
            made.append(out)
            assert out["kind"] == "chouette" and out["url"] == f"/c/{out['table']}#token={out['token']}"
            assert len({s["name"] for s in out["seats"]}) == 3
            links = [s["url"] for s in out["seats"] if s["url"]]
            assert len(set(links)) == len(links) == sum(s["kind"] == "person" for s in out["seats"])
            assert client.get(out["url"]).status_code == 200
        else:
            assert "error" in r.json()
    assert client.post("/api/chouettes", content=b"{nope").status_code == 400
    r = client.post("/api/chouettes", json={"players": [{"name": "Ann"}, {"name": "ann"}, {"name": "Cy"}]})
    assert r.status_code == 201 and [s["name"] for s in r.json()["seats"]] == ["Ann", "ann 2", "Cy"]
    made.append(r.json())
    # To anyone, the open invitations only (a person still to come); to Ann, all four of hers.
    assert {g["table"] for g in client.get("/api/chouettes").json()} == {
        t["table"] for t in made if any(s["kind"] == "person" for s in t["seats"][1:])}
    games = listed(client, *made, api="/api/chouettes")
    assert len(games) == 4 and all(g["kind"] == "chouette" and g["status"] in ("waiting", "playing") for g in games)
    assert "token" not in json.dumps(games) and not cards_named(games)
    assert all(set(g) >= {"table", "status", "rules", "players", "places", "partie", "balances", "updated"}
               for g in games)
    assert client.get(f"/api/chouettes/{games[0]['table']}/record").status_code == 403
    assert client.get("/api/chouettes/cnosuch/record").status_code == 404
    assert client.get("/c/cnosuch?token=x").status_code == 404
    assert client.get("/api/tables").json() == [], "a chouette is not a partie of two"


@pytest.mark.slow
def test_the_end_the_record_and_the_settlement(client: TestClient) -> None:
    t, seats, _, _ = play_persons(client, seed=12, parties=1, rules="four-deal")
    cy = next(s["url"] for s in t["seats"] if s["name"] == "Cy")
    assert stored(client, t["table"])[2] == "playing"
    with client.websocket_connect(ws_path(cy)) as ws:  # Cy comes back to the table, where it was
        state = receive(ws)
        c = state["view"]["chouette"]
        assert state["view"]["status"] == "finished" and c["status"] == "playing"
        assert c["partie_over"] and c["can_begin"] and c["card"]["parties"] == 1 and not c["ended"]
        ws.send_json({"type": "end", "version": state["version"]})
        ended = receive(ws)
        assert ended["type"] == "state" and ended["version"] == state["version"] + 1
        assert ended["view"]["chouette"]["ended"] and not ended["view"]["chouette"]["can_begin"]
        ws.send_json({"type": "next_partie", "version": ended["version"]})
        assert receive(ws)["code"] == "illegal"
    version, document, status = stored(client, t["table"])
    assert status == "finished" and version == state["version"] + 1
    games = listed(client, t, api="/api/chouettes")
    assert [g["status"] for g in games] == ["finished"] and games[0]["parties"] == 1
    r = client.get(f"/api/chouettes/{t['table']}/record")
    assert r.status_code == 200 and r.text == document and "attachment" in r.headers["content-disposition"]
    match = ChouetteMatch.from_json(r.text)
    assert match.card().balances() == c["card"]["balances"] and match.rules == FOUR_DEAL
    # The card settled at a stake, as the page asks /api/settle.
    r = client.post("/api/settle", json={"chouette": c["card"]["json"], "stake": "10s a hundred"})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["kind"] == "chouette" and answer["players"] == list(NAMES)
    assert {p["player"]: p["points"] for p in answer["settlement"]["players"]} == match.card().balances()


def test_messages_are_read_strictly() -> None:
    for bad in [[], "x", {"type": "shout"}, {"type": "suggest", "version": 0}, {"type": "leave"},
                {"type": "next_partie", "version": "1"}, {"type": "end", "version": -1},
                {"type": "action", "version": 0, "action": {"kind": "fold"}},
                {"type": "suggest", "version": 0, "action": {"kind": "play", "card": "QX"}}]:
        with pytest.raises(ProtocolError):
            decode_chouette_message(bad)
    assert decode_chouette_message({"type": "leave", "version": 3}) == ChouetteMessage("leave", 3)
    assert decode_chouette_message({"type": "ping"}) == ChouetteMessage("ping")


def test_the_checker_sees_a_leak() -> None:
    t = ChouetteTable.new("c", [Seat("human", n, joined=True) for n in NAMES], 1, RUBICON)
    single = t.match.places.single
    t.act(single, ChouetteMessage("action", 0, decode_action({"kind": "deal", "deal": True})))
    partie = t.match.game.partie
    assert partie is not None and partie.current is not None
    pair_card = card_name(cards_of(partie.current.hands[partie.role(0, PAIR_SEAT)])[0])
    checker = ChouetteChecker(t.match)
    cur, prev = allowed_now(partie)[SINGLE_SEAT]
    v = t.view(single)
    msg = {"type": "state", "version": 1, "seat": "A", "view": v}
    checker.check(single, msg, cur, prev)
    for leak in ({"advice": {"by": "x", "action": {"kind": "play", "card": pair_card}}},
                 {"suggest_options": [{"kind": "play", "cards": [pair_card]}]},
                 {"rotation": f"he held the {card_words(cards_of(partie.current.hands[1])[0])}"}):
        with pytest.raises(AssertionError):
            checker.check(single, {**msg, "view": {**v, "chouette": {**v["chouette"], **leak}}}, cur, prev)
