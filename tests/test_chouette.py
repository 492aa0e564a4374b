"""Chouette (p. 106): the state and its record, the runner with persons, the terminal, and its settlement."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from piquet.cli.chouette import ChouetteTable, rotation_words, run_chouette
from piquet.cli.main import build_parser
from piquet.cli.stakes import run_settle_command
from piquet.cli.terminal import TerminalTable
from piquet.core.actions import Action, Discard, Play
from piquet.core.cards import card_name, rank_of
from piquet.core.deal import Deal, IllegalAction, deal_from_pack
from piquet.core.observation import Observation
from piquet.core.partie import Partie
from piquet.players.base import RandomPlayer, SimplePlayer
from piquet.stakes import chouette as chouette_module
from piquet.stakes.chouette import (
    PAIR_SEAT,
    SINGLE_SEAT,
    ChouetteError,
    ChouetteGame,
    ChouetteListener,
    ChouetteMatch,
    ChouetteRunner,
    Places,
    Suggestion,
)
from piquet.stakes.settlement import chouette_tens
from test_terminal import Person, hidden_named

NAMES = ("Ann", "Bob", "Cy")


def played(seed: int, parties: int, level: Callable[[int], Any] = RandomPlayer) -> ChouetteMatch:
    """A chouette of computer players, ``parties`` parties played."""
    match = ChouetteMatch(NAMES, seed=seed)
    ChouetteRunner(match, {q: level(seed + k) for k, q in enumerate(NAMES)}).play_parties(parties)
    return match


def half_played(seed: int, actions: int) -> ChouetteMatch:
    """A chouette in its first partie, ``actions`` actions taken by simple players."""
    match = ChouetteMatch(NAMES, seed=seed)
    match.choose_deal(match.places.single, True)
    for _ in range(actions):
        actor = match.to_act()
        assert actor is not None
        obs = match.observation(actor)
        assert obs is not None
        match.apply(actor, SimplePlayer().choose(obs))
    return match


# ---------------------------------------------------------------- the cut and the rotation


@pytest.mark.parametrize("seed", range(12))
def test_the_highest_cut_plays_alone_and_the_lowest_advises(seed: int) -> None:
    match = ChouetteMatch(NAMES, seed=seed)
    ranks = {q: rank_of(c) for q, c in match.cut.items()}
    assert sorted(match.cut) == sorted(NAMES) and len(set(ranks.values())) == 3
    p = match.cut_places
    assert ranks[p.single] > ranks[p.playing] > ranks[p.advising]
    assert match.places == p and match.to_act() == p.single  # he has the choice of deal (p. 106)


def test_the_rotation_is_that_of_page_106() -> None:
    """"If the single player (A) wins the partie, he continues ... C takes B's place, and B advises C ...
    As soon as A loses a partie, ... B plays against the other two, and A advises C" (p. 106)."""
    wins = losses = 0
    for seed in range(4):
        match = played(seed, 5)
        games = match.games
        assert len(games) == 5
        for before, after in zip(games, games[1:], strict=False):
            result = before.result()
            assert result is not None and result.single == before.places.single
            b, a = before.places, after.places
            if result.single_won is False:
                losses += 1
                assert result.winner == b.playing  # the one who played, not the adviser
                assert (a.single, a.playing, a.advising) == (b.playing, b.advising, b.single)
            else:
                wins += 1
                assert (a.single, a.playing, a.advising) == (b.single, b.advising, b.playing)
    assert wins and losses  # both branches of the rotation were played


def test_the_rotation_told_in_words() -> None:
    p = Places("Bob", "Cy", "Ann")
    assert rotation_words(p, True) == "Bob won alone: he plays alone again; Ann plays, Cy advises (p. 106)."
    assert rotation_words(p, False) == "Bob lost alone: Cy, who beat him, plays alone; Ann plays, Bob advises (p. 106)."
    assert rotation_words(p, None).startswith("The partie is drawn: Bob has not lost, and plays alone again")
    you = Places("You", "Cy", "Ann")
    assert rotation_words(you, False) == ("You lost alone: Cy, who beat you, plays alone; Ann plays, you advise "
                                          "(p. 106).")
    assert rotation_words(Places("Bob", "You", "Ann"), False).startswith("Bob lost alone: you beat him, and play")


# ---------------------------------------------------------------- the chouette card


def test_the_card_of_played_parties_is_reckoned_in_tens_and_doubled() -> None:
    """Each partie's points by Laws 72-73, in tens (p. 102), the single player's twice (p. 106)."""
    match = played(5, 4)
    card = match.card()
    assert card.players == NAMES and len(card.parties) == 4
    total = dict.fromkeys(NAMES, 0)
    for game, line, entry, running in zip(match.games, card.parties, card.entries(), card.running(), strict=True):
        partie = game.partie
        assert partie is not None and partie.is_finished
        alone, pair = partie.scores[SINGLE_SEAT], partie.scores[PAIR_SEAT]
        high, low = max(alone, pair), min(alone, pair)
        points = 0 if high == low else high + low + 100 if low < 100 else high - low + 100
        assert line.points == points and line.single == game.places.single
        if high == low:
            assert line.winner is None
        else:
            assert line.winner == (game.places.single if alone > pair else game.places.playing)
        sign = 0 if line.winner is None else 1 if line.winner == line.single else -1
        tens = chouette_tens(points)
        expected = {q: sign * tens * (2 if q == line.single else -1) for q in NAMES}
        assert entry == expected and sum(entry.values()) == 0
        total = {q: total[q] + expected[q] for q in NAMES}
        assert running == total
    assert card.balances() == {q: 10 * total[q] for q in NAMES}
    assert card.rotation_notes() == []  # the card knows the order of p. 106 too


