"""The table on a phone held upright, and who sits at it, in a real browser (issue 17, items 4 and 8).

Debian's chromium, driven by Playwright, at 390 x 844 px with touch (``test_e2e.touch_page``: a server of its own):

* the twelve cards of the hand are tap targets of at least 44 x 44 px, none over another, in two rows of six,
  inside the screen; a tap selects one;
* a long name wraps, and nothing is wider than the screen;
* a choice made while the server is away says "Not connected"; once the page is connected again, the error is gone;
* the adversary's page says whether he is at the table; the seat still there adjourns the partie, the table says
  it is adjourned (so does the lobby), and the other's page takes it up.
"""

from __future__ import annotations

import contextlib
import subprocess
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from piquet.core.state import seed_cut

pytestmark = pytest.mark.browser

e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")

TABLE_JS = "document.querySelector('[data-testid=table]')"
#: The longest name the server keeps (``MAX_NAME``), one word: it can wrap only anywhere.
LONG_NAME = "Bartholomew-Fitzwilliam-Montmorency-Smyt"
#: A seat's least tap target (WCAG 2.5.5, Apple's and Google's guides): 44 px each way.
TAP = 44


def seed_won_by(seat: str) -> int:
    """A seed whose cut ``seat`` wins."""
    return next(s for s in range(100) if seed_cut(s)[2] == seat)


def card_boxes(page: Any) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = page.eval_on_selector_all(
        "[data-testid=hand] > [data-card]",
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return {x: r.x, y: r.y, width: r.width, height: r.height}; })")
    return boxes


def with_query(link: str, query: str) -> str:
    """A seat's link (``/t/ID#token=T``) with a query before its fragment."""
    path, _, fragment = link.partition("#")
    return f"{path}?{query}#{fragment}"


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(w, 0) * max(h, 0)


def test_the_phone_cards_names_and_reconnecting(tmp_path_factory: pytest.TempPathFactory) -> None:
    with e2e.touch_page(tmp_path_factory.mktemp("phone-server"), e2e.PHONE) as (srv, page, errors):
        t = srv.post_json("/api/tables", {"opponent": "computer", "level": "random", "name": LONG_NAME,
                                          "seed": seed_won_by("B")})
        page.goto(srv.base + with_query(t["url"], "auto=0"))
        page.wait_for_function(f"() => {TABLE_JS}.dataset.phase !== ''")
        if page.get_by_test_id("table").get_attribute("data-phase") == "cut":  # he lets her deal: by twos
            page.get_by_test_id("deal-by-2").tap()
        # Twelve cards laid out (in the DOM before the table is shown, they measure nothing), and his turn to
        # discard: the computer, which deals or discards first, has nothing more to send that would lay the hand
        # out again while it is measured.
        page.wait_for_function("() => { const c = document.querySelectorAll('[data-testid=hand] > [data-card]'); "
                               f"return {TABLE_JS}.dataset.myTurn === 'true' && c.length === 12 "
                               "&& [...c].every(e => e.getBoundingClientRect().width > 0); }")

        # The cards: tap targets of 44 px at least, none covering another, two rows of six, all on the screen.
        boxes = card_boxes(page)
        small = [b for b in boxes if b["width"] < TAP or b["height"] < TAP]
        assert not small, f"cards smaller than {TAP} px: {small}"
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= e2e.PHONE["width"] for b in boxes), boxes
        covered = [(i, j) for i in range(12) for j in range(i + 1, 12) if overlap(boxes[i], boxes[j]) > 0]
        assert not covered, f"cards over one another: {covered}"
        rows = sorted({round(b["y"]) for b in boxes})
        assert len(rows) == 2 and [sum(round(b["y"]) == y for b in boxes) for y in rows] == [6, 6], boxes
        first = page.locator("[data-testid=hand] > [data-card]").first
        first.tap()
        assert first.get_attribute("aria-pressed") == "true"

        # The long name wraps inside the screen; the page is no wider than the phone.
        name = page.get_by_test_id("my-name")
        assert LONG_NAME in name.inner_text()
        lines = page.evaluate("""(e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
            return {right: r.right, lines: Math.round(r.height / (parseFloat(s.fontSize) * 1.15))}; }""",
                              name.element_handle())
        assert lines["right"] <= e2e.PHONE["width"] and lines["lines"] >= 2, lines
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= e2e.PHONE["width"], f"the page is {width} px wide on a {e2e.PHONE['width']} px screen"

        # The server goes away: a discard then is "not sent"; once the page is connected again, the error is gone.
        version = page.get_by_test_id("table").get_attribute("data-version")
        srv.stop()
        page.wait_for_selector("[data-testid=connection][data-state=waiting]")
        for card in page.locator("[data-testid=hand] > [data-card]").all()[1:3]:
            card.tap()
        page.get_by_test_id("discard-button").tap()
        page.get_by_test_id("confirm-exchange").tap()  # asked first (Law 24)
        page.get_by_test_id("error").wait_for(state="visible")
        assert "Not connected" in page.get_by_test_id("error-text").inner_text()
        with srv.log.open("ab") as out:  # the same server again: its port, its database
            srv.proc = subprocess.Popen(srv.proc.args, stdout=out, stderr=subprocess.STDOUT, cwd=srv.log.parent)
        srv.wait_up()
        # "Reconnect now", unless the page's own backoff has reconnected it meanwhile (the button then hidden).
        with contextlib.suppress(PlaywrightTimeout):
            page.get_by_test_id("reconnect-now").tap(timeout=3000)
        page.wait_for_selector("[data-testid=connection][data-state=open]")
        page.get_by_test_id("error").wait_for(state="hidden")
        assert page.get_by_test_id("table").get_attribute("data-version") == version  # nothing was played
        page.get_by_test_id("discard-button").tap()  # the same choice, sent now
        page.get_by_test_id("confirm-exchange").tap()
        page.wait_for_function(f"(v) => {TABLE_JS}.dataset.version !== v", arg=version)
        assert page.get_by_test_id("error").is_hidden()
        assert not errors, errors


