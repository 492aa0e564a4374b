"""The referee: the laws of irregularities (1896) as data, for a game played with a real pack.

The engine refuses every irregular action, so none of these laws can be broken
online; at a table with real cards they can.  An ``Irregularity`` says what
happened, in facts (its kind, the offender's role, and the facts the law's
decision turns on); ``rule`` gives the ``Ruling``: the law cited, what it says,
who chooses (the player the law gives the option to, or nobody when the law
decides), and the options, each a ``Remedy`` of a small vocabulary.
``IRREGULARITIES`` is the catalogue a player picks from.

>>> r = rule(Irregularity(Kind.OUT_OF_TURN, hand_taken_up=True))
>>> r.law, r.chooser, r.remedies
('Law 16', None, (<Remedy.DEAL_TWICE: 'the elder of that deal deals twice running'>,))
>>> rule(Irregularity(Kind.OUT_OF_TURN, hand_taken_up=False)).remedies
(<Remedy.VOID: 'the deal void, the deals before stand'>,)
>>> r = rule(Irregularity(Kind.PLAYED_WRONG_NUMBER, offender=YOUNGER, cards_held=13))
>>> r.law, r.chooser == ELDER, [o.remedy.name for o in r.options]
('Law 58', True, ['MORE_THAN_TWELVE', 'WAIVE'])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from piquet.core.deal import Limits, surplus_words
from piquet.core.events import ELDER, YOUNGER
from piquet.core.rules import RUBICON, Rules


class Group(StrEnum):
    """Where at the table the irregularity happened, as the catalogue groups them."""

    CUT = "the cut"
    DEAL = "the deal"
    EXCHANGE = "the exchange"
    ODD = "eleven or thirteen cards"
    CALLING = "calling"
    PLAY = "the play"
    SCORING = "scoring"
    PACK = "the pack"


class Remedy(StrEnum):
    """What the laws do about an irregularity: the small vocabulary every option is told in."""

    CUT_AGAIN = "cut again"
    LOWEST_CUT = "the lowest card exposed taken as cut"
    FRESH_DEAL = "a fresh deal"
    RECTIFY = "the deal put right"
    VOID = "the deal void, the deals before stand"
    DEAL_TWICE = "the elder of that deal deals twice running"
    STANDS = "the deal stands"
    STAND_ODD = "the deal stands, the exchange as the law sets it"
    FEWER_THAN_TWELVE = "he plays with fewer than twelve cards"
    MORE_THAN_TWELVE = "he plays with more than twelve cards and reckons nothing"
    RECKONS_NOTHING = "he reckons nothing this deal"
    WAIVE = "the penalty not enforced"
    ALTER_DISCARD = "the discard altered"
    TAKE_IN_LEFT = "he takes in the card he left"
    SEE_DISCARD = "the adversary sees the discard"
    EXPOSE_CALL_SUIT = "the cards exposed, and a suit called from him"
    CALL_CORRECTED = "the call corrected"
    TAKE_BACK = "the cards taken back and played again"
    SURPLUS_RETURNED = "the surplus card put back, no penalty"
    SCORE_CORRECTED = "the score corrected"
    OWN_HAND_SCORE = "each player's score of his own hand taken"
    GAME_LOST = "he loses the game"
    NO_REMEDY = "no remedy"
    POINT_BARRED = "neither scores the point"


#: The remedies that concern only the cards on the table: told, no score changes.
TABLE_ONLY: Final = frozenset({
    Remedy.CUT_AGAIN, Remedy.LOWEST_CUT, Remedy.RECTIFY, Remedy.STANDS, Remedy.STAND_ODD,
    Remedy.FEWER_THAN_TWELVE, Remedy.ALTER_DISCARD, Remedy.TAKE_IN_LEFT, Remedy.SEE_DISCARD,
    Remedy.EXPOSE_CALL_SUIT, Remedy.CALL_CORRECTED, Remedy.TAKE_BACK, Remedy.SURPLUS_RETURNED,
    Remedy.NO_REMEDY, Remedy.POINT_BARRED})
#: The remedies by which a player reckons nothing that deal (Law 44 lets the adversary waive them).
PENALTIES: Final = frozenset({Remedy.RECKONS_NOTHING, Remedy.MORE_THAN_TWELVE})


class Kind(StrEnum):
    """The irregularities the laws provide for, by a short name."""

    CUT_FOR_DEAL_EXPOSED = "cut-for-deal-exposed"
    CUT_TO_DEALER_EXPOSED = "cut-to-dealer-exposed"
    MISDEALT = "misdealt"
    DEALER_EXPOSED = "dealer-exposed"
    FACED_CARD = "faced-card"
    WRONG_PACK = "wrong-pack"
    OUT_OF_TURN = "out-of-turn"
    FRESH_DEAL_OFFERED = "fresh-deal-offered"
    DISCARD_RETAKEN = "discard-retaken"
    MIXED_INTO_DISCARD = "mixed-into-discard"
    ELDER_TOOK_YOUNGERS = "elder-took-youngers"
    YOUNGER_TOOK_ELDERS = "younger-took-elders"
    DISCARDED_MORE = "discarded-more"
    TOOK_MORE = "took-more"
    NOT_DECLARED_LEFT = "not-declared-left"
    YOUNGER_BEFORE_ELDER = "younger-before-elder"
    LEFT_MIXED_UNSEEN = "left-mixed-unseen"
    LEFT_LOOKED_AT = "left-looked-at"
    LEFT_BEFORE_BLANCHE = "left-before-blanche"
    LATE_CARTE_BLANCHE = "late-carte-blanche"
    BLANCHE_AFTER_STOCK = "blanche-after-stock"
    WRONG_COUNT = "wrong-count"
    PLAYED_WRONG_NUMBER = "played-wrong-number"
    UNDERCALL = "undercall"
    UNDERALLOWED = "underallowed"
    OVERCALL = "overcall"
    MISINFORMED = "misinformed"
    DROPPED = "dropped"
    TOO_MANY_PLAYED = "too-many-played"
    WRONG_CARD_AMONG_LEADS = "wrong-card-among-leads"
    LEAD_OUT_OF_TURN = "lead-out-of-turn"
    REVOKE = "revoke"
    MISCOUNTED = "miscounted"
    SCORES_DIFFER = "scores-differ"
    INCORRECT_PACK = "incorrect-pack"
    SURPLUS_CARD = "surplus-card"


@dataclass(frozen=True)
class Irregularity:
    """What happened at the table, in facts.  ``offender``: the role (``ELDER`` or ``YOUNGER``) in error,
    where the kind does not tell it.  The other fields are the facts the laws' decisions turn on; each kind
    asks only those in its ``Entry.facts`` (the rest keep their defaults)."""

    kind: Kind
    offender: int | None = None
    #: Either player has taken up his hand, or any of his cards (Laws 10, 15, 16).
    hand_taken_up: bool = False
    #: More than one card was dealt wrongly (Laws 10, 12).
    more_than_one: bool = False
    #: The card exposed in dealing was the dealer's own (Law 13).
    own_card: bool = False
    #: This or the next deal is the last of the partie (Law 16).
    last_deal: bool = False
    #: The other player discarded after the offer (Case III).
    discarded_since: bool = False
    #: The cards were mixed with the hand, not only exposed or taken up (Laws 27-29; Case XX).
    mixed: bool = False
    #: The cards the younger took up were cards the elder left (Law 29).
    left_by_elder: bool = False
    #: The card left is still apart on the table, not mixed with the discard (Case XIII).
    card_apart: bool = False
    #: The player had announced that he would leave it (Case XIII); or the elder announced his eleven or
    #: thirteen cards before taking up a card of the stock (Law 39).
    announced: bool = False
    #: The younger has taken up a card of the stock (Law 32).
    younger_took_stock: bool = False
    #: He had retaken his discard (Case XXI).
    retook_discard: bool = False
    #: The cards dealt to the elder and the younger, and left in the stock (Laws 11, 12, 38-43).
    elder_cards: int = 12
    younger_cards: int = 12
    stock_cards: int = 8
    #: The elder has taken up a card of the stock (at Piquet au cent: touched the stock) (Laws 11, 39).
    elder_took_stock: bool = False
    #: The cards he plays with (Laws 57, 58).
    cards_held: int = 12
    #: The younger has replied to the call (Law 50); the elder has made another call or led (Law 51).
    replied: bool = False
    #: The younger's reply to the number of cards of the point was "Equal" (he asked what they make), though he
    #: holds more cards (Law 46; Case I).
    equal_to_number: bool = False
    #: The call was allowed good (Laws 52, 54).
    allowed: bool = True
    #: The younger has played to the first trick (Laws 52, 54; at Piquet au cent: the caller has played a
    #: card since, p. 19 (3)).
    played_since: bool = False
    #: He holds one of that counting value, only its suit or rank named wrongly (Law 53; naming the wrong
    #: card out is not a misnomer, Case VIII).
    misnomer: bool = False
    #: He could not have held what he called in his hand and discard together (Law 54).
    impossible: bool = False
    #: His answer was true of the cards he had declared (Cases XV, XVI).
    true_of_declared: bool = False
    #: The adversary has played to the card (Law 59 III; Case XI).
    adversary_played: bool = False
    #: The player in error has seen his next hand (Law 70); at Piquet au cent, the game is over (p. 19 (7)).
    seen_next_hand: bool = False
    #: The surplus card was found in the discard (Case XVII); else in the hand (Case XVIII).
    in_discard: bool = False
    #: The surplus card has been played (Case XVIII).
    surplus_played: bool = False
    #: The surplus card was used in a claim allowed, and a card was led after (Case XVIII).
    used_in_claim: bool = False


@dataclass(frozen=True)
class ExchangeLimits:
    """How a player exchanges when a deal of eleven or thirteen cards, or a stock of seven, stands: his
    discard less his take-in (``surplus``), the least he must discard, the most he may take (the younger's
    most: when the elder has taken all his cards) (Laws 40-43; au cent p. 17-18 (6))."""

    role: int
    surplus: int
    min_discard: int
    max_take: int


def deal_limits(limits: tuple[ExchangeLimits, ...]) -> Limits:
    """The limits of a ruling's option as the deal takes them (``Deal(..., limits=...)``), by role."""
    by_role = {x.role: (x.surplus, x.min_discard, x.max_take) for x in limits}
    return (by_role[ELDER], by_role[YOUNGER])