# ---------------------------------------------------------------- what each may see


def test_the_single_player_sees_his_hand_and_the_pair_theirs() -> None:
    match = played(7, 1, level=lambda s: SimplePlayer())
    match.next_partie()
    match.choose_deal(match.places.single, False)
    match.deal_by(match.places.playing, 2)  # the pair deals: the one who plays for it says how (Law 9)
    p = match.places
    steps = 0
    while match.to_act() is not None and steps < 60:
        partie = match.game.partie
        assert partie is not None
        alone = match.observation(p.single)
        pair = match.observation(p.playing)
        assert alone == partie.observation(SINGLE_SEAT)
        assert pair == partie.observation(PAIR_SEAT) == match.observation(p.advising)
        assert alone is not None and pair is not None and alone.hand != pair.hand
        deal = partie.current
        assert deal is not None
        pair_cards = deal.dealt[pair.role] | deal.hands[pair.role] | pair.taken
        public = alone.seen_left
        for e in alone.events:
            public |= e.revealed
        assert alone.visible_cards() & pair_cards & ~public == 0  # nothing of theirs the laws hide
        actor = match.to_act()
        assert actor is not None
        obs = match.observation(actor)
        assert obs is not None
        match.apply(actor, SimplePlayer().choose(obs))
        steps += 1
    assert steps == 60


def test_suggestions_come_from_the_adviser_only_and_reach_the_pair_only() -> None:
    match = half_played(4, 0)
    p = match.places
    pair_first = match.to_act() == p.playing
    if not pair_first:  # the single player is elder: the pair may not advise on his discard
        with pytest.raises(ChouetteError, match="nothing to advise"):
            match.suggest(p.advising, Discard(0b1))
        obs = match.observation(p.single)
        assert obs is not None
        match.apply(p.single, SimplePlayer().choose(obs))
    assert match.to_act() == p.playing
    obs = match.observation(p.playing)
    assert obs is not None
    before = match.to_json()
    for who in (p.single, p.playing):
        with pytest.raises(ChouetteError, match=f"{p.advising} advises"):
            match.suggest(who, SimplePlayer().choose(obs))
    not_held = next(c for c in range(32) if not obs.hand >> c & 1)
    with pytest.raises(IllegalAction):
        match.suggest(p.advising, Discard(1 << not_held))
    assert match.to_json() == before  # nothing was recorded
    alone = match.observation(p.single)
    deal = match.game.partie.current if match.game.partie else None
    assert deal is not None
    advice = SimplePlayer().choose(obs)
    s = match.suggest(p.advising, advice)
    assert s == Suggestion(p.advising, 0, len(deal.history), advice)
    assert match.suggestion(p.playing) == match.suggestion(p.advising) == s
    assert match.suggestion(p.single) is None  # the suggestion names the pair's cards
    assert match.observation(p.single) == alone  # and nothing of it reaches him
    match.apply(p.playing, advice)
    assert match.suggestion(p.playing) is None  # it was for that step only


def test_out_of_turn_actions_are_refused_and_change_nothing() -> None:
    match = ChouetteMatch(NAMES, seed=9)
    p = match.places
    with pytest.raises(ChouetteError, match="choose whether to deal|chooses whether to deal"):
        match.apply(p.single, Play(0))
    with pytest.raises(ChouetteError, match="plays alone, chooses"):
        match.choose_deal(p.playing, True)
    with pytest.raises(ChouetteError, match="not finished"):
        match.next_partie()
    match.choose_deal(p.single, True)  # he deals: the pair is elder
    with pytest.raises(ChouetteError, match="the partie has begun"):
        match.choose_deal(p.single, False)
    before = match.to_json()
    obs = match.observation(p.playing)
    assert obs is not None and match.to_act() == p.playing
    action = SimplePlayer().choose(obs)
    with pytest.raises(ChouetteError, match=f"{p.advising} advises {p.playing}"):
        match.apply(p.advising, action)
    with pytest.raises(ChouetteError, match=f"it is for {p.playing} to act"):
        match.apply(p.single, action)
    with pytest.raises(ChouetteError, match="not at this table"):
        match.apply("Dan", action)
    with pytest.raises(IllegalAction):
        match.apply(p.playing, Discard(0))  # the elder discards at least one (Law 21)
    assert match.to_json() == before


