"""One deal of Rubicon Piquet as a state machine: ``legal_actions()`` and ``apply()``.

The deal runs through the laws' phases in order:

1. the elder hand discards one to five cards and takes in as many (Law 21);
   if he leaves cards he may look at them (Law 33);
2. the younger hand discards one up to what is left and takes in (Laws 22, 34);
3. the calling: the elder calls point, sequences, quatorzes and trios, each
   answered by the younger with his own declaration in that category, from
   which his reply follows ("Good", "Equal", "Not good"; Laws 46-49);
4. the elder leads; before playing, the younger reckons what he has good or
   equal, declares anything the elder did not call (p. 93), and if he left
   cards says whether he looks at them (Law 36);
5. twelve tricks (Laws 57-66), then the cards (Law 66).

Carte blanche is announced at once and shown, and scored, as soon as the
adversary has discarded (Laws 18-20).  Every point is logged as a ``SCORE``
event in the order of Law 67, which decides pique and repique (Laws 68-69).

The deal is given its rules (``piquet.core.rules``): Piquet au cent changes the
younger's discard, the announcing of his carte blanche, the calls and the
showing, and which cards count in play (p. 16-20); at a game of so many up
the deal is given the game's scores, and stops when a player reaches the goal
in Law 67's order of scoring (p. 20).

``undo()`` takes back the last action from a small snapshot: nothing is deep
copied.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from enum import IntEnum
from functools import cache
from itertools import accumulate, combinations, product
from math import comb
from operator import attrgetter
from typing import Final, cast

from piquet.core.actions import (
    LOOK_CHOICES,
    PLAYS,
    Action,
    DeclarePoint,
    DeclareSequences,
    DeclareSets,
    Discard,
    LookAtLeft,
    Play,
)
from piquet.core.cards import (
    COURT_CARDS,
    RANK_MASKS,
    SUIT_BYTE_CARDS,
    SUIT_MASKS,
    SUITS,
    TEN,
    Card,
    CardError,
    Mask,
    card_name,
    cards_of,
    format_cards,
)
from piquet.core.combinations import (
    best_point,
    best_sequences,
    best_sets,
    is_point,
    point_key,
    point_score,
    sequence_key,
    sequence_score,
    sequences_ok,
    set_key,
    set_score,
    sets_ok,
)
from piquet.core.events import (
    ELDER,
    POINT,
    ROLES,
    S_CARDS,
    S_CARTE_BLANCHE,
    S_PIQUE,
    S_PLAY,
    S_POINT,
    S_REPIQUE,
    S_SEQUENCES,
    S_SETS,
    SEQUENCES,
    SETS,
    YOUNGER,
    AskValue,
    CallPoint,
    CallSequence,
    CallSet,
    CallValue,
    CarteBlanche,
    CarteBlancheShown,
    Event,
    Exchange,
    GameWon,
    Look,
    Miscall,
    NameSet,
    OddExchange,
    Penalty,
    Reply,
    Score,
    Show,
    Trick,
    Unanswered,
    played,
)
from piquet.core.events import Play as Played
from piquet.core.rules import RUBICON, Rules


class IllegalAction(ValueError):
    """An action the laws do not allow here; the message says why and cites the law."""


class Phase(IntEnum):
    ELDER_DISCARD = 0
    ELDER_LOOK = 1
    YOUNGER_DISCARD = 2
    ELDER_POINT = 3
    YOUNGER_POINT = 4
    ELDER_SEQUENCES = 5
    YOUNGER_SEQUENCES = 6
    ELDER_SETS = 7
    YOUNGER_SETS = 8
    YOUNGER_RECKON_POINT = 9
    YOUNGER_RECKON_SEQUENCES = 10
    YOUNGER_RECKON_SETS = 11
    YOUNGER_LOOK = 12
    PLAY = 13
    DONE = 14


# The phases as plain module constants: an enum's attribute lookup is slow in the hot path.
ELDER_DISCARD: Final = Phase.ELDER_DISCARD
ELDER_LOOK: Final = Phase.ELDER_LOOK
YOUNGER_DISCARD: Final = Phase.YOUNGER_DISCARD
ELDER_POINT: Final = Phase.ELDER_POINT
YOUNGER_POINT: Final = Phase.YOUNGER_POINT
ELDER_SEQUENCES: Final = Phase.ELDER_SEQUENCES
YOUNGER_SEQUENCES: Final = Phase.YOUNGER_SEQUENCES
ELDER_SETS: Final = Phase.ELDER_SETS
YOUNGER_SETS: Final = Phase.YOUNGER_SETS
YOUNGER_RECKON_POINT: Final = Phase.YOUNGER_RECKON_POINT
YOUNGER_RECKON_SEQUENCES: Final = Phase.YOUNGER_RECKON_SEQUENCES
YOUNGER_RECKON_SETS: Final = Phase.YOUNGER_RECKON_SETS
YOUNGER_LOOK: Final = Phase.YOUNGER_LOOK
PLAYING: Final = Phase.PLAY
DONE: Final = Phase.DONE


_TO_MOVE: Final = {
    ELDER_DISCARD: ELDER, ELDER_LOOK: ELDER, YOUNGER_DISCARD: YOUNGER,
    ELDER_POINT: ELDER, YOUNGER_POINT: YOUNGER, ELDER_SEQUENCES: ELDER,
    YOUNGER_SEQUENCES: YOUNGER, ELDER_SETS: ELDER, YOUNGER_SETS: YOUNGER,
    YOUNGER_RECKON_POINT: YOUNGER, YOUNGER_RECKON_SEQUENCES: YOUNGER,
    YOUNGER_RECKON_SETS: YOUNGER, YOUNGER_LOOK: YOUNGER,
}
#: For each declaring phase: (category, role).
_DECLARING: Final = {
    ELDER_POINT: (POINT, ELDER), YOUNGER_POINT: (POINT, YOUNGER),
    ELDER_SEQUENCES: (SEQUENCES, ELDER), YOUNGER_SEQUENCES: (SEQUENCES, YOUNGER),
    ELDER_SETS: (SETS, ELDER), YOUNGER_SETS: (SETS, YOUNGER),
    YOUNGER_RECKON_POINT: (POINT, YOUNGER),
    YOUNGER_RECKON_SEQUENCES: (SEQUENCES, YOUNGER),
    YOUNGER_RECKON_SETS: (SETS, YOUNGER),
}
_DECLARATION_TYPES: Final = (DeclarePoint, DeclareSequences, DeclareSets)
# What each kind of declaration declares, by category.
_DECLARED: Final = (attrgetter("cards"), attrgetter("runs"), attrgetter("sets"))
# The same tables indexed by phase number (an enum's hash is slow in the hot path).
_TO_MOVE_BY_PHASE: Final[tuple[int | None, ...]] = tuple(_TO_MOVE.get(Phase(i)) for i in range(len(Phase)))
_DECLARING_BY_PHASE: Final[tuple[tuple[int, int] | None, ...]] = tuple(
    _DECLARING.get(Phase(i)) for i in range(len(Phase)))
#: The role to act in each phase where the phase alone tells (0 in the others).
_MOVER_BY_PHASE: Final[tuple[int, ...]] = tuple(r or 0 for r in _TO_MOVE_BY_PHASE)
# The phases in groups, by phase number: ``verify`` checks an action against its group.
_G_DISCARD: Final = "discard"
_G_LOOK: Final = "look"
_G_DECLARE: Final = "declare"
_G_PLAY: Final = "play"
_G_OVER: Final = "over"
_GROUP_BY_PHASE: Final = tuple(
    _G_DISCARD if p in (ELDER_DISCARD, YOUNGER_DISCARD) else _G_LOOK if p in (ELDER_LOOK, YOUNGER_LOOK)
    else _G_PLAY if p == PLAYING else _G_OVER if p == DONE else _G_DECLARE for p in Phase)
_HAND_KINDS: Final = (S_CARTE_BLANCHE, S_POINT, S_SEQUENCES, S_SETS)
_PLAY_PHASE: Final = PLAYING
_PHASES: Final = tuple(Phase)
_RECKON_POINT: Final = int(YOUNGER_RECKON_POINT)
_RECKON_SETS: Final = int(YOUNGER_RECKON_SETS)
_AFTER_CATEGORY: Final = (ELDER_SEQUENCES, ELDER_SETS, PLAYING)
_new_event: Final = tuple.__new__
#: ``Look`` events without cards (the elder's: both see only whether he looked), by role and whether he looked.
_LOOKED: Final[tuple[tuple[Look, Look], ...]] = tuple(
    (_new_event(Look, (role, False, 0)), _new_event(Look, (role, True, 0))) for role in (ELDER, YOUNGER))
#: Every ``Played`` event there can be, by role, trick (1-12) and card: the play takes its events from here.
_PLAYED: Final[tuple[tuple[tuple[Played, ...], ...], ...]] = tuple(
    tuple(tuple(_new_event(Played, (role, c, trick)) for c in range(32)) for trick in range(13))
    for role in (ELDER, YOUNGER))
#: The play's ``Score`` events, by role and points (one, or two for the last trick).
_PLAY_SCORES: Final[tuple[tuple[Score, ...], ...]] = tuple(
    tuple(_new_event(Score, (role, S_PLAY, points, 0)) for points in range(3)) for role in (ELDER, YOUNGER))

Declaration = Mask | tuple[Mask, ...]
#: How each hand exchanges when a deal of eleven or thirteen cards, or a stock of seven, stands (Laws 40-43):
#: by role, (his discard less his take-in, the least he discards, the most he takes).
Limits = tuple[tuple[int, int, int], tuple[int, int, int]]
#: An irregular step of a deal, for its record: (how many actions came before it, ``TAKE_IN`` or ``PENALTY``, the
#: role, the cards discarded, the cards taken in, the law).
Irregular = tuple[int, str, int, int, int, str]
TAKE_IN: Final = "take_in"
PENALTY: Final = "penalty"
#: The hands and stock of a deal that may stand (Laws 40-43; au cent p. 17-18 (6)): (elder, younger, stock).
STANDING: Final = frozenset({(13, 11, 8), (13, 12, 7), (11, 13, 8), (12, 13, 7)})
# What undo() restores for an action other than a card played: the phase, the length of the log, and the hand
# of a player who discards.  Each player discards, looks and declares in each category once, so what his action
# set was unset before it; the play's fields are not touched by these actions.
_Snapshot = tuple[Phase, int, Mask]


#: To whom each position in the pack goes, top card first, by two and by three (Law 9): the elder (0), the
#: dealer (1), turn about, then the eight cards of the stock (2).
_DEALT_TO: Final[dict[int, tuple[int, ...]]] = {
    by: tuple((i // by) % 2 if i < 24 else 2 for i in range(32)) for by in (2, 3)}
_PACK: Final = range(32)


def deal_from_pack(order: Sequence[Card], by: int = 2) -> tuple[Mask, Mask, tuple[Card, ...]]:
    """Deal twelve cards each by twos or threes from a pack, top card first (Law 9).

    The dealer gives the top cards to his adversary (the elder hand), the next to
    himself, and so on; the eight undealt cards are the stock.
    """
    if by not in (2, 3):
        raise ValueError("the deal is by two or by three cards at a time (Law 9)")
    if len(order) != 32:
        raise CardError("a pack holds the 32 cards, each once")
    to = _DEALT_TO[by]
    elder = younger = seen = 0
    for i, c in enumerate(order):
        bit = 1 << c if 0 <= c < 32 else 0
        if not bit or seen & bit:
            raise CardError("a pack holds the 32 cards, each once")
        seen |= bit
        if to[i] == 0:
            elder |= bit
        elif to[i] == 1:
            younger |= bit
    return elder, younger, tuple(order[24:])


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 32 cards in a random order, top first: sorted on random keys (faster than ``shuffle``).

    The keys are drawn one for each card in turn, as ``sorted(range(32), key=lambda _: rng.random())``
    would draw them, so the same generator gives the same pack; the list's ``__getitem__`` spares a call
    of a Python function for each card.
    """
    r = rng.random
    keys = [r() for _ in _PACK]
    return sorted(_PACK, key=keys.__getitem__)


