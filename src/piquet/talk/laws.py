"""What each law says, in one line: the "Says" of docs/laws.md, for the interfaces to tell beside a refusal.

A refusal cites its law ("... (Law 21)"); ``law_notes`` finds the laws and cases a message cites and gives what
each says, so that the terminal and the browser can add it: ``Law 21: The elder discards and takes in one to
five.``  ``tests/test_guide.py`` keeps this table and docs/laws.md the same.
"""

from __future__ import annotations

import re

#: Each law (``Law 1`` ... ``Law 78``), each case (``Case I`` ... ``Case XXII``) and each law of Piquet au cent
#: (``p. 16 (1)`` ...): what it says, in one line (docs/laws.md).
SAYS: dict[str, str] = {
    "Law 1": "Either player may shuffle either pack; the dealer shuffles last.",
    "Law 2": "No shuffling below the table or showing the faces.",
    "Law 3": "A cut leaves at least two cards in each packet.",
    "Law 4": "Ace high in cutting; the higher cut chooses the deal (and the dealer the cards).",
    "Law 5": "Exposing more than one card in the cut for deal means cutting again.",
    "Law 6": "The cut for deal holds even if the pack is incorrect.",
    "Law 7": "A card exposed or confusion in the cut to the dealer: cut again.",
    "Law 8": "Having separated the pack, the cutter abides by his cut.",
    "Law 9": ("Deal by twos or threes, the top cards to the adversary, twelve each, eight in the stock; the "
        "mode is kept for the partie."),
    "Law 10": "A deal dealt wrongly may be put right, by consent, before a hand is taken up.",
    "Law 11": ("The elder with a card too many or too few may have a fresh deal; a stock of seven found after "
        "discarding gives the same option or a new discard."),
    "Law 12": "More than one card dealt wrongly, or nine in the stock: a fresh deal.",
    "Law 13": ("The dealer exposing the adversary's or the stock's card gives the elder a fresh deal; his own, "
        "the deal stands."),
    "Law 14": "A faced card in the pack or the stock: a fresh deal.",
    "Law 15": "Dealing with the wrong pack: a fresh deal if found before a hand is taken up, else it stands.",
    "Law 16": ("The players deal alternately; a deal out of turn is void if found in time, else the remedy of "
        "dealing twice."),
    "Law 17": "The non-dealer collects the cards for the next deal.",
    "Law 18": ("Carte blanche: twelve cards dealt without king, queen or knave; it scores first and saves or "
        "counts toward pique and repique."),
    "Law 19": "Carte blanche is shown by counting the cards face up.",
    "Law 20": "The holder announces carte blanche at once, and shows it after the adversary has discarded.",
    "Law 21": "The elder discards and takes in one to five.",
    "Law 22": "The younger discards and takes in one to three (or what is left him).",
    "Law 23": "The cards are taken in order from the top of the stock.",
    "Law 24": "Once a card of the stock is taken up, the discard cannot be altered.",
    "Law 25": "Taking back discarded cards after touching the stock: play with more than twelve, reckon nothing.",
    "Law 26": ("Mixing hand or stock cards into the discard: play with fewer than twelve; the adversary counts "
        "the unanswerable cards as tricks."),
    "Law 27": "The elder exposing or taking up the younger's three, or the younger the elder's five, reckons nothing.",
    "Law 28": ("The elder mixing the younger's cards (or those he left) with his hand: reckon nothing, or a "
        "fresh deal at the younger's choice."),
    "Law 29": ("The younger mixing the elder's five with his hand: reckon nothing, or a fresh deal at the "
        "elder's choice."),
    "Law 30": "Discarding more than taken in: play with fewer than twelve.",
    "Law 31": "Taking in more than discarded (not the adversary's cards): play with more than twelve, reckon nothing.",
    "Law 32": "The elder taking fewer than five declares how many he leaves.",
    "Law 33": "The elder may look at the cards he left; taking them up with his own, he reckons nothing.",
    "Law 34": "The younger may take in all the cards left in the stock.",
    "Law 35": "The younger taking up more than he discarded, with cards left, reckons nothing.",
    "Law 36": ("The younger may see the cards he left, saying so after the elder's lead; if he does, the elder "
        "may see them too."),
    "Law 37": "The younger mixing the cards left with his discard unseen lets the elder see his discard.",
    "Law 38": "A player announcing eleven or thirteen cards may have the stock counted.",
    "Law 39": "The elder with eleven or thirteen who takes from the stock without saying so loses the fresh deal.",
    "Law 40": "Standing a deal of thirteen with eight in the stock: how each then discards.",
    "Law 41": "Standing a deal of thirteen with seven in the stock: how each then discards.",
    "Law 42": "Standing a deal of eleven with eight in the stock: how each then discards.",
    "Law 43": "Standing a deal of twelve with seven in the stock: how each then discards.",
    "Law 44": "The adversary may waive a penalty of reckoning nothing.",
    "Law 45": "A player may examine his own discard at any time.",
    "Law 46": ("The elder calls his point first, by its number of cards; the younger asks its value only with "
        "as many cards, and asking bars a longer point."),
    "Law 47": "The younger need not call point first, nor anyone sequence next.",
    "Law 48": ("A sequence, quatorze or trio is called by its number of cards if good against the cards, else "
        "by its head or rank."),
    "Law 49": "A first call good against the cards lets the elder reckon all his sequences (or quatorzes and trios).",
    "Law 50": "The elder may correct a call smaller than he holds before it is answered.",
    "Law 51": "The younger may correct a reply that allowed too much before the elder's next call or lead.",
    "Law 52": "A call larger than held and allowed may be corrected before the younger plays to the first trick.",
    "Law 53": "A misnomer (suit or rank named wrongly, what is held being of that value) is not punished.",
    "Law 54": ("Calling what one does not hold, allowed and uncorrected by the first trick: reckon nothing, "
        "unless a misnomer or impossible."),
    "Law 55": "What is allowed good or equal must be shown when asked (the younger's after the elder's lead).",
    "Law 56": "Once the younger has played to the first trick, nothing omitted can be reckoned.",
    "Law 57": "Playing with fewer than twelve: no penalty; the adversary counts the unanswerable cards as tricks.",
    "Law 58": "Playing with more than twelve: reckon nothing, but the cards still bar.",
    "Law 59": ("A card played cannot be taken up, save a card dropped, cards played too many, a lead out of "
        "turn, a revoke, or misinformation."),
    "Law 60": "Either player may examine both players' tricks at any time.",
    "Law 61": "Carte blanche scores ten.",
    "Law 62": "The largest point is good and scores one a card.",
    "Law 63": "The longest sequence, then the highest, is good; tierce 3, quart 4, quint 15 ... huitieme 18.",
    "Law 64": "The highest quatorze is good, any quatorze beats a trio; fourteen and three.",
    "Law 65": "One for each card led and each trick won with it; two for the last trick.",
    "Law 66": "More than six tricks: ten for the cards; six each, nothing; all twelve, forty (capot).",
    "Law 67": "Scores reckon in order: carte blanche, point, sequences, quatorzes and trios, play, the cards.",
    "Law 68": "Thirty in hand alone before the adversary counts anything: a repique, sixty more.",
    "Law 69": ("The elder's thirty in hand and play before the younger counts: a pique, thirty more; capot does "
        "not count toward it."),
    "Law 70": "Errors in counting a hand may be put right until the player has seen his next hand.",
    "Law 71": "A partie is six deals; a tie, one more deal each (the four-deal partie by agreement).",
    "Law 72": "The winner takes the difference of the scores, plus a hundred.",
    "Law 73": "A loser under a hundred is rubiconed: the winner takes the sum of the scores, plus a hundred.",
    "Law 74": "Where written scores differ, each player's score of his own hand is taken.",
    "Law 75": "An incorrect pack voids the deal in which it is found; earlier deals stand.",
    "Law 76": "Before the cut a player may call for fresh packs at his own expense.",
    "Law 77": "Torn or marked cards are replaced at both players' expense.",
    "Law 78": "A bystander who affects the score by pointing out an error may be made to pay.",
    "Case I": "The younger who replied \"Equal\" to four cards cannot then count five; his point still saves a pique.",
    "Case II": "A call allowed good but not held: the adversary may then reckon what it would have barred.",
    "Case III": "A fresh deal is a matter of agreement; letting the other discard refuses the offer.",
    "Case IV": ("The elder who leads having declared aces by implication may still reckon them before the "
        "younger plays; the younger cannot reckon knaves."),
    "Case V": ("The elder showing carte blanche must say first that he leaves a card; else the younger may "
        "alter his discard."),
    "Case VI": "A carte blanche found after the elder has taken in still counts; the elder cannot alter his discard.",
    "Case VII": "Asking which queen is out admits three queens good.",
    "Case VIII": "Naming the wrong king out, when another is out, is a claim to what is not held: reckon nothing.",
    "Case IX": "Information gained from a corrected miscall has no remedy.",
    "Case X": "Playing six cards to \"play five\": the hand is played again (Law 59 II).",
    "Case XI": "A card put down in error with several may be changed until the adversary plays to it.",
    "Case XII": "A tierce called without its suit: the younger is not misinformed, he could have asked.",
    "Case XIII": "The younger took in a card less than he discarded: he may take it, unless he announced leaving it.",
    "Case XIV": ("The younger who took in before the elder must take the card the elder leaves, play with "
        "thirteen and reckon nothing."),
    "Case XV": ("\"How many diamonds?\" is answered of the cards declared; answered otherwise, the play may be "
        "taken back."),
    "Case XVI": "\"None\" may be answered of cards held but not declared.",
    "Case XVII": "Thirteen cards with a card of the undealt pack in the discard: no fresh deal; he reckons nothing.",
    "Case XVIII": ("The surplus card kept in hand and unplayed goes back without penalty, unless it was used in a "
        "claim."),
    "Case XIX": "Against a hand of thirteen, the twelfth trick still scores two as the last.",
    "Case XX": "The elder who has taken up stock cards may still show his carte blanche, hand and discard apart.",
    "Case XXI": "Retaking the discard after touching the stock: he reckons nothing but the carte blanche.",
    "Case XXII": "A younger with thirteen cards, reckoning nothing, may still gain by his cards barring: an example.",
    "p. 16 (1)": "The lower cut deals; exposing more than one card, the lowest may be taken as cut.",
    "p. 16 (2)": "The deal is by two cards at a time.",
    "p. 16 (3)": "The elder with a card too many or too few may have a fresh deal before touching the stock.",
    "p. 16 (4)": "The wrong pack: a fresh deal if found before the deal is complete.",
    "p. 16 (5)": "A deal out of turn is void if found before the hand is taken up, else no remedy.",
    "p. 16 (6)": "The younger need not declare carte blanche until the elder has discarded and touched the stock.",
    "p. 17 (1)": "The younger need not discard.",
    "p. 17 (2)": "After touching the stock the discard cannot be altered.",
    "p. 17 (3)": "Mixing the other's stock cards, or those one left, with one's hand loses the game.",
    "p. 17 (4)": "The elder declares how many he takes or leaves before touching the stock.",
    "p. 17 (5)": "Cards left and not looked at, if then looked at, are exposed and a suit may be called.",
    "p. 17-18 (6)": "Standing a deal of thirteen or eleven cards, or of seven in the stock: how each discards.",
    "p. 18 (1)": "The elder calls what his point makes, not only its cards.",
    "p. 18 (2)": "A sequence is called to its card, a quatorze or trio by its rank.",
    "p. 18 (3)": "The elder calling less than he holds abides by his call.",
    "p. 18 (4)": "What is good or equal is shown, except quatorzes and trios (named).",
    "p. 19 (1)": "A sequence shown with an inferior one called: the superior does not count, but bars.",
    "p. 19 (2)": "The younger abides by his answer; a call wrongly disallowed may still be shown and reckoned.",
    "p. 19 (3)": "A quatorze or trio called and not held, uncorrected at the next card: reckon nothing.",
    "p. 19 (4)": "After the elder's lead or the younger's play, nothing omitted can be reckoned.",
    "p. 19 (5)": "By agreement, a point ending in four counts one less.",
    "p. 19 (6)": "By agreement, nines, eights and sevens do not count in play.",
    "p. 19 (7)": "Errors in adding or marking may be put right during the game.",
    "p. 20 (1)": "A game is a hundred up; before the adversary has fifty, a double game.",
    "p. 20 (2)": "A partie is three games of five, a double counting two.",
    "p. 20 (3)": "No choice of cards on a fresh partie.",
}