# ---------------------------------------------------------------- dealing by twos or by threes (Law 9)


class Dealer(SimplePlayer):
    """The simple player, who deals (or not) and deals by so many cards at a time, as he is told."""

    def __init__(self, deals: bool = True, by: int = 3) -> None:
        self.deals, self.by = deals, by

    def choose_deal(self, won_cut: bool) -> bool:
        return self.deals

    def deal_by(self) -> int:
        return self.by


def assert_dealt_by(game: ChouetteGame, seed: int, number: int, by: int) -> None:
    """Every deal of partie ``number`` (from 0) holds the seed's pack dealt by ``by`` (Law 9)."""
    partie = game.partie
    assert partie is not None and partie.deal_by == by and partie.deals
    for i, deal in enumerate(partie.deals):
        order = list(range(32))
        chouette_module.deal_rng(seed, number, i).shuffle(order)
        assert (deal.dealt[0], deal.dealt[1], deal.stock) == deal_from_pack(order, by)


@pytest.mark.parametrize("single_deals", [True, False])
def test_a_chouette_dealt_by_threes_end_to_end(single_deals: bool) -> None:
    """After the single player's choice of deal, the first dealer chooses twos or threes (Law 9): the single
    player when he deals, else the one who plays for the pair (not his adviser, who is not asked)."""
    seed = 6
    match = ChouetteMatch(NAMES, seed=seed)
    p = match.places
    asked: list[str] = []

    class Asked(Dealer):
        def __init__(self, name: str, deals: bool, by: int) -> None:
            super().__init__(deals, by)
            self.name = name

        def deal_by(self) -> int:
            asked.append(self.name)
            return super().deal_by()

    players = {p.single: Asked(p.single, single_deals, 3 if single_deals else 2),
               p.playing: Asked(p.playing, True, 2 if single_deals else 3), p.advising: Asked(p.advising, True, 2)}
    ChouetteRunner(match, players).play_partie()
    assert asked == [p.single if single_deals else p.playing]
    game = match.games[0]
    assert game.partie is not None and game.partie.is_finished
    assert game.partie.first_dealer == (SINGLE_SEAT if single_deals else PAIR_SEAT)
    assert_dealt_by(game, seed, 0, 3)
    # The record says how the partie is dealt, and reads back the same.
    text = match.to_json()
    doc = json.loads(text)
    assert doc["parties"][0]["record"]["deal_by"] == 3
    again = ChouetteMatch.from_json(text)
    assert again.to_json() == text and again.games[0].partie is not None
    assert again.games[0].partie.deal_by == 3 and again.card() == match.card()
    # A record that says twos of a partie dealt by threes is refused: not the cards the seed deals.
    with pytest.raises(ChouetteError, match="not those the seed 6 deals"):
        ChouetteMatch.from_json(_tampered(text, lambda d: d["parties"][0]["record"].pop("deal_by")))
    # The next partie: asked again, by twos this time; by twos writes no "deal_by", as records always were.
    for player in players.values():
        player.by = 2
    ChouetteRunner(match, players).play_partie()
    assert_dealt_by(match.games[1], seed, 1, 2)
    assert "deal_by" not in json.loads(match.to_json())["parties"][1]["record"]


def test_the_pair_chooses_how_to_deal_and_the_choice_is_kept() -> None:
    """The single player lets the pair deal: the one who plays for it, and he only, says how (Law 9); until he
    does, the document keeps the single player's choice; refusals change nothing."""
    match = ChouetteMatch(NAMES, seed=9)
    p = match.places
    before = match.to_json()
    with pytest.raises(ChouetteError, match="letting the other deal, you do not say how"):
        match.choose_deal(p.single, False, 3)
    with pytest.raises(IllegalAction, match="not by 4"):
        match.choose_deal(p.single, True, 4)
    with pytest.raises(ChouetteError, match="has first to choose whether to deal"):
        match.deal_by(p.single, 3)
    assert match.to_json() == before and match.to_act() == p.single
    assert match.choose_deal(p.single, False) is None
    assert match.game.partie is None and match.game.dealer == PAIR_SEAT and match.to_act() == p.playing
    assert match.observation(p.playing) is None and not match.pair_to_move()  # nothing to advise on
    pending = match.to_json()
    assert json.loads(pending)["parties"][0] == {"single": p.single, "playing": p.playing, "advising": p.advising,
                                                  "first_dealer": PAIR_SEAT, "suggestions": []}
    for who in (p.single, p.advising):
        with pytest.raises(ChouetteError, match=f"{p.playing}, who deals first, chooses how he deals"):
            match.deal_by(who, 3)
    with pytest.raises(ChouetteError, match="the dealer is choosing how he deals"):
        match.choose_deal(p.single, True)
    with pytest.raises(ChouetteError, match=f"{p.playing} has first to choose how he deals"):
        match.apply(p.playing, Discard(1))
    with pytest.raises(IllegalAction, match="not by 4"):
        match.deal_by(p.playing, 4)
    assert match.to_json() == pending
    with pytest.raises(ChouetteError, match="a first dealer with no record is the pair"):
        ChouetteMatch.from_json(_tampered(pending, lambda d: d["parties"][0].update(first_dealer=SINGLE_SEAT)))
    again = ChouetteMatch.from_json(pending)  # resumed: the pair is still to say how
    assert again.to_json() == pending and again.to_act() == p.playing
    for m in (match, again):
        partie = m.deal_by(p.playing, 3)
        assert partie.first_dealer == PAIR_SEAT and partie.deal_by == 3
        assert_dealt_by(m.games[0], 9, 0, 3)
    assert again.to_json() == match.to_json()
    with pytest.raises(ChouetteError, match="the partie has begun"):
        match.deal_by(p.playing, 2)


