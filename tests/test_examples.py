"""The worked examples of the texts, replayed through the engine.

Each example is a data file under ``data/examples/``: the deal's cards (elder,
younger, stock top first), the actions in order, running checkpoints and the
expected scores.  Where a text gives only one hand, the file builds a complete,
legal 32-card deal in which the text's claim holds and says how (its
``construction``).  Parties (Laws 71-73) replay deals from ``partie_deals.json``
and the example deals, and check the settlement against the figures printed.

Action strings: ``"elder: discard KS 8C"``, ``"younger: look yes"``,
``"elder: point AH KH QH JH 8H"`` (``-`` for nothing), ``"younger: sequences
AC KC QC | QD JD 10D"``, ``"elder: sets JS JH JC"``, ``"play AH"`` (one card,
whoever is to play) and ``"trick KH 7D"`` (leader's card, then the other's).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from piquet import (
    ELDER,
    FOUR_DEAL,
    RUBICON,
    YOUNGER,
    Deal,
    DeclarePoint,
    DeclareSequences,
    DeclareSets,
    Discard,
    IllegalAction,
    LookAtLeft,
    Partie,
    Play,
    observe,
)
from piquet.core.cards import parse_card, parse_cards
from piquet.core.events import AskValue, CallPoint, CallValue, CarteBlanche, CarteBlancheShown, Reply, Score

DATA = Path(__file__).parent / "data" / "examples"
ROLES = {"elder": ELDER, "younger": YOUNGER}
KINDS = ("carte_blanche", "point", "sequences", "sets", "play", "cards", "pique", "repique")


def mask(text: str) -> int:
    m = 0
    for c in parse_cards(text):
        assert not m >> c & 1, f"{text}: a card twice"
        m |= 1 << c
    return m


@cache
def load(name: str) -> dict[str, Any]:
    with open(DATA / name, encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


# ---------------------------------------------------------------- replaying

def parse_action(text: str) -> tuple[int | None, list[Any]]:
    """The role that must act (None: whoever is to play) and the actions of one step."""
    role: int | None = None
    if ":" in text:
        who, text = text.split(":", 1)
        role = ROLES[who.strip()]
    verb, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if verb == "discard":
        return role, [Discard(mask(rest))]
    if verb == "look":
        assert rest in ("yes", "no"), text
        return role, [LookAtLeft(rest == "yes")]
    if verb in ("play", "trick"):
        cards = [Play(parse_card(c)) for c in rest.split()]
        assert len(cards) == (1 if verb == "play" else 2), text
        return role, cards
    items = tuple(mask(part) for part in rest.split("|")) if rest != "-" else ()
    if verb == "point":
        assert len(items) <= 1, text
        return role, [DeclarePoint(items[0] if items else 0)]
    if verb == "sequences":
        return role, [DeclareSequences(items)]
    if verb == "sets":
        return role, [DeclareSets(items)]
    raise AssertionError(f"unknown action {text!r}")


def new_deal(doc: dict[str, Any]) -> Deal:
    return Deal(mask(doc["elder"]), mask(doc["younger"]), parse_cards(doc["stock"]))


def check_scores(deal: Deal, spec: dict[str, dict[str, int]], partial: bool, where: str) -> None:
    """Scores by component (Law 67 order); in a final check, unnamed components are nought."""
    for who, role in ROLES.items():
        want = spec.get(who, {})
        for key, value in want.items():
            got = deal.total(role) if key == "total" else deal.scores[role][KINDS.index(key)]
            assert got == value, f"{where}: {who} {key} is {got}, the text says {value}"
        if not partial:
            for i, kind in enumerate(KINDS):
                if kind not in want:
                    assert deal.scores[role][i] == 0, f"{where}: {who} scores {deal.scores[role][i]} for {kind}"


def replay(doc: dict[str, Any], steps: list[Any], deal: Deal | None = None) -> Deal:
    """Apply the steps, checking whose turn it is and every checkpoint on the way."""
    deal = deal if deal is not None else new_deal(doc)
    for n, step in enumerate(steps):
        if isinstance(step, dict):
            if "check" in step:
                check_scores(deal, step["check"], True, f"{doc['title']}, checkpoint at step {n}")
            continue
        role, actions = parse_action(step)
        if role is not None:
            assert deal.to_move == role, f"{step!r}: the {('elder', 'younger')[deal.to_move or 0]} is to move"
        for action in actions:
            try:
                deal.apply(action)
            except IllegalAction as exc:
                raise AssertionError(f"{doc['title']}: {step!r} refused: {exc}") from exc
    return deal


def variants(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """An example's lines of play: the common actions, then each variant's own."""
    if "variants" not in doc:
        return {"": {"actions": doc["actions"], "expected": doc["expected"],
                     "tricks_won": doc.get("tricks_won"), "partie": doc.get("partie")}}
    return {name: {**v, "actions": doc["actions"] + v["actions"]} for name, v in doc["variants"].items()}


def played(name: str, variant: str = "") -> Deal:
    doc = load(name)
    return replay(doc, variants(doc)[variant]["actions"])


EXAMPLES = [(name, v) for name in sorted(p.name for p in DATA.glob("[0-9][0-9]_*.json"))
            if "actions" in load(name) for v in variants(load(name))]


# ---------------------------------------------------------------- the examples

@pytest.mark.parametrize(("name", "variant"), EXAMPLES, ids=[f"{n[:-5]}{'-' + v if v else ''}" for n, v in EXAMPLES])
def test_worked_example(name: str, variant: str) -> None:
    doc = load(name)
    line = variants(doc)[variant]
    deal = new_deal(doc)
    assert deal.dealt == (mask(doc["elder"]), mask(doc["younger"]))
    deal = replay(doc, line["actions"], deal)
    title = f"{doc['title']}{' (' + variant + ')' if variant else ''}"
    if "after_exchange" in doc:
        # The hands before the first card is played, as the text gives them.
        first_play = next(i for i, a in enumerate(deal.history) if isinstance(a, Play))
        probe = new_deal(doc)
        for action in deal.history[:first_play]:
            probe.apply(action)
        for who, role in ROLES.items():
            assert probe.hands[role] == mask(doc["after_exchange"][who]), f"{title}: {who}'s hand"
    if doc.get("finished", True):
        assert deal.is_over, f"{title}: the deal is not over"
    check_scores(deal, line["expected"], False, title)
    if line.get("tricks_won"):
        assert deal.tricks_won == [line["tricks_won"]["elder"], line["tricks_won"]["younger"]]
    if "replies" in doc:
        replies = [e.words for e in deal.events if type(e) is Reply]
        assert replies == doc["replies"], f"{title}: the younger's replies"


# ---------------------------------------------------------------- moments of the examples

def score_events(deal: Deal) -> list[tuple[int, str, int]]:
    return [(e.role, e.heading, e.points) for e in deal.events if type(e) is Score]


def test_example_deal_calls_and_showing() -> None:
    """p. 104: 'What do they make?' is asked because B's point also has five cards; what A scores
    as good is shown to B, and B's four tens and three queens, good, to A."""
    deal = played("01_example_deal.json")
    calls = [e for e in deal.events if type(e) in (CallPoint, AskValue, CallValue)]
    assert calls == [CallPoint(ELDER, 5), AskValue(YOUNGER, 5), CallValue(ELDER, 49)]
    assert score_events(deal)[:5] == [(ELDER, "point", 5), (ELDER, "sequences", 4), (YOUNGER, "sets", 14),
                                      (YOUNGER, "sets", 3), (ELDER, "play", 1)]