def surplus_words(surplus: int) -> str:
    """A discard's surplus over the take-in, in words: "one more than" (Laws 40-43)."""
    return {0: "as many as", 1: "one more than", -1: "one less than"}.get(surplus, f"{surplus:+d} against what")


def implied_bar(events: Sequence[Event], phase: int, rules: Rules) -> tuple[int, int]:
    """What the younger's reckoning must beat in a reckoning phase: the best sequence, or quatorze or trio, that
    the cards the elder has shown make, declared by implication (Case IV: "A calls a point headed by ace, and two
    tierce majors in other suits ... B cannot reckon three knaves"); (0, 0) in any other phase."""
    if phase not in (YOUNGER_RECKON_SEQUENCES, YOUNGER_RECKON_SETS) or not rules.implication_bars:
        return (0, 0)
    shown = 0
    for e in events:
        if type(e) is Show and e.role == ELDER:
            shown |= e.cards
    if phase == YOUNGER_RECKON_SEQUENCES:
        runs = best_sequences(shown)
        return sequence_key(runs[0]) if runs else (0, 0)
    sets = best_sets(shown)
    return set_key(sets[0]) if sets else (0, 0)


def barred(category: int, items: tuple[Mask, ...], bar: tuple[int, int]) -> bool:
    """Whether a reckoning of these sequences, or quatorzes and trios, is barred: its best makes no more than
    ``bar``, what the elder's cards shown make (``implied_bar``, Case IV).  Nothing declared is never barred."""
    key = sequence_key if category == SEQUENCES else set_key
    return bool(items) and max(key(m) for m in items) <= bar


def declaration_key(category: int, decl: Declaration | None) -> tuple[int, int]:
    """The strength of a declaration's best item: (0, 0) for nothing."""
    if not decl:
        return (0, 0)
    if isinstance(decl, int):  # a point
        return point_key(decl)
    return sequence_key(decl[0]) if category == SEQUENCES else set_key(decl[0])


def declaration_of(action: Action) -> Declaration:
    """What a declaring action declares: a point's cards, or the sequences or sets."""
    if isinstance(action, DeclarePoint):
        return action.cards
    if isinstance(action, DeclareSequences):
        return action.runs
    if isinstance(action, DeclareSets):
        return action.sets
    raise TypeError(f"{action!r} declares nothing")