# ---------------------------------------------------------------- the record


def test_the_record_reads_back_and_plays_on_alike() -> None:
    match = played(2, 2, level=lambda s: SimplePlayer())
    runner_players = {q: SimplePlayer() for q in NAMES}
    match.next_partie()
    match.choose_deal(match.places.single, True)
    for _ in range(30):
        actor = match.to_act()
        assert actor is not None
        obs = match.observation(actor)
        assert obs is not None
        if actor == match.places.playing:
            match.suggest(match.places.advising, SimplePlayer().choose(obs))
        match.apply(actor, SimplePlayer().choose(obs))
    text = match.to_json()
    doc = json.loads(text)
    assert doc["format"] == "piquet-chouette/1" and len(doc["parties"]) == 3 and doc["parties"][2]["suggestions"]
    again = ChouetteMatch.from_json(text)
    assert again.to_json() == text
    assert again.places == match.places and again.card() == match.card() and again.to_act() == match.to_act()
    for m in (match, again):
        ChouetteRunner(m, runner_players).play_parties(2)
    assert again.to_json() == match.to_json()


def test_tampered_suggestions_are_refused() -> None:
    """A suggestion read from a document is one the adviser could have made (p. 106): his, when his side was
    to act, legal there, at a step the partie reached."""
    match = ChouetteMatch(NAMES, seed=5)
    match.choose_deal(match.places.single, True)
    movers: list[str] = []  # who was to act at each step of the first deal
    for _ in range(24):
        actor = match.to_act()
        assert actor is not None
        obs = match.observation(actor)
        assert obs is not None
        if actor == match.places.playing and obs.legal_count() > 1:
            match.suggest(match.places.advising, SimplePlayer().choose(obs))
        movers.append(actor)
        match.apply(actor, SimplePlayer().choose(obs))
    text = match.to_json()
    game = match.games[0]
    partie = game.partie
    assert partie is not None and len(partie.deals) == 1 and len(game.suggestions) > 3
    assert ChouetteMatch.from_json(text).to_json() == text
    held = partie.deals[0].dealt[partie.role(0, PAIR_SEAT)]
    not_held = next(c for c in range(32) if not held >> c & 1)
    single_steps = [j for j, who in enumerate(movers) if who == match.places.single]
    assert single_steps

    def suggestion(**change: Any) -> Callable[[dict[str, Any]], None]:
        def tamper(doc: dict[str, Any]) -> None:
            doc["parties"][0]["suggestions"][0].update(change)
        return tamper

    cases = [
        (suggestion(by=match.places.single),
         f"a suggestion by {match.places.single}, but {match.places.advising} advises"),
        (suggestion(action=str(Play(not_held))), f"the suggestion Play\\({card_name(not_held)}\\) is not legal"),
        (suggestion(step=single_steps[0]), f"{match.places.playing} is not to play"),
        (suggestion(step=10_000), "deal 1, step 10001, which the partie never reached"),
        (suggestion(deal=7), "deal 8, step .*, which the partie never reached"),
    ]
    for change, message in cases:
        with pytest.raises(ChouetteError, match=message):
            ChouetteMatch.from_json(_tampered(text, change))
    doc = json.loads(text)
    doc["parties"][0]["suggestions"][0]["action"] = "fold"
    with pytest.raises(ChouetteError):
        ChouetteMatch.from_json(json.dumps(doc))


def _tampered(text: str, change: Callable[[dict[str, Any]], None]) -> str:
    doc = json.loads(text)
    change(doc)
    return json.dumps(doc)


