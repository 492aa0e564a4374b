"""The guide to the game (docs/rules.md, ``piquet.talk.guide``): its topics and glossary, its figures against the
engine, ``piquet rules`` and ``rules`` at the terminal's prompts, the "How to play" page and the talk's terms
leading to its glossary; and a refusal citing a law says what the law says (``piquet.talk.laws``)."""

from __future__ import annotations

import html
import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

from piquet.cli.main import main
from piquet.core.cards import mask_of, parse_cards
from piquet.core.combinations import point_score, sequence_score, set_score
from piquet.talk import guide
from piquet.talk.laws import SAYS, cited, law_notes, with_law
from test_docs_laws import rows as law_rows
from test_terminal import play
from test_web import choose_to_deal, expect_error, new_table, receive, ws_path

ROOT = Path(__file__).resolve().parent.parent

#: The glossary the issue asks for (issue 16, item 1), each term as a player would look it up.
TERMS = ["elder", "younger", "carte blanche", "point", "tierce", "quart", "quint", "sixieme", "septieme",
         "huitieme", "quatorze", "trio", "sinking", "reckoning", "good", "equal", "not good", "pique", "repique",
         "capot", "the cards", "rubicon"]
#: The parts of the game the guide tells, in order, by a name a reader would type.
TOPICS = ["deal", "exchange", "calls", "play", "scoring", "rubicon", "au cent"]


def test_the_package_carries_docs_rules_md_as_it_is() -> None:
    """``piquet/talk/rules.md`` is package data (pyproject's package-data), and docs/rules.md is a link to it: one
    text, edited in one place."""
    assert guide.guide_text() == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert '"talk/rules.md"' in (ROOT / "pyproject.toml").read_text()


@pytest.mark.parametrize("term", TERMS)
def test_each_term_of_the_glossary_has_its_entry_and_its_anchor(term: str) -> None:
    entry = guide.find(term)
    assert entry is not None and entry.level == 3, term
    assert guide.slug(term) in entry.anchors
    assert entry.body.strip()
    page = guide.guide_html()
    assert f'id="{guide.slug(term)}"' in page


def test_each_part_of_the_game_is_a_topic_in_order() -> None:
    found = []
    for name in TOPICS:
        topic = guide.find(name)
        assert topic is not None, name
        found.append(topic)
    titles = [t.title for t in guide.topics()]
    # "rubicon" is a glossary entry; the partie's topic is found by its own name.
    assert guide.find("partie and the rubicon") is not None
    order = [titles.index(t.title) for t in found if t.level == 2]
    assert order == sorted(order)
    assert titles[-1] == guide.GLOSSARY


def test_an_unknown_topic_lists_the_topics() -> None:
    text = guide.rules_text("whist")
    assert "No topic named 'whist'" in text and "exchange" in text and "repique" in text


# ---------------------------------------------------------------- the figures, against the engine


def test_the_sequence_scores_are_the_engines() -> None:
    calls = guide.find("calls")
    assert calls is not None
    text = " ".join(calls.body.split())
    named = dict(re.findall(r"an? (tierce|quart|quint|sixieme|septieme|huitieme) \(\d(?: cards)?\)(?: scores)? (\d+)",
                            text))
    assert list(named) == ["tierce", "quart", "quint", "sixieme", "septieme", "huitieme"]
    for length, name in enumerate(named, start=3):
        run = mask_of(parse_cards(["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S"][:length]))
        assert int(named[name]) == sequence_score(run), name
    entry = guide.find("quint")
    assert entry is not None
    glossary = dict(re.findall(r"an? (tierce|quart|quint|sixieme|septieme|huitieme) (\d+)",
                               " ".join(entry.body.split()).replace("scores ", "")))
    assert glossary == named


