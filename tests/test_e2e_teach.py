"""The browser's table as a safe teacher (issue 16), in Debian's chromium: the exchange asked before it is made
(Law 24), in the page, and "Another partie" at the end of a partie starting a new table with the same rules, level
and name. The server, the browser and the helpers are test_e2e's."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser]

TABLE = "document.querySelector('[data-testid=table]')"
#: The moves of one page in a four-deal partie, with room: a partie that does not end fails instead of hanging.
MAX_MOVES = 600


def e2e() -> Any:
    return pytest.importorskip("test_e2e", reason="the playwright package is missing")


def open_table(srv: Any, page: Page, **body: Any) -> tuple[str, str]:
    """A table against the computer made by the server's API, opened in ``page`` with the forced moves left to the
    test (``auto=0``); its id and its seat's token."""
    t = srv.post_json("/api/tables", {"opponent": "computer", **body})
    path, _, fragment = t["url"].partition("#")
    page.goto(f"{srv.base}{path}?auto=0#{fragment}")
    page.wait_for_function(f"() => {TABLE}.dataset.version !== ''")
    return str(t["table"]), str(t["token"])


def my_turn(page: Page) -> dict[str, str]:
    """Wait for this seat's turn, nothing pending, or the end of the partie: the table's state."""
    page.wait_for_function(f"() => {{ const t = {TABLE}; return t.dataset.status === 'finished' "
                           "|| (t.dataset.myTurn === 'true' && t.dataset.pending === 'false'); }")
    t = page.get_by_test_id("table")
    return {k: t.get_attribute(f"data-{k}") or "" for k in ("phase", "version", "status", "rules")}


def moved(page: Page, version: str) -> None:
    page.wait_for_function(f"(v) => {TABLE}.dataset.version !== v", arg=version)


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all("[data-testid=hand] > [data-card]", "els => els.map(e => e.dataset.card)")


def click_card(page: Page, card: str) -> None:
    page.locator(f"[data-testid=hand] > [data-card='{card}']").click(position=e2e().CARD_SPOT)


def move(page: Page, st: dict[str, str]) -> None:
    """The simplest lawful choice at this turn, by clicking; the exchange confirmed when asked."""
    phase = st["phase"]
    if phase == "cut":
        page.locator("[data-testid=deal-yes], [data-testid=deal-by-2]").first.click()
    elif phase.endswith("discard"):
        click_card(page, hand(page)[-1])
        page.get_by_test_id("discard-button").click()
        page.get_by_test_id("confirm-exchange").click()
    elif phase.endswith("look"):
        page.get_by_test_id("look-no").click()
    elif phase == "play":
        forced = page.get_by_test_id("play-forced")
        if forced.count():
            forced.click()
        else:
            page.locator("[data-testid^=play-card-]").first.click(position=e2e().CARD_SPOT)
    else:  # a declaration: the usual one, the first button of its kind
        page.locator("[data-testid=actions] button.primary").first.click()
    moved(page, st["version"])


def test_the_exchange_is_asked_before_it_is_made(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The discard button asks "Discard ... and take in two?" in the page; nothing is sent until Yes; No, or a card
    clicked, withdraws the question and keeps the selection as it stands; Yes (by the keyboard: it has the focus)
    makes the exchange."""
    t = e2e()
    with t.touch_page(tmp_path_factory.mktemp("exchange-server"), t.DESKTOP) as (srv, page, errors):
        open_table(srv, page, level="random", name="Ann", seed=11)
        for _ in range(10):
            st = my_turn(page)
            if st["phase"].endswith("discard"):
                break
            move(page, st)
        else:
            pytest.fail("no discard within ten moves")
        held = hand(page)
        two = held[:2]
        for c in two:
            click_card(page, c)
        page.get_by_test_id("discard-button").click()
        question = page.get_by_test_id("exchange-question")
        assert question.inner_text() == f"Discard {two[0]} {two[1]} and take in two?"
        assert page.evaluate("() => document.activeElement.dataset.testid") == "confirm-exchange"
        page.wait_for_timeout(300)
        assert my_turn(page)["version"] == st["version"] and hand(page) == held  # nothing sent yet

        page.get_by_test_id("cancel-exchange").click()
        assert question.count() == 0
        assert page.get_by_test_id("selection").inner_text().startswith("Selected:")
        page.get_by_test_id("discard-button").click()
        assert question.count() == 1
        third = held[2]
        click_card(page, third)  # the cards change: the question is withdrawn
        assert question.count() == 0
        assert page.get_by_test_id(f"card-{third}").get_attribute("aria-pressed") == "true"

        page.get_by_test_id("discard-button").click()
        assert question.inner_text() == f"Discard {' '.join(held[:3])} and take in three?"
        page.keyboard.press("Enter")
        moved(page, st["version"])
        page.wait_for_function(f"() => {TABLE}.dataset.phase !== '{st['phase']}'")
        assert not set(held[:3]) & set(hand(page)), hand(page)
        assert errors == []


def test_another_partie_at_the_end_starts_a_new_table_alike(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A four-deal partie played to its end by clicking; "Another partie" opens a new table against the computer
    with the same rules, level and name."""
    t = e2e()
    with t.touch_page(tmp_path_factory.mktemp("another-server"), t.DESKTOP) as (srv, page, errors):
        first, first_token = open_table(srv, page, level="random", name="Ann", rules="four-deal", seed=3)
        for _ in range(MAX_MOVES):
            st = my_turn(page)
            if st["status"] == "finished":
                break
            move(page, st)
        else:
            pytest.fail(f"the partie did not end within {MAX_MOVES} moves")
        assert page.get_by_test_id("finish").is_visible()
        headline = page.get_by_test_id("finish").locator("h2").inner_text()
        assert re.fullmatch(r"You win the partie\.|Computer \(random\) wins the partie\.|The partie is drawn\.",
                            headline), headline

        page.get_by_test_id("another-partie").click()
        page.wait_for_url(re.compile(r"/t/(?!" + re.escape(first) + r"\b)[^/?#]+"))
        page.wait_for_function(f"() => {TABLE}.dataset.version !== ''")
        second = re.split(r"[?#]", page.url.split("/t/")[1])[0]
        second_token = page.url.split("#token=")[1]
        st = my_turn(page)
        assert second != first and st["status"] == "playing" and st["rules"] == "four-deal", (second, st)
        assert page.get_by_test_id("opponent-name").inner_text() == "Computer (random)"
        assert page.get_by_test_id("my-name").inner_text() == "You (Ann)"
        rows = {first: srv.table_row(first, first_token), second: srv.table_row(second, second_token)}
        assert rows[first]["status"] == "finished" and rows[second]["status"] == "playing"
        assert rows[second]["players"] == rows[first]["players"]
        assert errors == []