@dataclass(frozen=True)
class Option:
    """One remedy the law gives, in words; ``role``: whom it falls on (the offender for a penalty)."""

    remedy: Remedy
    says: str
    role: int | None = None
    limits: tuple[ExchangeLimits, ...] = ()


@dataclass(frozen=True)
class Ruling:
    """The law cited, what it says in plain words, who chooses (a role, or None when the law decides), and
    the options."""

    law: str
    says: str
    chooser: int | None
    options: tuple[Option, ...]

    @property
    def remedies(self) -> tuple[Remedy, ...]:
        return tuple(o.remedy for o in self.options)

    def option(self, remedy: Remedy) -> Option:
        for o in self.options:
            if o.remedy is remedy:
                return o
        raise KeyError(remedy)


@dataclass(frozen=True)
class Fact:
    """A fact a kind asks, as a question put to the players; ``number``: a count, else yes or no."""

    name: str
    question: str
    number: bool = False


FACTS: Final = {f.name: f for f in (
    Fact("offender", "Who is in error, the elder or the younger?"),
    Fact("hand_taken_up", "Had either player taken up his hand (any of his cards)?"),
    Fact("more_than_one", "Was more than one card dealt wrongly?"),
    Fact("own_card", "Was the card exposed the dealer's own?"),
    Fact("last_deal", "Is this or the next deal the last of the partie?"),
    Fact("discarded_since", "Has the other player discarded since the offer?"),
    Fact("mixed", "Were the cards mixed with his hand?"),
    Fact("left_by_elder", "Were they cards the elder had left?"),
    Fact("card_apart", "Is the card he left still apart on the table?"),
    Fact("announced", "Had he announced it (that he leaves a card; his eleven or thirteen cards)?"),
    Fact("younger_took_stock", "Has the younger taken up a card of the stock?"),
    Fact("retook_discard", "Did he take back his discard?"),
    Fact("elder_cards", "How many cards has the elder?", number=True),
    Fact("younger_cards", "How many cards has the younger?", number=True),
    Fact("stock_cards", "How many cards are in the stock?", number=True),
    Fact("elder_took_stock", "Has the elder taken up a card of the stock (at au cent: touched it)?"),
    Fact("cards_held", "How many cards does he play with?", number=True),
    Fact("replied", "Had it been answered (a reply; another call or a lead after it)?"),
    Fact("equal_to_number", "Did the younger answer the number of cards of the point \"Equal\" (asking what "
         "they make)?"),
    Fact("allowed", "Was the call allowed good?"),
    Fact("played_since", "Has the younger played to the first trick (at au cent: the caller played a card)?"),
    Fact("misnomer", "Does he hold one of that counting value, only its suit or rank named wrongly?"),
    Fact("impossible", "Could he not have held it in his hand and discard together?"),
    Fact("true_of_declared", "Was his answer true of the cards he had declared?"),
    Fact("adversary_played", "Had the adversary played to it?"),
    Fact("seen_next_hand", "Has the player in error seen his next hand (at au cent: is the game over)?"),
    Fact("in_discard", "Was the surplus card in his discard?"),
    Fact("surplus_played", "Has the surplus card been played?"),
    Fact("used_in_claim", "Was it used in a claim allowed, a card led after?"),
)}


