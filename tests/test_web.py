"""The web table's server (issue 5): the protocol, the tables, the store and the websocket.

Parties are played through the websocket against the computer and between two persons; bad
messages are refused with the stored record unchanged; a restart mid-partie loses nothing;
and no message a seat receives names a card the laws hide from it, checked on every message
of a thousand random parties (through ``view()``; 125 of them Piquet au cent, with its agreements)
and of twenty played over the websocket.  Piquet au cent's own server tests: ``test_web_au_cent``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")  # Starlette now prefers httpx2 to httpx
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from piquet.cli.main import build_parser
from piquet.core.actions import PLAYS, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft
from piquet.core.cards import RANK_MASKS, card_name, card_words, cards_of, mask_of, parse_card
from piquet.core.deal import Deal, deal_from_pack
from piquet.core.events import (
    ELDER,
    EVENT_KINDS,
    SCORE_KINDS,
    SETS,
    YOUNGER,
    CarteBlancheShown,
    Look,
    NameSet,
    Play,
    Show,
)
from piquet.core.partie import Partie
from piquet.core.rules import AU_CENT, FOUR_DEAL, RUBICON, Rules, rules_named
from piquet.core.state import seed_cut
from piquet.players.levels import make_player
from piquet.players.runner import deal_rng
from piquet.records.record import PartieRecord, replay
from piquet.web import pages as web_pages
from piquet.web.app import create_app
from piquet.web.protocol import (
    ChooseDeal,
    DealBy,
    ProtocolError,
    decode_action,
    decode_message,
    encode_action,
    error_message,
    state_message,
    view,
)
from piquet.web.serve import add_serve_arguments, run_serve
from piquet.web.store import Store, database_url
from piquet.web.table import Seat, Table, TableError

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

Message = dict[str, Any]


# ---------------------------------------------------------------- what a seat may see, computed from the deal


def public_cards(deal: Deal) -> int:
    """The cards shown, played or announced in the public events; at Piquet au cent a quatorze or trio is
    named, never shown (p. 18), so no cards of a set count as shown there, whatever the events say."""
    m = 0
    sets_shown = deal.rules.name != AU_CENT.name  # what the laws say, not what the rules object answers
    for e in deal.events:
        if type(e) in (Play, CarteBlancheShown, Look) or (type(e) is Show and (sets_shown or e.category != SETS)):
            m |= e.revealed
    return m


def allowed_in_deal(deal: Deal, public: int) -> tuple[set[str], set[str]]:
    """The cards the elder and the younger hand may see, from the deal itself (not from ``observe``):
    each his own cards as dealt, his discard and what he took in, the cards left that he looked at
    (Laws 33, 36), and the cards shown, played or announced in the public events."""
    out = []
    for role in (0, 1):
        m = public | deal.dealt[role] | deal.discards[role] | mask_of(deal.taken(role))
        if role == ELDER and deal.elder_looked:
            m |= mask_of(deal.left_by_elder())
        if deal.younger_looked:
            m |= mask_of(deal.left_by_younger())
        out.append({card_name(c) for c in cards_of(m)})
    return out[0], out[1]


_CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[789TJQKA])[SHCD](?![0-9A-Za-z])")
_SYMBOL = re.compile(r"(10|[789JQKA])([♠♥♣♦])")
_WORDS = re.compile(r"\b(seven|eight|nine|ten|knave|queen|king|ace) of (spades|hearts|clubs|diamonds)\b", re.I)
_RANK_OF_WORD = {"seven": "7", "eight": "8", "nine": "9", "ten": "10", "knave": "J", "queen": "Q", "king": "K",
                 "ace": "A"}


_ALL_NAMES = frozenset(card_name(c) for c in range(32))


def _named_in(text: str) -> set[str]:
    names = {"10" + n[1] if n[0] == "T" else n for n in _CARD.findall(text)}
    if any(symbol in text for symbol in "♠♥♣♦"):
        names.update(rank + "SHCD"["♠♥♣♦".index(suit)] for rank, suit in _SYMBOL.findall(text))
    if " of " in text.lower():
        names.update(_RANK_OF_WORD[r.lower()] + s[0].upper() for r, s in _WORDS.findall(text))
    return names


_NO_CARD: set[str] = set()  # strings read already and found to name no card


def cards_named(obj: object) -> set[str]:
    """Every card named anywhere in a JSON value, keys too: as ``QS``/``10H``/``TH``, with a suit symbol, or
    in words ("the ace of spades")."""
    text = json.dumps(obj)
    if '\\"' in text:  # a string holds a quote: read the whole text
        return _named_in(json.dumps(obj, ensure_ascii=False))
    strings = set(text.split('"')[1::2])  # every string of the JSON, key or value, once
    names = strings & _ALL_NAMES
    for x in strings - names - _NO_CARD:  # the other strings, read as text
        found = _named_in(json.loads(f'"{x}"') if "\\" in x else x)
        if found:
            names |= found
        elif len(_NO_CARD) < 100_000:
            _NO_CARD.add(x)
    return set(names)


_CARD_LISTS = ("dealt", "hand", "discard", "taken", "seen_left")
_SEPARATE = {*_CARD_LISTS, "lead", "events", "lines", "last_deal", "game_news", "cut", "deal_history"}


def said_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The narrator's lines a seat was sent, but the answer to "Which king do you not reckon?", which names
    the card not reckoned, wherever it is (p. 92)."""
    assert all(ln.keys() == {"speaker", "kind", "role", "trick", "text", "segments"} for ln in lines)
    return [ln for ln in lines if ln["kind"] != "answer_set"]


class HiddenChecker:
    """Checks messages: the current deal's cards against what the seat may see in it, ``last_deal`` and
    ``game_news`` against the deal before, ``cut`` against the cut for deal (public)."""

    def __init__(self, seed: int, rules: Rules = RUBICON) -> None:
        a, b, winner = seed_cut(seed)
        self.cut = {"A": card_name(a), "B": card_name(b), "winner": winner, "lower_deals": not rules.higher_cut_chooses}
        self.checked: set[tuple[int, str]] = set()  # shared objects checked already, by id and seat
        self.kept: list[object] = []  # those objects, kept so that their ids stay theirs
        self.messages = 0

    def check(self, seat: str, msg: Message, current: set[str], previous: set[str]) -> None:
        self.messages += 1
        if msg.get("type") != "state":
            leaked = cards_named(msg) - current
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} in {msg}"
            return
        v = msg["view"]
        assert msg.keys() == {"type", "version", "seat", "view"} and msg["seat"] == seat
        # The lists of cards, as sets; everything else of the view read string by string.
        own: set[str] = set()
        for k in _CARD_LISTS:
            assert type(v[k]) is list, (k, v[k])
            own.update(v[k])
        if v["lead"] is not None:
            own.add(v["lead"])
        rest = {k: x for k, x in v.items() if k not in _SEPARATE}
        leaked = (own | cards_named(rest)) - current
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} (hidden) at version {msg['version']}"
        # The narrator's lines, made from the seat's observation: every card they name, text and segments.
        # A deal's lines told before are the same objects in later views: each is read once per seat.
        fresh = [ln for ln in said_lines(v["lines"]) if (id(ln), seat) not in self.checked]
        leaked = cards_named(fresh) - current
        assert not leaked, f"seat {seat} was told {sorted(leaked)} (hidden) at version {msg['version']}"
        for ln in fresh:
            self.checked.add((id(ln), seat))
            self.kept.append(ln)
        # The events' JSON objects are made once and shared by later views: each is checked once
        # per seat (what a seat may see only grows during a deal).
        for e in v["events"]:
            if (id(e), seat) not in self.checked:
                check_event(seat, e, current)
                self.checked.add((id(e), seat))
                self.kept.append(e)
        # The finished deals' entries are shared by later views too: each is read once per seat.
        for entry in v["deal_history"]:
            if (id(entry), seat) not in self.checked:
                leaked = cards_named(entry) - current
                assert not leaked, f"seat {seat} was sent {sorted(leaked)} in the deal history"
                self.checked.add((id(entry), seat))
                self.kept.append(entry)
        if self.cut is None:
            assert v["cut"] is None
        else:
            told = v["cut"]["words"]
            assert {k: x for k, x in v["cut"].items() if k != "words"} == self.cut and told
            assert cards_named(told) <= {self.cut["A"], self.cut["B"]}, told  # the cut, and nothing else
        # At a game of so many up, the news of the game the deal before won tells how that deal stopped: it may
        # name the card played there (played, so seen by both), and nothing hidden in that deal.
        leaked = cards_named(v["game_news"]) - previous
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} in the game's news"
        ld = v["last_deal"]
        if ld is not None:
            # A finished deal's summary is one shared object: check it once per seat.
            if (id(ld), seat) not in self.checked:
                leaked = cards_named({**ld, "lines": said_lines(ld["lines"])}) - previous
                assert not leaked, f"seat {seat} was sent {sorted(leaked)} of the last deal"
                self.checked.add((id(ld), seat))
                self.kept.append(ld)
        elif previous:
            raise AssertionError("no last_deal after the first deal")


