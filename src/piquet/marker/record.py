"""A marked partie as a record (``piquet-record/1`` with ``"marked": true``): the cards unknown where
nobody entered them.  See ``docs/records.md``.

>>> from piquet.marker.deal import QuickScores, PlayTotals
>>> p = MarkedPartie(players=("Ann", "Bob")).add(
...     MarkedDeal("B", declarations=QuickScores((5, 4, 0), (0, 0, 17)), play=PlayTotals(7, 9, 6)))
>>> marked_from_json(marked_to_json(p)) == p
True
"""

from __future__ import annotations

import json
from typing import Any

from piquet.core.cards import RANK_LETTERS, SUIT_LETTERS, CardError, card_name, parse_card, parse_rank
from piquet.core.combinations import Outcome
from piquet.core.rules import SEATS, rules_named
from piquet.marker.calls import (
    CATEGORY_NAMES,
    ELDER,
    REPLY_NAMES,
    ROLES,
    YOUNGER,
    Declared,
    MarkError,
    PointCall,
    SequenceCall,
    SetCall,
)
from piquet.marker.deal import CardPlay, FullCalls, MarkedDeal, PlayTotals, QuickScores
from piquet.marker.partie import MarkedPartie
from piquet.records.jsontext import read_json

FORMAT = "piquet-record/1"
_REPLY_WORDS = {Outcome.GOOD: "good", Outcome.EQUAL: "equal", Outcome.NOT_GOOD: "not good"}


def is_marked(text: str) -> bool:
    """Whether a record's text is that of a marked partie."""
    try:
        doc = read_json(text)
    except json.JSONDecodeError:
        return False
    return isinstance(doc, dict) and doc.get("marked") is True


# ---------------------------------------------------------------- writing


def _shown(suit: int | None, held: bool) -> dict[str, Any]:
    """A call's suit where entered, and ``"held": false`` for a call of what is not held (Law 54)."""
    return ({} if suit is None else {"suit": SUIT_LETTERS[suit]}) | ({} if held else {"held": False})


def _declared_json(d: Declared) -> dict[str, Any]:
    out: dict[str, Any] = {}
    p = d.point
    if p is not None:
        out["point"] = {"cards": p.cards} | ({} if p.value is None else {"value": p.value}) | \
            ({} if p.head is None else {"head": RANK_LETTERS[p.head]}) | _shown(p.suit, p.held)
    if d.sequences:
        out["sequences"] = [{"length": s.length, "head": RANK_LETTERS[s.head]} | _shown(s.suit, s.held)
                            for s in d.sequences]
    if d.sets:
        out["sets"] = [{"size": s.size, "rank": RANK_LETTERS[s.rank]} | _shown(None, s.held) for s in d.sets]
    return out


def _deal_json(d: MarkedDeal) -> dict[str, Any]:
    out: dict[str, Any] = {"dealer": d.dealer}
    if d.status != "played":
        out["status"] = d.status
    if d.lost_by is not None:
        out["lost_by"] = ROLES[d.lost_by]
    if d.out_of_turn:
        out["out_of_turn"] = True
    if d.carte_blanche is not None:
        out["carte_blanche"] = ROLES[d.carte_blanche]
    decl = d.declarations
    if isinstance(decl, FullCalls):
        out["declared"] = {
            "elder": _declared_json(decl.elder),
            "replies": {CATEGORY_NAMES[c]: _REPLY_WORDS[r] for c, r in enumerate(decl.replies) if r is not None},
            "younger": _declared_json(decl.younger)}
    elif isinstance(decl, QuickScores):
        out["scored"] = {ROLES[r]: dict(zip(CATEGORY_NAMES, decl.of(r), strict=True)) for r in (ELDER, YOUNGER)}
    p = d.play
    if isinstance(p, PlayTotals):
        out["tricks"] = {"elder": p.elder_tricks, "younger": 12 - p.elder_tricks}
        out["play_points"] = {"elder": p.elder_points, "younger": p.younger_points}
        if p.pique is not None:
            out["pique"] = p.pique
        if p.first_to_goal in (ELDER, YOUNGER):
            out["first_to_goal"] = ROLES[p.first_to_goal]
    elif isinstance(p, CardPlay):
        out["play"] = [card_name(c) for c in p.cards]
    if d.reckons_nothing:
        out["reckons_nothing"] = [ROLES[r] for r in sorted(d.reckons_nothing)]
    if d.waived:
        out["waived"] = [ROLES[r] for r in sorted(d.waived)]
    if d.corrected:
        out["corrected"] = True
    return out