@dataclass(frozen=True)
class Entry:
    """One kind in the catalogue: the words a player picks it by, its group, the facts it asks, its laws."""

    kind: Kind
    label: str
    group: Group
    facts: tuple[str, ...]
    laws: str


def _e(kind: Kind, label: str, group: Group, facts: str, laws: str) -> Entry:
    return Entry(kind, label, group, tuple(facts.split()), laws)


K, G = Kind, Group
#: The catalogue, by group, in the words a player at the table would pick from.
IRREGULARITIES: Final = (
    _e(K.CUT_FOR_DEAL_EXPOSED, "More than one card was exposed in cutting for deal", G.CUT, "", "Law 5; p. 16"),
    _e(K.CUT_TO_DEALER_EXPOSED, "A card was exposed in cutting to the dealer, or the cards were confused", G.CUT,
       "", "Law 7"),
    _e(K.MISDEALT, "The cards were dealt wrongly", G.DEAL, "hand_taken_up more_than_one", "Laws 10, 12"),
    _e(K.DEALER_EXPOSED, "A card was exposed in the deal", G.DEAL, "own_card", "Law 13"),
    _e(K.FACED_CARD, "A card was found faced in the pack or the stock", G.DEAL, "", "Law 14"),
    _e(K.WRONG_PACK, "He dealt with the wrong pack", G.DEAL, "hand_taken_up", "Law 15; p. 16"),
    _e(K.OUT_OF_TURN, "He dealt out of turn", G.DEAL, "hand_taken_up last_deal", "Law 16; p. 16"),
    _e(K.FRESH_DEAL_OFFERED, "He offered a fresh deal", G.DEAL, "discarded_since", "Case III"),
    _e(K.DISCARD_RETAKEN, "He took back his discard after taking up a card of the stock", G.EXCHANGE,
       "offender", "Law 25"),
    _e(K.MIXED_INTO_DISCARD, "He mixed a card of his hand or of his take-in with his discard", G.EXCHANGE,
       "offender", "Law 26"),
    _e(K.ELDER_TOOK_YOUNGERS, "The elder exposed or took up the younger's cards (or those he left)",
       G.EXCHANGE, "mixed", "Laws 27, 28; p. 17"),
    _e(K.YOUNGER_TOOK_ELDERS, "The younger exposed or took up the elder's five", G.EXCHANGE,
       "left_by_elder mixed", "Laws 27, 29; p. 17"),
    _e(K.DISCARDED_MORE, "He discarded more than he took in", G.EXCHANGE, "offender card_apart announced",
       "Law 30; Case XIII"),
    _e(K.TOOK_MORE, "He took in more than he discarded", G.EXCHANGE, "offender", "Laws 31, 35"),
    _e(K.NOT_DECLARED_LEFT, "The elder did not say how many he leaves", G.EXCHANGE, "younger_took_stock",
       "Law 32"),
    _e(K.YOUNGER_BEFORE_ELDER, "The younger took in before the elder", G.EXCHANGE, "", "Case XIV"),
    _e(K.LEFT_MIXED_UNSEEN, "The younger mixed the cards he left with his discard", G.EXCHANGE, "", "Law 37"),
    _e(K.LEFT_LOOKED_AT, "He looked at the cards left after the younger chose not to", G.EXCHANGE, "offender",
       "Law 36; p. 17"),
    _e(K.LEFT_BEFORE_BLANCHE, "The elder showed carte blanche before saying he leaves a card", G.EXCHANGE, "",
       "Case V"),
    _e(K.LATE_CARTE_BLANCHE, "The younger found his carte blanche after the elder took in", G.EXCHANGE, "",
       "Case VI"),
    _e(K.BLANCHE_AFTER_STOCK, "The elder took up the stock before showing his carte blanche", G.EXCHANGE,
       "mixed retook_discard", "Cases XX, XXI"),
    _e(K.WRONG_COUNT, "I have eleven or thirteen cards (or the stock has seven or nine)", G.ODD,
       "hand_taken_up elder_cards younger_cards stock_cards elder_took_stock announced",
       "Laws 11, 12, 38-43; p. 16, p. 17-18"),
    _e(K.PLAYED_WRONG_NUMBER, "He played with fewer or more than twelve cards", G.ODD, "offender cards_held",
       "Laws 57, 58"),
    _e(K.UNDERCALL, "The elder called less than he holds", G.CALLING, "replied", "Law 50; p. 18"),
    _e(K.UNDERALLOWED, "The younger allowed a call he could beat", G.CALLING, "equal_to_number replied",
       "Laws 46, 51; p. 19; Case I"),
    _e(K.OVERCALL, "He called what he does not hold", G.CALLING,
       "offender allowed played_since misnomer impossible", "Laws 52-54; p. 19; Cases II, VIII, IX"),
    _e(K.MISINFORMED, "He told me wrongly what he holds of what he declared", G.CALLING,
       "offender true_of_declared", "Law 59 V; Cases XV, XVI"),
    _e(K.DROPPED, "A card was dropped", G.PLAY, "offender", "Law 59 I"),
    _e(K.TOO_MANY_PLAYED, "He played too many cards to my leads", G.PLAY, "offender", "Law 59 II; Case X"),
    _e(K.WRONG_CARD_AMONG_LEADS, "He put down a wrong card among his leads", G.PLAY, "offender adversary_played",
       "Case XI"),
    _e(K.LEAD_OUT_OF_TURN, "He led out of turn", G.PLAY, "offender adversary_played", "Law 59 III"),
    _e(K.REVOKE, "He revoked (did not follow suit when he could)", G.PLAY, "offender", "Law 59 IV"),
    _e(K.MISCOUNTED, "The score was wrongly reckoned", G.SCORING, "offender seen_next_hand", "Law 70; p. 19"),
    _e(K.SCORES_DIFFER, "Our written scores differ", G.SCORING, "", "Law 74"),
    _e(K.INCORRECT_PACK, "The pack is incorrect (a card missing or too many)", G.PACK, "", "Law 75"),
    _e(K.SURPLUS_CARD, "A card of the other pack was found in his hand or discard", G.PACK,
       "offender in_discard surplus_played used_in_claim", "Cases XVII, XVIII"),
)
del K, G