def test_presence_and_adjournment_in_two_pages(tmp_path_factory: pytest.TempPathFactory) -> None:
    with e2e.touch_page(tmp_path_factory.mktemp("presence-server"), e2e.PHONE) as (srv, page, errors):
        t = srv.post_json("/api/tables", {"opponent": "person", "name": "Ann", "seed": seed_won_by("A")})
        page.goto(srv.base + with_query(t["url"], "auto=0"))
        presence = page.get_by_test_id("opponent-presence")
        presence.wait_for()
        assert presence.get_attribute("data-connected") == "false" and presence.inner_text() == "not connected"
        guest_ctx = page.context.browser.new_context(viewport=e2e.PHONE, is_mobile=True, has_touch=True)
        guest = guest_ctx.new_page()
        guest.on("pageerror", lambda e: errors.append(str(e)))
        guest.goto(srv.base + with_query(t["invite"], "name=Bob&auto=0"))
        page.wait_for_selector("[data-testid=opponent-presence][data-connected=true]")
        assert presence.inner_text() == "at the table"
        assert guest.get_by_test_id("opponent-presence").get_attribute("data-connected") == "true"
        assert page.get_by_test_id("sitting").is_hidden()
        guest.close()

        # Bob has gone: Ann is told, and may adjourn.
        page.wait_for_selector("[data-testid=opponent-presence][data-connected=false]")
        page.get_by_test_id("adjourn").tap()
        page.wait_for_function(f"() => {TABLE_JS}.dataset.status === 'adjourned'")
        assert "adjourned" in page.get_by_test_id("status").inner_text()
        assert page.get_by_test_id("take-up").is_visible()
        assert page.locator("[data-testid=actions] button").count() == 0  # nothing to choose while adjourned
        assert srv.table_row(t["table"], t["token"])["status"] == "adjourned"
        lobby = guest_ctx.new_page()
        lobby.goto(srv.base + "/")
        row = lobby.get_by_test_id(f"game-row-{t['table']}")
        row.wait_for()
        assert row.get_attribute("data-status") == "adjourned" and "adjourned" in row.inner_text()

        # Bob comes back by his link and takes the partie up; both pages go on.
        guest = guest_ctx.new_page()
        guest.goto(srv.base + with_query(t["invite"], "auto=0"))
        guest.get_by_test_id("take-up").tap()
        for p in (page, guest):
            p.wait_for_function(f"() => {TABLE_JS}.dataset.status === 'playing'")
            assert p.get_by_test_id("sitting").is_hidden()
        assert srv.table_row(t["table"], t["token"])["status"] == "playing"
        guest_ctx.close()
        assert not errors, errors