def marked_to_json(p: MarkedPartie) -> str:
    doc: dict[str, Any] = {"format": FORMAT, "rules": p.rules.name}
    if p.rules.agreements:
        doc["agreements"] = list(p.rules.agreements)
    doc["players"] = {"A": p.players[0], "B": p.players[1]}
    doc["marked"] = True
    doc["first_dealer"] = p.first_dealer
    doc["deals"] = [_deal_json(d) for d in p.deals]
    head = json.dumps({k: v for k, v in doc.items() if k != "deals"}, ensure_ascii=False, indent=2)[:-2]
    deals = ",\n".join("    " + json.dumps(d, ensure_ascii=False) for d in doc["deals"])
    return f"{head},\n  \"deals\": [\n{deals}\n  ]\n}}\n" if deals else f"{head},\n  \"deals\": []\n}}\n"


# ---------------------------------------------------------------- reading


def _role(value: object, where: str) -> int:
    if value not in ROLES:
        raise MarkError(f"{where}: \"elder\" or \"younger\", found {json.dumps(value)}")
    return ROLES.index(str(value))


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MarkError(f"{where}: a whole number, found {json.dumps(value)}")
    return value


def _rank(value: object, where: str) -> int:
    if isinstance(value, str) and value == value.strip():
        try:
            return parse_rank(value)
        except CardError:
            pass
    raise MarkError(f"{where}: a rank A K Q J 10 9 8 7, found {json.dumps(value)}")


