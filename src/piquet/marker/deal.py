"""A deal played with real cards, marked: the calls or the scores, then the play, scored in Law 67's order.

The hands are entered as spoken (``FullCalls``: the elder's calls, the younger's
replies and what he reckons of his own) or quickly (``QuickScores``: what each
scored for point, sequences, quatorzes and trios); the play card by card
(``CardPlay``) or by its totals (``PlayTotals``: tricks and play points).
``MarkedDeal.score`` scores it all in the order of Law 67 (carte blanche,
point, sequences, quatorzes and trios, the play, the cards), with repique
(Law 68), pique (Law 69) and capot (Law 66), and at a game of so many up stops
at the first score that reaches the goal (au cent, p. 20).

The calls bar as the laws say: what the elder has shown declares by implication
(Case IV; ``implied_bar``), and a call of what the caller does not hold
(``held=False``) is void, so that the adversary reckons what he has good
against the correct calls only (Law 54, Case II).

The treatise's example deal (p. 103-105), entered by its calls:

>>> from piquet.marker.calls import PointCall, SequenceCall
>>> ann = Declared(PointCall(5, 49), (SequenceCall(4, 7),), (SetCall(3, 4),))
>>> bob = Declared(PointCall(5, 48), (), (SetCall(4, 3), SetCall(3, 5)))
>>> calls = FullCalls(ann, (Outcome.GOOD, Outcome.GOOD, Outcome.NOT_GOOD), bob)
>>> deal = MarkedDeal("B", declarations=calls, play=PlayTotals(7, 9, 6))
>>> s = deal.score(RUBICON)
>>> s.total(ELDER), s.total(YOUNGER)
(28, 23)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from typing import Final

from piquet.core.cards import Card, card_name
from piquet.core.combinations import Outcome
from piquet.core.events import (
    S_CARDS,
    S_CARTE_BLANCHE,
    S_PIQUE,
    S_PLAY,
    S_POINT,
    S_REPIQUE,
    SCORE_KINDS,
)
from piquet.core.rules import RUBICON, Rules
from piquet.marker.calls import (
    CATEGORY_LAWS,
    CATEGORY_NAMES,
    ELDER,
    ROLES,
    SET_SCORES,
    YOUNGER,
    Declared,
    MarkError,
    SequenceCall,
    SetCall,
    implied_bar,
    point_mask,
    reply_between,
    sequence_scores,
)

_HAND_KINDS: Final = (S_CARTE_BLANCHE, S_POINT, S_POINT + 1, S_POINT + 2)


@dataclass(frozen=True)
class FullCalls:
    """The hands as spoken (Laws 46-56): the elder's declarations (his call in each category is his best),
    the younger's reply to each call (None where the elder called nothing), and what the younger reckons of
    his own after the lead (needed where his is better, or the elder called nothing).

    A call found to be of what the caller does not hold is entered with ``held=False`` (Law 54): it is void,
    and in its category each reckons what he holds good against the other's correct calls (Case II), the
    replies given to it standing for nothing.  The offender's penalty is ``MarkedDeal.reckons_nothing``."""

    elder: Declared = field(default_factory=Declared)
    replies: tuple[Outcome | None, Outcome | None, Outcome | None] = (None, None, None)
    younger: Declared = field(default_factory=Declared)


@dataclass(frozen=True)
class QuickScores:
    """The hands quickly: what each scored for point, sequences, quatorzes and trios (elder, younger)."""

    elder: tuple[int, int, int] = (0, 0, 0)
    younger: tuple[int, int, int] = (0, 0, 0)

    def of(self, role: int) -> tuple[int, int, int]:
        return self.elder if role == ELDER else self.younger


@dataclass(frozen=True)
class PlayTotals:
    """The play by its totals: the tricks the elder won (the younger won the rest), each one's play points
    (Law 65), and, only where the totals cannot tell it, whether the elder made a pique (Law 69) and, at a
    game of so many up, who reached the goal first (p. 20)."""

    elder_tricks: int
    elder_points: int
    younger_points: int
    pique: bool | None = None
    first_to_goal: int | None = None


@dataclass(frozen=True)
class CardPlay:
    """The play card by card, as ``piquet.core.cards`` names them: the elder leads the first trick."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Scored:
    """One score in Law 67's order: who (role), under which heading (``SCORE_KINDS``), how much."""

    role: int
    kind: int
    points: int