def test_pique_is_scored_on_the_lead_that_makes_thirty() -> None:
    """p. 96: 'A, when he leads the card which makes him thirty, instead of counting Thirty,
    counts Sixty'; it need not win the trick."""
    deal = played("02_pique.json")
    scores = score_events(deal)
    i = scores.index((ELDER, "pique", 30))
    assert scores[i - 1] == (ELDER, "play", 1)
    assert sum(v for r, _, v in scores[:i] if r == ELDER) == 30
    assert all(r == ELDER for r, _, _ in scores[:i + 1])


def test_repique_is_scored_on_the_hand_score_that_makes_thirty() -> None:
    deal = played("03_repique.json")
    scores = score_events(deal)
    assert scores[:5] == [(ELDER, "point", 5), (ELDER, "sequences", 15), (ELDER, "sets", 14),
                          (ELDER, "repique", 60), (ELDER, "play", 1)]


def test_the_younger_repiques_before_the_elders_first_lead_counts() -> None:
    """p. 98: the one the elder reckons for his first lead does not prevent his being repiqued."""
    deal = played("15_the_younger_repiques.json")
    scores = score_events(deal)
    assert scores == [(YOUNGER, "point", 5), (YOUNGER, "sequences", 15), (YOUNGER, "sets", 14),
                      (YOUNGER, "repique", 60), (ELDER, "play", 1)]