def test_tampered_documents_are_refused() -> None:
    match = played(2, 2, level=lambda s: SimplePlayer())
    text = match.to_json()

    def swap_places(doc: dict[str, Any]) -> None:
        g = doc["parties"][1]
        g["single"], g["playing"] = g["playing"], g["single"]

    def swap_stock(doc: dict[str, Any]) -> None:
        stock = doc["parties"][0]["record"]["deals"][2]["stock"]
        stock[0], stock[1] = stock[1], stock[0]  # both taken by the elder: the play is unchanged

    def swap_cut(doc: dict[str, Any]) -> None:
        cut = doc["cut"]
        cut["Ann"], cut["Bob"] = cut["Bob"], cut["Ann"]

    cases = [(swap_places, "not those of the rotation"), (swap_stock, "not those the seed 2 deals"),
             (swap_cut, "the cut does not follow from the seed")]
    for change, message in cases:
        with pytest.raises(ChouetteError, match=message):
            ChouetteMatch.from_json(_tampered(text, change))
    unfinished = half_played(2, 20)
    doc = json.loads(unfinished.to_json())
    following = dict(doc["parties"][0])
    following.pop("record")
    following["single"], following["playing"] = doc["parties"][0]["single"], doc["parties"][0]["advising"]
    following["advising"] = doc["parties"][0]["playing"]
    doc["parties"].append(following)
    with pytest.raises(ChouetteError, match="partie 1 is not finished, yet another follows it"):
        ChouetteMatch.from_json(json.dumps(doc))
    with pytest.raises(ChouetteError, match="not a chouette"):
        ChouetteMatch.from_json(json.dumps({"format": "piquet-record/1", "deals": []}))
    with pytest.raises(ChouetteError, match="not valid JSON"):
        ChouetteMatch.from_json(text[:-10])
    assert ChouetteMatch.from_json(text).to_json() == text  # the untouched document still reads


# ---------------------------------------------------------------- the runner, with persons


class Recorder(ChouetteListener):
    def __init__(self) -> None:
        self.actions: list[tuple[str, Action]] = []
        self.suggestions: list[Suggestion] = []

    def suggested(self, match: ChouetteMatch, suggestion: Suggestion) -> None:
        self.suggestions.append(suggestion)

    def action_applied(self, match: ChouetteMatch, name: str, action: Action) -> None:
        self.actions.append((name, action))