ENTRIES: Final = {e.kind: e for e in IRREGULARITIES}


def by_group() -> dict[Group, list[Entry]]:
    """The catalogue by group, in the order of the table: cut, deal, exchange, ... pack."""
    out: dict[Group, list[Entry]] = {g: [] for g in Group}
    for e in IRREGULARITIES:
        out[e.group].append(e)
    return out


# ---------------------------------------------------------------- building rulings

_ROLE_WORDS: Final = ("the elder", "the younger")


def _other(role: int) -> int:
    return YOUNGER if role == ELDER else ELDER


def _law(law: str, says: str, *options: Option, chooser: int | None = None) -> Ruling:
    return Ruling(law, says, chooser, options)


def _one(remedy: Remedy, says: str = "", role: int | None = None) -> Option:
    return Option(remedy, says or remedy.value, role)


def _penalty(law: str, says: str, offender: int, remedy: Remedy = Remedy.RECKONS_NOTHING,
             *more: Option) -> Ruling:
    """A penalty of reckoning nothing that deal: the adversary chooses to enforce it or not (Law 44)."""
    who = _ROLE_WORDS[offender]
    return Ruling(law, says, _other(offender), (
        Option(remedy, f"{who} {remedy.value.removeprefix('he ')}", offender), *more,
        Option(Remedy.WAIVE, f"the penalty not enforced: {who} reckons what he holds (Law 44)", offender)))


def _offender(i: Irregularity, default: int | None = None) -> int:
    o = i.offender if i.offender is not None else default
    if o not in (ELDER, YOUNGER):
        raise ValueError(f"{i.kind}: say who is in error, the elder or the younger")
    return o


def _au_cent(rules: Rules) -> bool:
    """Whether the laws of Piquet au cent (p. 16-20) differ from those of Piquet here."""
    return rules.partie_of_games


def _limits(i: Irregularity, au_cent: bool) -> tuple[ExchangeLimits, ...]:
    """The exchange when the deal stands with a hand of eleven or thirteen, or a stock of seven (Laws 40-43;
    au cent p. 17-18 (6)): each must end with twelve cards."""
    e, y, s = i.elder_cards, i.younger_cards, i.stock_cards
    es, ys = e - 12, y - 12
    if au_cent:
        # Thirteen: one more discarded than taken, none need be taken, three left for the younger; eleven
        # with eight: one less, one card discarded; the younger one more than he takes, none need be taken.
        e_take = min(5, s - 3)
        e_min = 1 if es <= 0 else es
        y_min = max(0, ys)
        return (ExchangeLimits(ELDER, es, e_min, e_take), ExchangeLimits(YOUNGER, ys, y_min, s - e_take))
    e_min = 2 if es > 0 else (0 if es < 0 else 1)  # Laws 40, 41; 42 (one taken, none discarded); 21
    y_min = 2 if ys > 0 else (0 if ys < 0 else 1)  # Laws 42, 43; 40; 22
    return (ExchangeLimits(ELDER, es, e_min, 5), ExchangeLimits(YOUNGER, ys, y_min, min(3, s - 5)))