def test_the_younger_reaching_thirty_in_play_is_no_pique() -> None:
    deal = played("14_the_younger_never_piques.json")
    assert deal.total(YOUNGER) == 30 and deal.scores[YOUNGER][KINDS.index("pique")] == 0
    assert (ELDER, "play", 1) in score_events(deal)


@pytest.mark.parametrize(("name", "holder"), [("11_carte_blanche_saves_a_repique.json", YOUNGER),
                                              ("12_carte_blanche_counts_toward_a_repique.json", ELDER)])
def test_carte_blanche_is_announced_at_once_and_shown_after_the_adversary_discards(name: str, holder: int) -> None:
    """Laws 18-20: announced at once, shown (and scored, first of everything) only once the adversary
    has discarded; until then the adversary's observation does not hold a card of it."""
    doc = load(name)
    deal = new_deal(doc)
    adversary = 1 - holder
    blanche = deal.dealt[holder]
    assert list(deal.events) == [CarteBlanche(holder)]
    steps = doc["actions"]
    shown_at = None
    for step in steps:
        if isinstance(step, dict):
            continue
        role, actions = parse_action(step)
        adversary_discarded = deal.discards[adversary] != 0
        obs = observe(deal, adversary)
        shown = [e for e in deal.events if type(e) is CarteBlancheShown]
        if not adversary_discarded:
            assert not shown
            assert not obs.visible_cards() & blanche, "the carte blanche is seen before the adversary discards"
            assert not json_cards(obs.to_json()) & blanche
        else:
            assert [(e.role, e.cards) for e in shown] == [(holder, blanche)]
            assert obs.visible_cards() & blanche == blanche
            if shown_at is None:
                shown_at = len(deal.history)
        for action in actions:
            deal.apply(action)
    assert shown_at is not None
    # Shown on the adversary's discard, and scored then, before anything else.
    discard_index = next(i for i, a in enumerate(deal.history) if isinstance(a, Discard)
                         and (i == 0) == (adversary == ELDER))
    assert shown_at == discard_index + 1
    assert score_events(deal)[0] == (holder, "carte_blanche", 10)


def json_cards(obj: Any) -> int:
    """The cards named in a JSON-ready observation."""
    found = 0
    for name in set(re.findall(r'"((?:A|K|Q|J|10|9|8|7)[SHCD])"', json.dumps(obj))):
        found |= 1 << parse_card(name)
    return found


# ---------------------------------------------------------------- the partie (Laws 71-73)

def rules_of(name: str) -> Any:
    return {"rubicon": RUBICON, "four-deal": FOUR_DEAL}[name]


@pytest.mark.parametrize("case", load("07_partie.json")["settlements"],
                         ids=lambda c: f"A{c['scores']['A']}-B{c['scores']['B']}")
def test_settlement(case: dict[str, Any]) -> None:
    s = rules_of(case["rules"]).settle(case["scores"])
    assert (s.finished, s.winner, s.rubicon, s.points_won) == (
        True, case["winner"], case["rubicon"], case["points"])


def test_settlement_of_a_partie_in_progress() -> None:
    s = RUBICON.settle({"A": 131, "B": 113}, finished=False)
    assert not s.finished and s.winner is None and s.points_won is None


def deal_steps(ref: dict[str, Any]) -> tuple[dict[str, Any], list[Any], dict[str, int] | None]:
    if "pool" in ref:
        d = load("partie_deals.json")["deals"][ref["pool"]]
        return {**d, "title": f"partie deal {ref['pool']}"}, d["actions"], d["totals"]
    doc = load(ref["example"])
    return doc, variants(doc)[ref.get("variant", "")]["actions"], None


PARTIES = load("07_partie.json")["parties"]


