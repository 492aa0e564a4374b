"""Variants as objects: each variant answers the engine's questions through its rules object (python-chess's
``variant.py``), and no module outside ``core/rules.py`` checks which variant it is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from piquet.core.cards import FULL_PACK
from piquet.core.rules import AU_CENT, FOUR_DEAL, RUBICON, Rules, rules_named

SRC = Path(__file__).resolve().parent.parent / "src" / "piquet"

#: What asks which variant is in force, rather than asking the variant.
_TYPE_CHECKS = re.compile(r"goal is None|goal is not None|AuCentRules")



def test_no_module_outside_the_rules_checks_which_variant_it_is() -> None:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        if name == "core/rules.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _TYPE_CHECKS.search(line):
                found.append(f"  src/piquet/{name}:{n}: {line.strip()}")
    assert not found, ("these lines check which variant is in force (`goal is None`, `goal is not None`, "
                       "`AuCentRules`); ask the rules object instead (`rules.partie_of_games`, "
                       "`rules.is_last_deal(...)`, `rules.line`, `rules.games_to_win`, ... in core/rules.py), "
                       "or add the hook the question needs there:\n" + "\n".join(found))


#: Each variant's answers: partie of games, games to win, small cards count, the law ending the partie,
#: the line, whether deal 6 of 6 and deal 4 of 4 are the last, the deals to come after deal 2 of 6.
ANSWERS = {
    "rubicon": (False, 0, True, "Law 71", 100, True, True, 4),
    "four-deal": (False, 0, True, "Law 71", 100, True, True, 4),
    "au-cent": (True, 3, True, "p. 20", 100, False, False, 1),
    "au-cent+small-cards": (True, 3, False, "p. 20", 100, False, False, 1),
    "au-cent+fours": (True, 3, True, "p. 20", 100, False, False, 1),
    "au-cent+small-cards+fours": (True, 3, False, "p. 20", 100, False, False, 1),
}


@pytest.mark.parametrize("spec", list(ANSWERS))
def test_each_variant_answers_its_questions(spec: str) -> None:
    rules = rules_named(spec)
    answers = (rules.partie_of_games, rules.games_to_win, rules.small_cards_count, rules.partie_end_law,
               rules.line, rules.is_last_deal(6, 6), rules.is_last_deal(4, 4), rules.deals_to_come(2, 6))
    assert answers == ANSWERS[spec]


@pytest.mark.parametrize("spec", list(ANSWERS))
def test_the_answers_agree_with_the_terms(spec: str) -> None:
    """The hooks say what the variant's terms already imply: a goal makes a partie of games, whose goal is the
    line; the small cards count when every card counts in play; the last deal is the one with none to come."""
    rules = rules_named(spec)
    assert rules.partie_of_games == (rules.goal is not None)
    if rules.partie_of_games:
        assert rules.line == rules.goal and rules.games_to_win > 0
    else:
        assert rules.line == rules.rubicon and rules.games_to_win == 0
    assert rules.small_cards_count == (rules.counting_cards == FULL_PACK)
    for number in range(1, 10):
        for in_partie in range(number, 10):
            assert rules.is_last_deal(number, in_partie) == (rules.deals_to_come(number, in_partie) == 0)


def test_a_partie_of_games_has_games_and_a_partie_of_deals_none() -> None:
    """A deal that takes a player to a hundred ends a game at au cent (p. 20); at Rubicon it ends nothing."""
    deals = [{"A": 60, "B": 20}, {"A": 50, "B": 25}]  # a hundred and ten to forty-five: a double
    assert RUBICON.games(RUBICON.running_scores(deals)) == FOUR_DEAL.games(FOUR_DEAL.running_scores(deals)) == ()
    (game,) = AU_CENT.games(AU_CENT.running_scores(deals))
    assert game.winner == "A" and game.double and game.counts == 2


def test_a_new_variant_plugs_in_by_its_hooks() -> None:
    """A variant is a subclass answering the questions: nothing outside the rules needs to know its type."""

    class EightDeal(Rules):
        name = "eight-deal"
        deals = 8

    rules = EightDeal()
    assert not rules.partie_of_games and rules.partie_end_law == "Law 71"
    assert rules.deals_to_come(3, rules.deals_needed([])) == 5 and rules.is_last_deal(8, rules.deals_needed([]))