def declaration_items(category: int, decl: Declaration | None) -> tuple[Mask, ...]:
    if not decl:
        return ()
    return (decl,) if isinstance(decl, int) else decl


def item_score(category: int, item: Mask) -> int:
    if category == POINT:
        return point_score(item)
    return sequence_score(item) if category == SEQUENCES else set_score(item)


def full_declarations(hand: Mask) -> tuple[DeclarePoint, DeclareSequences, DeclareSets]:
    """Declare everything the hand holds: its point, every sequence, every set."""
    return (DeclarePoint(best_point(hand)), DeclareSequences(best_sequences(hand)),
            DeclareSets(best_sets(hand)))


class Deal:
    """The state of one deal.  Roles are ``ELDER`` (0) and ``YOUNGER`` (1)."""

    __slots__ = (
        "dealt", "stock", "hands", "discards", "elder_takes", "younger_takes",
        "elder_looked", "younger_looked", "decl", "phase", "leader", "lead", "trick",
        "tricks_won", "scores", "totals", "keys", "events", "history", "_undo", "carte_blanche",
        "rules", "game", "counting", "limits", "penalised", "irregular", "_plain", "club",
    )

    def __init__(self, elder: Mask, younger: Mask, stock: Sequence[Card], rules: Rules = RUBICON,
                 game: tuple[int, int] | None = None, limits: Limits | None = None, club: bool = False) -> None:
        """The cards dealt and the stock (top first), the rules in force, and at a game of so many up
        (``rules.goal``: au cent) the scores of the game before this deal, by role (elder, younger).

        ``limits``: a deal of eleven or thirteen cards, or a stock of seven, that stands, and how each hand then
        exchanges (Laws 40-43, as ``piquet.core.referee`` rules them); each ends the exchange with twelve.

        ``club``: calls are taken at the player's word, as at a club: a call of cards not held is accepted, and
        when it comes to light, at the younger's first card, it is a miscall with Law 54's penalty."""
        sizes = (elder.bit_count(), younger.bit_count(), len(stock))
        if limits is None:
            if sizes != (12, 12, 8):
                raise CardError("a deal gives twelve cards to each player and leaves eight in the stock")
        elif sizes not in STANDING or (limits[0][0], limits[1][0]) != (sizes[0] - 12, sizes[1] - 12):
            raise CardError(f"a deal of {sizes[0]} and {sizes[1]} cards with {sizes[2]} in the stock cannot stand "
                            "with those limits: the elder with thirteen or eleven and eight in the stock, or a stock "
                            "of seven, each ending the exchange with twelve (Laws 39-43)")
        stock_mask = 0
        for c in stock:
            stock_mask |= 1 << c
        if elder & younger or stock_mask & (elder | younger) or elder | younger | stock_mask != (1 << 32) - 1:
            raise CardError("a deal must hold each of the 32 cards once")
        self.dealt = (elder, younger)
        self.stock = tuple(stock)
        self.hands = [elder, younger]
        self.discards = [0, 0]
        self.elder_takes = -1
        self.younger_takes = -1
        self.elder_looked: bool | None = None
        self.younger_looked: bool | None = None
        # decl[role][category]: None = not yet declared.
        self.decl: list[list[Declaration | None]] = [[None, None, None], [None, None, None]]
        # keys[role][category]: the strength of each declaration, as it is made.
        self.keys: list[list[tuple[int, int]]] = [[(0, 0)] * 3, [(0, 0)] * 3]
        self.phase = ELDER_DISCARD
        self.leader = ELDER
        self.lead = -1
        self.trick = 1
        self.tricks_won = [0, 0]
        self.scores = [[0] * 8, [0] * 8]
        self.totals = [0, 0]
        self.events: list[Event] = []
        self.history: list[Action] = []
        self._undo: list[_Snapshot] = []  # for each action but a card played (see ``undo``)
        self.rules = rules
        rules.check_game(game)
        self.game = game
        self.counting = rules.counting_cards
        self.limits = limits
        # Whether each role reckons nothing this deal (Law 58); irregular steps taken, for the record.
        self.penalised = [False, False]
        self.irregular: list[Irregular] = []
        # Every score of the play is written in the hot path: no goal in force and nobody penalised.
        self._plain = game is None
        self.club = club or rules.calls_at_word
        # is_carte_blanche() of each hand, the twelve cards being known: no court card (Law 18).
        self.carte_blanche = (not elder & COURT_CARDS, not younger & COURT_CARDS)
        if True in self.carte_blanche:
            for role in (ELDER, YOUNGER):
                # Law 20; at Piquet au cent the younger waits until the elder has discarded (p. 16).
                if self.carte_blanche[role] and (role == ELDER or rules.younger_announces_at_once):
                    self.events.append(CarteBlanche(role))

    @classmethod
    def from_pack(cls, order: Sequence[Card], by: int = 2, rules: Rules = RUBICON,
                  game: tuple[int, int] | None = None) -> Deal:
        return cls(*deal_from_pack(order, by), rules=rules, game=game)

    @classmethod
    def shuffled(cls, rng: random.Random, by: int = 2, rules: Rules = RUBICON,
                 game: tuple[int, int] | None = None) -> Deal:
        """A deal from a pack shuffled by ``rng`` (each order equally likely)."""
        return cls(*deal_from_pack(shuffled_pack(rng), by), rules=rules, game=game)

    # ------------------------------------------------------------ queries

    @property
    def to_move(self) -> int | None:
        """The role to act, or None when the deal is over."""
        p = self.phase
        if p == PLAYING:
            return self.leader if self.lead < 0 else 1 - self.leader
        return _TO_MOVE_BY_PHASE[p]

    @property
    def is_over(self) -> bool:
        return self.phase == DONE

    def total(self, role: int) -> int:
        return self.totals[role]

    @property
    def game_won(self) -> tuple[int, bool] | None:
        """At a game of so many up: (the role that reached the goal in this deal, whether a double game)."""
        for e in reversed(self.events):
            if type(e) is GameWon:
                return e.role, e.double
        return None

    def left_by_elder(self) -> tuple[Card, ...]:
        """Cards the elder left in the stock (Law 32): of his five (with a stock of seven too, Law 41)."""
        k = self.elder_takes
        return self.stock[k:5] if k >= 0 else ()

    def left_by_younger(self) -> tuple[Card, ...]:
        """Cards still in the stock after the younger has taken in."""
        if self.younger_takes < 0:
            return ()
        return self.stock[self.elder_takes + self.younger_takes:]

    def taken(self, role: int) -> tuple[Card, ...]:
        if role == ELDER:
            return self.stock[:self.elder_takes] if self.elder_takes >= 0 else ()
        if self.younger_takes < 0:
            return ()
        return self.stock[self.elder_takes:self.elder_takes + self.younger_takes]

    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def declared(self, role: int, category: int) -> Declaration | None:
        return self.decl[role][category]

    # ------------------------------------------------------------ checking

    def verify(self, action: object) -> None:
        """Raise ``IllegalAction`` saying why ``action`` is not allowed now, citing the law."""
        p = self.phase
        group = _GROUP_BY_PHASE[p]  # the phases in groups, by table: ``apply`` checks every action here
        if group is _G_DISCARD:
            role = _MOVER_BY_PHASE[p]
            if not isinstance(action, Discard):
                raise IllegalAction(f"the {ROLES[role]} hand must discard now "
                                    f"({'Law 21' if role == ELDER else 'Law 22'})")
            self._verify_discard(role, action.cards)
        elif group is _G_DECLARE:
            category, role = _DECLARING_BY_PHASE[p]  # type: ignore[misc]
            if not isinstance(action, _DECLARATION_TYPES[category]):
                what = ("point", "sequences", "quatorzes and trios")[category]
                law = ("Law 46: the point is called first", "Laws 48-49", "Laws 48-49")[category]
                raise IllegalAction(f"the {ROLES[role]} hand must declare his {what} now ({law})")
            self._verify_declaration(role, category, action)
        elif group is _G_LOOK:
            if not isinstance(action, LookAtLeft):
                role = _MOVER_BY_PHASE[p]
                raise IllegalAction(f"the {ROLES[role]} hand must say whether he looks at the cards he left "
                                    f"({'Law 33' if role == ELDER else 'Law 36'})")
        elif p == PLAYING:
            role = self.leader if self.lead < 0 else 1 - self.leader
            if not isinstance(action, Play):
                law = "Law 56: nothing omitted can be reckoned now" if isinstance(action, _DECLARATION_TYPES) \
                    else "Laws 24, 59"
                raise IllegalAction(f"the {ROLES[role]} hand must play a card now ({law})")
            self._verify_play(role, action.card)
        else:
            raise IllegalAction("the deal is over: the cards have been scored (Law 66)")

    def _verify_play(self, role: int, c: Card) -> None:
        hand = self.hands[role]
        who = ROLES[role]
        if not hand >> c & 1:
            name = card_name(c)
            why = f"{name} is not in the {who} hand"
            # Whether the adversary or the stock holds it is hidden: the refusal must not tell (Laws 57-58).
            if played(self.events) >> c & 1:
                raise IllegalAction(f"{why}: it has been played, and a card played cannot be taken up (Law 59)")
            if self.discards[role] >> c & 1:
                raise IllegalAction(f"{why}: it is in his discard, which he cannot retake (Laws 24-25)")
            raise IllegalAction(f"{why}: he plays the cards he holds (Laws 57-58)")
        if self.lead >= 0:
            suit = SUIT_MASKS[self.lead >> 3]
            if hand & suit and not (1 << c) & suit:
                raise IllegalAction(
                    f"{card_name(c)} revokes: the {who} hand holds "
                    f"{('spades', 'hearts', 'clubs', 'diamonds')[self.lead >> 3]} and must follow suit (Law 59 IV)")

    def max_discard(self, role: int) -> int:
        """Elder up to five (Law 21); younger up to what the elder left him (Laws 22, 34).  In a deal of eleven
        or thirteen cards that stands, what he may take and his discard's surplus over it (Laws 40-43)."""
        limits = self.limits
        if limits is None:
            return 5 if role == ELDER else 8 - self.elder_takes
        surplus, _, most = limits[role]
        if role == ELDER:
            return min(most, 5) + surplus
        return len(self.stock) - self.elder_takes + surplus

    def min_discard(self, role: int) -> int:
        """At least one (Laws 21-22); at Piquet au cent the younger need not discard (p. 17); in a deal of
        eleven or thirteen cards that stands, as Laws 40-43 say."""
        if self.limits is not None:
            return self.limits[role][1]
        return self.rules.min_discard(role)

    def _verify_discard(self, role: int, cards: Mask) -> None:
        n = cards.bit_count()
        law = "Law 21" if role == ELDER else "Laws 22, 34"
        if cards & ~self.hands[role]:
            missing = cards_of(cards & ~self.hands[role])
            verb = "is" if len(missing) == 1 else "are"
            raise IllegalAction(f"{format_cards(missing)} {verb} not in the {ROLES[role]} hand ({law})")
        hi = self.max_discard(role)
        lo = self.min_discard(role)
        if not lo <= n <= hi:
            if self.limits is not None:
                surplus = self.limits[role][0]
                raise IllegalAction(f"the {ROLES[role]} hand must discard at least {lo} and at most {hi}, "
                                    f"{surplus_words(surplus)} he takes in (Laws 40-43)")
            if lo:
                raise IllegalAction(f"the {ROLES[role]} hand must discard at least one card and at most {hi} ({law})")
            raise IllegalAction(f"the {ROLES[role]} hand may discard at most {hi} cards, or none (p. 17)")

    def _verify_declaration(self, role: int, category: int, action: Action) -> None:
        hand = self.hands[role]
        who = ROLES[role]
        if isinstance(action, DeclarePoint):
            m = action.cards
            if m and not is_point(m):
                raise IllegalAction("a point is called in one suit (Law 62)")
            items: tuple[Mask, ...] = (m,) if m else ()
        elif isinstance(action, DeclareSequences):
            items = action.runs
            why = sequences_ok(items)
            if why:
                raise IllegalAction(f"that declaration {why} (Law 63)")
        else:
            assert isinstance(action, DeclareSets)
            items = action.sets
            why = sets_ok(items)
            if why:
                raise IllegalAction(f"that declaration {why} (Law 64)")
        for m in items:
            if m & ~hand and not self.club:
                missing = format_cards(cards_of(m & ~hand))
                raise IllegalAction(f"the {who} hand does not hold {missing} (Law 54: call only what you hold)")
        if self.phase in (YOUNGER_RECKON_SEQUENCES, YOUNGER_RECKON_SETS) and \
                barred(category, items, implied_bar(self.events, self.phase, self.rules)):
            what = "sequence" if category == SEQUENCES else "quatorze or trio"
            raise IllegalAction(f"the {who} hand cannot reckon that {what}: the cards the elder has shown make "
                                f"as much, declared by implication (Law 56, Case IV)")

    # ------------------------------------------------------------ acting

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the player to move; ``IllegalAction`` if the laws forbid it.

        ``action`` is one of ``piquet.core.actions``: anything else is a ``TypeError`` when the engine runs
        compiled (``piquet.core.native``), as its annotation says; ``verify`` and ``in legal_actions()`` take
        any object."""
        if self.phase is _PLAY_PHASE and type(action) is Play:
            # A card played (Laws 57-66): the hot path of a deal, written out here rather than in methods of
            # its own, as a call costs as much as several of these lines.  Every attribute used twice is read
            # once into a local; the events of a card played and of the play's usual scores are taken from
            # tables (immutable values, shared by every deal); a score of the play is written here unless it
            # crosses thirty or a game's goal is in force, when ``_score`` decides pique and the game.  No
            # snapshot is kept: ``undo`` reads what to restore in the log.
            c = action.card
            bit = 1 << c
            leader = self.leader
            lead = self.lead
            trick = self.trick
            hands = self.hands
            events = self.events
            if lead < 0:  # a lead
                hand = hands[leader]
                if not hand & bit:
                    self._verify_play(leader, c)
                self.history.append(action)
                hands[leader] = hand ^ bit
                events.append(_PLAYED[leader][trick][c])
                self.lead = c
                if trick == 1:
                    self._next_reckoning(YOUNGER_RECKON_POINT)  # the younger reckons before he plays (p. 93)
                elif self.counting >> c & 1:  # Law 65: one for each card led (au cent: by agreement, p. 19)
                    totals = self.totals
                    before = totals[leader]
                    if before != 29 and self._plain:
                        totals[leader] = before + 1
                        self.scores[leader][S_PLAY] += 1
                        events.append(_PLAY_SCORES[leader][1])
                    else:
                        self._score(leader, S_PLAY, 1)
                return
            role = 1 - leader
            hand = hands[role]
            suit = SUIT_MASKS[lead >> 3]
            if not hand & bit or (hand & suit and not bit & suit):
                self._verify_play(role, c)
            self.history.append(action)
            hands[role] = hand ^ bit
            events.append(_PLAYED[role][trick][c])
            # Law 65: one for winning a trick as second player, with a counting card; one more for the last.
            if bit & suit and c > lead:
                winner = role
                points = (self.counting >> c & 1) + (trick == 12)
            else:
                winner = leader
                points = 1 if trick == 12 else 0
            events.append(_new_event(Trick, (winner, trick, lead, c, points)))
            if points:
                totals = self.totals
                before = totals[winner]
                if (before >= 30 or before + points < 30) and self._plain:
                    totals[winner] = before + points
                    self.scores[winner][S_PLAY] += points
                    events.append(_PLAY_SCORES[winner][points])
                else:
                    self._score(winner, S_PLAY, points)
            won = self.tricks_won
            won[winner] += 1
            self.leader = winner
            self.lead = -1
            self.trick = trick + 1
            if (trick == 12 or not (hands[0] and hands[1])) and not self.is_over:
                # The twelfth trick, or a hand of fewer than twelve is out of cards (Law 57); else the goal is
                # reached (p. 20) and the rest is not played.
                if trick < 12:
                    self._unanswered(trick)
                for r in (ELDER, YOUNGER):
                    if self.is_over:
                        break  # the goal reached by the cards unanswered (p. 20)
                    if won[r] == 12:
                        self._score(r, S_CARDS, 40)  # capot (Law 66)
                    elif won[r] > 6:
                        self._score(r, S_CARDS, 10)
                self.phase = DONE
            return
        self.verify(action)
        p = self.phase
        self._undo.append((p, len(self.events), self.hands[_MOVER_BY_PHASE[p]]))
        self.history.append(action)
        # ``verify`` has checked that the action is of the kind the phase asks for.
        if isinstance(action, Discard):
            self._discard(_MOVER_BY_PHASE[self.phase], action.cards)
        elif isinstance(action, LookAtLeft):
            self._look(action.look)
        else:
            self._declare(self.phase, action)

    def _look(self, look: bool) -> None:
        if self.phase is ELDER_LOOK:
            self.elder_looked = look
            self.events.append(_LOOKED[ELDER][look])
            self.phase = YOUNGER_DISCARD
        else:
            self.younger_looked = look
            left = 0
            if look:
                for c in self.left_by_younger():
                    left |= 1 << c
            self.events.append(_new_event(Look, (YOUNGER, look, left)))
            self._reckon_and_continue()

    def undo(self) -> Action:
        """Take back the last action and return it."""
        history = self.history
        if self.irregular and self.irregular[-1][0] == len(history):
            raise IllegalAction("an irregularity entered stands: it is not taken back (start the deal again)")
        if not history:
            raise IllegalAction("nothing to take back")
        events = self.events
        if type(history[-1]) is Play:
            # A card played keeps no snapshot (see ``apply``): its ``Played`` event in the log tells who played
            # which card to which trick; if it was played to a card led, the ``Trick`` event after it tells
            # the card led, and its winner, who now leads, gives the trick back.
            n_events = len(events) - 1
            while type(events[n_events]) is not Played:
                n_events -= 1
            role, card, self.trick = cast(Played, events[n_events])
            self.hands[role] |= 1 << card
            if self.lead >= 0:  # it was led
                self.leader, self.lead = role, -1
            else:
                self.tricks_won[self.leader] -= 1
                self.leader, self.lead = 1 - role, cast(Trick, events[n_events + 1]).lead
            self.phase = _PLAY_PHASE
        else:
            p, n_events, hand = self._undo.pop()
            self.phase = p
            group = _GROUP_BY_PHASE[p]
            if group is _G_DISCARD:
                role = _MOVER_BY_PHASE[p]
                self.hands[role] = hand
                self.discards[role] = 0
                if role == ELDER:
                    self.elder_takes = -1
                else:
                    self.younger_takes = -1
            elif group is _G_LOOK:
                if p is ELDER_LOOK:
                    self.elder_looked = None
                else:
                    self.younger_looked = None
            elif group is _G_DECLARE:
                category, role = _DECLARING_BY_PHASE[p]  # type: ignore[misc]
                self.decl[role][category] = None
                self.keys[role][category] = (0, 0)
        for e in events[n_events:]:
            if type(e) is Score:
                self.scores[e.role][e.component] -= e.points
                self.totals[e.role] -= e.points
            elif type(e) is Unanswered:
                self.tricks_won[e.role] -= e.tricks
        del events[n_events:]
        return self.history.pop()

    # ------------------------------------------------------------ the exchange

    def _discard(self, role: int, cards: Mask, take: int = -1) -> None:
        """Discard ``cards`` and take in as many (Laws 21-22), or ``take`` (Laws 30-31, 35, 40-43)."""
        n = cards.bit_count()
        if take < 0:
            take = n if self.limits is None else n - self.limits[role][0]
        if role == ELDER:
            start, self.elder_takes = 0, take
        else:
            start, self.younger_takes = self.elder_takes, take
        taken = 0
        for c in self.stock[start:start + take]:
            taken |= 1 << c
        self.hands[role] = (self.hands[role] & ~cards) | taken
        self.discards[role] = cards
        left = max(0, 5 - take) if role == ELDER else len(self.stock) - self.elder_takes - take
        if take == n:
            self.events.append(_new_event(Exchange, (role, n, left)))
        else:
            self.events.append(OddExchange(role, n, take, left, self.hands[role].bit_count()))
        other = 1 - role
        if self.carte_blanche[other]:
            if other == YOUNGER and not self.rules.younger_announces_at_once:
                self.events.append(CarteBlanche(YOUNGER))  # au cent: now the elder has discarded (p. 16)
            # Law 20: shown as soon as the adversary has discarded; scores first (Law 67 I).
            self.events.append(CarteBlancheShown(other, self.dealt[other]))
            self._score(other, S_CARTE_BLANCHE, 10, self.dealt[other])
            if self.phase == DONE:
                return  # the goal is reached (p. 20)
        if role == ELDER:
            self.phase = ELDER_LOOK if take < 5 else YOUNGER_DISCARD
        else:
            self.phase = ELDER_POINT

    def take_in(self, role: int, cards: Mask, take: int, law: str = "") -> None:
        """An exchange as it was made at the table, against the laws: ``role`` discards ``cards`` and takes in
        ``take`` cards of the stock in its order (Laws 30, 31, 35; Cases XVII, XXII).  He plays with what he
        then holds; whether he reckons nothing is the referee's to say (``reckons_nothing``; Law 44)."""
        if self.phase != (ELDER_DISCARD if role == ELDER else YOUNGER_DISCARD):
            raise IllegalAction(f"the {ROLES[role]} hand is not exchanging now (Laws 21-22)")
        if cards & ~self.hands[role]:
            raise IllegalAction(f"{format_cards(cards_of(cards & ~self.hands[role]))} not in the {ROLES[role]} hand")
        start = 0 if role == ELDER else self.elder_takes
        if not 0 <= take <= len(self.stock) - start:
            raise IllegalAction(f"the stock holds {len(self.stock) - start} cards: {take} cannot be taken in")
        if not cards and not take:
            raise IllegalAction("nothing discarded and nothing taken in is no exchange")
        self.irregular.append((len(self.history), TAKE_IN, role, cards, take, law))
        self._discard(role, cards, take)

    def reckons_nothing(self, role: int, law: str) -> None:
        """``role`` reckons nothing this deal (``law``: Laws 27-31, 33, 35, 54, 58): his calls and cards still bar
        his adversary (Law 58), and a carte blanche still scores (Case XXI).  Entered before the calling, as the
        laws that impose it are broken at the exchange; at the adversary's choice, who may waive it (Law 44)."""
        if self.phase > ELDER_POINT or self.decl[ELDER][POINT] is not None:
            raise IllegalAction("a penalty of reckoning nothing is entered before the calling begins: the calls are "
                                "scored as they are made")
        if self.penalised[role]:
            raise IllegalAction(f"the {ROLES[role]} hand already reckons nothing this deal")
        self.irregular.append((len(self.history), PENALTY, role, 0, 0, law))
        self.penalised[role] = True
        self._plain = False
        self.events.append(Penalty(role, law))

    def _unanswered(self, trick: int) -> None:
        """A hand of fewer than twelve cards is out after ``trick`` tricks: his adversary counts as tricks the cards
        that cannot be played to (Laws 30, 57), up to the twelfth, which scores one as the last (Case XIX)."""
        hands = self.hands
        role = ELDER if hands[ELDER] else YOUNGER
        tricks = min(hands[role].bit_count(), 12 - trick)
        if not hands[role] or not tricks:
            return
        self.tricks_won[role] += tricks
        self.trick = 13
        self.events.append(Unanswered(role, tricks, 1))
        self._score(role, S_PLAY, 1)

    # ------------------------------------------------------------ calling

    def _declare(self, p: Phase, action: Action) -> None:
        category, role = _DECLARING_BY_PHASE[p]  # type: ignore[misc]
        decl: Declaration = _DECLARED[category](action)  # declaration_of(action), knowing its kind
        self.decl[role][category] = decl
        key = self.keys[role][category] = declaration_key(category, decl)
        ev = self.events
        if p <= YOUNGER_SETS:
            if role == ELDER:
                if decl:
                    if category == POINT:
                        ev.append(_new_event(CallPoint, (ELDER, key[0])))
                        if self.rules.calls_state_value:
                            ev.append(CallValue(ELDER, key[1]))  # au cent: what the point makes (p. 18)
                    elif category == SEQUENCES:
                        ev.append(_new_event(CallSequence, (ELDER, key[0], key[1])))
                    else:
                        ev.append(_new_event(CallSet, (ELDER, key[0], key[1])))
                    self.phase = _PHASES[p + 1]
                else:
                    self.phase = _AFTER_CATEGORY[category]
            else:
                self._reply(category)
                self.phase = _AFTER_CATEGORY[category]
        else:
            # The younger reckons a category the elder did not call: his is good.
            self._show(YOUNGER, category, declaration_items(category, decl))
            self._next_reckoning(p + 1)

    def _show(self, role: int, category: int, items: tuple[Mask, ...], scores: bool = True) -> None:
        """Show what is good (``scores``) or equal (Law 55); at Piquet au cent sets are named, not shown (p. 18)."""
        ev = self.events
        if category == SETS and not self.rules.sets_shown:
            for item in items:
                ev.append(NameSet(role, item.bit_count(), (item.bit_length() - 1) & 7))
            return
        scores = scores and not self.penalised[role]  # his cards bar, but do not score (Law 58)
        for item in items:
            points = self._item_score(category, item) if scores else 0
            ev.append(_new_event(Show, (role, category, item, points)))

    def _item_score(self, category: int, item: Mask) -> int:
        """What a good item scores (Laws 62-64), under the rules (by agreement at au cent, p. 19)."""
        return self.rules.point_score(item) if category == POINT else item_score(category, item)

    def _reply(self, category: int) -> None:
        """The younger's answer to the elder's call, and the elder's showing what is good or equal."""
        ev = self.events
        e_key = self.keys[ELDER][category]
        y_key = self.keys[YOUNGER][category]
        if category == POINT and not self.rules.calls_state_value:
            if y_key[0] == e_key[0]:
                ev.append(_new_event(AskValue, (YOUNGER, y_key[0])))  # "What do they make?" (Law 46)
                ev.append(_new_event(CallValue, (ELDER, e_key[1])))
            else:
                y_key, e_key = (y_key[0], 0), (e_key[0], 0)  # the number of cards decides
        result = (e_key < y_key) - (e_key > y_key) + 1  # 0 good, 1 equal, 2 not good
        ev.append(_new_event(Reply, (YOUNGER, category, result)))
        e_decl = self.decl[ELDER][category]
        if result == 0:
            self._show(ELDER, category, declaration_items(category, e_decl))
        elif result == 1:
            self._show(ELDER, category, declaration_items(category, e_decl)[:1], scores=False)

    def _next_reckoning(self, start: int) -> None:
        """Move to the younger's next undeclared category, his look at the cards left, or the play."""
        y_decl = self.decl[YOUNGER]
        for p in range(start, _RECKON_SETS + 1):
            if y_decl[p - _RECKON_POINT] is None:
                self.phase = _PHASES[p]
                return
        if self.younger_looked is None and self.elder_takes + self.younger_takes < len(self.stock):
            self.phase = YOUNGER_LOOK
            return
        self._reckon_and_continue()

    def _reckon_and_continue(self) -> None:
        """The younger shows what he has good or equal; the hands are scored in the order of Law 67."""
        e_keys, y_keys = self.keys
        e_decls, y_decls = self.decl
        e_called = (bool(e_decls[POINT]), bool(e_decls[SEQUENCES]), bool(e_decls[SETS]))
        if self.club:
            self._miscalls()
        for category in (POINT, SEQUENCES, SETS):
            if not e_called[category]:
                continue  # the younger's own declarations were shown as he made them
            e_key, y_key = e_keys[category], y_keys[category]
            if e_key < y_key:
                self._show(YOUNGER, category, declaration_items(category, y_decls[category]))
            elif e_key == y_key:
                self._show(YOUNGER, category, declaration_items(category, y_decls[category])[:1], scores=False)
        hidden_sets = not self.rules.sets_shown
        for category in (POINT, SEQUENCES, SETS):
            e_key, y_key = e_keys[category], y_keys[category]
            if e_key == y_key:
                continue  # equal, or nothing: neither scores (p. 89-90)
            role = ELDER if e_key > y_key else YOUNGER
            kind = category + S_POINT
            for item in declaration_items(category, self.decl[role][category]):
                self._score(role, kind, self._item_score(category, item),
                            0 if hidden_sets and category == SETS else item)
                if self.phase == DONE:
                    return  # the goal is reached in the order of Law 67 (p. 20)
        if self.counting >> self.lead & 1:
            self._score(ELDER, S_PLAY, 1)  # the first lead, which reckons after the hands (Law 67 V)
            if self.phase == DONE:
                return
        self.phase = _PLAY_PHASE

    def _miscalls(self) -> None:
        """At a club table, before the younger plays to the first trick (Law 54): each call good or equal against
        the adversary's that its caller does not hold comes to light (an equal call is shown, Law 55).  It bars
        nothing: what the adversary has good counts, unless barred by a correct call of the player in error (Case
        II); and, if it was allowed good or equal as called, he reckons nothing that deal (Case XVIII: "showing
        anything that is allowed to be equal"), unless he could not have held it in his hand and discard together
        (Laws 53-54).  A miscall coming to light may make good another call of the adversary's: it is looked at
        in turn, until none is left."""
        keys = self.keys
        allowed = [[keys[r][c] >= keys[1 - r][c] for c in (POINT, SEQUENCES, SETS)] for r in (ELDER, YOUNGER)]
        wrong = [False, False]
        found = True
        while found:
            found = False
            for role in (ELDER, YOUNGER):
                held = self.hands[role] | played(self.events, role)
                for category in (POINT, SEQUENCES, SETS):
                    items = declaration_items(category, self.decl[role][category])
                    if not items or keys[role][category] < keys[1 - role][category]:
                        continue  # nothing called, or neither good nor equal: it bars nothing, no penalty (Law 54)
                    false = [m for m in items if m & ~held]
                    if not false:
                        continue
                    found = True
                    for m in false:
                        impossible = bool(m & ~(held | self.discards[role]))
                        self.events.append(Miscall(role, category, m, impossible))
                        wrong[role] = wrong[role] or (allowed[role][category] and not impossible)
                    correct = tuple(m for m in items if not m & ~held)
                    self.decl[role][category] = correct if category != POINT else (correct[0] if correct else 0)
                    keys[role][category] = declaration_key(category, self.decl[role][category])
                    self._reckon_unbarred(1 - role, category)
        for role in (ELDER, YOUNGER):
            if wrong[role] and not self.penalised[role]:
                self.penalised[role] = True
                self._plain = False
                self.events.append(Penalty(role, "Law 54"))

    def _reckon_unbarred(self, role: int, category: int) -> None:
        """After his adversary's miscall, ``role`` reckons anything he has good in ``category`` that a correct call
        of the player in error does not bar, though he sank it (Law 54; Case II: "B then claims to reckon four
        tens ... Yes"): all his sequences, or quatorzes and trios, the best being good (Laws 63-64), those he did
        not call besides; of two equal points, the one he called.  The elder shows what is then good or equal
        (Law 55); the younger's show follows (Law 67)."""
        held = self.hands[role] | played(self.events, role)
        full: Declaration = best_point(held) if category == POINT else \
            best_sequences(held) if category == SEQUENCES else best_sets(held)
        key = declaration_key(category, full)
        called = self.keys[role][category]
        if key < called:
            return  # his own call is not held either: it comes to light in its turn
        if key > called or category != POINT:
            self.decl[role][category] = full
            self.keys[role][category] = key
        if role == ELDER:
            items = declaration_items(category, self.decl[ELDER][category])
            other = self.keys[YOUNGER][category]
            if key > other:
                self._show(ELDER, category, items)
            elif key == other:
                self._show(ELDER, category, items[:1], scores=False)

    # ------------------------------------------------------------ play

    # ------------------------------------------------------------ scoring

    def _score(self, role: int, kind: int, points: int, cards: Mask = 0) -> None:
        """Add a score, and a pique or repique if this score reaches thirty (Laws 68-69); nothing for a player
        who reckons nothing this deal but his carte blanche (Law 58, Case XXI)."""
        if self.penalised[role] and kind != S_CARTE_BLANCHE:
            return
        totals = self.totals
        before = totals[role]
        self.scores[role][kind] += points
        totals[role] = before + points
        self.events.append(_new_event(Score, (role, kind, points, cards)))
        if before < 30 <= before + points and totals[1 - role] == 0:
            if kind in _HAND_KINDS:
                self._score(role, S_REPIQUE, 60)
            elif kind == S_PLAY and role == ELDER:
                self._score(role, S_PIQUE, 30)
        game = self.game
        if game is not None and self.phase != DONE and game[role] + totals[role] >= self.rules.line:
            # p. 20: the first to reach the goal in the order of scoring wins the game; the deal stops.
            other = 1 - role
            double = game[other] + totals[other] < self.rules.double_below
            self.events.append(GameWon(role, game[role] + totals[role], double))
            self.phase = DONE