def _stand_odd(i: Irregularity, au_cent: bool, law: str) -> Option:
    lim = _limits(i, au_cent)
    words = "; ".join(f"{_ROLE_WORDS[x.role]} discards {surplus_words(x.surplus)} he takes in, at least "
                      f"{x.min_discard}, takes at most {x.max_take}" for x in lim)
    return Option(Remedy.STAND_ODD, f"the deal stands ({law}): {words}", None, lim)


# ---------------------------------------------------------------- the laws


def rule(i: Irregularity, rules: Rules = RUBICON) -> Ruling:
    """The ruling of the laws (1896) on an irregularity: the law, its words, who chooses, the options."""
    au = _au_cent(rules)
    k = i.kind
    R = Remedy
    if k is Kind.CUT_FOR_DEAL_EXPOSED:
        if au:
            return _law("p. 16 (1)", "Exposing more than one card in cutting, the adversary may treat the lowest "
                        "exposed as the one cut.", _one(R.LOWEST_CUT), _one(R.CUT_AGAIN),
                        chooser=_other(_offender(i, ELDER)) if i.offender is not None else None)
        return _law("Law 5", "Exposing more than one card in cutting for deal, he must cut again.",
                    _one(R.CUT_AGAIN))
    if k is Kind.CUT_TO_DEALER_EXPOSED:
        return _law("Law 7", "A card exposed in cutting to the dealer or in reuniting the packets, or any "
                    "confusion of the cards: there must be a fresh cut.", _one(R.CUT_AGAIN))
    if k is Kind.MISDEALT:
        if not i.hand_taken_up:
            return _law("Law 10", "Before either player has taken up his hand, the dealer may put the deal right, "
                        "with his adversary's permission.", _one(R.RECTIFY),
                        _one(R.FRESH_DEAL, "a fresh deal (Law 12)") if i.more_than_one else
                        _one(R.STANDS, "the deal stands as dealt (Law 11 for a card too many or too few)"),
                        chooser=ELDER)
        if i.more_than_one:
            return _law("Law 12", "More than one card dealt wrongly: there must be a fresh deal.",
                        _one(R.FRESH_DEAL))
        return _law("Law 11", "One card dealt wrongly: the elder with a card too many or too few has the option "
                    "of a fresh deal (say how many cards each holds).", _one(R.FRESH_DEAL),
                    _one(R.STANDS), chooser=ELDER)
    if k is Kind.DEALER_EXPOSED:
        if i.own_card:
            return _law("Law 13", "The dealer exposing one of his own cards: the deal stands good.", _one(R.STANDS))
        return _law("Law 13", "The dealer exposing a card of his adversary's or of the stock: the elder has the "
                    "option of a fresh deal.", _one(R.FRESH_DEAL), _one(R.STANDS), chooser=ELDER)
    if k is Kind.FACED_CARD:
        return _law("Law 14", "A faced card in the pack when dealing, or in the stock when taking in: there must "
                    "be a fresh deal.", _one(R.FRESH_DEAL))
    if k is Kind.WRONG_PACK:
        if au:
            return (_law("p. 16 (4)", "Found before the deal is completed: a fresh deal with the right pack.",
                         _one(R.FRESH_DEAL)) if not i.hand_taken_up else
                    _law("p. 16 (4)", "Not found before the deal is completed: the deal holds good.",
                         _one(R.STANDS)))
        if not i.hand_taken_up:
            return _law("Law 15", "The wrong pack, found before either player has taken up any of his cards: a "
                        "fresh deal with the right pack.", _one(R.FRESH_DEAL))
        return _law("Law 15", "The wrong pack, found after a card was taken up: the deal holds good, and the "
                    "packs remain changed.", _one(R.STANDS))
    if k is Kind.OUT_OF_TURN:
        if not i.hand_taken_up:
            return _law("p. 16 (5)" if au else "Law 16", "A deal out of turn found before a hand is taken up is "
                        "void, and the right dealer deals.", _one(R.VOID))
        if au:
            return _law("p. 16 (5)", "A deal out of turn not found before the hand is taken up: there is no "
                        "remedy; the deal stands.", _one(R.STANDS, "the deal stands: no remedy"))
        if i.last_deal:
            return _law("Law 16", "Found too late, and this or the next deal is the last of the partie: the deal "
                        "stands, and the deals go on alternately.", _one(R.STANDS))
        return _law("Law 16", "Found too late to correct: the elder hand in that deal must deal twice running.",
                    _one(R.DEAL_TWICE))
    if k is Kind.FRESH_DEAL_OFFERED:
        if i.discarded_since:
            return _law("Case III", "A fresh deal is a matter of agreement; letting the other discard is a "
                        "refusal. The deal stands.", _one(R.STANDS))
        return _law("Case III", "The law does not contemplate the offer of a fresh deal: it is a matter of "
                    "agreement between the players.", _one(R.FRESH_DEAL, "a fresh deal, if both agree"),
                    _one(R.STANDS), chooser=None)
    if k is Kind.DISCARD_RETAKEN:
        o = _offender(i)
        return _penalty("Law 25", "Taking back any of his discard after taking up a card of the stock, he must "
                        "play with more than twelve cards and can reckon nothing that deal (a carte blanche "
                        "still scores, Case XXI).", o, R.MORE_THAN_TWELVE)
    if k is Kind.MIXED_INTO_DISCARD:
        o = _offender(i)
        return _law("Law 26", "Mixing his hand or cards he may take in with his discard after taking up a card of "
                    "the stock, he leaves them there and plays with fewer than twelve; the adversary counts as "
                    "tricks all cards that cannot be played to.", _one(R.FEWER_THAN_TWELVE, role=o))
    if k is Kind.ELDER_TOOK_YOUNGERS:
        if au and i.mixed:
            return _law("p. 17 (3)", "The elder mixing with his hand a bottom card of the stock, or a card he ought "
                        "to have left, loses the game.", _one(R.GAME_LOST, "the elder loses the game", ELDER))
        if i.mixed:
            return _penalty("Law 28", "The elder mixing with his hand any of the bottom three cards, or of those he "
                            "ought to have left, reckons nothing that deal; or the younger, after looking at his "
                            "hand, may have a fresh deal. If the deal stands, the younger takes only his cards not "
                            "mixed.", ELDER, R.RECKONS_NOTHING, _one(R.FRESH_DEAL))
        return _penalty("Law 27", "The elder exposing or taking up any of the bottom three cards of the stock "
                        "reckons nothing that deal.", ELDER)
    if k is Kind.YOUNGER_TOOK_ELDERS:
        if i.left_by_elder:
            if i.mixed:
                return _penalty("Law 29", "The younger taking up cards the elder left, and mixing them with his "
                                "hand, reckons nothing that deal.", YOUNGER)
            return _law("Law 29", "The younger taking up cards the elder left on the stock, and not mixing them, "
                        "incurs no penalty.", _one(R.STANDS))
        if au:
            return _law("p. 17 (3)", "The younger taking up any of the top five cards (not declared left by the "
                        "elder) loses the game.", _one(R.GAME_LOST, "the younger loses the game", YOUNGER))
        if i.mixed:
            return _penalty("Law 29", "The younger mixing with his hand any of the top five cards reckons nothing "
                            "that deal; or the elder, after looking at his hand, may have a fresh deal. If the deal "
                            "stands, the elder takes only his cards not mixed.", YOUNGER, R.RECKONS_NOTHING,
                            _one(R.FRESH_DEAL))
        return _penalty("Law 27", "The younger exposing or taking up any of the top five cards of the stock (not "
                        "left by the elder) reckons nothing that deal.", YOUNGER)
    if k is Kind.DISCARDED_MORE:
        o = _offender(i)
        if i.card_apart and not i.announced:
            return _law("Case XIII", "He may take in the card he left on the table, not having announced that he "
                        "leaves it; if he has renounced in its suit, Law 59 IV applies.",
                        _one(R.TAKE_IN_LEFT, role=o))
        return _law("Law 30", "Discarding more than he takes in, he plays with fewer than twelve cards; the "
                    "adversary counts as tricks all cards that cannot be played to (Case XIII: having announced "
                    "that he leaves it).", _one(R.FEWER_THAN_TWELVE, role=o))
    if k is Kind.TOOK_MORE:
        o = _offender(i)
        if o == YOUNGER:
            return _penalty("Law 35", "The younger leaving cards and taking up more than he discarded reckons "
                            "nothing that deal.", o, R.MORE_THAN_TWELVE)
        return _penalty("Law 31", "Taking in more than he discards (none of the adversary's cards), he plays with "
                        "more than twelve cards and reckons nothing that deal.", o, R.MORE_THAN_TWELVE)
    if k is Kind.NOT_DECLARED_LEFT:
        if i.younger_took_stock:
            return _law("Law 32", "The younger has taken up a card of the stock: too late to alter his discard.",
                        _one(R.STANDS))
        return _law("Law 32", "The elder not declaring how many he leaves, the younger finding more than three "
                    "cards in the stock may alter his discard and take in the cards left.",
                    _one(R.ALTER_DISCARD, role=YOUNGER), _one(R.STANDS), chooser=YOUNGER)
    if k is Kind.YOUNGER_BEFORE_ELDER:
        return _penalty("Case XIV", "The younger having taken up a card of the stock cannot alter his discard; "
                        "taking in order from the top, he must take the card the elder leaves, play with thirteen "
                        "and reckon nothing that deal.", YOUNGER, R.MORE_THAN_TWELVE)
    if k is Kind.LEFT_MIXED_UNSEEN:
        return _law("Law 37", "The younger mixing the cards he left with his discard unshown: the elder, after "
                    "leading a card, may see his discard and the cards mixed with it.",
                    _one(R.SEE_DISCARD, role=YOUNGER), _one(R.STANDS), chooser=ELDER)
    if k is Kind.LEFT_LOOKED_AT:
        o = _offender(i)
        if au:
            return _law("p. 17 (5)", "The cards left, not to be looked at, looked at: they are exposed, and a suit "
                        "may be called from the offender when next he has to lead.",
                        _one(R.EXPOSE_CALL_SUIT, role=o), _one(R.STANDS), chooser=_other(o))
        return _law("Law 36", "Neither player has a right to see them; the law sets no penalty.",
                    _one(R.NO_REMEDY))
    if k is Kind.LEFT_BEFORE_BLANCHE:
        return _law("Case V", "The elder should state that he leaves a card before showing his carte blanche: the "
                    "younger may alter his discard.", _one(R.ALTER_DISCARD, role=YOUNGER), _one(R.STANDS),
                    chooser=YOUNGER)
    if k is Kind.LATE_CARTE_BLANCHE:
        return _law("Case VI", "The elder cannot alter his discard; the younger reckons the carte blanche.",
                    _one(R.STANDS, "the deal stands, and the carte blanche scores"))
    if k is Kind.BLANCHE_AFTER_STOCK:
        if i.retook_discard:
            return _penalty("Case XXI", "Having taken up a card of the stock and retaken his discard, he reckons "
                            "nothing after the carte blanche, which (the stock not mixed with his hand) he may still "
                            "show and reckon (Law 25).", ELDER, R.MORE_THAN_TWELVE)
        if i.mixed:
            return _law("Case XX", "Having mixed stock cards with his hand, he can no longer show the carte "
                        "blanche: it does not score.", _one(R.STANDS, "the deal stands; no carte blanche"))
        return _law("Case XX", "He may still show his carte blanche, hand and discard apart, not retaking any "
                    "card of his discard.", _one(R.STANDS, "the deal stands, and the carte blanche scores"))
    if k is Kind.WRONG_COUNT:
        return _count(i, au)
    if k is Kind.PLAYED_WRONG_NUMBER:
        o = _offender(i)
        if i.cards_held < 12:
            return _law("Law 57", "Playing with fewer than twelve cards, he is liable to no penalty; his adversary "
                        "counts as tricks all cards that cannot be played to.", _one(R.FEWER_THAN_TWELVE, role=o))
        if i.cards_held > 12:
            return _penalty("Law 58", "Playing with more than twelve cards, he reckons nothing that deal; his cards, "
                            "though not good to score, are good to bar his adversary.", o, R.MORE_THAN_TWELVE)
        return _law("Law 57", "Twelve cards: nothing irregular.", _one(R.STANDS))
    if k is Kind.UNDERCALL:
        if au:
            return _law("p. 18 (3)", "The elder calling less than he holds must abide by his call.", _one(R.STANDS))
        if i.replied:
            return _law("Law 50", "The call has been replied to: too late to correct it; he abides by it.",
                        _one(R.STANDS))
        return _law("Law 50", "The elder may correct a smaller call than he holds before the younger replies.",
                    _one(R.CALL_CORRECTED, role=ELDER), _one(R.STANDS), chooser=ELDER)
    if k is Kind.UNDERALLOWED:
        if i.equal_to_number and not au:
            return _law("Law 46, Case I", "His \"Equal\" to the number of cards bars him from counting a superior "
                        "number: he cannot score his point; but it is not good to score for the elder either, and it "
                        "saves a pique or a repique (the elder's completing his call is no further call, Law 51).",
                        _one(R.POINT_BARRED))
        if au:
            return _law("p. 19 (2)", "The younger having allowed a correct call good or equal must abide by his "
                        "answer.", _one(R.STANDS))
        if i.replied:
            return _law("Law 51", "The elder has called again (or led): too late to correct the reply.",
                        _one(R.STANDS))
        return _law("Law 51", "The younger may correct his reply before the elder makes another call, or, if "
                    "none, leads a card.", _one(R.CALL_CORRECTED, role=YOUNGER), _one(R.STANDS), chooser=YOUNGER)
    if k is Kind.OVERCALL:
        return _overcall(i, au)
    if k is Kind.MISINFORMED:
        o = _offender(i)
        if i.true_of_declared:
            return _law("Case XVI", "The answer is taken of the cards reckoned good or declared equal: he did not "
                        "misinform.", _one(R.STANDS, "no remedy: the play stands"))
        return _law("Law 59 V", "Misinformed of the cards allowed good or equal, the adversary may retake all cards "
                    "played after the misinformation and play differently (Case XV).",
                    _one(R.TAKE_BACK, role=o), _one(R.STANDS), chooser=_other(o))
    if k is Kind.DROPPED:
        return _law("Law 59 I", "A card dropped by accident may be retaken.", _one(R.TAKE_BACK, role=_offender(i)))
    if k is Kind.TOO_MANY_PLAYED:
        return _law("Law 59 II", "Playing too many cards to leads made consecutively, he retakes the extra cards; "
                    "all cards played after in error are taken up and played again (Case X: found at the end, the "
                    "hand is played over again).", _one(R.TAKE_BACK, role=_offender(i)))
    if k is Kind.WRONG_CARD_AMONG_LEADS:
        if i.adversary_played:
            return _law("Case XI", "Too late: the adversary has played to it.", _one(R.STANDS, "the card stands"))
        return _law("Case XI", "A card put down in error among several leads may be changed until the adversary "
                    "plays to it.", _one(R.TAKE_BACK, role=_offender(i)))
    if k is Kind.LEAD_OUT_OF_TURN:
        if i.adversary_played:
            return _law("Law 59 III", "The adversary has played to the trick: the error cannot be rectified.",
                        _one(R.STANDS, "the trick stands"))
        return _law("Law 59 III", "A card led out of turn may be taken up.", _one(R.TAKE_BACK, role=_offender(i)))
    if k is Kind.REVOKE:
        return _law("Law 59 IV", "Not following suit when able, he must retake the cards played in error and play "
                    "the suit led; all cards played after are retaken, and the play goes on as if no error had "
                    "been made.", _one(R.TAKE_BACK, role=_offender(i)))
    if k is Kind.MISCOUNTED:
        o = _offender(i)
        law, when = ("p. 19 (7)", "during the game") if au else ("Law 70", "before he has seen his next hand")
        if i.seen_next_hand:
            return _law(law, f"Errors in counting may be put right only {when}: too late; the score stands.",
                        _one(R.STANDS, "the score stands"))
        return _law(law, f"Errors in counting the hand, if proved, may be put right {when}.",
                    _one(R.SCORE_CORRECTED, role=o))
    if k is Kind.SCORES_DIFFER:
        return _law("Law 74", "Where the written scores differ, a player's score of his own hand is taken as "
                    "correct.", _one(R.OWN_HAND_SCORE))
    if k is Kind.INCORRECT_PACK:
        return _law("Law 75", "A pack incorrect, redundant or imperfect: the deal in which it is found is void; "
                    "all deals before stand good.", _one(R.VOID))
    if k is Kind.SURPLUS_CARD:
        o = _offender(i)
        if i.in_discard:
            return _penalty("Case XVII", "No proof that the pack was redundant when dealt (no fresh deal, Law 75): "
                            "he played with thirteen cards and reckons nothing that deal.", o, R.MORE_THAN_TWELVE)
        if i.surplus_played:
            return _law("Case XVIII", "The surplus card played: the hands are taken up and played over again, the "
                        "surplus card first removed.", _one(R.TAKE_BACK, role=o))
        if i.used_in_claim:
            return _penalty("Case XVIII", "The surplus card used in a claim allowed, and a card led after: the "
                            "penalty for an unfounded claim (Law 54, unless he could have held it in hand and "
                            "discard together).", o)
        return _law("Case XVIII", "The surplus card not played: he returns it to the undealt pack, no penalty.",
                    _one(R.SURPLUS_RETURNED, role=o))
    raise ValueError(f"no law provides for {k!r}")


