"""``piquet odds``: the odds of the treatise (p. 116-125, 155) and of the deal, asked in words.

The question is a few words (case does not matter, commas are ignored, cards are
written ``QS``, ``10H``, ``AD``):

``elder, one of QS JS`` / ``younger 2 of KH KD KC``
    the chance that the elder (or the younger) hand takes in the named cards:
    ``N of`` (or ``at least N of``) is at least N of them, ``exactly N of``,
    ``at most N of``, ``none of``; cards named alone, or after ``all of`` or
    ``both``, are all of them.  Needs are joined by ``and`` (all hold) and
    alternatives by ``or`` (any holds): ``elder one of AS AH AC AD and one of
    KS KH KC KD``, ``elder 10S or AD``, ``elder all of KH KD or all of QH QD``.
    Numbers are digits or the words one to eight.  ``--hand``, ``--discard``,
    ``--seen``, ``--take`` and ``--elder-left`` say what he knows and takes.
``what is against AS KS JS ...``
    every point, sequence and set the adversary may hold that beats or equals
    the hand's own (p. 116-117); ``--discard`` and ``--seen`` are cards he
    cannot hold.
``carte blanche``
    the chance of a hand of twelve without a king, queen or knave.
``point 38`` / ``point 48 five cards`` / ``point 48 5``
    how a point of that many cards (four by default) is made (p. 155); with
    ``--hand``, ``--discard`` or ``--seen``, the cards the adversary could hold
    for it.
``deal``
    the exact distributions of a dealt twelve.
``exchange elder|younger --hand H --discard D``
    the exact chances for the hand after the exchange;
``exchange elder|younger --level L [--samples N] [--seed S]``
    the same from random deals, a computer level discarding: simulated, each
    figure with its 95% interval.

``--tables`` prints the two tables of p. 121-122, the printed figure beside the
exact one.  ``--json`` prints JSON only.

>>> q = parse_question(["elder,", "one", "of", "QS", "JS"])
>>> q.role, describe_condition(q.condition)
(0, 'at least one of QS JS')
>>> describe_condition(parse_question("younger all of KH KD or QH QD".split()).condition)
'both KH and KD or both QH and QD'
>>> parse_question("point 48 five cards".split())
PointQuestion(value=48, length=5)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias

from piquet.core.cards import (
    FULL_PACK,
    SUIT_NAMES,
    CardError,
    CardSet,
    Mask,
    card_name,
    cards_of,
    format_cards,
    parse_card,
)
from piquet.core.combinations import (
    best_point,
    best_sequences,
    best_sets,
    point_key,
    sequence_name,
    set_name,
)
from piquet.core.events import ELDER, ROLES, YOUNGER
from piquet.odds.chances import (
    Drawing,
    Need,
    OddsError,
    carte_blanche_chance,
    dealt_point_chances,
    dealt_sequence_chances,
    dealt_set_chances,
    drawing_tables,
    exact_odds,
    exchange_chances,
    point_compositions,
    point_holdings,
    treatise_odds,
)
from piquet.odds.chances import against as against_of
from piquet.players.levels import level_named
from piquet.study.exchange import after_exchange

PROG = "piquet odds"

NUMBER_WORDS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight")
_NUMBERS = {w: i for i, w in enumerate(NUMBER_WORDS) if i}
_CARD_WORDS = {1: "card", 2: "two-card", 3: "three-card", 4: "four-card", 5: "five-card", 6: "six-card",
               7: "seven-card", 8: "eight-card"}
_SEQUENCE_WORDS = {0: "no sequence", 1: "no sequence", 2: "no sequence", 3: "tierce", 4: "quart", 5: "quint",
                   6: "sixieme", 7: "septieme", 8: "huitieme"}
#: The treatise's figure for a carte blanche, as the issue quotes it (it is not in our transcription).
CARTE_BLANCHE_PRINTED = "1791 to 1 against"

EXAMPLES = ("elder, one of QS JS | younger 2 of KH KD KC | elder all of KH KD or all of QH QD | "
            "what is against AS KS ... | carte blanche | point 38 | point 48 five cards | deal | "
            "exchange elder --hand ... --discard ... | --tables")


class QuestionError(ValueError):
    """A question the command cannot read; the message says why, in plain words."""


# ---------------------------------------------------------------- the questions, as plain data

@dataclass(frozen=True)
class DrawingQuestion:
    """The chance that ``role`` takes in cards satisfying ``condition`` (an "or" of "and"s of needs)."""

    role: int
    condition: tuple[tuple[Need, ...], ...]


@dataclass(frozen=True)
class AgainstQuestion:
    """What is against the hand (p. 116): ``hand`` from the question, or None to use ``--hand``."""

    hand: Mask | None


@dataclass(frozen=True)
class CarteBlancheQuestion:
    pass


@dataclass(frozen=True)
class PointQuestion:
    """How a point of ``length`` cards making ``value`` is made (p. 155)."""

    value: int
    length: int


@dataclass(frozen=True)
class DealQuestion:
    pass


@dataclass(frozen=True)
class ExchangeQuestion:
    role: int


Question: TypeAlias = (DrawingQuestion | AgainstQuestion | CarteBlancheQuestion | PointQuestion | DealQuestion
                       | ExchangeQuestion)


def _tokens(words: Sequence[str]) -> list[str]:
    """The words, commas and stops dropped: cards as ``QS``, ``10H``; other words in lower case."""
    text = " ".join(words)
    for ch in ",;:?!()":
        text = text.replace(ch, " ")
    out = []
    for t in text.split():
        t = t.rstrip(".")
        if t:
            try:
                out.append(card_name(parse_card(t)))
            except CardError:
                out.append(t.lower())
    return out


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _NUMBERS.get(token)


def _card(token: str) -> int:
    """A card of the question; a word that is no card is an unknown word, a card-like one a malformed card."""
    try:
        return parse_card(token.upper())
    except CardError:
        if len(token) <= 3 and token[-1:].upper() in "SHDC♠♥♣♦♤♡♧♢":
            raise
        raise QuestionError(f"'{token}' is neither a card nor a word of the question") from None


def parse_question(words: Sequence[str]) -> Question:
    """The question in ``words`` as plain data; QuestionError (or CardError) when it cannot be read.

    >>> parse_question(["carte", "blanche"])
    CarteBlancheQuestion()
    >>> parse_question(["exchange", "younger"])
    ExchangeQuestion(role=1)
    """
    t = _tokens(words)
    if not t:
        raise QuestionError(f"ask a question, e.g. {EXAMPLES}")
    while t and t[0] == "the":
        t = t[1:]
    head = t[0] if t else ""
    if head in ("elder", "younger", "eldest"):
        return _drawing(t)
    if t[:3] == ["what", "is", "against"] or t[:2] == ["what's", "against"] or head == "against":
        rest = t[t.index("against") + 1:]
        if rest[:1] == ["me"]:
            rest = rest[1:]
        return AgainstQuestion(_cards(rest, "what is against") if rest else None)
    if t == ["carte", "blanche"]:
        return CarteBlancheQuestion()
    if head == "point":
        return _point(t[1:])
    if t == ["deal"]:
        return DealQuestion()
    if head == "exchange":
        if len(t) == 2 and t[1] in ("elder", "younger"):
            return ExchangeQuestion(ELDER if t[1] == "elder" else YOUNGER)
        raise QuestionError("say whose exchange: 'exchange elder' or 'exchange younger'")
    raise QuestionError(f"I do not know the question '{' '.join(t)}'; ask e.g. {EXAMPLES}")


def _cards(tokens: Sequence[str], what: str) -> Mask:
    mask = 0
    for token in tokens:
        c = _card(token)
        if mask >> c & 1:
            raise QuestionError(f"{card_name(c)} is named twice in '{what}'")
        mask |= 1 << c
    return mask


def _point(t: list[str]) -> PointQuestion:
    if t[:1] == ["of"]:
        t = t[1:]
    if not t or not t[0].isdigit():
        raise QuestionError("say what the point makes: 'point 38', 'point 48 five cards', 'point 48 5'")
    value, rest = int(t[0]), t[1:]
    length = 4
    if rest[:1] in (["in"], ["of"], ["with"]):
        rest = rest[1:]
    if rest:
        word = rest[0].removesuffix("-cards").removesuffix("-card")
        n = _number(word)
        if n is None or rest[1:] not in ([], ["card"], ["cards"]):
            raise QuestionError(f"cannot read '{' '.join(rest)}' after 'point {value}': "
                                "say e.g. 'point 48 five cards' or 'point 48 5'")
        length = n
    if not 1 <= length <= 8:
        raise QuestionError(f"a point has from one to eight cards, not {length}")
    return PointQuestion(value, length)


def _drawing(t: list[str]) -> DrawingQuestion:
    role = YOUNGER if t[0] == "younger" else ELDER
    rest = t[1:]
    while rest and rest[0] in ("hand", "takes", "draws", "in"):
        rest = rest[1:]
    if not rest:
        raise QuestionError(f"say which cards the {ROLES[role]} hand takes in, e.g. '{ROLES[role]}, one of QS JS'")
    # "both QS and JS" is "both of QS JS"; "either QS or JS" is "one of QS JS".
    merged: list[str] = []
    i = 0
    while i < len(rest):
        w = rest[i]
        if w in ("both", "either") and i + 3 < len(rest) and rest[i + 2] == ("and" if w == "both" else "or"):
            merged += ["all" if w == "both" else "one", "of", rest[i + 1], rest[i + 3]]
            i += 4
            continue
        merged.append(w)
        i += 1
    alternatives: list[tuple[Need, ...]] = []
    for alt in _split(merged, "or"):
        needs = tuple(_need(part) for part in _split(alt, "and"))
        named = 0
        for need in needs:
            if named & need.cards:
                c = cards_of(named & need.cards)[0]
                raise QuestionError(f"{card_name(c)} is named twice in '{' '.join(alt)}'")
            named |= need.cards
        alternatives.append(needs)
    return DrawingQuestion(role, tuple(alternatives))


def _split(tokens: list[str], word: str) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for t in tokens:
        if t == word:
            parts.append([])
        else:
            parts[-1].append(t)
    if any(not p for p in parts):
        raise QuestionError(f"'{word}' must stand between two lots of cards")
    return parts


def _need(part: list[str]) -> Need:
    """``one of QS JS``, ``2 of ...``, ``at least two of``, ``exactly``, ``at most``, ``none of``, ``all of``."""
    text = " ".join(part)
    least: int | None = None
    most: int | None = None
    t = part
    if t[0] in ("all", "both", "each"):
        t = t[1:]
    elif t[0] in ("any", "either"):
        least, t = 1, t[1:]
    elif t[0] in ("none", "neither"):
        least, most, t = 0, 0, t[1:]
    else:
        kind = "least"
        if t[:2] in (["at", "least"], ["at", "most"]):
            kind, t = t[1], t[2:]
        elif t[0] == "exactly":
            kind, t = "exactly", t[1:]
        n = _number(t[0]) if t else None
        if n is not None:
            t = t[1:]
            if t[:1] in (["card"], ["cards"]):
                t = t[1:]
            if t[:2] == ["at", "least"]:
                t = t[2:]
            if t[:1] != ["of"]:
                raise QuestionError(f"say '{n} of' and the cards, in '{text}'")
            least, most = (n, None) if kind == "least" else (0, n) if kind == "most" else (n, n)
        elif kind != "least":
            raise QuestionError(f"a number must follow '{'exactly' if kind == 'exactly' else 'at ' + kind}' "
                                f"in '{text}'")
    if t[:1] == ["of"]:
        t = t[1:]
    if not t:
        raise QuestionError(f"name the cards in '{text}'")
    cards = _cards(t, text)
    n = cards.bit_count()
    if least is None:  # all of them
        least = n
    if max(least, most or 0) > n:
        raise QuestionError(f"'{text}' asks for {max(least, most or 0)} cards of only {n} named")
    return Need(cards, least, most)


# ---------------------------------------------------------------- words

def _names(mask: Mask) -> str:
    return format_cards(cards_of(mask))


def _num(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def describe_need(need: Need) -> str:
    """``at least one of QS JS``, ``both KH and KD``, ``all of KH KD KC``, ``exactly two of ...``."""
    cards = cards_of(need.cards)
    n, names = len(cards), _names(need.cards)
    lo, hi = need.at_least, need.at_most
    if hi is None or hi >= n:
        if lo >= n:
            return names if n == 1 else f"both {card_name(cards[0])} and {card_name(cards[1])}" if n == 2 \
                else f"all of {names}"
        if lo <= 0:
            return f"any number of {names}"
        return f"at least {_num(lo)} of {names}"
    if hi == 0:
        return f"not {names}" if n == 1 else f"none of {names}"
    if lo == hi:
        return f"exactly {_num(lo)} of {names}"
    if lo <= 0:
        return f"at most {_num(hi)} of {names}"
    return f"from {_num(lo)} to {_num(hi)} of {names}"


def describe_condition(condition: Sequence[Sequence[Need]]) -> str:
    alts = [" and ".join(describe_need(n) for n in alt) for alt in condition]
    return ("; or " if any(len(alt) > 1 for alt in condition) and len(alts) > 1 else " or ").join(alts)


def _percent(p: Fraction) -> str:
    pct = 100 * float(p)
    if pct == 0 or pct >= 1 or pct == 100:
        return f"{pct:.1f}%"
    return f"{pct:.2g}%"


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _chance_json(p: Fraction) -> dict[str, Any]:
    return {"probability": _fraction(p), "decimal": round(float(p), 4), "odds": exact_odds(p),
            "treatise_odds": treatise_odds(p)}


def _chance_line(p: Fraction) -> str:
    """``17/38  44.7%  5 to 4 against``: for the small tables."""
    return f"{_fraction(p):>15}  {_percent(p):>7}  {treatise_odds(p)}"


# ---------------------------------------------------------------- what the player knows

@dataclass(frozen=True)
class Known:
    hand: Mask
    discard: Mask
    seen: Mask

    @property
    def all(self) -> Mask:
        return self.hand | self.discard | self.seen


def _option_cards(ns: argparse.Namespace, name: str) -> Mask:
    text = getattr(ns, name)
    if text is None:
        return 0
    try:
        mask = CardSet.parse(text).mask
    except CardError as e:
        raise QuestionError(f"--{name}: {e}") from None
    if name in ("hand", "discard") and mask.bit_count() > 12:
        raise QuestionError(f"--{name} has {mask.bit_count()} cards; a hand is twelve")
    return mask


def _known(ns: argparse.Namespace, discard_from_hand: bool = False) -> Known:
    hand, discard, seen = (_option_cards(ns, n) for n in ("hand", "discard", "seen"))
    if discard_from_hand and discard & ~hand:
        raise QuestionError(f"{_names(discard & ~hand)} of --discard is not in --hand: "
                            "the discard is put out from the twelve dealt")
    if (hand | discard).bit_count() > 12:
        raise QuestionError(f"--hand and --discard together hold {(hand | discard).bit_count()} cards; "
                            "a hand is twelve")
    for mask, name in ((hand, "--hand"), (discard, "--discard")):
        if seen & mask:
            raise QuestionError(f"{_names(seen & mask)} is both in --seen and in {name}")
    if seen.bit_count() > 20:
        raise QuestionError(f"--seen has {seen.bit_count()} cards; only twenty are not in the hand")
    return Known(hand, discard, seen)


_OPTIONS = {"hand": "--hand", "discard": "--discard", "seen": "--seen", "take": "--take", "elder_left": "--elder-left"}


def _only(ns: argparse.Namespace, allowed: Sequence[str], what: str) -> None:
    for key, flag in _OPTIONS.items():
        if key not in allowed and getattr(ns, key) is not None:
            raise QuestionError(f"{flag} has no meaning for {what}")


def _int_option(ns: argparse.Namespace, name: str) -> int | None:
    text = getattr(ns, name)
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise QuestionError(f"{_OPTIONS[name]} must be a number of cards, not '{text}'") from None


def _drawing_of(role: int, ns: argparse.Namespace, known: Known) -> Drawing:
    if ns.elder_left is not None and role == ELDER:
        raise QuestionError("--elder-left is for the younger hand (the cards the elder left him)")
    elder_left = _int_option(ns, "elder_left") or 0
    if not 0 <= elder_left <= 4:
        raise QuestionError(f"the elder leaves from none to four cards, not {elder_left}")
    take = _int_option(ns, "take")
    n_discard = known.discard.bit_count()
    if known.discard and take is not None and take != n_discard:
        raise QuestionError(f"--take {take} but --discard has {n_discard} cards: "
                            "a player takes in as many cards as he discards")
    if known.discard and take is None:
        take = n_discard
    drawing = Drawing(role, hand=known.hand, discard=known.discard, seen=known.seen, taken=take,
                      elder_left=elder_left)
    drawing.takes()  # OddsError for taking more than he may
    return drawing


# ---------------------------------------------------------------- answering

def _answer_drawing(q: DrawingQuestion, ns: argparse.Namespace) -> tuple[dict[str, Any], str]:
    known = _known(ns)
    for alt in q.condition:
        for need in alt:
            for mask, where in ((known.hand, "in his hand (--hand)"), (known.discard, "in his discard (--discard)"),
                                (known.seen, "seen (--seen)")):
                if need.cards & mask:
                    raise QuestionError(f"{_names(need.cards & mask)} is named in the question but is {where}: "
                                        "he cannot take it in")
    drawing = _drawing_of(q.role, ns, known)
    p = drawing.chance(q.condition)
    taken, pool = drawing.takes(), drawing.pool()
    left = f" (the elder left {_num(drawing.elder_left)})" if drawing.elder_left else ""
    sentence = (f"The {ROLES[q.role]} hand, taking {taken} card{'s' if taken != 1 else ''}{left} "
                f"of the {pool} he has not seen, takes in {describe_condition(q.condition)}")
    data: dict[str, Any] = {"question": sentence, "role": ROLES[q.role], "taken": taken, "pool": pool,
                            **_chance_json(p)}
    data["condition"] = [[{"cards": _names(n.cards), "at_least": n.at_least, "at_most": n.at_most} for n in alt]
                         for alt in q.condition]
    for key, mask in (("hand", known.hand), ("discard", known.discard), ("seen", known.seen)):
        if mask:
            data[key] = _names(mask)
    lines = [sentence + "."]
    held = [f"{k} {_names(m)}" for k, m in (("holding", known.hand), ("discarding", known.discard),
                                              ("having seen", known.seen)) if m]
    if held:
        lines.append("  (" + "; ".join(held) + ")")
    lines.append(f"chance {_fraction(p)} ({_percent(p)})")
    lines.append(f"odds {exact_odds(p)} (about {treatise_odds(p)}, rounded as the treatise rounds)")
    return data, "\n".join(lines)


def _point_words(key: tuple[int, int]) -> str:
    return f"{_CARD_WORDS.get(key[0], str(key[0]) + '-card')} point making {key[1]}"


def _answer_against(q: AgainstQuestion, ns: argparse.Namespace) -> tuple[dict[str, Any], str]:
    known = _known(ns)
    hand = known.hand if q.hand is None else q.hand
    if q.hand is not None and known.hand:
        raise QuestionError("name the hand once: in the question or with --hand")
    if not hand:
        raise QuestionError("name the hand: 'what is against AS KS JS ...' (or --hand)")
    if hand.bit_count() > 12:
        raise QuestionError(f"the hand has {hand.bit_count()} cards; a hand is twelve")
    if (hand | known.discard).bit_count() > 12:
        raise QuestionError("the hand and --discard together hold more than twelve cards")
    if known.seen & hand:
        raise QuestionError(f"{_names(known.seen & hand)} is both in the hand and in --seen")
    kept = hand & ~known.discard
    adversary = against_of(hand, known.discard, known.seen)
    threats = adversary.threats(kept)
    possible = adversary.possible
    mine_point = best_point(kept)
    runs = best_sequences(kept)
    sets = best_sets(kept)
    point_key_ = point_key(mine_point)
    mine = {
        "point": None if not mine_point else {"name": _point_words(point_key_), "cards": _names(mine_point)},
        "sequence": None if not runs else {"name": f"{sequence_name(runs[0])} in "
                                                   f"{SUIT_NAMES[runs[0].bit_length() - 1 >> 3]}",
                                           "cards": _names(runs[0])},
        "set": None if not sets else {"name": set_name(sets[0]), "cards": _names(sets[0])},
    }
    groups: dict[str, list[dict[str, str]]] = {"point": [], "sequences": [], "sets": []}
    group_of = {"point": "point", "sequence": "sequences", "set": "sets"}
    for th in threats:
        groups[group_of.get(th.category, th.category)].append(
            {"category": th.category, "name": th.name, "cards": _names(th.cards), "verdict": th.verdict})
    question = f"What is against {_names(hand)}"
    data: dict[str, Any] = {"question": question, "hand": _names(hand), "kept": _names(kept),
                            "discard": _names(known.discard), "seen": _names(known.seen),
                            "possible": possible.bit_count(), "mine": mine, **groups}
    lines = [f"{question}?"]
    if known.discard:
        lines.append(f"  keeping {_names(kept)}, discarding {_names(known.discard)}")
    if known.seen:
        lines.append(f"  having seen {_names(known.seen)}")
    lines.append(f"The adversary may hold any of the {possible.bit_count()} other cards.")
    lines.append("Your best:")
    for key in ("point", "sequence", "set"):
        m = mine[key]
        lines.append(f"  {key + ':':<10}" + ("nothing" if m is None else f"{m['name']} ({m['cards']})"))
    lines.append("Against you:")
    for title, rows in groups.items():
        lines.append(f"  {title}:")
        if not rows:
            lines.append("    nothing")
        for r in rows:
            lines.append(f"    {r['name']:<30} {r['verdict']:<7} ({r['cards']})")
    return data, "\n".join(lines)


def _answer_carte_blanche() -> tuple[dict[str, Any], str]:
    p = carte_blanche_chance()
    question = "A hand of twelve dealt without a king, queen or knave (a carte blanche)"
    data: dict[str, Any] = {"question": question, **_chance_json(p), "printed": CARTE_BLANCHE_PRINTED}
    text = "\n".join([
        f"{question}:",
        f"chance {_fraction(p)} ({_percent(p)})",
        f"odds {exact_odds(p)} (about {treatise_odds(p)}; the treatise: {CARTE_BLANCHE_PRINTED})",
    ])
    return data, text


def _answer_point(q: PointQuestion, ns: argparse.Namespace) -> tuple[dict[str, Any], str]:
    known = _known(ns)
    words = _CARD_WORDS.get(q.length, f"{q.length}-card")
    comps = point_compositions(q.value, q.length)
    question = f"A {words} point making {q.value}"
    data: dict[str, Any] = {"question": question, "value": q.value, "length": q.length,
                            "compositions": [c.words() for c in comps]}
    if not comps:
        lines = [f"no {words} point makes {q.value}"]
    else:
        lines = [f"{question} is made with (p. 155):"] + [f"  {c.words()}" for c in comps]
    if known.all:
        possible = FULL_PACK & ~known.all
        holdings = point_holdings(q.value, q.length, possible)
        data["possible"] = possible.bit_count()
        data["holdings"] = [_names(h) for h in holdings]
        if comps:
            lines.append(f"The adversary could hold it, of the {possible.bit_count()} cards you have not seen, "
                         f"in {len(holdings)} way{'s' if len(holdings) != 1 else ''}" + (":" if holdings else "."))
            lines += [f"  {_names(h)}" for h in holdings]
    return data, "\n".join(lines)


def _answer_deal() -> tuple[dict[str, Any], str]:
    point = dealt_point_chances()
    sequence = dealt_sequence_chances()
    sets = dealt_set_chances()
    blanche = carte_blanche_chance()
    question = "A hand of twelve dealt from the thirty-two cards (exact)"
    data: dict[str, Any] = {
        "question": question,
        "point": {str(k): _chance_json(v) for k, v in sorted(point.items())},
        "sequence": {str(k): _chance_json(v) for k, v in sorted(sequence.items())},
        "sets": {k: _chance_json(v) for k, v in sets.items()},
        "carte_blanche": _chance_json(blanche),
    }
    lines = [f"{question}:", "Point (the best suit's number of cards):"]
    lines += [f"  {_num(k) + ' card' + ('s' if k != 1 else ''):<16}{_chance_line(v)}"
              for k, v in sorted(point.items()) if v]
    lines.append("Longest sequence:")
    lines += [f"  {_SEQUENCE_WORDS.get(k, str(k)):<16}{_chance_line(v)}" for k, v in sorted(sequence.items()) if v]
    lines.append("Sets (quatorzes and trios, ten or higher):")
    lines += [f"  {k:<16}{_chance_line(v)}" for k, v in sets.items()]
    lines.append(f"  {'carte blanche':<16}{_chance_line(blanche)}")
    return data, "\n".join(lines)


def _answer_simulated_exchange(q: ExchangeQuestion, ns: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """After the exchange of a computer level, from random deals: simulated, with 95% Wilson intervals."""
    _only(ns, (), "'exchange' with --level (the level discards, from random deals)")
    samples = 1000 if ns.samples is None else ns.samples
    if samples < 1:
        raise QuestionError(f"--samples must be at least 1, not {samples}")
    level = level_named(ns.level).name
    estimates = after_exchange(level, samples, ns.seed)[ROLES[q.role]]
    question = (f"The {ROLES[q.role]} hand after the exchange, the level '{level}' discarding, "
                f"over {samples} random deals (seed {ns.seed})")
    data: dict[str, Any] = {"question": question, "role": ROLES[q.role], "level": level, "samples": samples,
                            "seed": ns.seed, "exact": False, "chances": {}}
    lines = [f"{question}: simulated, each with its 95% (Wilson) interval"]
    for name, est in estimates.items():
        lo, hi = est.interval()
        data["chances"][name] = {"hits": est.hits, "samples": est.samples, "rate": round(est.rate, 5),
                                 "ci95": [round(lo, 5), round(hi, 5)]}
        lines.append(f"  {name:<20}{est.hits:>7}/{est.samples:<7}{100 * est.rate:6.1f}%   "
                     f"({100 * lo:.1f}% to {100 * hi:.1f}%)")
    return data, "\n".join(lines)


def _answer_exchange(q: ExchangeQuestion, ns: argparse.Namespace) -> tuple[dict[str, Any], str]:
    if ns.level is not None:
        return _answer_simulated_exchange(q, ns)
    if ns.samples is not None:
        raise QuestionError("--samples is for 'exchange' with --level")
    known = _known(ns, discard_from_hand=True)
    if known.hand.bit_count() != 12:
        raise QuestionError(f"give the twelve cards dealt with --hand (it has {known.hand.bit_count()})")
    if not known.discard:
        raise QuestionError("give the cards put out with --discard")
    drawing = _drawing_of(q.role, ns, known)
    ex = exchange_chances(drawing)
    taken, pool = drawing.takes(), drawing.pool()
    kept = known.hand & ~known.discard
    question = (f"The {ROLES[q.role]} hand keeps {_names(kept)}, discards {_names(known.discard)} and takes "
                f"{taken} of the {pool} cards he has not seen")
    data: dict[str, Any] = {
        "question": question, "role": ROLES[q.role], "taken": taken, "pool": pool, "draws": ex.draws,
        "point": {str(k): _chance_json(v) for k, v in sorted(ex.point.items())},
        "sequence": {str(k): _chance_json(v) for k, v in sorted(ex.sequence.items())},
        "quatorze": _chance_json(ex.quatorze), "trio": _chance_json(ex.trio),
    }
    lines = [f"{question}:", f"  every one of the {ex.draws} draws, equally likely, counted (exact)",
             f"  {'':<18}{'exactly':>24}  {'this or better':>24}  odds of this or better"]

    def table(title: str, dist: dict[int, Fraction], label: Any) -> None:
        lines.append(title)
        keys = sorted(dist)
        for k in keys:
            if not dist[k]:
                continue
            better = sum((dist[j] for j in keys if j >= k), Fraction(0))
            lines.append(f"  {label(k):<18}{_fraction(dist[k]):>15}  {_percent(dist[k]):>7}  "
                         f"{_fraction(better):>15}  {_percent(better):>7}  {treatise_odds(better)}")

    table("Point after the exchange:", ex.point, lambda k: f"{_num(k)} card{'s' if k != 1 else ''}")
    table("Longest sequence:", ex.sequence, lambda k: _SEQUENCE_WORDS.get(k, str(k)))
    lines.append("Sets:")
    lines.append(f"  {'a quatorze':<18}{_chance_line(ex.quatorze)}")
    lines.append(f"  {'a trio or better':<18}{_chance_line(ex.trio)}")
    return data, "\n".join(lines)


# ---------------------------------------------------------------- the tables of p. 121-122

def table_row_words(named: int, at_least: int) -> str:
    """``one named card``, ``two named cards``, ``one card (at least) of two named cards``."""
    if at_least >= named:
        return f"{_num(named)} named card{'s' if named != 1 else ''}"
    return f"{_num(at_least)} card{'s' if at_least != 1 else ''} (at least) of {_num(named)} named cards"


def _tables_text() -> str:
    rows = drawing_tables()
    cols = [(table_row_words(r.named, r.at_least), r.printed, _fraction(r.probability), exact_odds(r.probability),
             treatise_odds(r.probability)) for r in rows]
    heads = ("", "printed", "exact", "exact odds", "program")
    w = [max(len(c[i]) for c in [*cols, heads]) for i in range(5)]

    def line(c: Sequence[str], mark: str = "") -> str:
        return (f"  {c[0]:<{w[0]}}  {c[1]:<{w[1]}}  {c[2]:>{w[2]}}  {c[3]:<{w[3]}}  {c[4]:<{w[4]}}".rstrip()
                + mark)

    lines = ["The drawing tables of p. 121-122: the elder taking five cards of the twenty he has not seen, "
             "the younger three.", line(heads)]
    differ = False
    last = ""
    for r, c in zip(rows, cols, strict=True):
        if r.hand != last:
            last = r.hand
            takes = "five" if r.hand == "elder" else "three"
            lines.append(f"{r.hand.capitalize()} hand, taking {takes} (p. {121 if r.hand == 'elder' else 122}):")
        mark = "  *" if c[4] != r.printed else ""
        differ = differ or bool(mark)
        lines.append(line(c, mark))
    if differ:
        lines.append("* the printed figure differs from the exact odds rounded as the treatise rounds them "
                     "(the first convergent within 3%)")
    return "\n".join(lines)


# ---------------------------------------------------------------- the command

def add_odds_arguments(p: argparse.ArgumentParser) -> None:
    """The ``odds`` sub-command's arguments."""
    p.add_argument("question", nargs="*",
                   help="the question in words, e.g. 'elder, one of QS JS', 'younger 2 of KH KD KC', "
                        "'what is against AS KS ...', 'carte blanche', 'point 38', 'point 48 five cards', 'deal', "
                        "'exchange elder'")
    p.add_argument("--hand", metavar="CARDS", default=None, help="the cards he holds (e.g. \"AS KS 10H ...\")")
    p.add_argument("--discard", metavar="CARDS", default=None, help="the cards he puts out")
    p.add_argument("--seen", metavar="CARDS", default=None, help="other cards he has seen")
    p.add_argument("--take", metavar="N", default=None,
                   help="how many cards he takes in (default: all he may, or as many as --discard)")
    p.add_argument("--elder-left", metavar="N", default=None,
                   help="(younger) cards the elder left in the stock")
    p.add_argument("--level", default=None,
                   help="('exchange') simulate the hand after this computer level's exchange, from random deals")
    p.add_argument("--samples", type=int, default=None, help="(with --level) deals to simulate (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="(with --level) the same seed deals the same cards")
    p.add_argument("--tables", action="store_true", help="the two tables of p. 121-122, printed and exact")
    p.add_argument("--json", action="store_true", help="print JSON only")


def _answer(ns: argparse.Namespace) -> tuple[Any, str]:
    if ns.tables:
        if ns.question:
            raise QuestionError("--tables takes no question")
        _only(ns, (), "--tables")
        rows = drawing_tables()
        return [row.as_json() for row in rows], _tables_text()
    q = parse_question(ns.question)
    if (ns.level is not None or ns.samples is not None) and not isinstance(q, ExchangeQuestion):
        raise QuestionError("--level and --samples are for 'exchange elder' or 'exchange younger'")
    if isinstance(q, DrawingQuestion):
        return _answer_drawing(q, ns)
    if isinstance(q, AgainstQuestion):
        _only(ns, ("hand", "discard", "seen"), "'what is against'")
        return _answer_against(q, ns)
    if isinstance(q, CarteBlancheQuestion):
        _only(ns, (), "'carte blanche'")
        return _answer_carte_blanche()
    if isinstance(q, PointQuestion):
        _only(ns, ("hand", "discard", "seen"), "'point'")
        return _answer_point(q, ns)
    if isinstance(q, DealQuestion):
        _only(ns, (), "'deal'")
        return _answer_deal()
    return _answer_exchange(q, ns)


def run_odds_command(ns: argparse.Namespace) -> int:
    """``piquet odds QUESTION... [--hand H] [--discard D] [--seen S] [--take N] [--elder-left N] [--tables] [--json]``:
    0 when answered, 2 for a question that cannot be read or answered."""
    try:
        data, text = _answer(ns)
    except (QuestionError, OddsError, CardError, ValueError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    try:
        print((json.dumps(data) if ns.tables else json.dumps(data, indent=1)) if ns.json else text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


__all__ = [
    "AgainstQuestion", "CarteBlancheQuestion", "DealQuestion", "DrawingQuestion", "ExchangeQuestion", "PointQuestion",
    "Question", "QuestionError", "add_odds_arguments", "describe_condition", "describe_need", "parse_question",
    "run_odds_command", "table_row_words",
]