# ---------------------------------------------------------------- legal actions

def point_options(hand: Mask) -> Iterator[Mask]:
    """Every point that may be called: nothing, or any cards of one suit."""
    yield 0
    for s in SUITS:
        cards = cards_of(hand & SUIT_MASKS[s])
        for n in range(len(cards), 0, -1):
            for combo in combinations(cards, n):
                m = 0
                for c in combo:
                    m |= 1 << c
                yield m


def _runs_within(suit_cards: list[Card]) -> list[Mask]:
    """Every run of three or more held cards in one suit (cards given high first)."""
    held = 0
    for c in suit_cards:
        held |= 1 << c
    runs: list[Mask] = []
    for top in suit_cards:
        m = 1 << top
        c = top - 1
        while c >= 0 and c >> 3 == top >> 3 and held >> c & 1:
            m |= 1 << c
            if m.bit_count() >= 3:
                runs.append(m)
            c -= 1
    return runs


def _run_choices(runs: list[Mask], chosen: tuple[Mask, ...] = (), used: Mask = 0,
                 start: int = 0) -> Iterator[tuple[Mask, ...]]:
    """Every choice of disjoint runs, no two touching (touching runs are one sequence)."""
    yield chosen
    for i in range(start, len(runs)):
        r = runs[i]
        if not (r | r << 1 | r >> 1) & used:
            yield from _run_choices(runs, chosen + (r,), used | r, i + 1)


