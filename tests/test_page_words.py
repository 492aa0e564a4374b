"""The words the interfaces show, made once by the narrator (piquet.talk.words): the labels of the choices, the
phase prompt, the cut and the choice of deal, the headline at the end, a call with its value at Piquet au cent.
The browser shows them as the server sends them (the VIEW's "prompt", each option's "label", "cut"'s "words",
the settlement's "headline"); the terminal prints the same."""

from __future__ import annotations

import random

from piquet.core.actions import DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import mask_of, parse_card
from piquet.core.deal import Deal, Phase
from piquet.core.events import ELDER, GOOD, POINT, SCORE_KINDS, YOUNGER, AskValue, CallPoint, CallValue, Reply
from piquet.core.observation import PartieContext, observe
from piquet.core.partie import Partie
from piquet.core.rules import AU_CENT, Game
from piquet.talk.words import (
    SCORE_LABELS,
    action_words,
    choice_prompt,
    cut_words,
    deal_by_label,
    deal_label,
    deal_stopped_words,
    deal_words,
    dealer_words,
    declaration_button,
    declaration_words,
    discard_labels,
    discard_words,
    game_news_words,
    look_label,
    narrate,
    partie_headline,
    play_label,
    prompt_words,
    turn_words,
)
from piquet.web.protocol import options


def m(*cards: str) -> int:
    return mask_of(parse_card(c) for c in cards)


def test_a_declaration_in_words() -> None:
    runs = DeclareSequences((m("KH", "QH", "JH", "10H", "9H"), m("AS", "KS", "QS")))
    assert declaration_words(runs) == "Quint to a king in hearts and tierce major in spades"
    assert declaration_words(DeclarePoint(m("AH", "KH", "QH", "JH", "8H"))) == \
        "Point of five, making forty-nine in hearts"
    assert declaration_words(DeclareSets((m("KS", "KH", "KC", "KD"), m("AS", "AH", "AC")))) == \
        "Four kings and three aces"
    assert declaration_words(DeclareSequences((m("10C", "9C", "8C", "7C"), m("AD", "KD", "QD"),
                                               m("QS", "JS", "10S")))) == \
        "Quart minor in clubs, tierce major in diamonds and tierce to a queen in spades"
    assert [declaration_words(a) for a in (DeclarePoint(0), DeclareSequences(()), DeclareSets(()))] == \
        ["No point", "No sequence", "No quatorze or trio"]


def test_an_action_in_words_as_advice_is_told() -> None:
    assert action_words(Play(parse_card("AS"))) == "play the ace of spades"
    assert action_words(Discard(m("9C", "7S", "8D"))) == "discard three: 7S 9C 8D"
    assert action_words(Discard(0)) == "keep all the cards (discard none)"
    assert action_words(LookAtLeft(False)) == "not look at the cards left"
    assert action_words(DeclarePoint(m("AH", "KH", "QH", "JH", "8H"))) == \
        "declare: Point of five, making forty-nine in hearts"
    assert action_words(DeclareSets(())) == "declare nothing (no quatorze or trio)"


def test_the_labels_of_the_choices() -> None:
    assert discard_labels(3) == ["Discard", "Discard one", "Discard two", "Discard three"]
    assert discard_words(1, 5) == "Discard one to five cards"
    assert discard_words(0, 3) == "Discard up to three cards, or keep all your cards"
    assert [deal_label(True, 2), deal_label(True, 3), deal_label(True), deal_label(False),
            deal_label(False, other="Cy")] == ["Deal by twos", "Deal by threes", "Deal", "Let your adversary deal",
                                               "Let Cy deal"]
    assert [deal_by_label(2), deal_by_label(3)] == ["By twos", "By threes"]
    assert list(SCORE_LABELS) == list(SCORE_KINDS) and SCORE_LABELS["cards"] == "The cards"