@dataclass(frozen=True)
class DealScore:
    """What a deal scored, by role and heading, the scores in the order made, and the game if won (p. 20)."""

    scores: tuple[tuple[int, ...], tuple[int, ...]]
    order: tuple[Scored, ...]
    tricks: tuple[int, int]
    game_won: tuple[int, bool] | None = None

    def total(self, role: int) -> int:
        return sum(self.scores[role])

    def heading(self, role: int, kind: str) -> int:
        return self.scores[role][SCORE_KINDS.index(kind)]


class _Tally:
    """Scores added in Law 67's order, with repique and pique (Laws 68-69) and a game's goal (p. 20)."""

    def __init__(self, rules: Rules, game: tuple[int, int] | None, withheld: frozenset[int]) -> None:
        self.rules = rules
        self.game = game
        self.withheld = withheld
        self.scores = [[0] * 8, [0] * 8]
        self.totals = [0, 0]
        self.order: list[Scored] = []
        self.won: tuple[int, bool] | None = None

    def add(self, role: int, kind: int, points: int, auto_pique: bool = True) -> None:
        if self.won is not None or points <= 0:
            return
        if role in self.withheld and kind != S_CARTE_BLANCHE:
            return  # he reckons nothing this deal (Laws 25-44); a carte blanche still scores (Case XXI)
        before = self.totals[role]
        self.scores[role][kind] += points
        self.totals[role] = before + points
        self.order.append(Scored(role, kind, points))
        if before < 30 <= before + points and self.totals[1 - role] == 0:
            if kind in _HAND_KINDS:
                self.add(role, S_REPIQUE, 60)
            elif kind == S_PLAY and role == ELDER and auto_pique:
                self.add(role, S_PIQUE, 30)
        self.check_goal(role)

    def check_goal(self, role: int) -> None:
        g = self.game
        if g is not None and self.won is None and g[role] + self.totals[role] >= self.rules.line:
            other = 1 - role
            self.won = (role, g[other] + self.totals[other] < self.rules.double_below)

    def result(self, tricks: tuple[int, int]) -> DealScore:
        return DealScore((tuple(self.scores[0]), tuple(self.scores[1])), tuple(self.order), tricks, self.won)


@cache
def _play_patterns() -> frozenset[tuple[int, int, int, int, int]]:
    """Every way twelve tricks can fall (who wins each): elder's tricks, the most play points each can make
    when every card counts, and the least (the last trick's one) (Law 65)."""
    out = set()
    for pattern in range(1 << 12):
        leader, won, pts = ELDER, [0, 0], [0, 0]
        for t in range(12):
            winner = ELDER if pattern >> t & 1 else YOUNGER
            pts[leader] += 1
            if winner != leader:
                pts[winner] += 1
            if t == 11:
                pts[winner] += 1
            won[winner] += 1
            leader = winner
        last = ELDER if pattern >> 11 & 1 else YOUNGER
        out.add((won[ELDER], pts[ELDER], pts[YOUNGER], int(last == ELDER), int(last == YOUNGER)))
    return frozenset(out)