def sequence_options(hand: Mask) -> Iterator[tuple[Mask, ...]]:
    """Every set of sequences that may be declared together."""
    per_suit = [list(_run_choices(_runs_within(cards_of(hand & SUIT_MASKS[s])))) for s in SUITS]
    for combo in product(*per_suit):
        yield tuple(r for part in combo for r in part)


def set_options(hand: Mask) -> Iterator[tuple[Mask, ...]]:
    """Every set of quatorzes and trios that may be declared together."""
    per_rank: list[list[Mask]] = []
    for r in range(TEN, 8):
        held = cards_of(hand & RANK_MASKS[r])
        opts = [0]
        if len(held) >= 3:
            for combo in combinations(held, 3):
                opts.append(sum(1 << c for c in combo))
        if len(held) == 4:
            opts.append(hand & RANK_MASKS[r])
        per_rank.append(opts)
    for chosen in product(*per_rank):
        yield tuple(m for m in chosen if m)


def legal_iter(phase: Phase, hand: Mask, lead: int, max_discard: int, min_discard: int = 1,
               bar: tuple[int, int] = (0, 0)) -> Iterator[Action]:
    """The legal actions of the player to move, from what he can see: his hand, the card led, and in the
    younger's reckoning what the elder's cards shown make (``implied_bar``, Case IV)."""
    if phase == PLAYING:
        playable = hand
        if lead >= 0 and hand & SUIT_MASKS[lead >> 3]:
            playable = hand & SUIT_MASKS[lead >> 3]
        for c in cards_of(playable):
            yield PLAYS[c]
    elif phase in (ELDER_DISCARD, YOUNGER_DISCARD):
        cards = cards_of(hand)
        for n in range(min_discard, max_discard + 1):
            for combo in combinations(cards, n):
                yield Discard(sum(1 << c for c in combo))
    elif phase in (ELDER_LOOK, YOUNGER_LOOK):
        yield from LOOK_CHOICES
    elif _DECLARING_BY_PHASE[phase] is not None:
        category, _ = _DECLARING_BY_PHASE[phase]  # type: ignore[misc]
        if category == POINT:
            for m in point_options(hand):
                yield DeclarePoint(m)
        elif category == SEQUENCES:
            for runs in sequence_options(hand):
                if not barred(SEQUENCES, runs, bar):
                    yield DeclareSequences(runs)
        else:
            for sets in set_options(hand):
                if not barred(SETS, sets, bar):
                    yield DeclareSets(sets)