def test_the_prompt_of_each_phase() -> None:
    deal = Deal.from_pack(list(range(32)))
    elder, younger = observe(deal, ELDER), observe(deal, YOUNGER)
    assert prompt_words(elder, "Bob") == "You are elder hand: discard one to five cards and take in as many (Law 21)."
    assert prompt_words(younger, "Ann") == "Ann, elder hand, is exchanging."
    rng = random.Random(5)
    while deal.phase != Phase.PLAY:
        deal.apply(observe(deal, deal.to_move).sample(rng))  # type: ignore[arg-type]
    leader = deal.to_move
    assert leader is not None
    assert prompt_words(observe(deal, leader), "Bob") == "Trick one of twelve: your lead."
    assert prompt_words(observe(deal, 1 - leader), "Ann") == "Trick one of twelve: Ann to lead."
    card = next(iter(observe(deal, leader).legal_actions()))
    deal.apply(card)
    assert isinstance(card, Play)
    while deal.phase != Phase.PLAY:  # the younger reckons, and may look at the cards left, before he plays
        deal.apply(observe(deal, deal.to_move).sample(rng))  # type: ignore[arg-type]
    follower = observe(deal, 1 - leader)
    said = prompt_words(follower, "Ann")
    assert said.startswith("Trick one of twelve: play to the ") and said.endswith(".")
    assert choice_prompt("deal_by", True, "Ann") == \
        "Ann lets you deal: deal by two or by three cards at a time, for the whole partie (Law 9)."
    assert choice_prompt("deal", False, "Ann") == "Ann won the cut and is choosing whether to deal first (Law 4)."


def test_the_younger_at_au_cent_may_keep_all() -> None:
    partie = Partie(AU_CENT, "A", 2)
    deal = partie.deal_cards(*_dealt(list(range(32))))
    deal.apply(Discard(m("7S")))
    assert deal.phase in (Phase.ELDER_LOOK, Phase.YOUNGER_DISCARD)
    if deal.phase == Phase.ELDER_LOOK:
        deal.apply(LookAtLeft(False))
    said = prompt_words(observe(deal, YOUNGER), "Ann")
    assert said.startswith("You are younger hand: discard up to ") and said.endswith("or keep all your cards (p. 17).")


def _dealt(order: list[int]) -> tuple[int, int, tuple[int, ...]]:
    d = Deal.from_pack(order)
    return d.hands[ELDER], d.hands[YOUNGER], tuple(d.stock)


def test_the_strongest_declaration_comes_first() -> None:
    """The page takes the first option as the usual call (what the hand holds in that category): it declares
    the most cards, and of points as many, the highest."""
    rng = random.Random(11)
    seen = 0
    for _ in range(300):
        order = list(range(32))
        rng.shuffle(order)
        deal = Deal.from_pack(order)
        while deal.phase != Phase.PLAY and deal.to_move is not None:
            obs = observe(deal, deal.to_move)
            opts = options(obs)
            if opts and opts[0]["kind"] in ("point", "sequences", "sets"):
                def weight(o: dict[str, object]) -> tuple[int, str]:
                    cards = o.get("cards") or [c for item in o.get("runs") or o.get("sets") or [] for c in item]
                    return len(cards), str(o["label"])  # type: ignore[arg-type]
                assert weight(opts[0])[0] == max(weight(o)[0] for o in opts), opts
                assert all(o["label"] for o in opts) and opts[-1]["label"].startswith("No ")
                seen += 1
            deal.apply(obs.sample(rng))
    assert seen > 300


def test_an_au_cent_call_and_its_value_are_one_line() -> None:
    """At Piquet au cent the elder says what his point makes with his call (p. 18): one line, in the terminal
    and the browser alike; in Rubicon Piquet the value is asked for and told apart (Law 46)."""
    au_cent = narrate([CallPoint(ELDER, 5), CallValue(ELDER, 49), Reply(YOUNGER, POINT, GOOD)], ("You", "Bob"))
    assert [(ln.speaker, ln.kind, ln.text) for ln in au_cent] == [
        (ELDER, "call_point", "Five cards, making forty-nine."), (YOUNGER, "reply", "Good.")]
    rubicon = narrate([CallPoint(ELDER, 5), AskValue(YOUNGER, 5), CallValue(ELDER, 49)], ("You", "Bob"))
    assert [ln.text for ln in rubicon] == ["Five cards.", "What do they make?", "Forty-nine."]
    assert [ln.text for ln in narrate([CallPoint(ELDER, 1)])] == ["One card."]


