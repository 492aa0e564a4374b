"""The marker: scoring in Law 67's order, refusals, the partie, irregularities, records, and ``piquet mark``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from piquet.cli.main import build_parser, main
from piquet.cli.mark import run_mark
from piquet.core.combinations import Outcome
from piquet.core.events import ELDER, YOUNGER
from piquet.core.rules import AU_CENT, FOUR_DEAL, RUBICON
from piquet.marker import (
    CardPlay,
    Declared,
    FullCalls,
    MarkedDeal,
    MarkedPartie,
    MarkError,
    PlayTotals,
    PointCall,
    QuickScores,
    SequenceCall,
    SetCall,
    hand_fits,
)
from piquet.marker.record import marked_from_json, marked_to_json
from piquet.records.record import RecordError, load_record, parse_record

G, E, N = Outcome.GOOD, Outcome.EQUAL, Outcome.NOT_GOOD
ROOT = Path(__file__).resolve().parent


def britannica() -> MarkedDeal:
    """The treatise's example (p. 103-105) by its calls: A 28, B 23."""
    ann = Declared(PointCall(5, 49), (SequenceCall(4, 7),), (SetCall(3, 4),))
    bob = Declared(PointCall(5, 48), (), (SetCall(4, 3), SetCall(3, 5)))
    rec = load_record(ROOT / "data/records/britannica-example.json")
    return MarkedDeal("B", declarations=FullCalls(ann, (G, G, N), bob), play=CardPlay(rec.deals[0].play))


def test_the_treatise_example_by_its_calls() -> None:
    s = britannica().score(RUBICON)
    assert (s.total(ELDER), s.total(YOUNGER)) == (28, 23)
    assert [(x.role, x.kind) for x in s.order[:4]] == [(0, 1), (0, 2), (1, 3), (1, 3)]  # Law 67's order
    assert s.heading(ELDER, "cards") == 10 and s.tricks == (7, 5)


def test_repique_pique_capot_and_carte_blanche() -> None:
    # Repique: quint (15) + quatorze (14) + point 6 = 35 in hand, the younger nothing: sixty more (Law 68).
    d = MarkedDeal("B", declarations=QuickScores((6, 15, 14), (0, 0, 0)), play=PlayTotals(7, 10, 7))
    s = d.score()
    assert s.heading(ELDER, "repique") == 60 and s.heading(ELDER, "pique") == 0
    # Pique: the elder 20 in hand, 13 in play; the younger scored nothing in play: certain (Law 69).
    d = MarkedDeal("B", declarations=QuickScores((5, 15, 0), (0, 0, 0)), play=PlayTotals(12, 13, 0))
    s = d.score()
    assert s.heading(ELDER, "pique") == 30 and s.heading(ELDER, "cards") == 40  # a capot (Law 66)
    # The younger scored in play: ask, never guess.
    d = MarkedDeal("B", declarations=QuickScores((5, 15, 0), (0, 0, 0)), play=PlayTotals(8, 12, 7))
    with pytest.raises(MarkError, match="pique"):
        d.score()
    assert d.with_(play=PlayTotals(8, 12, 7, pique=True)).score().heading(ELDER, "pique") == 30
    assert d.with_(play=PlayTotals(8, 12, 7, pique=False)).score().heading(ELDER, "pique") == 0
    # A carte blanche scores ten first, and still scores when its holder reckons nothing (Case XXI).
    d = MarkedDeal("B", carte_blanche=YOUNGER, declarations=QuickScores((5, 0, 0), (0, 4, 0)),
                   play=PlayTotals(6, 7, 7), reckons_nothing=frozenset({YOUNGER}))
    s = d.score()
    assert s.order[0].kind == 0 and s.total(YOUNGER) == 10 and s.total(ELDER) == 12