@dataclass(frozen=True)
class MarkedDeal:
    """One deal marked with real cards (see the module).  ``dealer`` is the seat that dealt ("A" or "B"): the
    dealer is the younger hand.  ``carte_blanche``: the role that had one (Laws 18-20).

    The irregularities' effects on the marker: ``status`` "annulled" (a fresh deal by the same dealer,
    Laws 11-15) or "void" (the right dealer deals, Laws 16, 75); ``out_of_turn``: dealt out of turn and found
    too late (Law 16); ``reckons_nothing``: roles that reckon nothing this deal, their calls still barring
    (Laws 25, 27-29, 31, 35, 54, 58; for Law 54 enter his call not held, ``held=False``, and the adversary's
    good is reckoned, Case II); ``waived``: of those, the penalties the adversary did not enforce
    (Law 44); ``corrected``: a score put right afterwards (Laws 70, 74); status "lost", with ``lost_by`` the role
    that lost the game in this deal at Piquet au cent (p. 17 (3)): nothing of the deal is scored."""

    dealer: str
    carte_blanche: int | None = None
    declarations: FullCalls | QuickScores | None = None
    play: PlayTotals | CardPlay | None = None
    status: str = "played"
    out_of_turn: bool = False
    reckons_nothing: frozenset[int] = frozenset()
    waived: frozenset[int] = frozenset()
    corrected: bool = False
    lost_by: int | None = None

    @property
    def counts(self) -> bool:
        """Whether the deal stands in the partie (an annulled or void deal does not; one in which a game was
        lost does, scoring nothing)."""
        return self.status in ("played", "lost")

    @property
    def withheld(self) -> frozenset[int]:
        """The roles whose scores are withheld: the penalty, where not waived (Law 44)."""
        return self.reckons_nothing - self.waived

    def with_(self, **changes: object) -> MarkedDeal:
        """The deal with some fields changed, checked (nothing is lost if the change is refused)."""
        new = replace(self, **changes)  # type: ignore[arg-type]
        return new

    # ------------------------------------------------------------ refusals

    def check(self, rules: Rules = RUBICON) -> None:
        """Refuse what cannot be, citing the law (``MarkError``)."""
        if self.dealer not in ("A", "B"):
            raise MarkError(f"the dealer is A or B, not {self.dealer!r}", "Law 16")
        if self.status not in ("played", "annulled", "void", "lost"):
            raise MarkError(f"a deal is played, annulled, void or lost, not {self.status!r}")
        if (self.status == "lost") != (self.lost_by in (ELDER, YOUNGER)) or (
                self.status == "lost" and (self.declarations, self.play, self.carte_blanche) != (None, None, None)):
            raise MarkError("a deal in which a game is lost says who lost it, the elder or the younger, and scores "
                            "nothing", "p. 17")
        if self.carte_blanche not in (None, ELDER, YOUNGER):
            raise MarkError("a carte blanche is the elder's or the younger's", "Law 18")
        for r in self.reckons_nothing | self.waived:
            if r not in (ELDER, YOUNGER):
                raise MarkError("a penalty falls on the elder or the younger", "Law 44")
        if not self.waived <= self.reckons_nothing:
            raise MarkError("only a penalty incurred can be waived", "Law 44")
        if isinstance(self.declarations, FullCalls):
            check_full(self.declarations, rules)
        elif isinstance(self.declarations, QuickScores):
            check_quick(self.declarations, rules)
        if isinstance(self.play, PlayTotals):
            check_totals(self.play, rules)
        elif isinstance(self.play, CardPlay):
            check_cards(self.play)

    # ------------------------------------------------------------ scoring

    def hand_scores(self, rules: Rules = RUBICON) -> list[tuple[int, int, int]]:
        """The hands' scores in Law 67's order, before the play: (role, heading, points) for each item."""
        out: list[tuple[int, int, int]] = []
        d = self.declarations
        if self.carte_blanche is not None:
            out.append((self.carte_blanche, S_CARTE_BLANCHE, 10))  # Law 61; first (Law 67)
        if isinstance(d, QuickScores):
            for c in range(3):
                for role in (ELDER, YOUNGER):
                    if d.of(role)[c]:
                        out.append((role, S_POINT + c, d.of(role)[c]))
        elif isinstance(d, FullCalls):
            for c in range(3):
                good = _good_in(d, c, rules)
                if good is None:
                    continue
                decl = (d.elder if good == ELDER else d.younger).held()
                for pts in _item_scores(decl, c, rules):
                    out.append((good, S_POINT + c, pts))
        return out

    def score(self, rules: Rules = RUBICON, game: tuple[int, int] | None = None) -> DealScore:
        """Every score of the deal in Law 67's order (``check`` first refuses what cannot be).

        ``game``: at a game of so many up, the game's scores by role (elder, younger) before the deal."""
        self.check(rules)
        rules.check_game(game)
        t = _Tally(rules, game, self.withheld)
        if not self.counts:
            return t.result((0, 0))
        for role, kind, pts in self.hand_scores(rules):
            t.add(role, kind, pts)
        p = self.play
        if isinstance(p, CardPlay):
            return _score_cards(t, p, rules)
        if isinstance(p, PlayTotals):
            return _score_totals(t, p)
        return t.result((0, 0))


# ---------------------------------------------------------------- the calls