_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI",
          "XVII", "XVIII", "XIX", "XX", "XXI", "XXII")
#: ``Law 21``, ``Laws 24-25``, ``Laws 21, 54, 57``, ``Laws 4, 9, 16, 71-73``; ``Case XXI``, ``Cases XVII, XXII``.
_LAWS = re.compile(r"\bLaws? (\d+(?:\s*[-–]\s*\d+)?(?:\s*(?:,|and)\s*\d+(?:\s*[-–]\s*\d+)?)*)")
_CASES = re.compile(r"\bCases? ([IVX]+(?:\s*[-–]\s*[IVX]+)?(?:\s*(?:,|and)\s*[IVX]+(?:\s*[-–]\s*[IVX]+)?)*)\b")
#: A range of more laws than this is a chapter, not a rule: it is not spelt out beside a refusal.
MOST_IN_A_RANGE = 3


def _expand(text: str, numbers: tuple[str, ...] | None) -> list[int]:
    found: list[int] = []
    for part in re.split(r"\s*(?:,|and)\s*", text.strip()):
        ends = [p.strip() for p in re.split(r"[-–]", part)]
        try:
            lo, hi = ((int(e) if numbers is None else numbers.index(e) + 1) for e in (ends[0], ends[-1]))
        except ValueError:
            continue
        if hi - lo + 1 <= MOST_IN_A_RANGE:
            found.extend(range(lo, hi + 1))
    return found