@pytest.mark.parametrize("decl, law", [
    (Declared(PointCall(5, 52)), "Law 62"),
    (Declared(PointCall(9)), "Law 62"),
    (Declared(None, (SequenceCall(5, 3),)), "Law 63"),
    (Declared(None, (), (SetCall(4, 2),)), "Law 64"),
    (Declared(None, (SequenceCall(8, 7), SequenceCall(5, 7))), "Laws 62-64"),  # thirteen cards
    (Declared(PointCall(8), (), (SetCall(4, 7), SetCall(4, 6))), "Laws 62-64"),  # fourteen
    (Declared(None, (SequenceCall(3, 7, 1), SequenceCall(3, 4, 1))), "Laws 62-64"),  # A K Q J 10 9 of hearts: one
])
def test_calls_that_cannot_be(decl: Declared, law: str) -> None:
    with pytest.raises(MarkError) as e:
        MarkedDeal("B", declarations=FullCalls(decl, tuple(G if decl.has(c) else None for c in range(3)))).score()
    assert e.value.law == law


def test_five_cards_make_44_to_51() -> None:
    for v in range(44, 52):
        PointCall(5, v).check()
    assert hand_fits(Declared(PointCall(5, 51), (SequenceCall(5, 7),), (SetCall(4, 7),)))


def test_replies_must_follow_the_calls() -> None:
    ann = Declared(PointCall(5, 49))
    with pytest.raises(MarkError, match="not good"):
        MarkedDeal("B", declarations=FullCalls(ann, (G, None, None), Declared(PointCall(6)))).score()
    with pytest.raises(MarkError, match="What do they make"):
        MarkedDeal("B", declarations=FullCalls(Declared(PointCall(5)), (N, None, None),
                                               Declared(PointCall(5, 50)))).score()
    with pytest.raises(MarkError, match="Law 64"):
        MarkedDeal("B", declarations=FullCalls(Declared(None, (), (SetCall(3, 7),)), (None, None, E))).score()


@given(st.integers(0, 60))
def test_quick_scores_the_laws_cannot_make(v: int) -> None:
    ok = v in {0, 3, 6, 9, 12, 14, 17, 20, 28, 31, 42}
    d = MarkedDeal("B", declarations=QuickScores((0, 0, v), (0, 0, 0)))
    if ok:
        d.score()
    else:
        with pytest.raises(MarkError, match="Law 64"):
            d.score()


def test_play_totals_that_cannot_be() -> None:
    for play in (PlayTotals(13, 0, 0), PlayTotals(6, 13, 13), PlayTotals(12, 40, 0)):
        with pytest.raises(MarkError, match="Law 65"):
            MarkedDeal("B", play=play).score()


def quick(dealer: str, a: int = 7, b: int = 7, point: int = 0) -> MarkedDeal:
    """A deal of six tricks each: the elder's point, then ``a`` and ``b`` in play."""
    return MarkedDeal(dealer, declarations=QuickScores((point, 0, 0), (0, 0, 0)), play=PlayTotals(6, a, b))


def test_a_rubicon_partie_and_its_settlement() -> None:
    p = MarkedPartie(players=("Ann", "Bob"))
    for i in range(6):
        p = p.add(quick("B", 8, 7, point=5) if i % 2 == 0 else quick("A", 7, 7))
    assert p.is_finished and p.scores == {"A": 60, "B": 42}
    s = p.settlement()
    assert (s.winner, s.rubicon, s.points_won) == ("A", True, 202)  # Law 73
    with pytest.raises(MarkError, match="over"):
        p.add(quick("B"))


def test_a_tie_runs_to_extra_deals_and_the_four_deal_doubles() -> None:
    p = MarkedPartie()
    for i in range(6):
        p = p.add(quick("B" if i % 2 == 0 else "A", 7, 7))
    assert p.scores == {"A": 42, "B": 42} and p.deals_needed == 8 and not p.is_finished
    f = MarkedPartie(FOUR_DEAL).add(quick("B", 7, 7))
    assert f.scores == {"A": 14, "B": 14}


def test_au_cent_stops_at_the_goal() -> None:
    p = MarkedPartie(AU_CENT)
    d = MarkedDeal("B", declarations=QuickScores((8, 32, 42), (0, 0, 0)), play=PlayTotals(12, 13, 0))
    p = p.add(d)
    s = p.deal_scores[0]
    assert s is not None and s.game_won == (ELDER, True)
    assert p.settlement().tally == {"A": 2, "B": 0}