def _good_in(d: FullCalls, c: int, rules: Rules) -> int | None:
    """Who is good in a category, or None (equal, or nothing declared) (Laws 62-64): by the reply, or where a
    call was of what is not held, by what each holds, the void call barring nothing (Law 54, Case II)."""
    if not (d.elder.all_held(c) and d.younger.all_held(c)):
        e, y = d.elder.held().key(c), d.younger.held().key(c)
        return ELDER if e > y else YOUNGER if y > e else None
    if d.elder.has(c):
        reply = d.replies[c]
        if reply is Outcome.GOOD:
            return ELDER
        if reply is Outcome.NOT_GOOD:
            return YOUNGER
        return None
    return YOUNGER if d.younger.has(c) else None


def _item_scores(decl: Declared, c: int, rules: Rules) -> list[int]:
    if c == 0:
        assert decl.point is not None
        return [rules.point_score(point_mask(decl.point.cards, decl.point.value))]
    if c == 1:
        return [s.score for s in sorted(decl.sequences, key=lambda s: s.key, reverse=True)]
    return [t.score for t in sorted(decl.sets, key=lambda t: t.key, reverse=True)]


def check_full(d: FullCalls, rules: Rules) -> None:
    """The calls possible, the replies those the calls call for (Laws 46-49, 62-64), and nothing reckoned that
    the elder's cards shown bar (Case IV)."""
    for role, decl in ((ELDER, d.elder), (YOUNGER, d.younger)):
        try:
            decl.check()
        except MarkError as e:
            raise MarkError(f"the {ROLES[role]}'s calls: {e.message}", e.law) from None
    for rank in {t.rank for t in d.elder.held().sets} & {t.rank for t in d.younger.held().sets}:
        raise MarkError(f"both hands cannot hold three or four {SetCall(3, rank).__str__().split()[1]}: "
                        "the pack has four", "Law 64")
    for c in range(3):
        name, law = CATEGORY_NAMES[c], CATEGORY_LAWS[c]
        reply = d.replies[c]
        if not d.elder.has(c):
            if reply is not None:
                raise MarkError(f"the younger answers a call, but the elder called no {name}", "Law 46")
            continue
        if c == 2 and reply is Outcome.EQUAL:
            raise MarkError("no quatorze or trio can be equal to another: two hands cannot hold the same rank", law)
        if not (d.elder.all_held(c) and d.younger.all_held(c)):
            continue  # a call not held is void: each reckons what he holds good (Law 54, Case II)
        if reply is None:
            raise MarkError(f"the elder called his {name}: the younger answers good, equal or not good", "Law 46")
        asked = False
        if c == 0:
            ep = d.elder.point
            assert ep is not None
            if rules.calls_state_value and ep.value is None:
                raise MarkError("at Piquet au cent the elder calls what his point makes", "p. 18")
            yp = d.younger.point
            same = (yp is not None and yp.cards == ep.cards) or (yp is None and reply is Outcome.EQUAL)
            if same and ep.value is None:
                raise MarkError("the younger has as many cards: he asks \"What do they make?\" and the elder says "
                                "what his point makes; enter its value", "Law 46")
            if yp is not None and yp.cards == ep.cards and yp.value is None:
                raise MarkError("a point of as many cards is told by what it makes: enter the younger's value",
                                "Law 46")
            asked = same or rules.calls_state_value
        if d.younger.has(c):
            owed = reply_between(c, d.elder.key(c), d.younger.key(c), asked)
            if owed is not reply:
                raise MarkError(f"the reply to the {name} is {owed.value.lower()}, not {reply.value.lower()}: "
                                f"the elder's {_best(d.elder, c)} against the younger's {_best(d.younger, c)}", law)
        elif reply is Outcome.NOT_GOOD:
            raise MarkError(f"the younger's {name} is not good against the elder's: enter what he reckons", law)
    if rules.implication_bars:
        _check_implication(d)


def shown_by_elder(d: FullCalls) -> Declared:
    """The elder's calls whose cards he has shown (Law 55): his point good or equal, his sequences good (the
    best, if equal), his quatorzes and trios good; a call of what he does not hold shows nothing (Law 54)."""
    e, (point, seqs, sets) = d.elder, d.replies
    shows = (Outcome.GOOD, Outcome.EQUAL)
    best = max(e.sequences, key=lambda s: s.key) if e.sequences else None
    return Declared(e.point if point in shows and e.point is not None and e.point.held else None,
                    e.held().sequences if seqs is Outcome.GOOD else
                    (best,) if seqs is Outcome.EQUAL and best is not None and best.held else (),
                    e.held().sets if sets is Outcome.GOOD else ()).held()


