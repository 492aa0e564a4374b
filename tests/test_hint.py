"""Hints that explain themselves (``piquet.study.hint``, issue 16 item 2): a hint at each decision, its figures
checked against the odds module and the solver, and no card of the adversary's named that the player could not
know."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from piquet.core.actions import Discard, Play
from piquet.core.cards import SUIT_MASKS, Mask, cards_of, parse_card
from piquet.core.combinations import best_sequences
from piquet.core.deal import Deal, Phase
from piquet.core.observation import Observation
from piquet.core.partie import Partie
from piquet.odds import Drawing, Need, exchange_chances
from piquet.players.base import DECLARING
from piquet.players.cavendish import CavendishPlayer
from piquet.players.search import pique_need
from piquet.players.solver import Position, card_values
from piquet.players.worlds import sample_worlds
from piquet.study.hint import Hint, deal_hint, exchange_hint, hint, play_hint, play_values

CARD = re.compile(r"(?<![\w])(?:10|[AKQJ987])[SHCD](?![\w])")


def _walk(seed: int) -> list[tuple[Deal, Observation]]:
    """Every decision of one deal played by the Cavendish player, with its player's observation."""
    partie = Partie()
    deal = partie.deal_shuffled(random.Random(seed))
    player = CavendishPlayer()
    out = []
    while not deal.is_over:
        role = deal.to_move
        assert role is not None
        obs = partie.observation(partie.seat(0, role))
        out.append((deal, obs))
        deal.apply(player.choose(obs))
    return out


def _first(seed: int, phase: Phase) -> Observation:
    return next(obs for _, obs in _walk(seed) if obs.phase == phase)


def test_choice_of_deal() -> None:
    h = deal_hint()
    assert h.deal_first is True and h.advice == "Deal first."
    text = " ".join(h.reasons)
    assert "p. 108" in text and "elder" in text and "Law 16" in text