def legal_count(phase: Phase, hand: Mask, lead: int, max_discard: int, min_discard: int = 1,
                bar: tuple[int, int] = (0, 0)) -> int:
    if phase in (ELDER_DISCARD, YOUNGER_DISCARD):
        n = hand.bit_count()
        return sum(comb(n, k) for k in range(min_discard, max_discard + 1))
    return sum(1 for _ in legal_iter(phase, hand, lead, max_discard, min_discard, bar))


@cache
def _discard_weights(n: int, most: int, least: int = 1) -> tuple[range, list[int], float]:
    """Sizes of discard, the cumulative number of discards of each size and their total, for uniform sampling."""
    sizes = range(least, most + 1)
    cum = list(accumulate(comb(n, k) for k in sizes))
    return sizes, cum, float(cum[-1])


def _sample_discard(hand: Mask, most: int, least: int, rng: random.Random) -> Discard:
    """A discard chosen uniformly at random: a size weighted by how many discards it has, then the cards.

    The draws are those of ``rng.choices(sizes, cum_weights=cum)[0]`` and ``rng.sample(cards, size)``, written
    out without their checks of their arguments (the sampling of the exchange cost more than its laws): the
    same generator gives the same discard.
    """
    cards = cards_of(hand)
    n = len(cards)
    sizes, cum, total = _discard_weights(n, most, least)
    size = sizes[bisect_right(cum, rng.random() * total, 0, len(cum) - 1)]
    # rng.sample's way with a population this small (at most 21): draw from a pool, filling each gap from its end.
    getrandbits = rng.getrandbits
    m = 0
    for i in range(size):
        j = _below(getrandbits, n - i)
        m |= 1 << cards[j]
        cards[j] = cards[n - i - 1]
    return Discard(m)


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number from 0 to ``n - 1``, drawn as ``random.Random``'s ``_randbelow`` draws it (the same numbers from
    the same generator), without a call of a Python method."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def legal_sample(phase: Phase, hand: Mask, lead: int, max_discard: int, rng: random.Random,
                 min_discard: int = 1, bar: tuple[int, int] = (0, 0)) -> Action:
    """A legal action chosen uniformly at random."""
    if phase == PLAYING:
        if lead >= 0 and hand & SUIT_MASKS[lead >> 3]:
            hand &= SUIT_MASKS[lead >> 3]
        return PLAYS[rng.choice(cards_of(hand))]
    if phase in (ELDER_DISCARD, YOUNGER_DISCARD):
        return _sample_discard(hand, max_discard, min_discard, rng)
    options = list(legal_iter(phase, hand, lead, max_discard, min_discard, bar))
    if not options:
        raise IllegalAction("the deal is over")
    return rng.choice(options)