def _check_implication(d: FullCalls) -> None:
    """Case IV: in a category the elder did not call (or called only what he does not hold), the younger cannot
    reckon what makes no more than the elder's cards shown are sure to make: declared by implication (Law 56)."""
    shown = shown_by_elder(d)
    elder, younger = d.elder.held(), d.younger.held()
    for c in (1, 2):
        if elder.has(c) or not younger.has(c):
            continue
        bar = implied_bar(shown, c)
        if younger.key(c) <= bar:
            mine = f"a {_best(younger, c)}" if c == 1 else _best(younger, c)
            theirs = f"a {SequenceCall(*bar)}" if c == 1 else str(SetCall(*bar))
            raise MarkError(f"the younger cannot reckon {mine}: the cards the elder has shown make {theirs}, as "
                            "much or more, declared by implication; he reckons nothing there", "Law 56, Case IV", c)


def _best(d: Declared, c: int) -> str:
    if c == 0:
        return str(d.point)
    return str(max(d.sequences if c == 1 else d.sets, key=lambda i: i.key))


def check_quick(q: QuickScores, rules: Rules) -> None:
    """Scores the laws can make, one hand good in each category (Laws 62-64); a point of fewer than three
    cards is called only by sinking, but may be good (p. 93)."""
    points = {0} | {rules.point_score(b) for b in range(1, 256)}
    allowed = (frozenset(points), sequence_scores(), SET_SCORES)
    for c in range(3):
        for role in (ELDER, YOUNGER):
            v = q.of(role)[c]
            if v not in allowed[c]:
                made = ", ".join(str(x) for x in sorted(allowed[c]))
                raise MarkError(f"the {ROLES[role]}'s {CATEGORY_NAMES[c]} cannot score {v}; the laws make {made}",
                                CATEGORY_LAWS[c])
        if q.elder[c] and q.younger[c]:
            raise MarkError(f"both score for the {CATEGORY_NAMES[c]}, but only one is good", CATEGORY_LAWS[c])


def check_totals(p: PlayTotals, rules: Rules) -> None:
    """Twelve tricks between them; play points that twelve tricks can make (Law 65)."""
    if not 0 <= p.elder_tricks <= 12:
        raise MarkError(f"the elder wins 0 to 12 tricks, not {p.elder_tricks}: there are twelve", "Law 65")
    every = rules.counting_cards == (1 << 32) - 1
    ok = any(t == p.elder_tricks and (
        (p.elder_points, p.younger_points) == (e, y) if every else le <= p.elder_points <= e
        and ly <= p.younger_points <= y) for t, e, y, le, ly in _play_patterns())
    if not ok:
        raise MarkError(f"twelve tricks cannot give the elder {p.elder_tricks} tricks and {p.elder_points} in play "
                        f"with the younger's {p.younger_points}", "Law 65")
    if p.first_to_goal not in (None, ELDER, YOUNGER):
        raise MarkError("the goal is reached first by the elder or the younger", "p. 20")


def check_cards(p: CardPlay) -> None:
    """Each card once, at most twenty-four; no suit played by a hand that did not follow it (Law 59)."""
    seen: set[Card] = set()
    for c in p.cards:
        if not 0 <= c < 32:
            raise MarkError(f"{c} is not a card of the piquet pack", "Law 75")
        if c in seen:
            raise MarkError(f"{card_name(c)} is played twice", "Law 75")
        seen.add(c)
    if len(p.cards) > 24:
        raise MarkError("twelve tricks are twenty-four cards", "Law 65")
    void: list[set[int]] = [set(), set()]
    leader = ELDER
    for t in range(0, len(p.cards), 2):
        lead = p.cards[t]
        if lead >> 3 in void[leader]:
            raise MarkError(f"{card_name(lead)}: this hand did not follow to that suit before (a revoke)", "Law 59")
        if t + 1 >= len(p.cards):
            break
        follow = p.cards[t + 1]
        if follow >> 3 in void[1 - leader]:
            raise MarkError(f"{card_name(follow)}: this hand did not follow to that suit before (a revoke)",
                            "Law 59")
        if follow >> 3 != lead >> 3:
            void[1 - leader].add(lead >> 3)
        elif follow > lead:
            leader = 1 - leader