def _suit(value: object, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and value in SUIT_LETTERS:
        return SUIT_LETTERS.index(value)
    raise MarkError(f"{where}: a suit S H C D, found {json.dumps(value)}")


def _held(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise MarkError(f"{where}: \"held\" is true or false, found {json.dumps(value)}")
    return value


def _declared(value: object, where: str) -> Declared:
    if not isinstance(value, dict):
        raise MarkError(f"{where}: an object, found {json.dumps(value)}")
    point = None
    if value.get("point") is not None:
        pt, w = value["point"], f"{where} point"
        point = PointCall(_int(pt.get("cards"), w), None if pt.get("value") is None else _int(pt["value"], w),
                          _suit(pt.get("suit"), w), None if pt.get("head") is None else _rank(pt["head"], w),
                          _held(pt.get("held", True), w))
    ws, wt = f"{where} sequence", f"{where} set"
    seqs = tuple(SequenceCall(_int(s.get("length"), ws), _rank(s.get("head"), ws), _suit(s.get("suit"), ws),
                              _held(s.get("held", True), ws)) for s in value.get("sequences", []))
    sets = tuple(SetCall(_int(s.get("size"), wt), _rank(s.get("rank"), wt), _held(s.get("held", True), wt))
                 for s in value.get("sets", []))
    return Declared(point, seqs, sets)


def _deal(value: object, n: int) -> MarkedDeal:
    if not isinstance(value, dict):
        raise MarkError(f"deal {n}: a deal is an object")
    where = f"deal {n}"
    decl: FullCalls | QuickScores | None = None
    if "declared" in value:
        dv = value["declared"]
        replies = dv.get("replies", {})
        for k, v in replies.items():
            if k not in CATEGORY_NAMES or v not in REPLY_NAMES:
                raise MarkError(f"{where}: a reply is good, equal or not good to the point, sequences or sets")
        r = tuple(None if replies.get(c) is None else REPLY_NAMES[replies[c]] for c in CATEGORY_NAMES)
        decl = FullCalls(_declared(dv.get("elder", {}), f"{where} elder"), (r[0], r[1], r[2]),
                         _declared(dv.get("younger", {}), f"{where} younger"))
    elif "scored" in value:
        sv = value["scored"]
        e, y = (tuple(_int(sv.get(role, {}).get(c, 0), f"{where} {role} {c}") for c in CATEGORY_NAMES)
                for role in ROLES)
        decl = QuickScores((e[0], e[1], e[2]), (y[0], y[1], y[2]))
    play: PlayTotals | CardPlay | None = None
    if "play" in value:
        try:
            play = CardPlay(tuple(parse_card(c) for c in value["play"]))
        except CardError as err:
            raise MarkError(f"{where} play: {err}", "Law 75") from None
    elif "tricks" in value:
        t, pp = value["tricks"], value.get("play_points", {})
        et = _int(t.get("elder"), f"{where} tricks")
        if "younger" in t and _int(t["younger"], f"{where} tricks") != 12 - et:
            raise MarkError(f"{where}: the tricks are twelve between them", "Law 65")
        play = PlayTotals(et, _int(pp.get("elder", 0), f"{where} play points"),
                          _int(pp.get("younger", 0), f"{where} play points"), value.get("pique"),
                          None if value.get("first_to_goal") is None else _role(value["first_to_goal"], where))
    return MarkedDeal(
        dealer=str(value.get("dealer")),
        carte_blanche=None if value.get("carte_blanche") is None else _role(value["carte_blanche"], where),
        declarations=decl, play=play, status=str(value.get("status", "played")),
        out_of_turn=bool(value.get("out_of_turn", False)),
        reckons_nothing=frozenset(_role(r, where) for r in value.get("reckons_nothing", [])),
        waived=frozenset(_role(r, where) for r in value.get("waived", [])),
        corrected=bool(value.get("corrected", False)),
        lost_by=None if value.get("lost_by") is None else _role(value["lost_by"], f"{where} lost_by"))


def deal_to_json(d: MarkedDeal) -> dict[str, Any]:
    """One deal as it stands in the record's ``"deals"``."""
    return _deal_json(d)


def deal_from_json(value: object, number: int) -> MarkedDeal:
    """One deal of the record's ``"deals"`` (``number``, from 1, names it in a refusal), read but not checked."""
    try:
        return _deal(value, number)
    except (TypeError, AttributeError):
        raise MarkError(f"deal {number}: not a deal as a marked record writes it") from None


def marked_from_json(text: str) -> MarkedPartie:
    """A marked partie from its record; ``MarkError`` names the deal and the law of anything that cannot be."""
    try:
        doc = read_json(text)
    except json.JSONDecodeError as e:
        raise MarkError(f"not valid JSON: {e.msg} (line {e.lineno})") from None
    if not isinstance(doc, dict) or doc.get("marked") is not True:
        raise MarkError("not a marked partie (no \"marked\": true)")
    if doc.get("format", FORMAT) != FORMAT:
        raise MarkError(f"unknown format {doc.get('format')!r}")
    try:
        rules = rules_named(str(doc.get("rules", "rubicon")), doc.get("agreements") or ())
    except ValueError as e:
        raise MarkError(str(e)) from None
    names = doc.get("players") or {}
    if not isinstance(names, dict):
        raise MarkError("'players' is an object: {\"A\": name, \"B\": name}")
    players = (str(names.get("A", "A")), str(names.get("B", "B")))
    deals = doc.get("deals", [])
    if not isinstance(deals, list):
        raise MarkError("'deals' is a list")
    first = doc.get("first_dealer") or (deals[0].get("dealer") if deals and isinstance(deals[0], dict) else "B")
    if first not in SEATS:
        raise MarkError(f"the first dealer is A or B, found {json.dumps(first)}", "Law 4")
    return MarkedPartie(rules, players, str(first), tuple(deal_from_json(d, n) for n, d in enumerate(deals, 1)))


def load_marked(path: str) -> MarkedPartie:
    try:
        with open(path, encoding="utf-8-sig") as f:
            return marked_from_json(f.read())
    except OSError as e:
        raise MarkError(f"cannot read {path}: {e.strerror or e}") from None


__all__ = ["FORMAT", "deal_from_json", "deal_to_json", "is_marked", "load_marked", "marked_from_json", "marked_to_json"]