def check_event(seat: str, e: dict[str, Any], current: set[str]) -> None:
    """An event's JSON: its named fields, its cards, and nothing else that could name one."""
    assert e.keys() == {"kind", *EVENT_KINDS[e["kind"]]._fields} and e["role"] in ("elder", "younger"), e
    named = [*e.get("cards", []), *(e[k] for k in ("card", "lead", "follow") if k in e)]
    assert all(type(c) is str for c in named), e
    leaked = set(named) - current
    assert not leaked, f"seat {seat} was sent {sorted(leaked)} (hidden) in {e}"


_FINISHED_DEALS: dict[int, tuple[Deal, tuple[set[str], set[str]]]] = {}


def allowed_now(partie: Partie) -> dict[str, tuple[set[str], set[str]]]:
    """What each seat may see of the current deal and of the one before (nothing before the first deal)."""
    if not partie.deals:
        return {seat: (set(), set()) for seat in "AB"}
    i = len(partie.deals) - 1
    deal = partie.deals[i]
    cur = allowed_in_deal(deal, public_cards(deal))
    prev: tuple[set[str], set[str]] = (set(), set())
    if i >= 1:
        last = partie.deals[i - 1]
        hit = _FINISHED_DEALS.get(id(last))
        if hit is None or hit[0] is not last:  # a finished deal does not change: worked out once
            if len(_FINISHED_DEALS) > 64:
                _FINISHED_DEALS.clear()
            hit = _FINISHED_DEALS[id(last)] = (last, allowed_in_deal(last, public_cards(last)))
        prev = hit[1]
    return {seat: (cur[partie.role(i, seat)], prev[partie.role(i - 1, seat)] if i >= 1 else set())
            for seat in "AB"}


def allowed_by_version(record_json: str, choices: int) -> list[dict[str, tuple[set[str], set[str]]]]:
    """For each version of a partie (from its record), what each seat may see then.

    ``choices``: the versions the persons' choices before the first deal took (nothing is seen before it).
    """
    final = replay(PartieRecord.from_json(record_json))
    p = Partie(final.rules, final.first_dealer, final.deal_by)

    def deal_again(d: Deal) -> None:  # the same cards, dealt under the partie's rules (and its game, at au cent)
        p.deal_cards(d.dealt[0], d.dealt[1], d.stock)

    out: list[dict[str, tuple[set[str], set[str]]]] = [allowed_now(Partie(final.rules))] * choices

    def snapshot() -> None:
        out.append(allowed_now(p))

    deal_again(final.deals[0])
    snapshot()
    for i, d in enumerate(final.deals):
        for action in d.history:
            p.deals[i].apply(action)
            if p.deals[i].is_over and i + 1 < len(final.deals):
                deal_again(final.deals[i + 1])
            snapshot()
    return out


# ---------------------------------------------------------------- a random client