def test_the_cut_the_choice_of_deal_and_the_end() -> None:
    names = {"A": "You", "B": "Bob"}
    cut = {"A": parse_card("AS"), "B": parse_card("7H")}
    assert cut_words(names, cut, "A", False, "A") == ("The cut for deal (Law 4): You cut the ace of spades, Bob the "
                                                      "seven of hearts. You have the choice of deal.")
    assert cut_words({"A": "Ann", "B": "You"}, cut, "A", True, "B") == (
        "The cut for deal (p. 16): You cut the seven of hearts, Ann the ace of spades. The lower card deals, with "
        "no choice: You cut the lower card and deal.")
    assert dealer_words(names, "B", "A", 3, False) == [
        "Bob elects to be elder hand.", "You deal first, by threes for the whole partie (Law 9)."]
    assert dealer_words(names, "A", "A", 2, False) == ["You deal first, by twos for the whole partie (Law 9)."]
    assert dealer_words(names, "A", "B", 2, True) == [
        "Bob deals by twos, as the deal always is at Piquet au cent (p. 16); the deal then alternates, whoever "
        "wins a game."]
    assert [partie_headline("A", names), partie_headline("B", names), partie_headline(None, names)] == [
        "You win the partie.", "Bob wins the partie.", "The partie is drawn."]


def test_the_view_carries_the_headline_and_the_cut_in_words() -> None:
    from test_web import make_table, play_out

    table = make_table(21)
    play_out(table, random.Random(21))
    for seat, other in (("A", "B"), ("B", "A")):
        v = table.view(seat)
        s = v["settlement"]
        them = {"A": "Ann", "B": "Bob"}[other]
        assert s["headline"] == {seat: "You win the partie.", other: f"{them} wins the partie.",
                                 None: "The partie is drawn."}[s["winner"]]
        assert v["cut"]["words"][0].startswith("The cut for deal (Law 4): You cut the ")
        assert v["cut"]["words"][-1].endswith("for the whole partie (Law 9).")


def test_the_opening_of_a_deal() -> None:
    """One sentence opens each deal, the same at the table, in the replay and at the terminal."""
    you_a = {"A": "You", "B": "Bob"}
    assert deal_words(PartieContext("A", "B", 1, 6, "rubicon"), you_a) == \
        "Deal 1 of 6: Bob deals; you are elder hand."
    assert deal_words(PartieContext("A", "A", 1, 4, "four-deal", multiplier=2), you_a) == \
        "Deal 1 of 4, counting double: You deal; Bob is elder hand."
    assert deal_words(PartieContext("A", "B", 1, 1, "au-cent", scores={"A": 0, "B": 0}, game_number=1), you_a) == \
        "Deal 1 (game 1, at nothing): Bob deals; you are elder hand."
    assert deal_words(PartieContext("B", "A", 5, 5, "au-cent", scores={"A": 45, "B": 30}, game_number=2),
                      {"A": "Ann", "B": "You"}) == \
        "Deal 5 (game 2, standing at you 30, Ann 45): Ann deals; you are elder hand."
    assert deal_words(PartieContext("A", "A", 3, 6, "rubicon"), {"A": "Ann", "B": "Bob"}) == \
        "Deal 3 of 6: Ann deals; Bob is elder hand."


def test_the_view_opens_the_deal_in_words() -> None:
    from test_web import make_table

    table = make_table(21)
    for seat, other in (("A", "B"), ("B", "A")):
        v = table.view(seat)
        dealer = v["partie"]["dealer"]
        them = {"A": "Ann", "B": "Bob"}[other]
        who = "You deal; Bob is elder hand." if dealer == seat else f"{them} deals; you are elder hand."
        who = who.replace("Bob", them)
        assert v["deal_words"] == f"Deal 1 of 6: {who}"