def cited(message: str) -> list[str]:
    """The laws and cases a message cites, in its order, each once, as keys of ``SAYS``.

    >>> cited("the younger hand must discard at least one card (Laws 22, 34)")
    ['Law 22', 'Law 34']
    >>> cited("he plays the cards he holds (Laws 57-66)")  # a chapter: not spelt out
    []
    >>> cited("a carte blanche still scores (Law 58, Case XXI)")
    ['Law 58', 'Case XXI']
    """
    keys: list[str] = []
    for m in _LAWS.finditer(message):
        keys.extend(f"Law {n}" for n in _expand(m.group(1), None))
    for m in _CASES.finditer(message):
        keys.extend(f"Case {_ROMAN[n - 1]}" for n in _expand(m.group(1), _ROMAN))
    return [k for i, k in enumerate(keys) if k in SAYS and k not in keys[:i]]


def law_notes(message: str) -> list[str]:
    """What each law or case the message cites says: ``Law 21: The elder discards and takes in one to five.``

    >>> law_notes("the elder hand must discard at least one card and at most 5 (Law 21)")
    ['Law 21: The elder discards and takes in one to five.']
    """
    return [f"{key}: {SAYS[key]}" for key in cited(message)]


def with_law(message: str, sep: str = " ") -> str:
    """The message, then what the laws it cites say (``sep`` between them): a refusal that explains itself.

    >>> with_law("the elder hand must discard at least one card (Law 21)")
    'the elder hand must discard at least one card (Law 21). Law 21: The elder discards and takes in one to five.'
    """
    notes = law_notes(message)
    if not notes:
        return message
    return sep.join([message if message.endswith((".", "!", "?")) else message + ".", *notes])


__all__ = ["MOST_IN_A_RANGE", "SAYS", "cited", "law_notes", "with_law"]