# ---------------------------------------------------------------- the play


def _the_cards(t: _Tally, won: list[int]) -> None:
    """More than six tricks, ten; all twelve, a capot, forty (Law 66)."""
    for r in (ELDER, YOUNGER):
        if won[r] == 12:
            t.add(r, S_CARDS, 40)
        elif won[r] > 6:
            t.add(r, S_CARDS, 10)


def _score_cards(t: _Tally, p: CardPlay, rules: Rules) -> DealScore:
    """Trick by trick as the engine scores it (Law 65): pique falls where it falls (Law 69)."""
    counting = rules.counting_cards
    leader, won = ELDER, [0, 0]
    cards = p.cards
    for i in range(0, len(cards), 2):
        trick = i // 2 + 1
        lead = cards[i]
        if counting >> lead & 1:
            t.add(leader, S_PLAY, 1)  # the first lead reckons after the hands (Law 67)
        if i + 1 >= len(cards) or t.won is not None:
            break
        c = cards[i + 1]
        if c >> 3 == lead >> 3 and c > lead:
            winner, pts = 1 - leader, (counting >> c & 1) + (trick == 12)
        else:
            winner, pts = leader, int(trick == 12)
        t.add(winner, S_PLAY, pts)
        won[winner] += 1
        leader = winner
    if len(cards) == 24 and t.won is None:
        _the_cards(t, won)
    elif t.won is None and t.game is not None and cards:
        raise MarkError(f"the play stops after {len(cards)} cards, but nobody has reached the goal", "p. 20")
    elif t.won is None and len(cards) not in (0, 24):
        raise MarkError(f"{len(cards)} cards are entered: the play is all twenty-four", "Law 65")
    return t.result((won[0], won[1]))


def _score_totals(t: _Tally, p: PlayTotals) -> DealScore:
    """The play by its totals: pique where the totals tell it, else as the players say (Law 69)."""
    won = [p.elder_tricks, 12 - p.elder_tricks]
    if t.won is not None:
        return t.result((won[0], won[1]))
    te, ty = t.totals
    withheld = t.withheld
    pe = 0 if ELDER in withheld else p.elder_points
    py = 0 if YOUNGER in withheld else p.younger_points
    possible = ty == 0 and te < 30 <= te + pe
    pique = possible and py == 0
    if possible and py > 0:
        if p.pique is None:
            raise MarkError(f"the elder reached thirty in play ({te} + {pe}) while the younger had nothing before "
                            f"the play and scored {py} in it: say whether the elder made a pique", "Law 69")
        pique = p.pique
    elif p.pique and not possible:
        raise MarkError("there is no pique here: the elder reaches thirty in hand and play before the younger "
                        "counts anything, and only so", "Law 69")
    if t.game is not None:
        g = t.game
        reach = [g[r] + t.totals[r] + (pe, py)[r] + (30 if pique and r == ELDER else 0) >= t.rules.line
                 for r in (ELDER, YOUNGER)]
        if all(reach):
            if p.first_to_goal not in (ELDER, YOUNGER):
                raise MarkError("both reach the goal in the play: say who reached it first", "p. 20")
            first = p.first_to_goal
            other = 1 - first
            t.scores[first][S_PLAY] += (pe, py)[first]
            t.scores[other][S_PLAY] += (pe, py)[other]
            t.order += [Scored(first, S_PLAY, (pe, py)[first]), Scored(other, S_PLAY, (pe, py)[other])]
            t.totals = [t.totals[0] + pe, t.totals[1] + py]
            if pique:
                t.scores[ELDER][S_PIQUE] += 30
                t.totals[ELDER] += 30
            t.check_goal(first)
            return t.result((won[0], won[1]))
    t.add(ELDER, S_PLAY, pe, auto_pique=False)
    if pique and t.won is None:
        t.add(ELDER, S_PIQUE, 30)
    t.add(YOUNGER, S_PLAY, py)
    _the_cards(t, won)
    return t.result((won[0], won[1]))


__all__ = ["CardPlay", "DealScore", "FullCalls", "MarkedDeal", "PlayTotals", "QuickScores", "Scored",
           "check_cards", "check_full", "check_quick", "check_totals", "shown_by_elder"]