def _count(i: Irregularity, au: bool) -> Ruling:
    """Eleven or thirteen cards, or a stock of seven or nine (Laws 11, 12, 38-43; au cent p. 16 (3),
    p. 17-18 (6)); the pack not of thirty-two is incorrect (Law 75)."""
    R = Remedy
    e, y, s = i.elder_cards, i.younger_cards, i.stock_cards
    if e + y + s != 32:
        return _law("Law 75", f"{e} + {y} + {s} cards are not thirty-two: the pack is incorrect; the deal is void, "
                    "the deals before stand.", _one(R.VOID))
    if (e, y, s) == (12, 12, 8):
        return _law("Law 9", "Twelve cards each and eight in the stock: nothing irregular.", _one(R.STANDS))
    if not i.hand_taken_up:
        return _law("Law 10", "Before either player has taken up his hand, the dealer may put the deal right, "
                    "with his adversary's permission.", _one(R.RECTIFY), _one(R.FRESH_DEAL), chooser=ELDER)
    if e == 11 and s == 7:
        return _law("Law 39", "The stock of seven cards and the elder with eleven: there must be a fresh deal.",
                    _one(R.FRESH_DEAL))
    if s == 9 or abs(e - 12) + abs(y - 12) + abs(s - 8) > 2:
        return _law("Law 12", "More than one card dealt wrongly, or nine cards in the stock: there must be a fresh "
                    "deal.", _one(R.FRESH_DEAL))
    law = {(13, 8): "Law 40", (13, 7): "Law 41", (11, 8): "Law 42", (12, 7): "Law 43"}[(e, s)]
    if au:
        law = "p. 17-18 (6)"
    if e == 12:  # the stock of seven, found by the elder drawing it after discarding (Law 11)
        if i.elder_took_stock:
            return _law(law, "The elder has taken up a card of the stock: the deal stands, and the younger with "
                        "thirteen discards one more than he takes in.", _stand_odd(i, au, law))
        return _law("Law 11", "The elder, drawing the stock after discarding, finds seven cards: he has the option "
                    "of a fresh deal or of altering his discard (the stock may be counted, Law 38).",
                    _one(R.FRESH_DEAL), Option(R.ALTER_DISCARD, "the discard altered, and the deal stands (" + law
                                                + ")", ELDER, _limits(i, au)), chooser=ELDER)
    if i.elder_took_stock and not i.announced:
        return _law("Law 39" if not au else "p. 16 (3)", "The elder took up (au cent: touched) a card of the stock "
                    "without announcing his eleven or thirteen: he loses the option of a fresh deal, cannot alter "
                    "his discard, and must leave at least three cards for the younger.", _stand_odd(i, au, law))
    return _law("p. 16 (3)" if au else "Law 11", "The elder with a card too many or too few has the option of a "
                "fresh deal, before taking up (au cent: touching) a card of the stock (the stock may be counted, "
                "Law 38).", _one(R.FRESH_DEAL), _stand_odd(i, au, law), chooser=ELDER)