def test_irregularities() -> None:
    p = MarkedPartie().add(quick("B"))
    annulled = p.annul()
    assert annulled.next_dealer == "A" and annulled.scores == p.scores  # the same dealer deals afresh
    void = p.void("B")  # B dealt out of turn, found at once: void, A (the right dealer) deals
    assert void.next_dealer == "A" and len(void.scores_after) == 1
    late = p.add(MarkedDeal("B", out_of_turn=True, declarations=QuickScores(), play=PlayTotals(6, 7, 7)))
    assert late.next_dealer == "A"
    late = late.add(quick("A"))
    assert late.next_dealer == "A"  # the elder of the deal out of turn deals twice running (Law 16)
    pen = p.reckons_nothing(0, "A")
    assert pen.scores["A"] == 0
    assert pen.waive(0, "A").scores == p.scores  # the adversary waives it (Law 44)
    p2 = p.add(quick("A"))
    with pytest.raises(MarkError, match="Law 70"):
        p2.correct(0, quick("B", 8, 7))
    assert p2.correct(1, quick("A", 8, 7)).scores != p2.scores


def test_records_round_trip_and_old_records_are_refused_clearly(tmp_path: Path) -> None:
    p = MarkedPartie(players=("Ann", "Bob")).add(britannica()).add(quick("A")).annul()
    text = marked_to_json(p)
    assert marked_from_json(text) == p
    doc = json.loads(text)
    assert doc["marked"] is True and doc["deals"][0]["declared"]["replies"]["sets"] == "not good"
    with pytest.raises(RecordError, match="marked"):
        parse_record(text)
    assert parse_record((ROOT / "data/records/britannica-example.json").read_text()).deals


def test_replay_and_settle_read_a_marked_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = MarkedPartie(players=("Ann", "Bob")).add(britannica())
    for i in range(5):
        p = p.add(quick("A" if i % 2 == 0 else "B"))
    path = tmp_path / "m.json"
    path.write_text(marked_to_json(p))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert '"What do they make?"' in out and "Ten for the cards: twenty-eight." in out
    assert "wins the partie" in out
    assert main(["settle", str(path), "--stake", "10s a hundred"]) == 0
    assert "Ann" in capsys.readouterr().out


def test_piquet_mark_scripted_over_a_partie(tmp_path: Path) -> None:
    answers = ["Bob", "none", "calls", "5 49", "good", "4 A", "good", "3 J", "not good", "none", "none",
               "4 10, 3 Q", "7 9 6"]
    answers += ["", "", "scores", "5 0 0", "undo", "6 0 0", "0 3 0", "9 9 6", "7 9 6"]  # an undo, a refusal
    for _ in range(4):
        answers += ["", "", "", "", "", "6 7 7"]
    path = tmp_path / "m.json"
    it = iter(answers)

    def ask(prompt: str) -> str:
        return next(it)

    out = io.StringIO()
    ns = build_parser().parse_args(["mark", "--names", "Ann", "Bob", "--record", str(path), "--stake", "10s a hundred"])
    assert run_mark(ns, ask, Console(file=out, width=200)) == 0
    text = out.getvalue()
    assert "That cannot be" in text and "Taken back." in text
    p = marked_from_json(path.read_text())
    assert p.is_finished and p.scores == {"A": 65, "B": 76}
    assert "Bob wins the partie, and Ann is rubiconed (under 100): 76 + 65 + 100 = 241 points (Law 73)." in text


def _pick(kind: str) -> str:
    """The number ``piquet mark`` lists an irregularity by."""
    from piquet.core.referee import IRREGULARITIES
    return str([e.kind.value for e in IRREGULARITIES].index(kind) + 1)