#: For each suit and each byte of that suit, the plays of its cards in display order (high first), as
#: ``cards_of`` lists them: sampling a card takes it from here, allocating nothing when following suit.
_SUIT_PLAYS: Final[tuple[tuple[tuple[Play, ...], ...], ...]] = tuple(
    tuple(tuple(PLAYS[c] for c in cards) for cards in by_byte) for by_byte in SUIT_BYTE_CARDS)


class LegalActions:
    """A live view of the legal actions: iterate it, ask ``in``, take ``len``, or ``sample``."""

    __slots__ = ("deal", "_rng", "_random")

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        # The generator last sampled with, and its bound ``random``: looked up once, not at every card.
        self._rng: random.Random | None = None
        self._random: Callable[[], float] = random.random

    def _args(self) -> tuple[Phase, Mask, int, int, int, tuple[int, int]]:
        d = self.deal
        role = d.to_move
        if role is None:
            return (DONE, 0, -1, 0, 1, (0, 0))
        return (d.phase, d.hands[role], d.lead, d.max_discard(role), d.min_discard(role),
                implied_bar(d.events, d.phase, d.rules))

    def __contains__(self, action: object) -> bool:
        try:
            self.deal.verify(action)
        except IllegalAction:
            return False
        return True

    def __iter__(self) -> Iterator[Action]:
        return legal_iter(*self._args())

    def __len__(self) -> int:
        return legal_count(*self._args())

    def sample(self, rng: random.Random) -> Action:
        """A legal action chosen uniformly at random."""
        d = self.deal
        if d.phase is _PLAY_PHASE:
            # The hot path of the play: the plays of each suit's cards are tabled (see ``_SUIT_PLAYS``).  The
            # draw is ``floor(random() * n)``, as ``int()`` of a positive float: the same card for the same generator.
            if rng is not self._rng:
                self._rng, self._random = rng, rng.random
            draw = self._random
            lead = d.lead
            if lead < 0:
                hand = d.hands[d.leader]
            else:
                hand = d.hands[1 - d.leader]
                suit = lead >> 3
                plays: Sequence[Play] = _SUIT_PLAYS[suit][hand >> (8 * suit) & 0xFF]
                if plays:  # he must follow suit (Law 59)
                    return plays[int(draw() * len(plays))]
            # Any card: the k-th of the hand in display order, suit by suit, with no list made.
            k = int(draw() * hand.bit_count())
            for suit in range(4):
                plays = _SUIT_PLAYS[suit][hand >> (8 * suit) & 0xFF]
                if k < len(plays):
                    return plays[k]
                k -= len(plays)
            raise IllegalAction("the deal is over")
        p = d.phase
        group = _GROUP_BY_PHASE[p]
        if group is _G_DISCARD:
            role = _MOVER_BY_PHASE[p]
            return _sample_discard(d.hands[role], d.max_discard(role), d.min_discard(role), rng)
        if group is _G_LOOK:
            return LOOK_CHOICES[_below(rng.getrandbits, 2)]  # rng.choice(LOOK_CHOICES)
        if group is _G_OVER:
            raise IllegalAction("the deal is over")
        phase, hand, lead, most, least, bar = self._args()
        return legal_sample(phase, hand, lead, most, rng, least, bar)