class ScriptedPerson:
    """A person (``Correctable``) who advises at random among the legal actions, now and then leaves the
    choice, and once suggests a card he does not see held; he plays as the simple player."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.advice: list[Action | None] = []
        self.heard: list[tuple[str, Action]] = []
        self.refused: list[str] = []
        self.chosen = 0
        self.forced = 0  # choices with a single legal action: nothing to advise on
        self.foreign: int | None = None  # which advice named a card not held

    def choose(self, obs: Observation) -> Action:
        self.chosen += 1
        self.forced += obs.legal_count() == 1
        return SimplePlayer().choose(obs)

    def choose_deal(self, won_cut: bool) -> bool:
        return True

    def deal_by(self) -> int:
        return 2

    def rejected(self, error: IllegalAction) -> None:
        self.refused.append(str(error))

    def advise(self, obs: Observation, playing: str) -> Action | None:
        if self.foreign is None and obs.phase.name.endswith("DISCARD"):
            self.foreign = len(self.advice)
            advice: Action | None = Discard(1 << next(c for c in range(32) if not obs.hand >> c & 1))
        else:
            advice = None if self.rng.random() < 0.2 else obs.sample(self.rng)
        self.advice.append(advice)
        return advice

    def advised(self, adviser: str, action: Action) -> None:
        self.heard.append((adviser, action))


def _seed_where(role: str, person: str = "Ann", names: tuple[str, str, str] = NAMES) -> int:
    return next(s for s in range(100) if ChouetteMatch(names, seed=s).cut_places.role(person) == role)


def with_person(role: str) -> tuple[ChouetteMatch, ScriptedPerson, Recorder]:
    """A partie with Ann, a scripted person, in ``role`` at the cut, and two simple players."""
    seed = _seed_where(role)
    match = ChouetteMatch(NAMES, seed=seed)
    person, listener = ScriptedPerson(seed), Recorder()
    players: dict[str, Any] = {q: SimplePlayer() for q in NAMES}
    players["Ann"] = person
    ChouetteRunner(match, players, listener).play_partie()
    return match, person, listener


def pair_choices(match: ChouetteMatch) -> list[int]:
    """For each action of the first partie, in order, how many legal actions its author had (replayed)."""
    partie = match.games[0].partie
    assert partie is not None
    counts = []
    for d in partie.deals:
        again = Deal(d.dealt[0], d.dealt[1], d.stock, d.rules, d.game)
        for action in d.history:
            counts.append(len(again.legal_actions()))
            again.apply(action)
    return counts


def test_a_computer_playing_for_the_pair_follows_the_person_advising() -> None:
    match, person, listener = with_person("advising")
    p = match.games[0].places
    assert p.advising == "Ann" and person.chosen == 0 and person.heard == []
    pair_actions = [a for (name, a), n in zip(listener.actions, pair_choices(match), strict=True)
                    if name == p.playing and n > 1]
    assert len(person.advice) == len(pair_actions)  # asked before each of the pair's real choices
    assert person.foreign is not None and len(person.refused) == 1 and "hand (Law 2" in person.refused[0]
    legal = [a for i, a in enumerate(person.advice) if a is not None and i != person.foreign]
    followed = [action for i, (advice, action) in enumerate(zip(person.advice, pair_actions, strict=True))
                if advice is not None and i != person.foreign]
    assert followed == legal and len(legal) > 10  # the computer follows every legal suggestion
    assert None in person.advice  # and chooses for himself when left to
    assert [s.action for s in listener.suggestions] == legal
    assert all(s.by == "Ann" for s in match.games[0].suggestions)


def test_a_person_playing_for_the_pair_hears_his_computer_adviser() -> None:
    match, person, listener = with_person("playing")
    p = match.games[0].places
    assert p.playing == "Ann" and person.advice == []
    assert len(person.heard) == person.chosen - person.forced > 20  # a suggestion before each real choice
    assert person.forced > 0  # and none where the laws leave one action
    assert all(by == p.advising for by, _ in person.heard)
    assert [s.action for s in listener.suggestions] == [a for _, a in person.heard]
    # The adviser's suggestion is his level's own choice on the pair's hand: the simple player's.
    partie = match.games[0].partie
    assert partie is not None
    for s in match.games[0].suggestions:
        assert s.by == p.advising
        assert partie.deals[s.deal].history[s.step] == s.action  # the person played as the simple player


def test_between_computers_nothing_is_suggested() -> None:
    match = ChouetteMatch(NAMES, seed=1)
    listener = Recorder()
    ChouetteRunner(match, {q: SimplePlayer() for q in NAMES}, listener).play_partie()
    assert listener.suggestions == [] and match.games[0].suggestions == []


# ---------------------------------------------------------------- the terminal


class Typist(Person):
    """The terminal's scripted person (``hint``, then the cards hinted) at the chouette: he takes his adviser's
    suggestion (``follow``), and answers "Another partie?" from ``another``, then no."""

    def __init__(self, out: io.StringIO, another: tuple[str, ...] = (), **person: Any) -> None:
        super().__init__(out, **person)
        self.another = list(another)

    def __call__(self, prompt: str = "") -> str:
        new = self.out.getvalue()[self.pos:]
        last = new.rstrip().splitlines()[-1] if new.strip() else ""
        if not self.queue and "Another partie?" in last:
            self.pos += len(new)
            return self.say(self.another.pop(0) if self.another else "n")
        if not self.queue and "suggests:" in new and any(w in last for w in ("Discard", "Lead", "Play to")):
            self.pos += len(new)
            return self.say("follow")
        return super().__call__(prompt)


def chouette(monkeypatch: pytest.MonkeyPatch, *argv: str, **typist: Any) -> tuple[int, str, Typist]:
    """Run ``piquet chouette`` (simple computers) with the typist at the keyboard."""
    out = io.StringIO()
    person = Typist(out, **typist)
    monkeypatch.setattr("builtins.input", person)
    quick = [] if "--level" in argv or "--resume" in argv else ["--level", "simple"]
    ns = build_parser().parse_args(["chouette", "--name", "Ann", *quick, *argv])
    code = run_chouette(ns, console=Console(file=out, width=200))
    return code, out.getvalue(), person


def test_the_person_alone_sees_nothing_of_the_consultation(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = _seed_where("single")
    out_box: list[io.StringIO] = []
    start = [0]
    checks = [0]
    original_choose, original_started = ChouetteTable.choose, ChouetteTable.deal_started

    def choose(self: ChouetteTable, obs: Observation) -> Action:
        leaked = hidden_named(out_box[0].getvalue()[start[0]:], obs)
        assert not leaked, f"shown before the laws allow: {leaked}"
        checks[0] += 1
        return original_choose(self, obs)

    def deal_started(self: ChouetteTable, partie: Partie) -> None:
        out_box[:] = [self.console.file]  # type: ignore[list-item]
        start[0] = len(out_box[0].getvalue())
        original_started(self, partie)

    monkeypatch.setattr(ChouetteTable, "choose", choose)
    monkeypatch.setattr(ChouetteTable, "deal_started", deal_started)
    code, out, _ = chouette(monkeypatch, "--seed", str(seed), "--parties", "1")
    assert code == 0 and checks[0] > 30
    p = ChouetteMatch(NAMES, seed=seed).cut_places
    assert f"You play alone against {p.playing} and {p.advising} in consultation" in out
    assert "You have the choice (p. 106). Deal first?" in out
    assert "suggest" not in out.lower()  # neither a suggestion nor the word
    assert re.search(rf"(Ann|{p.playing}) wins the partie: \d+ [-+] \d+ \+ 100 = \d+ points|The partie is drawn",
                     out)
    assert "On the chouette card:" in out and "The chouette ends after one partie." in out


def test_the_person_alone_deals_by_threes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """At the terminal the single player, electing to deal, is asked how, as in ``piquet play`` (Law 9)."""
    seed = _seed_where("single")
    path = tmp_path / "chouette.json"
    code, out, typist = chouette(monkeypatch, "--seed", str(seed), "--parties", "1", "--record", str(path),
                                 extra={2: ["3"]})
    assert code == 0 and typist.answers[:2] == ["", "3"]
    flat = " ".join(out.split())
    assert "You have the choice (p. 106). Deal first?" in flat
    assert "Deal by two or by three cards at a time, for the whole partie (Law 9)?" in flat
    assert "Ann elects to deal, having the choice (p. 106): Ann deals first, by threes for the partie (Law 9)." in flat
    match = ChouetteMatch.from_json(path.read_text())
    assert json.loads(path.read_text())["parties"][0]["record"]["deal_by"] == 3
    assert_dealt_by(match.games[0], seed, 0, 3)


def test_the_person_playing_for_the_pair_says_how_the_pair_deals(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    """The single player (a computer) lets the pair deal: the person who plays for it is asked how (Law 9)."""
    seed = _seed_where("playing")
    monkeypatch.setattr(SimplePlayer, "choose_deal", lambda self, won_cut: False)
    path = tmp_path / "chouette.json"
    code, out, typist = chouette(monkeypatch, "--seed", str(seed), "--parties", "1", "--record", str(path),
                                 extra={1: ["3"]})
    assert code == 0 and typist.answers[0] == "3"
    match = ChouetteMatch.from_json(path.read_text())
    p = match.games[0].places
    flat = " ".join(out.split())
    assert f"{p.single} elects to be elder hand (p. 106): you deal, for {p.advising} and yourself." in flat
    assert f"{p.single} elects to be elder hand, having the choice (p. 106): Ann deals first, by threes" in flat
    assert_dealt_by(match.games[0], seed, 0, 3)
    assert match.games[0].partie is not None and match.games[0].partie.first_dealer == PAIR_SEAT


@pytest.mark.slow
def test_the_person_playing_for_the_pair_is_told_the_suggestion(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    seed = _seed_where("playing")
    path = tmp_path / "chouette.json"
    code, out, typist = chouette(monkeypatch, "--seed", str(seed), "--parties", "1", "--record", str(path))
    assert code == 0
    said = re.findall(r"^(\w+) suggests: (.*)$", out, re.M)
    assert len(said) > 20 and typist.answers.count("follow") > 20
    match = ChouetteMatch.from_json(path.read_text())
    game = match.games[0]
    assert game.places.playing == "Ann" and {by for by, _ in said} == {game.places.advising}
    partie = game.partie
    assert partie is not None and partie.is_finished
    # What was said is what the record holds (a forced choice is not asked, nor its suggestion said), and
    # "follow" played it.
    table = TerminalTable(Console(file=io.StringIO()), {})
    made = iter([(s.by, Text.from_markup(table.describe(s.action)).plain) for s in game.suggestions])
    assert all(any(m == said_one for m in made) for said_one in said)  # in order
    for s in game.suggestions:
        assert s.by == game.places.advising
        assert partie.deals[s.deal].history[s.step] == s.action


@pytest.mark.slow
def test_the_person_advising_sees_the_hand_and_is_followed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed = _seed_where("advising")
    path = tmp_path / "chouette.json"
    code, out, typist = chouette(monkeypatch, "--seed", str(seed), "--parties", "2", "--record", str(path))
    assert code == 0
    match = ChouetteMatch.from_json(path.read_text())
    first = match.games[0]
    playing = first.places.playing
    assert first.places.advising == "Ann" and f"{playing}'s hand:" in out and "Suggest to" in out
    assert "" in typist.answers  # some choices were left to him
    partie = first.partie
    assert partie is not None
    assert len(first.suggestions) > 10
    for s in first.suggestions:
        assert s.by == "Ann" and partie.deals[s.deal].history[s.step] == s.action  # he followed
    # After the partie: the card, and the places of the next by p. 106, with the reason.
    result = first.result()
    assert result is not None
    assert f"Next: {rotation_words(first.places, result.single_won)}" in " ".join(out.split())
    assert match.games[1].places == first.places.after(result.single_won)
    assert out.count("Chouette: Ann, Bob and Cy, one partie") == 1
    assert "The chouette ends after two parties." in out


@pytest.mark.slow
def test_bad_input_at_the_chouette_loses_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed = _seed_where("advising")
    clean, bad = tmp_path / "clean.json", tmp_path / "bad.json"
    chouette(monkeypatch, "--seed", str(seed), "--parties", "1", "--record", str(clean))
    # The first prompt is the suggestion of a discard: nonsense, a card not held, help, then the answer.
    obs = ChouetteMatch(("Ann", "Bob", "Cy"), seed=seed)
    obs.choose_deal(obs.places.single, True)
    pair = obs.observation(obs.places.playing)
    assert pair is not None
    stranger = next(card_name(c) for c in range(32) if not pair.hand >> c & 1)
    code, out, _ = chouette(monkeypatch, "--seed", str(seed), "--parties", "1", "--record", str(bad),
                            extra={1: ["XX", stranger, "help", "hand"]})
    assert code == 0
    assert "unknown command 'XX': type help" in out and "Not allowed:" in out
    assert "no suggestion:" in out  # help, in the adviser's words
    assert bad.read_text() == clean.read_text()


@pytest.mark.slow
def test_quit_and_resume_give_the_same_chouette(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed = _seed_where("playing")
    whole, halves = tmp_path / "whole.json", tmp_path / "halves.json"
    chouette(monkeypatch, "--seed", str(seed), "--parties", "2", "--record", str(whole))
    code, out, _ = chouette(monkeypatch, "--seed", str(seed), "--parties", "2", "--record", str(halves),
                            quit_after=50)
    assert code == 0
    assert "Saved to" in out and re.search(r"piquet chouette\s+--resume\s+\S+halves.json", out)
    assert "The partie in play is left unfinished" in out
    saved = json.loads(halves.read_text())
    assert saved["terminal"] == {"person": "Ann", "level": "simple"}
    code, out, typist = chouette(monkeypatch, "--resume", str(halves), "--parties", "2")
    assert code == 0 and "Resuming the chouette" in out and "The deal so far:" in out
    assert halves.read_text() == whole.read_text()
    assert [f for f in tmp_path.iterdir() if f.suffix == ".tmp"] == []


@pytest.mark.slow
def test_settle_reads_a_chouette_played_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chouette.json"
    chouette(monkeypatch, "--seed", "3", "--parties", "2", "--record", str(path))
    match = ChouetteMatch.from_json(path.read_text())
    card = match.card()
    assert len(card.parties) == 2
    ns = build_parser().parse_args(["settle", "--chouette", str(path), "--stake", "10s a hundred"])
    assert run_settle_command(ns) == 0
    text = capsys.readouterr().out
    points = next(ln for ln in text.splitlines() if ln.startswith("points"))
    assert [cell.strip() for cell in points.split("|")[1:]] == [str(line.points) for line in card.parties]
    balances = card.balances()
    won = [q for q in NAMES if balances[q] > 0]
    assert won and f"{won[0]} wins {balances[won[0]]}" in text
    assert "At 10s a hundred" in text
    # A chouette left in the middle of a partie: its finished parties only.
    half = tmp_path / "half.json"
    match.next_partie()
    match.choose_deal(match.places.single, True)
    half.write_text(match.to_json())
    assert run_settle_command(build_parser().parse_args(["settle", "--chouette", str(half)])) == 0
    assert capsys.readouterr().out.endswith("Partie 3 is unfinished: it is not on the card.\n")
    # Given as a record, it is refused with a word on how to give it.
    assert run_settle_command(build_parser().parse_args(["settle", str(path)])) == 2
    assert "give it with --chouette" in capsys.readouterr().err


def test_bad_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for argv, message in [
        (["--level", "grandmaster"], "unknown level 'grandmaster'"),
        (["--others", "Ann", "Cy"], "different names"),
        (["--rules", "au-cent"], "Rubicon Piquet (p. 106)"),
        (["--rules", "pinochle"], "unknown rules"),
        (["--stake", "a lot"], "stake"),
        (["--custom", "fifty"], "give --stake with it"),
        (["--parties", "0"], "one or more"),
        (["--record", str(tmp_path / "nowhere" / "c.json")], "no such folder"),
        (["--resume", str(tmp_path / "missing.json")], "cannot read"),
    ]:
        code, out, typist = chouette(monkeypatch, *argv)
        assert code == 2 and message in " ".join(out.split()), (argv, out)
        assert typist.answers == []
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "piquet-chouette/1", "players": ["A", "B"], "seed": 1, "parties": []}))
    code, out, _ = chouette(monkeypatch, "--resume", str(broken))
    assert code == 2 and "broken.json" in out and "three players" in out


def test_the_person_may_stop_between_parties(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --parties the person is asked after each partie; "n" ends the chouette with its card."""
    code, out, typist = chouette(monkeypatch, "--seed", "1", "--rules", "four-deal", "--stake", "3d a point",
                                 another=("follow", ""))
    assert code == 0 and "Deal 1 of 4, counting double: " in out
    assert "Another partie? Answer y or n" in out  # "follow" means nothing between parties
    assert out.count("Another partie?") == 3 and typist.answers.count("n") == 1
    end = out[out.index("The chouette ends after two parties."):]
    assert "Chouette: Ann, Bob and Cy, two parties" not in end  # shown just before the question
    assert "The card is as above." in end and "At 3d a point" in end


def test_a_computer_that_cannot_choose_is_reported_and_the_chouette_kept(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    def broken(self: RandomPlayer, obs: Observation) -> Action:
        raise ValueError("out of its depth")

    path = tmp_path / "chouette.json"
    monkeypatch.setattr(RandomPlayer, "choose", broken)
    code, out, _ = chouette(monkeypatch, "--seed", str(_seed_where("single")), "--level", "random", "--record",
                            str(path))
    flat = " ".join(out.split())
    assert code == 1 and "Traceback" not in out
    assert "The chouette cannot go on: the computer (random) could not choose: ValueError: out of its depth." in flat
    assert re.search(r"piquet chouette\s+--resume\s+\S+chouette.json\s+--level simple", out)
    code, out, _ = chouette(monkeypatch, "--resume", str(path), "--level", "simple", "--parties", "1")
    assert code == 0 and "The chouette ends after one partie." in out
    assert len(ChouetteMatch.from_json(path.read_text()).card().parties) == 1