@pytest.mark.parametrize("spec", PARTIES, ids=[p["name"] for p in PARTIES])
def test_partie(spec: dict[str, Any]) -> None:
    rules = rules_of(spec["rules"])
    partie = Partie(rules, first_dealer=spec["first_dealer"])
    n = len(spec["deals"])
    for k, ref in enumerate(spec["deals"]):
        assert not partie.is_finished
        doc, steps, totals = deal_steps(ref)
        deal = partie.add_deal(new_deal(doc))
        # The players deal alternately (Law 16); the dealer is the younger hand.
        assert partie.dealer(k) == (spec["first_dealer"] if k % 2 == 0 else "AB".replace(spec["first_dealer"], ""))
        assert partie.seat(k, YOUNGER) == partie.dealer(k)
        if "example" in ref:
            assert partie.seat(k, ELDER) == "A", "the example's A is the elder hand"
        # What each player is told of the partie: the scores before this deal and how it counts.
        before = spec["scores_after"][k - 1] if k else {"A": 0, "B": 0}
        multiplier = 2 if spec["rules"] == "four-deal" and k in (0, 3) else 1
        for seat in "AB":
            ctx = partie.context(seat)
            assert (ctx.seat, ctx.dealer, ctx.deal_number, ctx.multiplier) == (
                seat, partie.dealer(k), k + 1, multiplier)
            assert ctx.scores == before
            obs = partie.observation(seat)
            assert obs.role == (YOUNGER if partie.dealer(k) == seat else ELDER)
            assert obs.hand == deal.hands[obs.role]
        replay(doc, steps, deal)
        assert deal.is_over and partie.current is None
        if totals is not None:
            assert [deal.total(ELDER), deal.total(YOUNGER)] == [totals["elder"], totals["younger"]]
        assert partie.scores == spec["scores_after"][k], f"after deal {k + 1}"
        if "deals_needed" in spec:
            assert partie.deals_needed == spec["deals_needed"][k], f"after deal {k + 1}"
    assert partie.is_finished and len(partie.deals) == n
    s = partie.settlement()
    want = spec["settlement"]
    assert (s.finished, s.winner, s.rubicon, s.points_won) == (True, want["winner"], want["rubicon"], want["points"])
    if "text" in spec:
        assert partie.scores == spec["text"]["scores"]
        assert (s.winner, s.rubicon, s.points_won) == (spec["text"]["winner"], spec["text"]["rubicon"],
                                                        spec["text"]["points"])
    with pytest.raises(ValueError):
        partie.add_deal(new_deal(load("01_example_deal.json")))


def test_four_deal_partie_counts_first_and_last_double() -> None:
    """Note to Law 71: the first and last of four deals double, extra deals single."""
    assert [FOUR_DEAL.multiplier(i) for i in range(6)] == [2, 1, 1, 2, 1, 1]
    assert [RUBICON.multiplier(i) for i in range(8)] == [1] * 8
    assert FOUR_DEAL.deals_needed([]) == 4 and RUBICON.deals_needed([]) == 6


def test_deals_needed_after_a_tie() -> None:
    """Law 71: a tie after six deals: each deals once more, even if there is a second tie."""
    tie = [{"A": 10 * i, "B": 10 * i} for i in range(1, 9)]
    assert RUBICON.deals_needed(tie[:5]) == 6
    assert RUBICON.deals_needed(tie[:6]) == 8
    assert RUBICON.deals_needed(tie[:8]) == 8
    untied = tie[:5] + [{"A": 61, "B": 60}]
    assert RUBICON.deals_needed(untied) == 6
    assert FOUR_DEAL.deals_needed(tie[:4]) == 6 and FOUR_DEAL.deals_needed(tie[:6]) == 6


@pytest.mark.parametrize("name", ["08_case_xxii.json", "09_example_xvii.json", "10_example_xviii.json"])
def test_example_partie_scores(name: str) -> None:
    """The deal added to the partie scores before it (A elder) gives the text's figures."""
    doc = load(name)
    for variant, line in variants(doc).items():
        p = line["partie"]
        deal = played(name, variant)
        after = {"A": p["before"]["A"] + deal.total(ELDER), "B": p["before"]["B"] + deal.total(YOUNGER)}
        assert after == p["after"]
        s = RUBICON.settle(after)
        assert (s.winner, s.rubicon, s.points_won) == (
            p["settlement"]["winner"], p["settlement"]["rubicon"], p["settlement"]["points"])
    for case in doc.get("settlements", []):
        s = RUBICON.settle(case["scores"])
        assert (s.winner, s.rubicon, s.points_won) == (case["winner"], case["rubicon"], case["points"])