def test_piquet_mark_something_went_wrong_in_each_group(tmp_path: Path) -> None:
    """``wrong`` at a prompt: the irregularity, its facts, the ruling, the choice, applied to the score; one of
    each group (the cut and the deal, the exchange, thirteen cards, calling, the play, scoring)."""
    answers = ["help", "wrong", _pick("cut-to-dealer-exposed"),  # Law 7: cut again, told
               "Bob", "none", "scores", "5 0 0", "0 3 0", "6 7 7"]  # deal 1: Ann 12, Bob 10
    answers += ["wrong", _pick("out-of-turn"), "no", "no",  # Law 16: Bob dealt out of turn, found at once: void
                "", "none", "scores",
                "wrong", _pick("took-more"), "younger", "1",  # Law 35: Ann (younger) reckons nothing, Bob enforces
                "5 0 0", "0 4 0", "6 7 7"]  # deal 2: Bob 12, Ann 0
    answers += ["", "none", "scores",
                "wrong", _pick("wrong-count"), "yes", "13", "11", "8", "yes", "no",  # Law 39: stands, Law 40's limits
                "0 0 14", "5 0 0", "6 7 7"]  # deal 3: Ann 21, Bob 12
    answers += ["", "none", "scores", "4 0 0", "0 0 3",
                "wrong", _pick("revoke"), "Ann",  # Law 59 IV: taken back, nothing changes in the score
                "6 7 7"]  # deal 4: Bob 11, Ann 10
    answers += ["", "none", "scores",
                "wrong", _pick("overcall"), "Ann", "yes", "yes", "no", "no", "1",  # Law 54: Ann reckons nothing
                "0 0 3", "5 0 0", "6 7 7"]  # deal 5: Ann 0, Bob 12
    answers += ["wrong", _pick("miscounted"), "Bob", "no", "5", "0 0 3", "6 0 0", "6 7 7",  # Law 70: Bob's six
                "", "none", "scores", "5 0 0", "0 0 0", "6 7 7"]  # deal 6: Bob 12, Ann 7
    path = tmp_path / "m.json"
    it = iter(answers)
    out = io.StringIO()
    ns = build_parser().parse_args(["mark", "--names", "Ann", "Bob", "--record", str(path)])
    assert run_mark(ns, lambda prompt: next(it), Console(file=out, width=200)) == 0
    text = out.getvalue()
    for said in ("wrong (something went wrong", "Law 7:", "The deal is void", "Ann reckons nothing this deal",
                 "Law 39:", "Law 40", "Law 59 IV:", "Nothing changes in the score", "Law 54:", "Bob chooses",
                 "Deal 5 is corrected (Law 70)"):
        assert said in text, said
    p = marked_from_json(path.read_text())
    assert [d.status for d in p.deals].count("void") == 1
    assert p.is_finished and p.scores == {"A": 50, "B": 70}
    assert "Bob wins the partie, and Ann is rubiconed (under 100): 70 + 50 + 100 = 220 points (Law 73)." in text