def test_quatorzes_trios_and_the_point_score_as_the_engine_does() -> None:
    quatorze, trio = guide.find("quatorze"), guide.find("trio")
    assert quatorze is not None and trio is not None
    assert f"{set_score(mask_of(parse_cards('AS AH AC AD')))} points" in quatorze.body
    assert f"{set_score(mask_of(parse_cards('KS KH KC')))} points" in trio.body
    point = guide.find("point")
    assert point is not None and "one a card" in point.body
    assert point_score(mask_of(parse_cards("AS KS QS JS 9S"))) == 5


def test_the_worked_examples_add_up() -> None:
    """The guide's sums: the pique and the repique of p. 96-97, and the partie of p. 100 (Laws 72-73)."""
    from piquet.core.rules import RUBICON

    text = " ".join(guide.guide_text().split())
    for a, b, c, total in re.findall(r"(\d+) \+ (\d+) \+ (\d+) = (\d+)", text):
        assert int(a) + int(b) + int(c) == int(total)
    assert "5 + 15 + 3 = 23" in text and "5 + 15 + 14 = 34" in text
    assert "131 - 113 + 100 = 118" in text and "125 + 81 + 100 = 306" in text
    assert RUBICON.settle({"A": 131, "B": 113}).points_won == 118
    assert RUBICON.settle({"A": 125, "B": 81}).points_won == 306


# ---------------------------------------------------------------- piquet rules, and rules at a prompt


