"""The one narrator (``piquet.talk.words``): its grammar for every name, "You" included, and the
declarations told in Law 67's order, over many random deals and parties."""

from __future__ import annotations

import random
import re

import pytest

from piquet.core.cards import FULL_PACK
from piquet.core.deal import Phase
from piquet.core.events import ELDER, POINT, SEQUENCES, SETS, YOUNGER, CallPoint, Play, Reply, Show
from piquet.core.partie import Partie
from piquet.core.rules import rules_named
from piquet.talk.words import Cards, Line, Narrator, narrate, settlement_words, verb

NAMES = [("You", "Computer"), ("Computer", "You"), ("Ann", "Bob")]
VERBS = ("lead", "play", "discard", "take", "keep", "look", "do", "show", "reach", "add", "win", "have", "are")
THIRD = ("leads", "plays", "discards", "takes", "keeps", "looks", "does", "shows", "reaches", "adds", "wins", "has",
         "is", "deals", "cuts", "elects")
WRONG_YOU = re.compile(r"\b[Yy]ou (" + "|".join(THIRD) + r")\b")
WRONG_THIRD = re.compile(r"\b(Ann|Bob|Computer) (" + "|".join(VERBS) + r")\b")


def check_grammar(text: str) -> None:
    assert not WRONG_YOU.search(text), text
    assert not WRONG_THIRD.search(text), text


def random_partie(spec: str, seed: int) -> Partie:
    """A whole partie of random legal actions."""
    rng = random.Random(seed)
    partie = Partie(rules_named(spec), first_dealer=rng.choice("AB"))
    while not partie.is_finished:
        deal = partie.deal_shuffled(rng)
        while not deal.is_over:
            deal.apply(deal.legal_actions().sample(rng))
    return partie


def _category(line: Line) -> int:
    """The category a showing tells, read from its words."""
    text = line.text
    if text.startswith(("In ", "Equal: point")):
        return POINT
    if re.search(r"tierce|quart|quint|sixieme|septieme|huitieme", text):
        return SEQUENCES
    return SETS


def check_law_67_order(lines: list[Line]) -> None:
    """Each hand's showings are told point, then sequences, then sets."""
    for role in (ELDER, YOUNGER):
        cats = [_category(ln) for ln in lines if ln.kind in ("show", "name_set") and ln.speaker == role]
        assert cats == sorted(cats), [ln.text for ln in lines if ln.speaker == role]


@pytest.mark.parametrize("spec", ["rubicon", "au-cent"])
@pytest.mark.parametrize("seed", range(12))
def test_the_narrator_over_random_parties(spec: str, seed: int) -> None:
    partie = random_partie(spec, seed)
    for names in NAMES:
        for deal in partie.deals:
            held = (deal.dealt[ELDER] | FULL_PACK, deal.dealt[YOUNGER])
            lines = narrate(deal.events, names, held)
            assert lines, "every deal is told"
            for line in lines:
                check_grammar(line.text)
                assert line.text == line.render(lambda c: c.plain)
            check_law_67_order(lines)
            plays = [ln for ln in lines if ln.kind == "play"]
            tricks = [ln for ln in lines if ln.kind == "trick"]
            assert len(tricks) == deal.trick - 1 and len(plays) in (2 * len(tricks), 2 * len(tricks) + 1)
        by_seat = {"A": names[0], "B": names[1]}
        words = settlement_words(partie.settlement(), partie.scores, partie.rules, by_seat, len(partie.deals),
                                 partie.deals_needed)
        check_grammar(words)
        if "You" in names and partie.settlement().winner is not None:
            winner = by_seat[partie.settlement().winner]
            assert (f"{winner} win the partie" if winner == "You" else f"{winner} wins the partie") in words


def test_second_person_for_you_third_for_others() -> None:
    assert verb("You", "leads") == "You lead" and verb("Ann", "leads") == "Ann leads"
    assert verb("You", "is") == "You are" and verb("You", "has") == "You have" and verb("You", "reaches") == "You reach"
    ann = narrate([Play(ELDER, 7, 1), Play(YOUNGER, 6, 1)], ("Ann", "You"))
    assert [ln.text for ln in ann] == ["Ann leads the ace of spades.", "You play the king of spades."]
    assert ann[0].segments[1] == Cards(1 << 7, words=True) and ann[0].trick == 1


def test_the_younger_is_told_point_then_sequences_then_sets() -> None:
    """The younger reckons a sequence the elder did not call before his point is shown as better than the
    elder's (the engine's order, which decides pique and repique); he is told point first (Law 67)."""
    hearts = 0b11111 << 11  # 10H to AH: a quint major in hearts
    events = [CallPoint(ELDER, 4), Reply(YOUNGER, POINT, 2), Play(ELDER, 0, 1),
              Show(YOUNGER, SEQUENCES, hearts, 15), Show(YOUNGER, POINT, hearts, 5)]
    lines = narrate(events, ("Ann", "You"))
    shows = [ln.text for ln in lines if ln.kind == "show"]
    assert shows[0].startswith("In hearts: five.") and shows[1].startswith("Quint major in hearts: twenty.")
    # Told as the deal goes: held until the reckoning ends, then in order.
    n = Narrator(("Ann", "You"))
    assert [ln.kind for ln in n.lines(events[:4], hold=True)] == ["call_point", "reply", "play"]
    assert [ln.text[:8] for ln in n.lines(events[4:], hold=True)] == []
    assert [ln.text[:8] for ln in n.flush()] == ["In heart", "Quint ma"]


def test_a_real_deal_where_the_younger_reckons_out_of_the_engines_order() -> None:
    """Over random deals: some younger reckoned a category before one shown later by the engine."""
    seen = 0
    for seed in range(300):
        rng = random.Random(seed)
        partie = Partie(rules_named("rubicon"))
        deal = partie.deal_shuffled(rng)
        while not deal.is_over and deal.phase != Phase.PLAY or deal.trick == 1 and not deal.is_over:
            deal.apply(deal.legal_actions().sample(rng))
        cats = [e.category for e in deal.events if type(e) is Show and e.role == YOUNGER and e.points]
        if cats != sorted(cats):
            seen += 1
            check_law_67_order(narrate(deal.events, ("Ann", "Bob")))
    assert seen, "no deal showed the engine's order differing from Law 67's"


def test_a_view_told_step_by_step_is_the_log_told_whole() -> None:
    """The web view tells only the new events of a deal it told before (and afresh after an undo): the lines are
    those of telling the whole log again, at every step, for both seats."""
    import random

    from piquet.core.deal import Deal
    from piquet.core.observation import observe
    from piquet.web.protocol import seat_lines

    names = {"A": "Ann", "B": "Bob"}
    for seed in range(12):
        rng = random.Random(seed)
        deal = Deal.shuffled(rng)
        steps = 0
        while not deal.is_over:
            deal.apply(deal.legal_actions().sample(rng))
            steps += 1
            if steps % 17 == 0:
                deal.undo()
            for role, seat in ((0, "A"), (1, "B")):
                obs = observe(deal, role)
                assert seat_lines(obs, names, ("A", "B"), seat, deal) == seat_lines(obs, names, ("A", "B"), seat)