def _overcall(i: Irregularity, au: bool) -> Ruling:
    """A call larger than held, or of what is not held (Laws 52-54; au cent p. 19 (3); Cases II, VIII, IX)."""
    R = Remedy
    o = _offender(i)
    if not i.allowed:
        return _law("Law 52", "The call was not allowed good: it scores nothing, and there is no penalty (Case IX: "
                    "what was learned has no remedy).", _one(R.CALL_CORRECTED, role=o))
    if not i.played_since:
        if au:
            return _law("p. 19 (3)", "He may correct the miscall before he plays a card.",
                        _one(R.CALL_CORRECTED, role=o))
        return _law("Law 52", "He may correct his miscall before the younger plays to the first trick; corrected "
                    "by the younger after the elder led, the elder may retake his lead and play differently (Case "
                    "IX: what the correction told has no remedy).", _one(R.CALL_CORRECTED, role=o))
    if i.misnomer:
        return _law("Law 53", "There is no penalty for a misnomer: he holds one of that counting value.",
                    _one(R.STANDS, "no penalty: the call scores as held"))
    if i.impossible:
        return _law("Law 54", "He could not have held what he called in his hand and discard together: no "
                    "penalty; the call is corrected.", _one(R.CALL_CORRECTED, role=o))
    law = "p. 19 (3)" if au else "Law 54"
    return _penalty(law, "Calling what he does not hold, allowed good and not corrected in time, he reckons nothing "
                    "that deal; the adversary may reckon anything he has good not barred by a correct call of the "
                    "player in error (Case II; naming the wrong card out is no misnomer, Case VIII).", o)


__all__ = ["ENTRIES", "FACTS", "IRREGULARITIES", "PENALTIES", "TABLE_ONLY", "Entry", "ExchangeLimits", "Fact",
           "Group", "deal_limits", "Irregularity", "Kind", "Option", "Remedy", "Ruling", "by_group", "rule"]