def test_piquet_rules_prints_the_guide_or_a_topic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    whole = capsys.readouterr().out
    assert whole.startswith("How to play Piquet") and "Glossary" in whole and "Repique" in whole
    assert main(["rules", "pique"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Pique\n") and "(Law 69)" in out and "Repique" not in out
    assert main(["rules", "the", "exchange"]) == 0
    assert capsys.readouterr().out.startswith("The exchange\n")
    assert main(["rules", "whist"]) == 2
    assert "The topics:" in capsys.readouterr().out


def test_rules_at_the_terminal_prompts(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = {1: ["rules", "rules repique", "help"], 3: ["rules the cards"]}
    code, out, _ = play(monkeypatch, "--seed", "11", extra=extra, quit_after=4)
    assert code == 0
    assert "The guide to the game: type rules and a topic" in out
    assert "Repique\n-------" in out and "30 in hand alone" in out
    assert "The cards\n---------" in out
    assert "how to play: rules TOPIC" in out  # in help


def test_a_refusal_in_the_terminal_says_what_the_law_says(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, "--seed", "11", extra={1: ["AS KS QS JS 10S 9S 8S"]}, quit_after=2)
    assert re.search(r"Not allowed: .*\(Law 21\)\. Law 21: The elder discards and takes in one to five\.", out), out


# ---------------------------------------------------------------- the laws' words


def test_the_laws_words_are_docs_laws_md() -> None:
    assert {row[0]: row[1] for row in law_rows()} == SAYS


def test_citations_are_found_and_explained() -> None:
    assert cited("it is in his discard, which he cannot retake (Laws 24-25)") == ["Law 24", "Law 25"]
    assert cited("(Law 54: call only what you hold)") == ["Law 54"]
    assert cited("see Law 67 V and Law 59 IV") == ["Law 67", "Law 59"]
    assert cited("(Laws 4, 9, 16, 71-73)") == ["Law 4", "Law 9", "Law 16", "Law 71", "Law 72", "Law 73"]
    assert cited("(Laws 40-43)") == []  # four laws: a chapter
    assert cited("nothing cited, p. 17") == []
    assert law_notes("(Case IV)") == [f"Case IV: {SAYS['Case IV']}"]
    assert with_law("no law here") == "no law here"


# ---------------------------------------------------------------- the browser's page


def test_the_how_to_play_page_is_served_escaped_with_its_anchors(client: TestClient) -> None:
    r = client.get("/rules")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert "<title>Piquet — how to play</title>" in page
    for topic in guide.topics():
        assert f'id="{topic.anchor}"' in page
    for term in TERMS:
        assert f'id="{guide.slug(term)}"' in page
    assert 'href="/"' in page  # back to the lobby
    # The guide's own words are escaped: quotes and ampersands never become markup.
    assert html.escape('"Cavendish"') in page
    assert "<script" not in page
    terms = client.get("/api/glossary").json()
    assert terms["page"] == "/rules"
    assert {"words": "repique", "anchor": "repique"} in terms["terms"]
    assert {"words": "not good", "anchor": "not-good"} in terms["terms"]


def test_the_lobby_and_the_table_link_to_the_guide(client: TestClient) -> None:
    assert 'href="/rules"' in client.get("/").text
    static = ROOT / "src" / "piquet" / "web" / "static"
    assert 'href="/rules"' in (static / "table.html").read_text()


def test_a_refusal_in_the_browser_says_what_the_law_says(client: TestClient, db: str) -> None:
    t = new_table(client, opponent="person", name="Ann", seed=41)
    choose_to_deal(client, t)
    with client.websocket_connect(ws_path(t)) as wa, client.websocket_connect(ws_path(t, "invite")) as wb:
        receive(wa)
        last: dict[str, Any] = {"A": receive(wa), "B": receive(wb)}
        mover = "A" if last["A"]["view"]["my_turn"] else "B"
        ws = wa if mover == "A" else wb
        hand = last[mover]["view"]["hand"]
        ws.send_text(json.dumps({"type": "action", "version": last[mover]["version"],
                                 "action": {"kind": "discard", "cards": hand[:6]}}))
        err = expect_error(ws, "illegal")
        assert "(Law 21)" in err["message"]
        assert err["message"].endswith("Law 21: The elder discards and takes in one to five.")


@pytest.mark.browser
def test_the_guide_in_the_browser_and_a_talk_term_leading_to_it(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The lobby's "How to play" opens the guide; at a table against the computer, the talk's words of the game
    are links to the glossary (``/rules#...``), built as elements, and the table links to the guide too."""
    e2e = pytest.importorskip("test_e2e", reason="the playwright package is missing")
    with e2e.touch_page(tmp_path_factory.mktemp("guide-server"), e2e.DESKTOP) as (srv, page, errors):
        page.goto(srv.base + "/")
        page.get_by_test_id("rules-link").click()
        page.wait_for_url("**/rules")
        assert page.locator("#repique").is_visible()
        assert page.locator("h1").inner_text() == "How to play Piquet"
        page.goto(srv.base + "/")
        page.get_by_test_id("level-select").select_option("simple")
        page.get_by_test_id("new-computer-game").click()
        page.wait_for_url("**/t/**")
        table = page.get_by_test_id("table")
        assert page.get_by_test_id("rules-link").get_attribute("href") == "/rules"
        link = page.locator("[data-testid=talk] a.term")
        for _ in range(40):
            if link.count():
                break
            page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.version !== ''")
            st = {"phase": table.get_attribute("data-phase"), "mine": table.get_attribute("data-my-turn"),
                  "version": table.get_attribute("data-version")}
            if st["mine"] != "true":
                page.wait_for_timeout(200)
                continue
            phase = st["phase"] or ""
            if phase == "cut":
                page.get_by_test_id("deal-yes").click()
            elif phase.endswith("discard"):
                page.locator("[data-testid=hand] > [data-card]").first.click(position=e2e.CARD_SPOT)
                page.get_by_test_id("discard-button").click()
                page.get_by_test_id("confirm-exchange").click()  # Law 24: the page asks first
            elif phase.endswith("look"):
                page.get_by_test_id("look-no").click()
            elif phase == "play":
                page.locator("[data-testid^=play-card-]").first.click(position=e2e.CARD_SPOT)
            else:
                page.locator("[data-testid=actions] button").first.click()
            page.wait_for_function("(v) => document.querySelector('[data-testid=table]').dataset.version !== v",
                                   arg=st["version"])
        assert link.count(), page.get_by_test_id("talk").inner_text()
        href = link.first.get_attribute("href") or ""
        assert re.fullmatch(r"/rules#[a-z-]+", href), href
        anchor = href.split("#", 1)[1]
        page.goto(srv.base + href)
        assert page.locator(f"[id='{anchor}']").count() == 1
        assert errors == []