def test_the_buttons_and_the_turn_in_words() -> None:
    """What the page's buttons and status line say of the game: the server's words."""
    assert [look_label(True, ELDER), look_label(True, YOUNGER), look_label(False, ELDER)] == [
        "Look at them", "Look (both see them)", "Do not look"]
    assert play_label(parse_card("KH")) == "Play the king of hearts"
    assert [turn_words("You"), turn_words("Ann")] == ["Your turn.", "Ann's turn."]
    point = DeclarePoint(m("AH", "KH", "QH", "JH", "8H"))
    assert declaration_button(point, Phase.ELDER_POINT) == "Call: Point of five, making forty-nine in hearts"
    assert declaration_button(point, Phase.YOUNGER_POINT) == "Declare: Point of five, making forty-nine in hearts"
    assert declaration_button(DeclareSets((m("AS", "AH", "AC"),)), Phase.YOUNGER_RECKON_SETS) == "Reckon: Three aces"
    assert [declaration_button(a, Phase.ELDER_POINT) for a in (DeclarePoint(0), DeclareSequences(()),
                                                                 DeclareSets(()))] == [
        "Declare no point (sink it)", "Declare no sequence (sink)", "Declare no quatorze or trio (sink)"]


def test_the_look_and_the_forced_card_are_labelled_in_the_options() -> None:
    """The options of the cards left carry their buttons' words; the one card that must be played its own, and
    the prompt says so."""
    rng = random.Random(3)
    looked = forced = False
    for seed in range(40):
        deal = Deal.from_pack(list(range(32)) if seed == 0 else random.Random(seed).sample(range(32), 32))
        while not deal.is_over:
            role = deal.to_move
            assert role is not None
            obs = observe(deal, role)
            opts = options(obs)
            if obs.phase in (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK):
                looked = True
                assert opts == [{"kind": "look", "look": True, "label": look_label(True, role)},
                                {"kind": "look", "look": False, "label": "Do not look"}]
            if obs.phase == Phase.PLAY and obs.lead >= 0 and len(opts[0]["cards"]) == 1:
                forced = True
                card = parse_card(opts[0]["cards"][0])
                assert opts[0]["label"] == play_label(card)
                assert prompt_words(obs, "Bob").endswith(f": you must play the {play_label(card)[9:]}.")
            elif obs.phase == Phase.PLAY:
                assert "label" not in opts[0]
            deal.apply(obs.sample(rng))
        if looked and forced:
            break
    assert looked and forced


def test_nothing_to_declare_is_said_by_the_prompt() -> None:
    deal = Deal(m("AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH", "QH", "JH"),
                m("AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "AD", "KD", "QD", "JD"),
                [parse_card(c) for c in ("10H", "9H", "8H", "7H", "10D", "9D", "8D", "7D")])
    deal.apply(Discard(m("JH")))
    if deal.phase == Phase.ELDER_LOOK:
        deal.apply(LookAtLeft(False))
    deal.apply(Discard(m("JD")))
    while deal.phase != Phase.ELDER_SETS:
        deal.apply(next(iter(deal.legal_actions())))
    obs = observe(deal, ELDER)
    assert obs.legal_count() == 1  # no quatorze, no trio
    assert prompt_words(obs, "Bob") == "You have no quatorze or trio to declare."


def test_a_game_won_in_words() -> None:
    """At Piquet au cent: the band after a game was won, and the last deal's panel (p. 20)."""
    game = Game(number=1, first_deal=0, last_deal=2, scores={"A": 107, "B": 33}, winner="A", double=True)
    deal = Deal.from_pack(list(range(32)))  # no game won in it: nothing told of what reached the goal
    names = {"A": "You", "B": "Bob"}
    assert game_news_words(game, deal, 3, names) == (
        "Deal 3 stopped at the goal: You reach one hundred and seven: game 1 to you, 107 to 33; a double game: "
        "Bob had not fifty (p. 20). Game 2 begins at nothing.")
    assert deal_stopped_words(game, deal, {"A": "Ann", "B": "You"}) == (
        "The deal stopped there: Ann reaches one hundred and seven: game 1 to Ann, 107 to 33; a double game: you "
        "had not fifty (p. 20).")