def random_action(v: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action chosen at random from the VIEW's options, as a browser would send it."""
    opts = v["options"]
    first = opts[0]
    if first["kind"] == "discard":
        return {"kind": "discard", "cards": rng.sample(v["hand"], rng.randint(first["min"], first["max"]))}
    if first["kind"] == "look":
        return {"kind": "look", "look": rng.random() < 0.5}
    if first["kind"] == "play":
        return {"kind": "play", "card": rng.choice(first["cards"])}
    choice: dict[str, Any] = rng.choice(opts)
    return choice


def make_table(seed: int, rules: Any = RUBICON, persons: bool = False) -> Table:
    """Two computer seats, or two persons' (whose winner of the cut chooses whether to deal first)."""
    kind, level = ("human", None) if persons else ("computer", "random")
    seats = {"A": Seat(kind, "Ann", level), "B": Seat(kind, "Bob", level)}
    return Table.new(f"t{seed}", seats, seed, rules, "person" if persons else "computer")


# ---------------------------------------------------------------- ACTION


def test_actions_round_trip_through_json() -> None:
    rng = random.Random(3)
    for seed in range(40):
        table = make_table(seed)
        while not table.finished:
            seat = table.to_move()
            assert seat is not None
            action = table.observation(seat).sample(rng)
            wire = json.loads(json.dumps(encode_action(action)))
            assert decode_action(wire) == action
            table.apply(seat, action, table.version)
    assert decode_action({"kind": "deal", "deal": True}) == ChooseDeal(True)
    assert decode_action({"kind": "point", "cards": ["ah", "Kh", "TH"]}) == DeclarePoint(mask_of(
        [card_index("AH"), card_index("KH"), card_index("10H")]))
    assert encode_action(DeclareSequences(())) == {"kind": "sequences", "runs": []}
    assert encode_action(DeclareSets(())) == {"kind": "sets", "sets": []}
    assert encode_action(LookAtLeft(False)) == {"kind": "look", "look": False}


MALFORMED_ACTIONS: list[object] = [
    None, [], "play QS", {"card": "QS"}, {"kind": "fold"}, {"kind": "play"}, {"kind": "play", "card": "QX"},
    {"kind": "play", "card": "6S"}, {"kind": "play", "card": ["QS"]}, {"kind": "play", "card": 5},
    {"kind": "discard", "cards": "KS 8C"}, {"kind": "discard", "cards": ["KS", "KS"]},
    {"kind": "discard", "cards": [None]}, {"kind": "look", "look": 1}, {"kind": "look"},
    {"kind": "point", "cards": None}, {"kind": "sequences", "runs": ["AH", "KH", "QH"]},
    {"kind": "sequences", "runs": [[]]}, {"kind": "sets", "sets": [["AS", "AH"], "AC"]},
    {"kind": "deal", "deal": "yes"},
]


@pytest.mark.parametrize("bad", MALFORMED_ACTIONS, ids=[json.dumps(x) for x in MALFORMED_ACTIONS])
def test_malformed_actions_are_refused(bad: object) -> None:
    with pytest.raises(ProtocolError):
        decode_action(bad)
    with pytest.raises(ProtocolError):
        decode_message({"type": "action", "version": 0, "action": bad})


@pytest.mark.parametrize("bad", [[], "x", {"type": "shout"}, {"type": "action", "action": {"kind": "look",
                                 "look": True}}, {"type": "action", "version": "3", "action": {}},
                                 {"type": "action", "version": True, "action": {}},
                                 {"type": "action", "version": -1, "action": {}}, {"type": "action", "version": 0}])
def test_malformed_messages_are_refused(bad: object) -> None:
    with pytest.raises(ProtocolError):
        decode_message(bad)


def test_play_action_decodes_to_the_shared_value() -> None:
    assert decode_action({"kind": "play", "card": "qs"}) is PLAYS[card_index("QS")]
    assert decode_action({"kind": "discard", "cards": ["KS", "8C"]}) == Discard(mask_of(
        [card_index("KS"), card_index("8C")]))


def card_index(name: str) -> int:
    return parse_card(name)


# ---------------------------------------------------------------- VIEW and hidden information


#: Piquet au cent with each of its agreements (p. 19), in turn, for the parties of the hidden-card check.
AU_CENT_RULES = tuple(rules_named(spec) for spec in ("au-cent", "au-cent+small-cards", "au-cent+fours",
                                                     "au-cent+small-cards+fours"))


def thousand_rules(n: int) -> Rules:
    """The rules of party ``n`` of the thousand: one in eight Piquet au cent (its agreements in turn; its
    parties run to about four times as many deals), the rest rubicon and four-deal parties."""
    if n % 8 == 7:
        return AU_CENT_RULES[n // 8 % 4]
    return FOUR_DEAL if n % 2 else RUBICON


@pytest.mark.slow
def test_hidden_information_in_every_view_of_a_thousand_parties() -> None:
    """view() for both seats at the start and after every action of 1000 random parties (125 of them
    Piquet au cent, with and without its agreements: more than a third of the deals; of the rest half
    four-deal parties), checked card by card against what each seat may see; each action is chosen from the VIEW's
    options and goes through the ACTION JSON; a few refused probes (cards not held, out of turn) are checked
    too.  At Piquet au cent, also: a quatorze or trio named never shows its cards to the other seat, and
    a younger's carte blanche is not told to the elder before his discard (``check_au_cent_secrets``)."""
    start = time.process_time()
    rng = random.Random(2024)
    messages = 0
    deals = {"rubicon": 0, "au-cent": 0}
    named = 0
    for n in range(1000):
        seed = 10_000 + n
        rules = thousand_rules(n)
        table = make_table(seed, rules, persons=n % 16 < 8)
        checker = HiddenChecker(seed, rules)
        views: dict[str, dict[str, Any]] = {}
        sets_seen: set[tuple[int, int]] = set()
        while True:
            allowed = allowed_now(table.partie)
            for s in "AB":
                cur, prev = allowed[s]
                views[s] = table.view(s)
                checker.check(s, state_message(table.version, s, views[s]), cur, prev)
            if rules.goal is not None:
                named += check_au_cent_secrets(table, views, sets_seen)
            if table.finished:
                break
            seat = table.to_move()
            assert seat is not None and views[seat]["my_turn"]
            if rng.random() < 0.02 and table.choosing is None:
                probe(table, seat, rng, checker)
            # The seat's choice, made as a browser makes it: from its VIEW's options, sent as JSON.
            action = decode_action(json.loads(json.dumps(random_action(views[seat], rng))))
            table.apply(seat, action, table.version)
        messages += checker.messages
        deals["rubicon" if rules.goal is None else "au-cent"] += len(table.partie.deals)
        if n % 100 in (0, 7):  # the record rebuilds the same table
            again = Table.from_record(table.id, table.seats, table.record_json(), table.opponent)
            assert again.version == table.version and again.scores == table.scores and again.finished
            assert again.partie.rules == rules
    elapsed = time.process_time() - start
    print(f"\n1000 parties, {deals} deals, {messages} messages checked ({named} sets named at au cent) "
          f"in {elapsed:.1f} s of CPU")
    assert messages > 300_000 and deals["au-cent"] > 0.3 * sum(deals.values()) and named > 1000


def check_au_cent_secrets(table: Table, views: dict[str, dict[str, Any]], seen: set[tuple[int, int]]) -> int:
    """Piquet au cent's own secrets, in both seats' views of the deal in play, from the deal itself: a
    quatorze or trio is named, not shown (p. 18), so when it is named the cards of its rank that its holder
    kept are in no view of the other seat unless the laws showed them otherwise (played, in a point or a
    sequence, looked at in the stock); and a younger's carte blanche is not declared until the elder has
    discarded (p. 16).  (``public_cards`` counts no set as shown at au cent, so the hidden-card check covers
    every later message too.)  ``seen``: the sets checked already, by deal and event.  Returns how many
    were named in this view."""
    partie = table.partie
    i = len(partie.deals) - 1
    deal = partie.deals[i]
    named = 0
    for k, e in enumerate(deal.events):
        if not isinstance(e, NameSet) or (i, k) in seen:
            continue
        seen.add((i, k))
        named += 1
        kept = (deal.dealt[e.role] & ~deal.discards[e.role]) | mask_of(deal.taken(e.role))
        assert (RANK_MASKS[e.rank] & kept).bit_count() >= e.size
        secret = {card_name(c) for c in cards_of(RANK_MASKS[e.rank] & kept)} - allowed_in_deal(
            deal, public_cards(deal))[1 - e.role]
        other = partie.seat(i, 1 - e.role)
        v = views[other]  # the deal in play (the cut, the last deal and the game's news tell other cards)
        shown = cards_named({key: x for key, x in v.items() if key not in ("cut", "last_deal", "game_news")})
        assert not secret & shown, f"{other} was shown {sorted(secret & shown)} of a set named, not shown"
        assert all(x.get("cards", []) == [] for x in v["events"] if x["kind"] == "name_set" or (
            x["kind"] == "score" and x["component"] == "sets")), "a set named, or its score, names cards"
    if deal.carte_blanche[YOUNGER] and deal.elder_takes < 0:
        told = [e for e in views[partie.seat(i, ELDER)]["events"] if e["kind"].startswith("carte_blanche")]
        assert not told, f"the younger's carte blanche was told to the elder before his discard: {told}"
    return named


def probe(table: Table, seat: str, rng: random.Random, checker: HiddenChecker) -> None:
    """A refused action: its error names no hidden card and changes nothing."""
    deal = table.partie.current
    assert deal is not None

    def state() -> object:
        return (table.version, len(table.partie.deals), tuple(deal.history), tuple(deal.events), tuple(deal.hands),
                tuple(deal.discards), deal.phase)

    before = state()
    other = "B" if seat == "A" else "A"
    role = table.partie.role(len(table.partie.deals) - 1, seat)
    not_held = [c for c in range(32) if not deal.hands[role] >> c & 1]
    candidates = [
        (other, PLAYS[rng.randrange(32)]),
        (seat, PLAYS[rng.choice(not_held)]),
        (seat, Discard(mask_of(rng.sample(not_held, 2)))),
        (seat, DeclarePoint(mask_of(rng.sample(not_held, 1)))),
    ]
    who, action = rng.choice(candidates)
    with pytest.raises(TableError) as err:
        table.apply(who, action, table.version)
    cur, prev = allowed_now(table.partie)[who]
    checker.check(who, error_message(err.value.code, err.value.message), cur, prev)
    assert state() == before


def test_the_checker_sees_a_leak() -> None:
    table = make_table(5)
    v = table.view("A")
    cur, prev = allowed_now(table.partie)["A"]
    deal = table.partie.current
    assert deal is not None
    hidden = card_name(cards_of(deal.hands[1 - table.partie.role(0, "A")])[0])
    checker = HiddenChecker(5)
    checker.check("A", state_message(0, "A", v), cur, prev)
    for leak in ({"hand": v["hand"] + [hidden]}, {"note": f"he holds {hidden}"},
                 {"note": hidden.replace("S", "♠").replace("H", "♥").replace("C", "♣").replace("D", "♦")},
                 {"events": [*v["events"], {"kind": "show", "role": "younger", "category": "point",
                                            "cards": [hidden], "points": 0}]},
                 {"lines": [*v["lines"], {"speaker": None, "kind": "play", "role": "younger", "trick": 1,
                                          "text": "", "segments": [{"cards": [hidden]}]}]},
                 {"lines": [*v["lines"], {"speaker": None, "kind": "play", "role": "younger", "trick": 1,
                                          "text": f"Bob leads the {card_words(parse_card(hidden))}.",
                                          "segments": []}]},
                 {"options": [{"kind": "play", "cards": [hidden]}]},
                 {"prompt": f"Trick one of twelve: play to the {card_words(parse_card(hidden))}."},
                 {"deal_words": f"Deal 1 of 6: Bob deals, holding the {card_words(parse_card(hidden))}."},
                 {"table_trick": {"number": 1, "winner": None, "plays": [{"seat": "B", "role": "younger",
                                                                         "card": hidden}]}},
                 {"cut": {**v["cut"], "words": [f"Bob cut the {card_words(parse_card(hidden))}."]}},
                 {"settlement": {"words": f"He kept the {card_words(parse_card(hidden))}."}}):
        with pytest.raises(AssertionError):
            checker.check("A", state_message(0, "A", {**v, **leak}), cur, prev)


@pytest.mark.slow
def test_the_view_is_the_observation_and_more() -> None:
    """view() works out the observation and the partie's scores once: it must give what the core gives (a third
    of the parties Piquet au cent, whose context has the game's scores and the games won)."""
    rng = random.Random(8)
    for seed in range(30):
        table = make_table(seed, (FOUR_DEAL, AU_CENT_RULES[seed // 3 % 4], RUBICON)[seed % 3])
        while True:
            for seat in "AB":
                v = view(table.partie, seat, players=table.names)
                core = table.partie.observation(seat).to_json()
                assert {k: v[k] for k in core} == core
                assert (v["status"] == "finished") == table.partie.is_finished
                assert v["totals"]["partie"] == table.partie.scores
                if table.partie.is_finished:
                    s = table.partie.settlement()
                    assert (v["settlement"]["winner"], v["settlement"]["points"]) == (s.winner, s.points_won)
                    assert v["settlement"]["tally"] == s.tally
            if table.finished:
                break
            s = table.to_move()
            assert s is not None
            table.apply(s, table.observation(s).sample(rng))


def test_view_shape() -> None:
    table = make_table(11)
    seat = table.to_move()
    assert seat is not None
    v = table.view(seat)
    for key in ("role", "phase", "to_move", "dealt", "hand", "discard", "taken", "seen_left", "stock_left",
                "max_discard", "lead", "trick", "tricks_won", "scores", "events", "partie", "seat", "players",
                "status", "my_turn", "options", "deal_history", "settlement", "last_trick", "last_deal", "prompt",
                "score_labels", "table_trick", "deal_words", "turn", "game_news"):
        assert key in v, key
    assert v["my_turn"] and v["options"] == [{
        "kind": "discard", "min": 1, "max": 5, "label": "Discard one to five cards",
        "labels": ["Discard", "Discard one", "Discard two", "Discard three", "Discard four", "Discard five"],
        "questions": ["Keep your hand, discarding nothing and taking nothing in?",
                      *(f"Discard {{cards}} and take in {n}?" for n in ("one", "two", "three", "four", "five"))]}]
    assert v["prompt"] == "You are elder hand: discard one to five cards and take in as many (Law 21)."
    assert v["score_labels"]["sets"] == "Quatorzes and trios" and list(v["score_labels"]) == list(SCORE_KINDS)
    assert v["table_trick"] is None  # no card played yet
    assert v["turn"] == "Your turn." and v["game_news"] is None
    assert v["phase"] == "elder_discard" and len(v["hand"]) == 12
    other = table.view("B" if seat == "A" else "A")
    assert not other["my_turn"] and other["options"] == []
    assert other["turn"] == f"{v['players'][seat]}'s turn."
    assert v["players"] == {"A": "Ann", "B": "Bob"} and v["status"] == "playing"
    assert v["partie"]["dealer"] == table.partie.first_dealer == table.state.dealer
    # A declaration's options are ACTIONs, the strongest first, nothing last.
    rng = random.Random(1)
    while table.partie.current is not None and table.partie.current.phase.name != "ELDER_POINT":
        s = table.to_move()
        assert s is not None
        table.apply(s, table.observation(s).sample(rng))
    s = table.to_move()
    assert s is not None
    opts = table.view(s)["options"]
    assert opts[-1] == {"kind": "point", "cards": [], "label": "No point", "button": "Declare no point (sink it)"}
    assert all(o["label"].startswith("Point of ") for o in opts[:-1]), opts
    assert all(o["button"] == f"Call: {o['label']}" for o in opts[:-1]), opts
    assert all(decode_action(o) in list(table.observation(s).legal_actions()) for o in opts)


def play_out(table: Table, rng: random.Random) -> None:
    """Play the table to the end of its partie, each seat's action drawn from its legal ones."""
    while not table.finished:
        s = table.to_move()
        assert s is not None
        table.apply(s, table.observation(s).sample(rng))


def test_a_finished_partie_view() -> None:
    table = make_table(12)
    play_out(table, random.Random(0))
    v = view(table.partie, "A", players=table.names)
    assert v["status"] == "finished" and v["phase"] == "done" and v["options"] == []
    assert v["settlement"]["scores"] == table.scores and "partie" in v["settlement"]["words"]
    assert len(v["deal_history"]) == len(table.partie.deals)
    assert v["deal_history"][-1]["partie"] == table.scores
    assert v["last_trick"]["number"] == 12 and v["last_deal"]["deal_number"] == len(table.partie.deals) - 1
    with pytest.raises(TableError) as err:
        table.apply("A", PLAYS[0], table.version)
    assert err.value.code == "illegal"


# ---------------------------------------------------------------- the app


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def listed(client: TestClient, *tables: dict[str, Any], api: str = "/api/tables") -> list[dict[str, Any]]:
    """The games of these tables as their holder's lobby lists them: ``POST {api}/mine`` with their tokens (since
    ``GET /api/tables`` lists only the open invitations)."""
    r = client.post(f"{api}/mine", json={"seats": [{"table": t["table"], "token": t["token"]} for t in tables]})
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()
    return out


def stored(db: str, table_id: str) -> tuple[int, str]:
    store = Store(database_url(db))
    try:
        row = store.load(table_id)
        assert row is not None
        return row.version, row.record
    finally:
        store.close()


def ws_path(t: dict[str, Any], key: str = "url") -> str:
    """The websocket path of a table's link, as a script opens it (``/t/<id>#token=T`` -> ``/ws/<id>?token=T``, the
    token in the address, still read; the page sends it in its first message: tests/test_web_security.py)."""
    return "/ws/" + t[key].split("/t/", 1)[1].replace("#token=", "?token=")


def receive(ws: Any) -> Message:
    msg: Message = ws.receive_json()
    return msg


def until_my_turn(ws: Any, log: list[Message]) -> Message:
    """Read messages until a state where this seat is to move or the partie is over."""
    while True:
        msg = receive(ws)
        log.append(msg)
        if msg["type"] == "state" and (msg["view"]["my_turn"] or msg["view"]["status"] == "finished"):
            return msg


def check_log(seat: str, log: list[Message], seed: int, record_json: str, persons: str = "A") -> int:
    """Check every message a seat received against what it may see at that version; how many.

    ``persons``: the seats of persons (the winner of the cut among them chose whether to deal, and how if he
    deals, version 1; a person he made dealer chose how he deals, the next version).
    """
    final = replay(PartieRecord.from_json(record_json))
    rules = final.rules
    allowed = allowed_by_version(record_json, choices_before_deal(final, seed_cut(seed)[2], persons))
    checker = HiddenChecker(seed, rules)
    version = 0
    for msg in log:
        if msg["type"] == "state":
            version = msg["version"]
        cur, prev = allowed[version][seat]
        checker.check(seat, msg, cur, prev)
    return checker.messages


def choices_before_deal(final: Partie, winner: str, persons: str) -> int:
    """How many versions the persons' choices took before the first deal (Laws 4, 9): the winner of the cut's
    (dealing, he says how at once), and that of a person the other made dealer."""
    rules, dealer = final.rules, final.first_dealer
    chose = rules.higher_cut_chooses and winner in persons
    return int(chose) + int(len(rules.deal_modes) > 1 and dealer in persons and not (chose and dealer == winner))


def play_against_computer(client: TestClient, db: str, seed: int, level: str = "random",
                          rules: str = "rubicon") -> tuple[dict[str, Any], list[Message]]:
    t = new_table(client, opponent="computer", level=level, rules=rules, name="Ann", seed=seed)
    rng = random.Random(seed)
    log: list[Message] = []
    with client.websocket_connect(ws_path(t)) as ws:
        msg = until_my_turn(ws, log)
        while msg["view"]["status"] != "finished":
            ws.send_json({"type": "action", "version": msg["version"], "action": random_action(msg["view"], rng)})
            msg = until_my_turn(ws, log)
    return t, log


@pytest.mark.slow
def test_a_partie_against_the_computer(client: TestClient, db: str) -> None:
    t, log = play_against_computer(client, db, seed=7, level="simple")
    final = log[-1]
    assert final["view"]["settlement"] is not None and final["view"]["status"] == "finished"
    thinking = [i for i, m in enumerate(log) if m["type"] == "thinking"]
    assert thinking
    for i in thinking:  # the computer's "thinking", then the state after his action
        assert log[i]["seat"] == "B" and log[i + 1]["type"] == "state"
        assert log[i + 1]["version"] == log[i - 1]["version"] + 1
    versions = [m["version"] for m in log if m["type"] == "state"]
    assert versions == sorted(versions)
    version, record = stored(db, t["table"])
    assert version == final["version"]
    partie = replay(PartieRecord.from_json(record))
    assert partie.is_finished and partie.scores == final["view"]["totals"]["partie"]
    assert check_log("A", log, 7, record) == len(log)
    # No socket open: the table is dropped from memory (it is rebuilt from its record when one opens).
    hub = client.app.state.hub  # type: ignore[attr-defined]
    deadline = time.monotonic() + 5
    while (t["table"] in hub.tables or hub.conns.get(t["table"])) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert t["table"] not in hub.tables and not hub.conns.get(t["table"])
    # The record, downloadable now; the games list.
    r = client.get(f"/api/tables/{t['table']}/record")
    assert r.status_code == 200 and r.text == record
    assert "attachment" in r.headers["content-disposition"]
    games = listed(client, t)
    assert [g["status"] for g in games if g["table"] == t["table"]] == ["finished"]


@pytest.mark.slow
def test_twenty_parties_over_the_websocket(client: TestClient, db: str) -> None:
    """Fourteen against the computer, six between two persons: every message checked for hidden cards."""
    checked = 0
    for seed in range(100, 114):
        t, log = play_against_computer(client, db, seed, level="random" if seed % 2 else "simple",
                                       rules="four-deal" if seed % 3 == 0 else "rubicon")
        checked += check_log("A", log, seed, stored(db, t["table"])[1])
    for seed in range(200, 206):
        checked += play_two_persons(client, db, seed)
    assert checked > 3000


def play_two_persons(client: TestClient, db: str, seed: int, rules: str = "rubicon") -> int:
    t = new_table(client, opponent="person", rules=rules, name="Ann", seed=seed)
    rng = random.Random(seed)
    logs: dict[str, list[Message]] = {"A": [], "B": []}
    with client.websocket_connect(ws_path(t)) as wa:
        first = receive(wa)
        logs["A"].append(first)
        assert first["view"]["status"] == "waiting"
        with client.websocket_connect(ws_path(t, "invite") + "&name=Bob") as wb:
            socks = {"A": wa, "B": wb}
            last = {"A": receive(wa), "B": receive(wb)}  # Bob's arrival is told to both
            for s in "AB":
                logs[s].append(last[s])
            assert last["A"]["view"]["players"] == {"A": "Ann", "B": "Bob"}
            assert last["B"]["view"]["status"] == "playing"
            while last["A"]["view"]["status"] != "finished":
                seat = "A" if last["A"]["view"]["my_turn"] else "B"
                assert last[seat]["view"]["my_turn"]
                socks[seat].send_json({"type": "action", "version": last[seat]["version"],
                                       "action": random_action(last[seat]["view"], rng)})
                for s in "AB":
                    last[s] = receive(socks[s])
                    logs[s].append(last[s])
                    assert last[s]["type"] == "state"
                assert last["A"]["version"] == last["B"]["version"]
    record = stored(db, t["table"])[1]
    assert replay(PartieRecord.from_json(record)).is_finished
    return check_log("A", logs["A"], seed, record, "AB") + check_log("B", logs["B"], seed, record, "AB")


def test_two_persons_and_their_tokens(client: TestClient, db: str) -> None:
    assert play_two_persons(client, db, 300) > 200


def expect_error(ws: Any, code: str) -> Message:
    msg = receive(ws)
    assert msg["type"] == "error" and msg["code"] == code, msg
    assert isinstance(msg["message"], str) and msg["message"]
    return msg


def test_bad_messages_are_refused_and_nothing_changes(client: TestClient, db: str) -> None:
    t = new_table(client, opponent="person", name="Ann", seed=41)
    choose_to_deal(client, t)
    with client.websocket_connect(ws_path(t)) as wa, client.websocket_connect(ws_path(t, "invite")) as wb:
        socks = {"A": wa, "B": wb}
        receive(wa)
        last = {"A": receive(wa), "B": receive(wb)}
        mover = "A" if last["A"]["view"]["my_turn"] else "B"
        idle = "B" if mover == "A" else "A"
        v = last[mover]["view"]
        version = last[mover]["version"]
        before = stored(db, t["table"])
        hand = v["hand"]
        not_mine = sorted(set(card_name(c) for c in range(32)) - set(hand))
        cases: list[tuple[str, str, Any]] = [
            (mover, "malformed", "not json {"),
            (mover, "malformed", json.dumps([1, 2])),
            (mover, "malformed", json.dumps({"type": "dance"})),
            (mover, "malformed", json.dumps({"type": "action", "version": version,
                                             "action": {"kind": "discard", "cards": ["ZZ"]}})),
            (mover, "malformed", json.dumps({"type": "action", "version": version,
                                             "action": {"kind": "discard", "cards": hand[0]}})),
            (mover, "malformed", json.dumps({"type": "action", "action": {"kind": "discard", "cards": hand[:1]}})),
            (mover, "stale", json.dumps({"type": "action", "version": version + 1,
                                         "action": {"kind": "discard", "cards": hand[:1]}})),
            (idle, "turn", json.dumps({"type": "action", "version": version,
                                       "action": {"kind": "discard", "cards": last[idle]["view"]["hand"][:1]}})),
            (mover, "illegal", json.dumps({"type": "action", "version": version,
                                           "action": {"kind": "discard", "cards": hand[:6]}})),
            (mover, "illegal", json.dumps({"type": "action", "version": version,
                                           "action": {"kind": "discard", "cards": not_mine[:1]}})),
            (mover, "illegal", json.dumps({"type": "action", "version": version,
                                           "action": {"kind": "play", "card": hand[0]}})),
            (mover, "illegal", json.dumps({"type": "action", "version": version,
                                           "action": {"kind": "deal", "deal": True}})),
        ]
        for seat, code, text in cases:
            socks[seat].send_text(text)
            err = expect_error(socks[seat], code)
            assert not (cards_named(err) - set(last[seat]["view"]["hand"]) - {"ZZ"}), err
            assert stored(db, t["table"]) == before, (code, text)
        # Each connection is still open, and nothing else was sent to anyone.
        for s in "AB":
            socks[s].send_json({"type": "ping"})
            assert receive(socks[s]) == {"type": "pong"}
        # A legal action now goes through, at the version the client saw.
        socks[mover].send_json({"type": "action", "version": version,
                                "action": {"kind": "discard", "cards": hand[:1]}})
        for s in "AB":
            msg = receive(socks[s])
            assert msg["type"] == "state" and msg["version"] == version + 1
        assert stored(db, t["table"])[0] == version + 1
        # The same action again, as a second click would send it: stale.
        socks[mover].send_json({"type": "action", "version": version,
                                "action": {"kind": "discard", "cards": hand[:1]}})
        expect_error(socks[mover], "stale")
        assert stored(db, t["table"])[0] == version + 1


def choose_to_deal(client: TestClient, t: dict[str, Any]) -> int:
    """If a person won the cut, he chooses to deal (Law 4), through his own socket; the version after it."""
    winner = seed_cut(PartieRecord.from_json(stored_record(client, t)).seed or 0)[2]
    link = "url" if winner == "A" else "invite"
    if link not in t:
        return 0
    with client.websocket_connect(ws_path(t, link)) as ws:
        first = receive(ws)
        if first["view"]["phase"] != "cut":
            return int(first["version"])
        ws.send_json({"type": "action", "version": 0, "action": {"kind": "deal", "deal": True}})
        while (msg := receive(ws))["type"] != "state":
            pass
        assert msg["version"] == 1 and msg["view"]["partie"]["dealer"] == winner
        return 1


def stored_record(client: TestClient, t: dict[str, Any]) -> str:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    row = store.load(t["table"])
    assert row is not None
    return row.record


def seed_where(elder: str) -> int:
    """A seed whose cut makes ``elder`` the elder hand of the first deal (the winner of the cut deals)."""
    return next(s for s in range(100) if seed_cut(s)[2] != elder)


def test_two_sockets_of_one_seat_cannot_both_act(client: TestClient, db: str) -> None:
    t = new_table(client, opponent="person", name="Ann", seed=seed_where("A"))
    choose_to_deal(client, t)
    path = ws_path(t)
    with client.websocket_connect(ws_path(t, "invite")) as wb:
        receive(wb)
        with client.websocket_connect(path) as w1, client.websocket_connect(path) as w2:
            s1, s2 = receive(w1), receive(w2)
            v = s1["view"]
            assert v["my_turn"]
            action = {"type": "action", "version": s1["version"], "action": {"kind": "discard", "cards": v["hand"][:2]}}
            w1.send_json(action)
            w2.send_json({**action, "action": {"kind": "discard", "cards": v["hand"][2:5]}})
            got: list[Message] = []
            for w in (w1, w2):  # each socket's messages, up to the answer to a ping
                w.send_json({"type": "ping"})
                while (msg := receive(w))["type"] != "pong":
                    got.append(msg)
            kinds = sorted(m["type"] if m["type"] != "error" else "error:" + m["code"] for m in got)
            assert kinds == ["error:stale", "state", "state"], kinds
            assert s2["version"] == s1["version"]
        assert stored(db, t["table"])[0] == s1["version"] + 1


def test_a_wrong_token_is_refused(client: TestClient, db: str) -> None:
    t = new_table(client, opponent="computer", level="random", seed=3)
    with client.websocket_connect(f"/ws/{t['table']}?token=nope") as ws:
        msg = receive(ws)
        assert msg["type"] == "error" and msg["code"] == "token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/{t['table']}") as ws:
        assert receive(ws)["code"] == "token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/nosuchtable?token={t['token']}") as ws:
        assert receive(ws)["code"] == "token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    # The table is untouched and still serves its seat.
    assert stored(db, t["table"])[0] == 0
    with client.websocket_connect(ws_path(t)) as ws:
        assert receive(ws)["type"] in ("state", "thinking")


def test_a_restart_mid_partie_loses_nothing(db: str) -> None:
    rng = random.Random(9)
    log: list[Message] = []
    with TestClient(create_app(db)) as c1:
        t = new_table(c1, opponent="computer", level="random", name="Ann", seed=99)
        with c1.websocket_connect(ws_path(t)) as ws:
            msg = until_my_turn(ws, log)
            while msg["view"]["partie"]["deal_number"] < 3 or msg["view"]["phase"] != "play":
                ws.send_json({"type": "action", "version": msg["version"], "action": random_action(msg["view"], rng)})
                msg = until_my_turn(ws, log)
        at_stop = msg
    version, record = stored(db, t["table"])
    assert version == at_stop["version"]
    # A new server on the same database: nothing in memory; the table is rebuilt from its record.
    with TestClient(create_app(db)) as c2:
        with c2.websocket_connect(ws_path(t)) as ws:
            msg = until_my_turn(ws, log)
            assert msg["version"] == at_stop["version"] and msg["view"] == at_stop["view"]
            while msg["view"]["status"] != "finished":
                ws.send_json({"type": "action", "version": msg["version"], "action": random_action(msg["view"], rng)})
                msg = until_my_turn(ws, log)
        final_record = stored(db, t["table"])[1]
        r = c2.get(f"/api/tables/{t['table']}/record")
        assert r.status_code == 200 and r.text == final_record
    # The record before the restart is the beginning of the record after it.
    before, after = PartieRecord.from_json(record), PartieRecord.from_json(final_record)
    assert before.seed == after.seed == 99 and before.players == after.players
    for d0, d1 in zip(before.deals, after.deals, strict=False):
        assert (d0.elder, d0.younger, d0.stock, d0.elder_discard) == (d1.elder, d1.younger, d1.stock,
                                                                       d1.elder_discard)
        assert d1.play[:len(d0.play)] == d0.play
    assert check_log("A", log, 99, final_record) == len(log)


def test_a_restart_with_the_computer_to_move(db: str) -> None:
    """The server stops while the computer is to move: the next server has him move when a client comes."""
    with TestClient(create_app(db, pace=60)) as c1:  # the computer is stopped while he "thinks"
        t = new_table(c1, opponent="computer", level="random", seed=seed_where("B"))
        assert choose_to_deal(c1, t) == 1  # Ann won the cut and deals: the computer is elder
        assert PartieRecord.from_json(stored(db, t["table"])[1]).deals[0].dealer == "A"
    assert stored(db, t["table"])[0] == 1
    with TestClient(create_app(db)) as c2, c2.websocket_connect(ws_path(t)) as ws:
        first = receive(ws)
        assert first["type"] == "state" and not first["view"]["my_turn"] and first["version"] == 1
        assert receive(ws) == {"type": "thinking", "seat": "B"}
        msg = receive(ws)
        assert msg["type"] == "state" and msg["version"] == 2


def test_the_http_api(client: TestClient, db: str) -> None:
    made: list[dict[str, Any]] = []
    for body, status in [
        ({"opponent": "computer", "level": "random", "rules": "rubicon", "name": "Ann"}, 201),
        ({"opponent": "person", "rules": "four-deal", "name": "  Ann   Lee "}, 201),
        ({"opponent": "computer"}, 201),
        ({"opponent": "robot"}, 400),
        ({"opponent": "computer", "level": "grandmaster"}, 400),
        ({"opponent": "computer", "rules": "piquet-au-cent"}, 400),
        ({"opponent": "computer", "name": 5}, 400),
        ({"opponent": "computer", "seed": "x"}, 400),
        ([], 400),
    ]:
        r = client.post("/api/tables", json=body)
        assert r.status_code == status, (body, r.text)
        if status == 201:
            out = r.json()
            made.append(out)
            assert out["seat"] == "A" and out["url"] == f"/t/{out['table']}#token={out['token']}"
            assert ("invite" in out) == (body.get("opponent") == "person")
            if "invite" in out:
                assert out["invite"].split("token=")[1] != out["token"]
        else:
            assert "error" in r.json()
    assert client.post("/api/tables", content=b"{not json").status_code == 400
    games = listed(client, *made)
    assert len(games) == 3
    # To anyone, only the open invitation: the table waiting for its invited person.
    assert [g["table"] for g in client.get("/api/tables").json()] == [made[1]["table"]]
    text = json.dumps(games)
    assert "token" not in text and not cards_named(games)
    by_rules = {g["rules"]: g for g in games}
    assert by_rules["four-deal"]["players"] == {"A": "Ann Lee", "B": "Guest"}
    assert by_rules["four-deal"]["status"] == "waiting"
    assert {g["status"] for g in games} == {"waiting", "playing"}
    for g in games:
        assert set(g) >= {"table", "status", "rules", "players", "scores", "updated"}
        r = client.get(f"/api/tables/{g['table']}/record")
        assert r.status_code == 403 and "finished" in r.json()["error"]
    assert client.get("/api/tables/nosuch/record").status_code == 404
    assert client.get("/t/nosuch?token=x").status_code == 404


def test_pages_and_static_files(client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>lobby</title>")
    (static / "table.html").write_text("<!doctype html><title>table</title>")
    (static / "app.js").write_text("export {};")
    (tmp_path / "secret.txt").write_text("no")
    monkeypatch.setattr(web_pages, "STATIC", static)
    assert "lobby" in client.get("/").text
    t = new_table(client, opponent="computer", level="random", seed=1)
    r = client.get(t["url"])
    assert r.status_code == 200 and "table" in r.text and r.headers["content-type"].startswith("text/html")
    r = client.get("/static/app.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../secret.txt").status_code == 404
    assert client.get("/static/%2e%2e/secret.txt").status_code == 404
    monkeypatch.setattr(web_pages, "STATIC", tmp_path / "none")
    assert client.get("/").status_code == 404


def test_other_tables_keep_serving(client: TestClient, db: str) -> None:
    t1 = new_table(client, opponent="computer", level="random", seed=51)
    t2 = new_table(client, opponent="computer", level="random", seed=52)
    with client.websocket_connect(ws_path(t1)) as w1, client.websocket_connect(ws_path(t2)) as w2:
        log: list[Message] = []
        m1, m2 = until_my_turn(w1, log), until_my_turn(w2, log)
        w1.send_text("garbage")
        expect_error(w1, "malformed")
        w2.send_json({"type": "action", "version": m2["version"], "action": random_action(m2["view"], random.Random())})
        msg = receive(w2)
        assert msg["type"] == "state" and msg["version"] == m2["version"] + 1
        w1.send_json({"type": "ping"})
        assert receive(w1) == {"type": "pong"}
        assert stored(db, t1["table"])[0] == m1["version"]


def test_serve_arguments_and_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ns = build_parser().parse_args(["serve", "--port", "8123", "--db", str(tmp_path / "x.db")])
    assert (ns.host, ns.port, ns.db) == ("127.0.0.1", 8123, str(tmp_path / "x.db"))
    p = argparse.ArgumentParser()
    add_serve_arguments(p)
    assert run_serve(p.parse_args(["--port", "0"])) == 2
    assert run_serve(p.parse_args(["--db", "nosuchdriver://x/y"])) == 2
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert database_url() == f"sqlite:///{tmp_path / 'data' / 'piquet' / 'piquet.db'}"
    assert (tmp_path / "data" / "piquet").is_dir()
    assert database_url("postgresql+psycopg://u@h/piquet") == "postgresql+psycopg://u@h/piquet"
    assert database_url(tmp_path / "a.db") == f"sqlite:///{tmp_path / 'a.db'}"


def test_the_core_never_imports_the_web() -> None:
    src = Path(__file__).parent.parent / "src" / "piquet"
    web_import = re.compile(r"(from|import)\s+(piquet)?\.?web\b|from\s+\.\s+import\s+web\b")
    paths = [p for p in src.rglob("*.py") if p.parent.name not in ("web", "cli")]  # the command line starts it
    assert len(paths) > 20
    for path in paths:
        assert not web_import.search(path.read_text()), path


# ---------------------------------------------------------------- the choice of deal (Law 4)


def person_table(seed: int, rules: Any = RUBICON) -> Table:
    return make_table(seed, rules, persons=True)


@pytest.mark.parametrize("deals", [True, False])
def test_the_winner_of_the_cut_chooses_whether_to_deal(deals: bool) -> None:
    """Law 4: the person who cuts the higher card chooses; nothing is dealt until he has, and (Law 9) until the
    dealer has said how he deals: the winner dealing says it with his choice, the other after it."""
    table = person_table(11)
    winner = table.cut[2]
    loser = "B" if winner == "A" else "A"
    assert table.version == 0 and table.choosing == winner and table.to_move() == winner
    assert not table.partie.deals and not table.finished
    mine, theirs = table.view(winner), table.view(loser)
    assert mine["phase"] == theirs["phase"] == "cut" and mine["choice"] == "deal"
    assert mine["my_turn"] and not theirs["my_turn"] and theirs["options"] == []
    assert mine["options"] == [{"kind": "deal", "deal": True, "by": 2, "label": "Deal by twos"},
                               {"kind": "deal", "deal": True, "by": 3, "label": "Deal by threes"},
                               {"kind": "deal", "deal": False, "label": "Let your adversary deal"}]
    assert mine["prompt"].startswith("You won the cut and have the choice (Law 4).")
    assert theirs["prompt"] == f"{mine['players'][winner]} won the cut and is choosing whether to deal first (Law 4)."
    assert mine["hand"] == theirs["hand"] == [] and cards_named(theirs) == {mine["cut"]["A"], mine["cut"]["B"]}
    full = make_table(12)  # a view of a dealt table: the cut's VIEW has the same keys, and "choice"
    assert set(mine) == set(full.view("A")) | {"choice"}
    # Out of turn, or anything but the choice: refused, nothing changed.
    with pytest.raises(TableError) as err:
        table.apply(loser, ChooseDeal(True), 0)
    assert err.value.code == "turn"
    with pytest.raises(TableError) as err:
        table.apply(winner, PLAYS[0], 0)
    assert err.value.code == "illegal" and "Law 4" in err.value.message
    with pytest.raises(TableError) as err:
        table.apply(winner, DealBy(3), 0)
    assert err.value.code == "illegal" and "Law 9" in err.value.message
    with pytest.raises(TableError) as err:
        table.apply(winner, ChooseDeal(True, 4), 0)
    assert err.value.code == "illegal" and "Law 9" in err.value.message
    assert table.version == 0 and not table.partie.deals
    table.apply(winner, ChooseDeal(deals), 0)
    dealer = winner if deals else loser
    if not deals:  # the other deals: he says how (Law 9), and nothing is dealt until he has
        assert table.version == 1 and table.choosing == loser and not table.partie.deals
        v = table.view(loser)
        assert v["choice"] == "deal_by" and v["partie"]["dealer"] == loser and v["my_turn"]
        assert v["options"] == [{"kind": "deal_by", "by": 2, "label": "By twos"},
                                {"kind": "deal_by", "by": 3, "label": "By threes"}]
        assert "lets you deal: deal by two or by three cards at a time" in v["prompt"]
        assert table.view(winner)["options"] == [] and table.view(winner)["hand"] == []
        waiting = Table.from_record(table.id, table.seats, table.record_json(), "person", table.version)
        assert waiting.version == 1 and waiting.choosing == loser and waiting.view(loser) == v
        table.apply(loser, DealBy(2), 1)
    chosen = 1 if deals else 2
    assert table.version == chosen and table.choosing is None and table.partie.dealer(0) == dealer
    assert len(table.partie.deals) == 1 and table.view(dealer)["role"] == "younger" and table.partie.deal_by == 2
    with pytest.raises(TableError) as err:
        table.apply(table.to_move() or "", ChooseDeal(True), chosen)
    assert err.value.code == "illegal"
    with pytest.raises(TableError) as err:
        table.apply(table.to_move() or "", DealBy(3), chosen)
    assert err.value.code == "illegal" and "Law 9" in err.value.message
    # The record rebuilds the table at the same version, with the chosen dealer.
    again = Table.from_record(table.id, table.seats, table.record_json(), "person")
    assert again.version == chosen and again.partie.dealer(0) == dealer and again.view("A") == table.view("A")
    before = Table.from_record(table.id, table.seats, person_table(11).record_json(), "person")
    assert before.version == 0 and before.choosing == winner


@pytest.mark.parametrize("winner_deals", [True, False])
def test_the_dealer_may_deal_by_threes(winner_deals: bool) -> None:
    """Law 9: the dealer deals by two or by three cards at a time, his choice for the whole partie: the cards
    are the seed's shuffle dealt by threes, every deal, and the record says so."""
    table = person_table(13)
    winner = table.cut[2]
    loser = "B" if winner == "A" else "A"
    if winner_deals:
        table.apply(winner, decode_action({"kind": "deal", "deal": True, "by": 3}), 0)
    else:
        table.apply(winner, ChooseDeal(False), 0)
        table.apply(loser, decode_action({"kind": "deal_by", "by": 3}), 1)
    dealer = winner if winner_deals else loser
    assert table.partie.deal_by == 3 and table.partie.first_dealer == dealer
    rng = random.Random(2)
    while len(table.partie.deals) < 3:
        seat = table.to_move()
        assert seat is not None
        table.apply(seat, table.observation(seat).sample(rng), table.version)
    for i, deal in enumerate(table.partie.deals):
        order = list(range(32))
        deal_rng(13, i).shuffle(order)
        assert (deal.dealt[ELDER], deal.dealt[YOUNGER], tuple(deal.stock)) == deal_from_pack(order, 3)
        assert deal_from_pack(order, 3) != deal_from_pack(order, 2)
    record = table.record()
    assert record.deal_by == 3
    again = Table.from_record(table.id, table.seats, record.to_json(), "person")
    assert again.version == table.version and again.partie.deal_by == 3 and again.view("A") == table.view("A")


def test_the_computer_who_wins_the_cut_deals() -> None:
    """"The player who cuts the higher card should elect to deal" (p. 108): no choice phase, no version."""
    seed = next(s for s in range(100) if seed_cut(s)[2] == "B")
    seats = {"A": Seat("human", "Ann"), "B": Seat("computer", "Bot", "simple")}
    table = Table.new("t", seats, seed, RUBICON)
    assert table.choosing is None and table.version == 0 and table.partie.dealer(0) == "B"
    assert table.partie.deal_by == 2  # the levels deal by twos, as at the terminal
    assert table.view("A")["phase"] == "elder_discard" and table.view("A")["my_turn"]


def test_a_computer_chooses_as_at_the_terminal() -> None:
    """A computer seat answers the choices before the deal as its level does at the terminal (Laws 4, 9); the
    same again when the table is rebuilt from its record."""
    seen: set[tuple[str, int]] = set()
    for seed in range(40):
        winner = seed_cut(seed)[2]
        seats = {s: Seat("computer", f"Bot {s}", "random") for s in "AB"}
        table = Table.new("t", seats, seed, RUBICON)
        player = make_player("random", table._seed_of(winner))
        deals = player.choose_deal(True)
        dealer = winner if deals else ("B" if winner == "A" else "A")
        by = (player if deals else make_player("random", table._seed_of(dealer))).deal_by()
        assert (table.version, table.partie.first_dealer, table.partie.deal_by) == (0, dealer, by)
        again = Table.from_record("t", seats, table.record_json(), "computer")
        assert (again.version, again.partie.first_dealer, again.partie.deal_by) == (0, dealer, by)
        seen.add((dealer, by))
    assert len(seen) == 4


def dropped(client: TestClient, table_id: str) -> None:
    """Wait until no socket is open on the table and the hub has dropped it from memory."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    deadline = time.monotonic() + 5
    while (table_id in hub.tables or hub.conns.get(table_id)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert table_id not in hub.tables


def test_the_dealer_chooses_threes_over_the_websocket(client: TestClient, db: str) -> None:
    """Ann wins the cut and lets Bob deal (Law 4); Bob deals by threes (Law 9).  Before the deal both see the
    cut and nothing else; the choice waiting for Bob survives the table's leaving memory; the cards are then
    the seed's dealt by threes, and every message is checked for hidden cards."""
    seed = next(s for s in range(100) if seed_cut(s)[2] == "A")
    t = new_table(client, opponent="person", name="Ann", seed=seed)
    logs: dict[str, list[Message]] = {"A": [], "B": []}
    with client.websocket_connect(ws_path(t)) as wa:
        logs["A"].append(receive(wa))
        with client.websocket_connect(ws_path(t, "invite") + "&name=Bob") as wb:
            for s, ws in (("A", wa), ("B", wb)):
                logs[s].append(receive(ws))
            va, vb = logs["A"][-1]["view"], logs["B"][-1]["view"]
            cut = {va["cut"]["A"], va["cut"]["B"]}
            assert va["phase"] == vb["phase"] == "cut" and va["choice"] == vb["choice"] == "deal"
            assert va["my_turn"] and not vb["my_turn"] and vb["options"] == []
            assert {"kind": "deal", "deal": True, "by": 3, "label": "Deal by threes"} in va["options"]
            assert cards_named(va) == cards_named(vb) == cut and va["hand"] == vb["hand"] == []
            wb.send_json({"type": "action", "version": 0, "action": {"kind": "deal_by", "by": 3}})
            expect_error(wb, "turn")
            wa.send_json({"type": "action", "version": 0, "action": {"kind": "deal", "deal": False}})
            for s, ws in (("A", wa), ("B", wb)):
                logs[s].append(receive(ws))
            va, vb = logs["A"][-1]["view"], logs["B"][-1]["view"]
            assert logs["B"][-1]["version"] == 1 and vb["choice"] == "deal_by" and vb["my_turn"]
            assert [o["by"] for o in vb["options"]] == [2, 3] and vb["options"][1]["label"] == "By threes"
            assert va["partie"]["dealer"] == vb["partie"]["dealer"] == "B" and not va["my_turn"]
            assert cards_named(va) == cards_named(vb) == cut
    assert stored(db, t["table"])[0] == 1
    dropped(client, t["table"])
    with client.websocket_connect(ws_path(t)) as wa, client.websocket_connect(ws_path(t, "invite")) as wb:
        logs["A"].append(receive(wa))
        logs["B"].append(receive(wb))
        vb = logs["B"][-1]["view"]
        assert logs["B"][-1]["version"] == 1 and vb["choice"] == "deal_by" and vb["my_turn"]  # rebuilt from the row
        logs["A"].append(receive(wa))  # the news that B has sat down (docs/web.md, "Presence and adjournment")
        assert logs["A"][-1]["version"] == 1 and logs["A"][-1]["view"]["connected"] == {"A": True, "B": True}
        wa.send_json({"type": "action", "version": 1, "action": {"kind": "deal_by", "by": 3}})
        expect_error(wa, "turn")
        wb.send_json({"type": "action", "version": 1, "action": {"kind": "deal_by", "by": 4}})
        assert "Law 9" in expect_error(wb, "illegal")["message"]
        wb.send_json({"type": "action", "version": 1, "action": {"kind": "deal_by", "by": 3}})
        for s, ws in (("A", wa), ("B", wb)):
            logs[s].append(receive(ws))
        va, vb = logs["A"][-1]["view"], logs["B"][-1]["view"]
        assert logs["A"][-1]["version"] == 2 and va["role"] == "elder" and vb["role"] == "younger"
        assert va["my_turn"] and len(va["hand"]) == len(vb["hand"]) == 12
    version, record = stored(db, t["table"])
    doc = PartieRecord.from_json(record)
    assert version == 2 and doc.deal_by == 3 and doc.deals[0].dealer == "B"
    order = list(range(32))
    deal_rng(seed, 0).shuffle(order)
    elder, younger, stock = deal_from_pack(order, 3)
    assert (mask_of(doc.deals[0].elder), mask_of(doc.deals[0].younger), doc.deals[0].stock) == (elder, younger, stock)
    assert set(va["hand"]) == {card_name(c) for c in cards_of(elder)}
    assert check_log("A", logs["A"], seed, record, "AB") + check_log("B", logs["B"], seed, record, "AB") > 8


def test_the_choice_over_the_websocket(client: TestClient, db: str) -> None:
    seed = next(s for s in range(100) if seed_cut(s)[2] == "A")
    t = new_table(client, opponent="computer", level="random", name="Ann", seed=seed)
    with client.websocket_connect(ws_path(t)) as ws:
        first = receive(ws)
        assert first["view"]["phase"] == "cut" and first["view"]["my_turn"] and first["version"] == 0
        ws.send_json({"type": "action", "version": 0, "action": {"kind": "play", "card": "AS"}})
        expect_error(ws, "illegal")
        ws.send_json({"type": "action", "version": 0, "action": {"kind": "deal", "deal": False}})
        msg = receive(ws)
        assert msg["type"] == "state" and msg["version"] == 1 and msg["view"]["partie"]["dealer"] == "B"
        assert msg["view"]["role"] == "elder" and len(msg["view"]["hand"]) == 12
    assert stored(db, t["table"])[0] == 1
    assert PartieRecord.from_json(stored(db, t["table"])[1]).deals[0].dealer == "B"