def test_exchange_hint_figures_are_the_odds_modules() -> None:
    obs = _first(0, Phase.ELDER_DISCARD)
    h = exchange_hint(obs)
    assert isinstance(h.action, Discard) and h.action.cards
    assert h.action.cards == CavendishPlayer().discard(obs)
    assert h.reasons[0].startswith("It keeps the point of")
    n = h.action.cards.bit_count()
    drawing = Drawing(obs.role, hand=obs.hand, taken=n)
    x = exchange_chances(Drawing(obs.role, hand=obs.dealt, discard=h.action.cards, taken=n))
    figures = dict(h.chances)
    checked = 0
    assert figures, "the exchange hint quotes the chances of taking in what it needs"
    for what, p in figures.items():
        if what.startswith("a point of more than"):
            length = int({"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}[what.split()[5]])
            assert p == sum((q for k, q in x.point.items() if k > length), Fraction(0))
        elif what == "a quatorze after the exchange":
            assert p == x.quatorze
            checked += 1
        elif what.startswith("the card"):
            run = best_sequences(obs.hand & ~h.action.cards)[0]
            ends = ((run << 1) | (run >> 1)) & SUIT_MASKS[run.bit_length() - 1 >> 3] & ~run & ~obs.hand
            assert ends & ~h.hoped == 0
            assert p == drawing.chance([[Need(1 << c, 1)] for c in cards_of(ends)])
            checked += 1
    assert checked >= 1
    assert any(p.startswith("The chance of") and "exactly" in p for p in h.reasons)


def test_calls_hint_sinks_with_a_reason() -> None:
    hints = [(obs, hint(obs)) for _, obs in _walk(0) if obs.phase in DECLARING]
    assert hints
    for obs, h in hints:
        assert h.action == CavendishPlayer().choose(obs)
        assert h.reasons
    sinks = [h for _, h in hints if h.advice.startswith("Sink")]
    assert sinks and all("(you hold" in h.advice for h in sinks)
    assert any("p. 154" in r or "anyway" in r or "p. 156" in r for h in sinks for r in h.reasons)


def test_play_hint_averages_the_solver_over_sampled_deals() -> None:
    obs = next(o for _, o in _walk(1) if o.phase == Phase.PLAY and o.lead < 0 and o.trick == 6)
    values, n = play_values(obs, worlds=4, seed=7)
    worlds = sample_worlds(obs, random.Random(7), 4)
    assert n == len(worlds) > 0
    me = obs.role
    totals = dict.fromkeys(values, 0.0)
    for w in worlds:
        hands = [0, 0]
        hands[me] = obs.hand
        hands[1 - me] = w.hand(1 - me, obs)
        pos = Position((hands[0], hands[1]), me, -1, obs.tricks_won, pique_need(obs, hands[1]),
                       obs.rules.counting_cards)
        for c, v in card_values(pos).items():
            totals[c] += v
    assert values == {c: t / n for c, t in totals.items()}
    h = play_hint(obs, worlds=4, seed=7)
    assert isinstance(h.action, Play) and h.action.card == h.values[0][0]
    assert h.values[0][1] == max(values.values())
    assert f"over {n} sampled deals consistent with what you know" in h.reasons[0]


def _named(h: Hint) -> Mask:
    m = 0
    for line in h.lines():
        for t in CARD.findall(line):
            m |= 1 << parse_card(t)
    return m


def test_a_hint_never_names_a_card_the_player_could_not_know() -> None:
    for seed in (2, 3, 4):
        for deal, obs in _walk(seed):
            if obs.phase == Phase.PLAY and obs.trick not in (1, 7, 12):
                continue  # a few positions of the play: the solver runs as pure Python here
            h = hint(obs, worlds=3)
            named = _named(h)
            hidden = deal.hands[1 - obs.role] & ~obs.visible_cards()
            assert not named & hidden, (obs.phase, h.lines())
            assert not named & ~obs.visible_cards(), (obs.phase, h.lines())
            # What an exchange hopes to take in is a card the player has not seen, described, never named.
            assert not h.hoped & obs.visible_cards()
            if h.hoped:
                assert obs.phase in (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)


def test_hint_suits_only_legal_cards() -> None:
    obs = next(o for _, o in _walk(2) if o.phase == Phase.PLAY and o.lead >= 0 and o.hand & SUIT_MASKS[o.lead >> 3])
    h = play_hint(obs, worlds=2)
    legal = obs.hand & SUIT_MASKS[obs.lead >> 3]
    assert {c for c, _ in h.values} == set(cards_of(legal))


def test_terminal_hint_at_the_choice_of_deal_and_at_the_exchange() -> None:
    import io

    from rich.console import Console

    from piquet.cli.terminal import TerminalTable

    out = io.StringIO()
    answers = iter(["hint", "y"])
    console = Console(file=out, width=200)
    console.input = lambda prompt="": (console.print(prompt, end=""), next(answers))[1]  # type: ignore[method-assign]
    table = TerminalTable(console, {"A": "You", "B": "Computer"}, echo=False)
    assert table.choose_deal(True) is True
    text = out.getvalue()
    assert "Hint: deal first" in text and "p. 108" in text
    obs = _first(0, Phase.ELDER_DISCARD)
    table.hint(obs)
    text = out.getvalue()
    assert "Hint: discard" in text and "It keeps the point of" in text and "exactly" in text


def test_hint_over_http_for_the_seats_own_hand(client) -> None:  # type: ignore[no-untyped-def]
    r = client.post("/api/tables", json={"name": "Ann", "level": "random", "seed": 5})
    assert r.status_code in (200, 201), r.text
    doc = r.json()
    table_id, token = doc["table"], doc["token"]
    assert client.get(f"/api/tables/{table_id}/hint").status_code == 403
    assert client.get(f"/api/tables/{table_id}/hint", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get(f"/api/tables/{table_id}/hint?token={token}").status_code == 403  # not in the address
    r = client.get(f"/api/tables/{table_id}/hint", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code in (200, 409), r.text
    if r.status_code == 200:
        hint_doc = r.json()
        assert hint_doc["advice"] and hint_doc["reasons"]


@pytest.mark.browser
def test_the_hint_button_in_the_browser(tmp_path_factory: pytest.TempPathFactory) -> None:
    """At a table against the computer, the Hint button answers the decision in hand with advice and its reasons:
    at the choice of deal, and at the exchange."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")
    with e2e.touch_page(tmp_path_factory.mktemp("hint-server"), e2e.DESKTOP) as (srv, page, errors):
        page.goto(srv.base + "/")
        page.get_by_test_id("level-select").select_option("simple")
        page.get_by_test_id("new-computer-game").click()
        page.wait_for_url("**/t/**")
        table = page.get_by_test_id("table")
        asked: list[str] = []
        for _ in range(20):
            page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.version !== ''")
            phase = table.get_attribute("data-phase") or ""
            version = table.get_attribute("data-version")
            if table.get_attribute("data-my-turn") != "true":
                page.wait_for_timeout(200)
                continue
            kind = "cut" if phase == "cut" else "discard" if phase.endswith("discard") else ""
            if kind and kind not in asked:
                page.get_by_test_id("hint-button").click()
                text = page.get_by_test_id("hint-text")
                text.wait_for()
                said = text.inner_text()
                assert said and not said.startswith("No hint"), said
                asked.append(kind)
            if kind == "discard":
                break
            if phase == "cut":
                page.get_by_test_id("deal-yes").click()
            elif phase.endswith("look"):
                page.get_by_test_id("look-no").click()
            else:
                page.locator("[data-testid=actions] button").first.click()
            page.wait_for_function("(v) => document.querySelector('[data-testid=table]').dataset.version !== v",
                                   arg=version)
        assert "discard" in asked, asked
        assert errors == []