def test_a_game_lost_at_au_cent_counts_in_the_partie(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Au cent p. 17 (3): the elder mixing with his hand a bottom card of the stock, or the younger taking up any
    of the top five, loses the game.  The deal scores nothing; the adversary wins the game, a single one (the law
    says nothing of a double), the next game begins at nothing, the deals alternating; three games win the
    partie (p. 20).  The record keeps it, and older records read as before."""
    from piquet.core.referee import Irregularity, Kind, rule
    from piquet.marker.wrong import Pending, apply_choice

    p = MarkedPartie(AU_CENT, ("Ann", "Bob"), "B")
    p = p.add(MarkedDeal("B", declarations=QuickScores((5, 4, 0), (0, 0, 17)), play=PlayTotals(7, 9, 6)))
    assert p.scores == {"A": 28, "B": 23} and p.next_dealer == "A"
    # Deal 2, Ann dealing: Bob (elder) mixes a bottom card of the stock with his hand, and loses game 1.
    r = rule(Irregularity(Kind.ELDER_TOOK_YOUNGERS, mixed=True), AU_CENT)
    assert r.law == "p. 17 (3)" and [o.remedy.name for o in r.options] == ["GAME_LOST"] and r.options[0].role == ELDER
    done = apply_choice(p, r, r.options[0], Pending("A"))
    assert done.deal_over and "Bob loses the game (p. 17 (3)): Ann wins it, a single game" in done.says
    p = done.partie
    assert p.deals[-1] == MarkedDeal("A", status="lost", lost_by=ELDER)
    (game,) = p.games
    assert (game.winner, game.double, game.forfeit, game.scores) == ("A", False, True, {"A": 28, "B": 23})
    assert p.settlement().tally == {"A": 1, "B": 0} and not p.is_finished
    assert p.game_scores == {"A": 0, "B": 0} and p.next_dealer == "B"  # game 2 at nothing; the deals alternate
    # Game 2: deal 3 scored (Bob dealing), then Ann (the younger of deal 4) takes up one of the elder's five.
    p = p.add(MarkedDeal("B", declarations=QuickScores((0, 0, 0), (6, 0, 0)), play=PlayTotals(6, 7, 7)))
    assert p.scores == {"A": 7, "B": 13}
    p = p.lose_game("A")
    assert p.deals[-1] == MarkedDeal("A", status="lost", lost_by=YOUNGER)
    assert p.settlement().tally == {"A": 1, "B": 1}
    # Games 3 and 4 lost by Bob at nothing, younger (deal 5) then elder (deal 6): single games still.
    p = p.lose_game("B")
    assert p.deals[-1] == MarkedDeal("B", status="lost", lost_by=YOUNGER) and not p.is_finished
    p = p.lose_game("B")
    assert p.is_finished and p.settlement().winner == "A" and p.settlement().tally == {"A": 3, "B": 1}
    with pytest.raises(MarkError, match="the partie is over"):
        p.lose_game("A")
    # The record keeps it; replay tells it; settle reads it.
    text = marked_to_json(p)
    assert '{"dealer": "A", "status": "lost", "lost_by": "elder"}' in text
    assert marked_from_json(text) == p
    path = tmp_path / "au-cent.json"
    path.write_text(text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Deal 2: Ann deals; Bob is elder hand." in out
    assert "  Bob loses the game (p. 17 (3)): Ann wins it, a single game, and nothing of the deal is scored. The " \
           "game stood at Ann 28, Bob 23." in out
    assert ("Ann wins the partie, three games to one: game 1 to Ann, lost by Bob at 28 to 23 (p. 17); game 2 to "
            "Bob, lost by Ann at 13 to 7 (p. 17); game 3 to Ann, lost by Bob at 0 to 0 (p. 17); game 4 to Ann, lost "
            "by Bob at 0 to 0 (p. 17) (p. 20).") in out
    # Older records (no "lost_by") read as before; a game is lost only at a game of so many up.
    old = json.loads(text)
    old["deals"] = old["deals"][:1]
    assert marked_from_json(json.dumps(old)).deals == p.deals[:1]
    with pytest.raises(MarkError, match="a game is lost only at a game of so many up"):
        MarkedPartie(players=("Ann", "Bob")).lose_game("A")
    with pytest.raises(MarkError, match="says who lost it"):
        marked_from_json(json.dumps(old | {"deals": [{"dealer": "B", "status": "lost"}]}))


def test_piquet_mark_marks_a_game_lost_at_au_cent(tmp_path: Path) -> None:
    """``wrong`` at au cent: the elder mixing a bottom card of the stock with his hand loses the game (p. 17 (3));
    the terminal applies it (no longer only tells it), and the record keeps it."""
    answers = ["Bob", "none", "scores", "5 4 0", "0 0 17", "7 9 6",  # deal 1: Ann 28, Bob 23
               "wrong", _pick("elder-took-youngers"), "yes"]  # deal 2, Ann dealing: Bob (elder) loses game 1
    path = tmp_path / "m.json"
    it = iter(answers)

    def ask(prompt: str) -> str:
        for answer in it:
            return answer
        raise EOFError  # the end of input: the record is saved

    out = io.StringIO()
    ns = build_parser().parse_args(["mark", "--rules", "au-cent", "--names", "Ann", "Bob", "--record", str(path)])
    assert run_mark(ns, ask, Console(file=out, width=200)) == 0
    text = out.getvalue()
    assert "p. 17 (3): The elder mixing with his hand a bottom card" in text and "nobody chooses" in text
    assert "Bob loses the game (p. 17 (3)): Ann wins it, a single game; nothing of the deal is scored, and Bob " \
           "deals the next." in text
    p = marked_from_json(path.read_text())
    assert p.deals[-1] == MarkedDeal("A", status="lost", lost_by=ELDER) and p.settlement().tally == {"A": 1, "B": 0}
    assert p.next_dealer == "B" and p.game_scores == {"A": 0, "B": 0}
