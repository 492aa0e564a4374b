"""The web table's protocol: ACTION JSON to and from ``piquet.core.actions``, and the VIEW a seat is sent.

The shared spec (issue 5) fixes the routes, the messages, ACTION and VIEW.  ``view(partie,
seat, ...)`` is the only way a view is made: it starts from ``Observation.to_json()`` of that
seat -- exactly what the laws let him know -- and adds only public things and that seat's own
options.  Nothing here reads the adversary's hand, his discard or the stock.

Decisions taken where the spec leaves things open
-------------------------------------------------
* **The cut and the deal.**  The partie's state machine (``piquet.core.state.PartieState``), as
  ``PartieRunner``: the cut from ``cut_rng(seed)``.  A person who wins the cut has the choice of
  deal (Law 4) and, dealing, of dealing by twos or threes (Law 9): the table begins in phase
  ``"cut"`` (``"choice": "deal"``), where his only options are ``{"kind": "deal", "deal": true,
  "by": 2}``, ``{..., "by": 3}`` and ``{"kind": "deal", "deal": false}`` (the other seat has none;
  a ``deal`` without ``"by"`` deals by twos), and that choice is version 1.  Letting a person
  deal, that person chooses next (``"choice": "deal_by"``, options ``{"kind": "deal_by", "by":
  2}`` and ``{..., "by": 3}``), the next version.  A computer chooses as at the terminal (its
  level's ``choose_deal``, ``deal_by``), with no version of its own.  The first deal is dealt
  once the dealer and his mode are known, and each next deal as soon as the last one ends (from
  ``deal_rng(seed, index)``).  ``deal`` or ``deal_by`` at any other time is ``illegal``.  The
  VIEW's ``"cut"`` tells who cut what; in phase ``"cut"`` the VIEW has no cards and no roles
  (``"role"``, ``"roles"`` are ``null``; ``"partie"["dealer"]`` is too until the dealer is known).  At Piquet au cent
  there is no choice: the lower cut deals (p. 16), and the first deal is dealt at once.
* **Between deals** there is no pause and no "next deal" message: when the twelfth trick ends
  a deal and the partie goes on, the next deal is dealt at once.  The finished deal's public
  summary is in the VIEW's ``"last_deal"`` (present from the second deal on; when the partie
  is over the VIEW itself is the last deal, phase ``"done"``, and ``"last_deal"`` is the one
  before it).
* **version** is the number of actions applied in the partie so far (the computer's
  included); it is 0 for a new table.  A client's action must carry the version of the last
  state it received, else ``stale``.  Checks are made in this order: ``malformed`` (not JSON,
  unknown type or kind, bad card names, wrong shapes, no integer ``version``), ``stale``,
  ``illegal`` if the partie is over, ``turn`` if it is not this seat's turn, ``illegal`` if
  the laws forbid it (the message is ``IllegalAction``'s, citing the law).  If the server
  cannot store an action (the database refused it, or another server process changed the
  table) nothing is applied and the sender gets ``stale``: the tables' states are sent again.
  If the database cannot be reached, the sender gets ``unsaved`` (his move was not saved, and
  why), every seat gets ``{"type": "database", "up": false, "message": ...}`` (its table waits for
  its database; the socket stays open) and, when it is back, ``{"type": "database", "up": true,
  "message": ...}`` and the state as stored.
* **options** is always a list: ``[]`` when it is not the seat's turn; ``[{"kind": "discard",
  "min": 1, "max": n, "label", "labels"}]`` (``"min": 0`` for the younger at Piquet au cent,
  p. 17: he may send ``"cards": []``; ``"label"``: "Discard one to five cards", ``"labels"[k]``:
  the button for k cards chosen, "Discard three"; ``"questions"[k]``: what the page asks before sending k
  cards, Law 24, its ``{cards}`` replaced by their names: "Discard {cards} and take in three?");
  ``[{"kind": "look", "look": true, "label": "Look
  at them"}, {"kind": "look", "look": false, "label": "Do not look"}]`` (the younger's ``"Look (both
  see them)"``; answer with ``{"kind": "look", "look": true|false}``); for a declaration every legal
  ACTION of that category with its ``"label"`` ("Quint to a king in hearts and tierce major in
  spades") and its ``"button"`` ("Call: Quint ...", "Reckon: Three aces", "Declare no point (sink
  it)"), the strongest first (what the hand holds: the usual call) and declaring nothing last
  (``{"kind": "point", "cards": [], "label": "No point", "button": ...}``, ``{"kind": "sequences",
  "runs": []}``, ``{"kind": "sets", "sets": []}``); ``[{"kind": "play", "cards": [...]}]``, with
  ``"label"`` ("Play the king of hearts") when following suit leaves one card.  The
  choices of deal carry their ``"label"`` too ("Deal by twos", "Let your adversary deal", "By
  threes").  A label is made by the narrator (``piquet.talk.words``) from the seat's own options
  only: it names no card the seat may not see.
* **The words** are the narrator's, made once in Python for every interface; the page makes none
  of its own.  ``"prompt"``: the phase in words for this seat (``talk.words.prompt_words``: "You
  are elder hand: discard one to five cards and take in as many (Law 21).", "Ann is calling his
  point."; before the first deal ``choice_prompt``); ``"score_labels"``: ``{kind: heading}`` in
  Law 67's order; ``"table_trick"``: the cards on the table, the card led to the trick in play
  (``"winner"`` null) or else the last trick completed until the next lead, as ``"last_trick"``,
  ``null`` before the play; the settlement's ``"headline"`` ("You win the partie.");
  ``"cut"["words"]``: the cut and who deals, how (``cut_words``, ``dealer_words``); ``"deal_words"``: the
  deal's opening, who deals and who is elder hand (``deal_words``: "Deal 1 of 6: Ann deals; you are elder
  hand.", at Piquet au cent "Deal 4 (game 2, at nothing): You deal; Ann is elder hand."), ``null`` before
  the first deal; ``"stakes"``: what is at stake, when the score makes it matter (``stake_words``: "You
  need 12 to pass the rubicon (100, Law 73)."), ``[]`` else and once the partie is over; ``"turn"``: whose
  turn ("Your turn.", "Ann's turn."; ``null`` when nobody's);
  ``"game_news"``: at Piquet au cent, through the deal after a game was won, who won it and how, and that
  the next game begins at nothing (``game_news_words``), else ``null``; ``"last_deal"["game_words"]``: how
  a deal that won a game stopped (``deal_stopped_words``), else ``null``.  Prompts say a card that must be
  played ("Trick five of twelve: you must play the king of hearts.") and a category with nothing to
  declare ("You have no sequence to declare.").
* **Card order** in ACTIONs the server writes: suits spades, hearts, clubs, diamonds, high
  cards first; runs and sets best first.  Cards are read case-insensitively (``"10h"``,
  ``"Th"``); a card named twice, an empty run or set, a non-boolean ``look`` are ``malformed``.
  Keys the spec does not name are ignored.
* **Extra VIEW keys** beyond the spec: ``"roles"`` (``{"elder": seat, "younger": seat}`` of
  the current deal), ``"totals"`` (``{"deal": {"A", "B"}, "partie": {"A", "B"}}``: this deal's
  points so far and the partie's running total, this deal counted with its multiplier),
  ``"opponent"`` (``"computer"``/``"person"``), ``"levels"`` (``{seat: level}`` of the computer
  seats) and ``"cut"`` (``{"A": card, "B": card, "winner": seat, "lower_deals": bool, "words": [...]}``:
  the winner cut the higher card; ``lower_deals`` at Piquet au cent, where the other deals).
* ``"lines"``: the table talk of the deal in words, made by the one narrator (``piquet.talk.words``) from
  this seat's observation only, the seat called "You": ``[{"speaker": "elder"|"younger"|null, "kind",
  "role", "trick": n|null, "text", "segments": [text | {"cards": [...], "words"?}]}]`` (``Line.to_json``);
  a page draws each segment's cards as card spans.  ``"last_deal"`` has its ``"lines"`` too;
  ``"called"``: ``{"elder": n, "younger": n}``, each player's count as told aloud so far.  The
  ``events`` are the typed events' JSON (``Event.to_json``: each kind with its named fields).
* ``"deal_history"``: ``[{"deal": 1, "dealer": seat, "multiplier": m, "scores": {"A", "B"}
  (as they count in the partie), "partie": {"A", "B"} (the partie after that deal)}]`` for
  the finished deals; ``"settlement"``: ``null`` until the partie is over, then ``{"winner":
  seat|null, "points": n|null, "rubicon": bool, "scores": {"A", "B"}, "tally": {...}, "words": "...",
  "headline": "..."}``;
  ``"last_trick"``: the last trick completed in this deal, ``{"number": n, "plays": [{"seat",
  "role", "card"}, {...}], "winner": seat}``, or ``null``.
* ``"last_deal"`` (``null`` in the first deal): the finished deal before this one, public
  only: ``{"deal_number", "dealer", "roles", "multiplier", "scores": {seat: {kind: points}},
  "totals": {seat: points}, "counted": {seat: points in the partie}, "tricks_won": {seat: n},
  "last_trick", "events", "game_won", "lines", "game_words"}`` (its public events, as in
  ``Observation.to_json``;
  ``"game_won"``: ``null``, or at Piquet au cent ``{"seat", "score", "double"}`` when that deal
  stopped because a player reached a hundred).
* **The rules** (any ``Rules``, named by ``rules.spec``, e.g. ``"au-cent+small-cards"``):
  ``"title"`` (``rules.title``), ``"agreements"`` (``["small-cards", "fours"]``, or ``[]``), and
  ``"partie"["rules"]`` is the spec.  At **Piquet au cent** (a game of a hundred up, p. 16-20)
  there is no choice of deal (the lower cut deals, by twos; the table starts dealt), the
  younger's discard option has ``"min": 0``, and ``"game"`` is ``{"goal": 100, "double_below":
  50, "to_win": 3, "number": the game of this deal, "scores": {"A", "B"} (that game's score, this
  deal included: the same as ``totals.partie``), "tally": {"A", "B"} (games won, a double as
  two), "games": [{"number", "first_deal", "last_deal" (deal numbers from 1), "scores",
  "winner", "double"}]}``; ``null`` in the other rules.  ``"partie"["scores"]`` is the game's
  score before this deal, ``"partie"["games"]`` the tally before it, ``"partie"["deals"]`` the
  deals played and this one (a game runs to as many deals as it takes).  Each ``deal_history``
  entry has ``"game"`` (its game's number) and ``"game_won"`` (``null`` or ``{"winner",
  "double"}``), and its ``"partie"`` is the game's running score.  The settlement's ``"points"``
  is ``null`` and ``"tally"`` holds the games won; its words are ``settlement_words``'s (the
  partie is settled by ``rules.settlement_of``, never ``rules.settle``).
* **A club table** (the agreement ``club``, any rules: ``"rubicon+club"``; between two persons only, the
  computer's players taking the cards called as held): calls are taken at the player's word (Laws 52-54).
  ``"agreements"`` holds ``"club"`` and ``"title"`` says so.  ``"options"`` still lists what the hand holds;
  when the seat is to declare, ``"at_word"`` is ``{"kind": "point"|"sequences"|"sets", "label", "hint",
  "button", "note"}`` (``at_word``; null otherwise, and at every other table): he may send a declaration of
  that kind naming any cards, held or not, in the usual ACTION (``{"kind": "point", "cards": [...]}``,
  ``"runs"``, ``"sets"``).  The engine checks its form only (one suit, sequences apart, sets of tens and
  above: ``illegal`` with its message); a call of cards not held, allowed good, comes to light before the
  younger plays to the first trick as a ``miscall`` event, with Law 54's ``penalty``, both told in the
  ``lines``.  A discard or a card played still names only cards held.  At a strict table a declaration of
  cards not held is ``illegal``: "you do not hold every card you called ... (Law 54: call only what you
  hold)", naming no card.
* ``"status"``: ``"waiting"`` for a table against a person until the invited seat first
  connects (play may begin all the same), ``"playing"``, ``"adjourned"`` (nobody acts until a
  seat sends ``{"type": "take_up"}``; a seat sends ``{"type": "adjourn"}`` while another person's
  seat is empty; the hub answers both, ``piquet.web.app``), ``"finished"``.  ``"connected"``: each
  seat, whether someone sits at it now (``table.seats_connected``; docs/web.md, "Presence and
  adjournment").
* The invited seat is called "Guest" unless its first websocket connection carries
  ``&name=...``; a computer seat is called "Computer (level)".  ``POST /api/tables`` also takes
  an optional integer ``"seed"`` (tests pass one; otherwise a random one) and answers 201.
* **The seat's token** is the socket's first message, ``{"type": "hello", "token": T, "name"?: ...}``, never
  the address (a script's ``/ws/{id}?token=T`` is still read, deprecated: servers and proxies log addresses).
  A wrong token, or a first message that is no ``hello``, closes the socket with 4403 after the error; an
  unknown table closes with 4404 after an error of code ``"token"``; a seat already open in as many sockets as
  the server allows (4) closes the next with 4429 after an error of code ``"busy"``; a seat whose link was
  revoked (``POST /api/tables/{id}/new-link``) has its sockets closed with 4401 after an error of code
  ``"token"``.  Messages past a client address's rate are answered ``"rate"`` and not read.
* **The replay** (``piquet.web.rewind``): ``GET /api/tables/{id}/replay`` gives every step of a
  partie, frame k being the table after k actions of its deals, each read off the engine as it
  re-applies the record (the page ``/t/{id}/replay`` shows them).  A finished partie's record is
  public, so its replay shows every card (``"view": "all"``); a partie in progress is replayed
  only with a seat's token in ``Authorization: Bearer T`` (checked as the websocket checks it), each frame holding only
  what that seat's observation held then, and none past the current version; else 403
  ``{"error": ...}``.  Each frame's ``"lines"`` are the narrator's, as the VIEW's, each with the
  ``"seat"`` of its speaker.  No such table: 404; a record the engine cannot replay: 500.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

import orjson

from piquet.core.actions import PLAYS, Action, DeclarePoint, DeclareSequences, DeclareSets, Discard, LookAtLeft, Play
from piquet.core.cards import FULL_PACK, Card, CardError, Mask, card_name, cards_of, parse_card
from piquet.core.deal import Deal, Phase, declaration_key
from piquet.core.events import ELDER, ROLES, SCORE_KINDS, YOUNGER, Event, Trick
from piquet.core.events import Play as PlayEvent
from piquet.core.observation import Observation, PartieContext, observe
from piquet.core.partie import Partie
from piquet.core.rules import Game, Rules
from piquet.core.state import DealBy
from piquet.records.jsontext import JSONRefused, brief, read_json
from piquet.talk.stakes import stake_words
from piquet.talk.words import (
    SCORE_LABELS,
    Narrator,
    at_word_words,
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
    exchange_question,
    game_news_words,
    look_label,
    partie_headline,
    play_label,
    prompt_words,
    settlement_words,
    turn_words,
)

SEATS = ("A", "B")
STATUSES = ("waiting", "playing", "adjourned", "finished")
ERROR_CODES = ("malformed", "illegal", "turn", "stale", "token", "busy", "rate", "unsaved")


class ProtocolError(ValueError):
    """A message that cannot be read: its JSON, its type or its shape (error code ``malformed``)."""


@dataclass(frozen=True)
class ChooseDeal:
    """``{"kind": "deal", "deal": bool, "by": 2|3}``: the winner of the cut deals or not (Law 4); dealing, he
    says how, by twos or threes (Law 9; by twos when ``"by"`` is absent)."""

    deal: bool
    by: int | None = None


#: ``{"kind": "deal_by", "by": 2|3}``: the first dealer, whom the winner of the cut made dealer, says how he
#: deals (Law 9): ``piquet.core.state.DealBy``.
WireAction = Action | ChooseDeal | DealBy


# ---------------------------------------------------------------- ACTION


def _names(mask: Mask) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def encode_action(action: WireAction) -> dict[str, Any]:
    """The ACTION JSON of an action."""
    if isinstance(action, Discard):
        return {"kind": "discard", "cards": _names(action.cards)}
    if isinstance(action, LookAtLeft):
        return {"kind": "look", "look": action.look}
    if isinstance(action, DeclarePoint):
        return {"kind": "point", "cards": _names(action.cards)}
    if isinstance(action, DeclareSequences):
        return {"kind": "sequences", "runs": [_names(m) for m in action.runs]}
    if isinstance(action, DeclareSets):
        return {"kind": "sets", "sets": [_names(m) for m in action.sets]}
    if isinstance(action, Play):
        return {"kind": "play", "card": card_name(action.card)}
    if isinstance(action, ChooseDeal):
        return {"kind": "deal", "deal": action.deal, **({} if action.by is None else {"by": action.by})}
    if isinstance(action, DealBy):
        return {"kind": "deal_by", "by": action.by}
    raise TypeError(f"not an action: {action!r}")


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise ProtocolError(f"{where}: a card is a string such as \"QS\" or \"10H\"")
    try:
        return parse_card(value)
    except CardError as e:
        said = e if len(value) <= 40 else f"{brief(value)} is not a card"
        raise ProtocolError(f"{where}: {said}") from None


def _mask(value: object, where: str, allow_empty: bool = True) -> Mask:
    if not isinstance(value, list):
        raise ProtocolError(f"{where}: expected a list of cards")
    if not value and not allow_empty:
        raise ProtocolError(f"{where}: an empty list of cards")
    m = 0
    for item in value:
        c = _card(item, where)
        if m >> c & 1:
            raise ProtocolError(f"{where}: {card_name(c)} is named twice")
        m |= 1 << c
    return m


def _masks(value: object, where: str) -> tuple[Mask, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"{where}: expected a list of lists of cards")
    return tuple(_mask(item, where, allow_empty=False) for item in value)


def _field(obj: Mapping[str, Any], key: str, kind: str) -> Any:
    if key not in obj:
        raise ProtocolError(f"a {kind} action needs \"{key}\"")
    return obj[key]


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(f"{where}: expected true or false")
    return value


def decode_action(obj: object) -> WireAction:
    """The action an ACTION JSON object stands for; ``ProtocolError`` if it is not one."""
    if not isinstance(obj, dict):
        raise ProtocolError("an action is a JSON object with a \"kind\"")
    kind = obj.get("kind")
    if kind == "discard":
        m = _mask(_field(obj, "cards", kind), "discard")
        return Discard(m)
    if kind == "look":
        return LookAtLeft(_flag(_field(obj, "look", kind), "look"))
    if kind == "point":
        return DeclarePoint(_mask(_field(obj, "cards", kind), "point"))
    if kind == "sequences":
        return DeclareSequences(_masks(_field(obj, "runs", kind), "sequences"))
    if kind == "sets":
        return DeclareSets(_masks(_field(obj, "sets", kind), "sets"))
    if kind == "play":
        return PLAYS[_card(_field(obj, "card", kind), "play")]
    if kind == "deal":
        deal = _flag(_field(obj, "deal", kind), "deal")
        return ChooseDeal(deal, None if obj.get("by") is None else _by(obj["by"]))
    if kind == "deal_by":
        return DealBy(_by(_field(obj, "by", kind)))
    raise ProtocolError(f"unknown action kind {brief(kind)}; known: discard, look, point, sequences, sets, play, deal, "
                        "deal_by")


def _by(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("by: the number of cards dealt at a time, 2 or 3")
    return value


@dataclass(frozen=True)
class ClientMessage:
    """A message from a browser: ``ping``, or ``action`` with the version it answers."""

    type: str
    version: int = 0
    action: WireAction | None = None


def read_message(text: str) -> object:
    """A message's JSON, read by the strict reader (``piquet.records.jsontext``: nothing too deep, no number of
    more than 4300 digits, no lone surrogate); ``ProtocolError`` saying why not."""
    try:
        return read_json(text)
    except JSONRefused as e:
        raise ProtocolError(f"a message is JSON, and this one is refused: {e.msg} (column {e.colno})") from None
    except json.JSONDecodeError:
        raise ProtocolError("a message is JSON") from None


def decode_message(obj: object) -> ClientMessage:
    """A client message from its parsed JSON; ``ProtocolError`` if it is malformed."""
    if not isinstance(obj, dict):
        raise ProtocolError("a message is a JSON object with a \"type\"")
    kind = obj.get("type")
    if kind == "ping":
        return ClientMessage("ping")
    if kind == "action":
        return ClientMessage("action", message_version(obj, "an action"), message_action(obj, "an action"))
    raise ProtocolError(f"unknown message type {brief(kind)}; known: action, ping")


def message_version(obj: Mapping[str, Any], what: str) -> int:
    """The ``"version"`` a message answers: a whole number from 0 (``ProtocolError`` otherwise)."""
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ProtocolError(f"{what} message needs \"version\": the version of the state it answers")
    return version


def message_action(obj: Mapping[str, Any], what: str) -> WireAction:
    """The ACTION a message carries in ``"action"`` (``ProtocolError`` if it has none, or a bad one)."""
    if "action" not in obj:
        raise ProtocolError(f"{what} message needs \"action\"")
    return decode_action(obj["action"])


# ---------------------------------------------------------------- VIEW


_DISCARDS = (Phase.ELDER_DISCARD, Phase.YOUNGER_DISCARD)
_LOOKS = (Phase.ELDER_LOOK, Phase.YOUNGER_LOOK)
_CATEGORY_OF = {
    Phase.ELDER_POINT: 0, Phase.YOUNGER_POINT: 0, Phase.YOUNGER_RECKON_POINT: 0,
    Phase.ELDER_SEQUENCES: 1, Phase.YOUNGER_SEQUENCES: 1, Phase.YOUNGER_RECKON_SEQUENCES: 1,
    Phase.ELDER_SETS: 2, Phase.YOUNGER_SETS: 2, Phase.YOUNGER_RECKON_SETS: 2,
}


def _declaration_order(category: int, action: Action) -> tuple[int, tuple[int, int], int, int]:
    if isinstance(action, DeclarePoint):
        items: tuple[Mask, ...] = (action.cards,) if action.cards else ()
        decl: Mask | tuple[Mask, ...] = action.cards
    else:
        items = action.runs if isinstance(action, DeclareSequences) else action.sets  # type: ignore[union-attr]
        decl = items
    return (1 if items else 0, declaration_key(category, decl), len(items), sum(m.bit_count() for m in items))


def options(obs: Observation) -> list[dict[str, Any]]:
    """What the observing seat may do now, in JSON-ready form (``[]`` when it is not his turn)."""
    if not obs.my_turn:
        return []
    p = obs.phase
    if p == Phase.PLAY:
        cards = [a.card for a in obs.legal_actions()]  # type: ignore[union-attr]
        forced = {"label": play_label(cards[0])} if len(cards) == 1 and obs.lead >= 0 else {}
        return [{"kind": "play", "cards": [card_name(c) for c in cards], **forced}]
    if p in _DISCARDS:
        return [{"kind": "discard", "min": obs.min_discard, "max": obs.max_discard,
                 "label": discard_words(obs.min_discard, obs.max_discard), "labels": discard_labels(obs.max_discard),
                 "questions": [exchange_question(k, "{cards}") for k in range(obs.max_discard + 1)]}]
    if p in _LOOKS:
        return [{"kind": "look", "look": look, "label": look_label(look, obs.role)} for look in (True, False)]
    category = _CATEGORY_OF[p]
    acts = list(obs.legal_actions())
    acts.sort(key=lambda a: _declaration_order(category, a), reverse=True)
    return [_declaration_option(a, p) for a in acts]


@functools.lru_cache(maxsize=8192)
def _declaration_option(action: DeclarePoint | DeclareSequences | DeclareSets, phase: Phase) -> dict[str, Any]:
    """A declaration's option, its words made once (a point's options are many: every card may be sunk): shared
    between views, read-only."""
    return {**encode_action(action), "label": declaration_words(action), "button": declaration_button(action, phase)}


_KINDS = ("point", "sequences", "sets")


def at_word(obs: Observation, club: bool) -> dict[str, str] | None:
    """At a club table (``club``: calls taken at the player's word, Laws 52-54), when the observing seat is to
    declare: the call he may make of any cards he names, besides his ``options`` (what he holds), in words
    (``talk.words.at_word_words``) with the ACTION ``"kind"`` it is sent as; else None."""
    if not club or not obs.my_turn or obs.phase not in _CATEGORY_OF:
        return None
    return {"kind": _KINDS[_CATEGORY_OF[obs.phase]], **at_word_words(obs.phase)}


def table_trick(obs: Observation, seats: tuple[str, str]) -> dict[str, Any] | None:
    """The cards on the table: the card led to the trick in play, or else the last trick completed (until the
    next card is led), as ``last_trick`` gives it with ``"winner"`` null while the trick is in play; None
    before the play."""
    for e in reversed(obs.events):
        if isinstance(e, Trick):
            return last_trick(obs, seats)
        if isinstance(e, PlayEvent):
            return {"number": e.trick, "winner": None,
                    "plays": [{"seat": seats[e.role], "role": ROLES[e.role], "card": card_name(e.card)}]}
    return None


def last_trick(obs: Observation, seats: tuple[str, str]) -> dict[str, Any] | None:
    """The last trick completed in the observed deal, read from its ``Trick`` event, or None."""
    t = next((e for e in reversed(obs.events) if isinstance(e, Trick)), None)
    if t is None:
        return None
    plays = ((t.leader, t.lead), (1 - t.leader, t.follow))
    return {
        "number": t.number,
        "plays": [{"seat": seats[r], "role": ROLES[r], "card": card_name(c)} for r, c in plays],
        "winner": seats[t.winner],
    }


def _by_seat(values: tuple[Any, Any], seats: tuple[str, str]) -> dict[str, Any]:
    return {seats[ELDER]: values[ELDER], seats[YOUNGER]: values[YOUNGER]}


_T = TypeVar("_T")


class _DealCache(Generic[_T]):
    """What an interface made of each deal (its events' JSON, each seat's lines), kept by ``id(deal)`` with the
    deal held beside it so that its id is not reused while the entry lives.  Bounded in bytes: an entry is
    reckoned ``per_event`` bytes for each event of its deal (measured with tracemalloc: a whole deal's entry
    held that much an event), weighed again each time it is used (a deal in play grows), and the least
    recently used are dropped past ``budget``.  A table leaving memory drops its deals at once
    (``forget_partie``).  Each entry is one list, ``[deal, value, weight]``, changed in place when it is used
    again: nothing new is made for the collector to follow (docs/web.md, *Performance*)."""

    def __init__(self, per_event: int, budget: int) -> None:
        self.per_event, self.budget = per_event, budget
        self.entries: OrderedDict[int, list[Any]] = OrderedDict()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self.entries)

    def kept_for(self, deal: Deal, make: Callable[[], _T]) -> _T:
        """What is kept for ``deal``, made by ``make`` the first time."""
        key = id(deal)
        weight = (1 + len(deal.events)) * self.per_event
        entry = self.entries.get(key)
        if entry is not None and entry[0] is deal:
            self.entries.move_to_end(key)
            self.bytes += weight - entry[2]
            entry[2] = weight
        else:
            if entry is not None:
                self.bytes -= entry[2]
            entry = self.entries[key] = [deal, make(), weight]
            self.bytes += weight
        value: _T = entry[1]
        while self.bytes > self.budget and len(self.entries) > 1:
            self.bytes -= self.entries.popitem(last=False)[1][2]
        return value

    def value(self, deal: Deal) -> _T | None:
        entry = self.entries.get(id(deal))
        return entry[1] if entry is not None and entry[0] is deal else None

    def forget(self, deal: Deal) -> None:
        entry = self.entries.get(id(deal))
        if entry is not None and entry[0] is deal:
            del self.entries[id(deal)]
            self.bytes -= entry[2]


def _kept_for(cache: _DealCache[_T], deal: Deal, make: Callable[[], _T]) -> _T:
    return cache.kept_for(deal, make)


@dataclass(frozen=True, slots=True, eq=False)
class Told:
    """A part of a VIEW held as the JSON it is sent as, made once and shared by every view and socket that sends
    it: a list's ``items``, each one's JSON text (a deal's events, the lines told to a seat), or one value's
    ``text`` (the last deal as a seat was told it).  Text is what a server sends, and what the collector need not
    follow: a thousand tables' narrations kept as dicts and lists were half the objects of a process, and the
    collector's passes over them stopped every table (docs/web.md, *Performance*).  ``view(..., told=True)``
    gives these; ``view()`` gives their parsed values, the plain VIEW."""

    items: tuple[str, ...] = ()
    text: str | None = None

    def json(self) -> str:
        return f"[{','.join(self.items)}]" if self.text is None else self.text

    def value(self) -> Any:
        """The parsed value (each item or text parsed once while it is used: shared between views, read-only)."""
        return [_parsed(x) for x in self.items] if self.text is None else _parsed(self.text)


#: Texts of ``Told`` parts parsed for the plain VIEW (``view()``: tests, scripts; a server sends the texts), by
#: the text, the least recently used dropped past ``_PARSED_CHARS`` characters of text.  A value parsed is shared by
#: every view holding the same text, of any seat or table: read-only.
_PARSED: OrderedDict[str, Any] = OrderedDict()
_PARSED_CHARS = 8 << 20
_parsed_chars = 0


def _parsed(text: str) -> Any:
    global _parsed_chars
    value = _PARSED.get(text, _PARSED)
    if value is not _PARSED:
        with contextlib.suppress(KeyError):  # let go meanwhile by another thread's view
            _PARSED.move_to_end(text)
        return value
    value = _PARSED[text] = orjson.loads(text)
    _parsed_chars += len(text)
    while _parsed_chars > _PARSED_CHARS and len(_PARSED) > 1:
        _parsed_chars -= len(_PARSED.popitem(last=False)[0])
    return value


def _item_texts(value: object) -> tuple[str, ...] | None:
    """A list's items as JSON texts (a ``Told`` list's own), or None if ``value`` is not a list."""
    if isinstance(value, Told):
        return value.items if value.text is None else None
    if isinstance(value, list):
        return tuple(_compact(x) for x in value)
    return None


#: The events of deals as JSON, made as they happen: [its events' JSON texts, the last event], by deal.
_EVENTS: _DealCache[list[Any]] = _DealCache(150, 32 << 20)


#: For each deal, the narration of each seat's view so far: (events told, the narrator before its held
#: showings are flushed, the lines told as JSON texts), so that a view after one more action tells only what is new.
_Told = tuple[tuple[Event, ...], Narrator, tuple[str, ...]]
_TOLD: _DealCache[dict[tuple[str, tuple[str, ...], tuple[Mask, Mask]], _Told]] = _DealCache(700, 96 << 20)


def seat_lines(obs: Observation, names: Mapping[str, str], seats: tuple[str, str], seat: str,
               deal: Deal | None = None) -> tuple[tuple[str, ...], dict[str, int]]:
    """The narrator's lines of the observed deal for ``seat`` (called "You"), from its observation only, each as
    its JSON text (``Line.to_json``): the cards they name are the log's, and "Which king do you not reckon?" is
    asked where the seat cannot rule out a quatorze (p. 92).  Given the ``deal`` observed, the lines already
    told for an earlier view of it are kept and only the new events are told (the same lines as telling the
    whole log again)."""
    me = obs.role
    by_role = ["You" if seats[r] == seat else names.get(seats[r], seats[r]) for r in (ELDER, YOUNGER)]
    held = obs.dealt | obs.taken | obs.seen_left
    viewer = (held, FULL_PACK) if me == ELDER else (FULL_PACK, held)
    key = (seat, tuple(by_role), viewer)
    told = _kept_for(_TOLD, deal, dict) if deal is not None else {}
    before, narrator, lines = told.get(key, ((), Narrator(by_role, viewer), ()))
    n = len(before)
    if n > len(obs.events) or any(a is not b for a, b in zip(before, obs.events, strict=False)):
        n, narrator, lines = 0, Narrator(by_role, viewer), ()  # an action was taken back: tell it afresh
    if n < len(obs.events) or key not in told:
        narrator = narrator.copy()
        lines += tuple(_compact(line.to_json()) for line in narrator.lines(obs.events[n:], hold=True))
        told[key] = (obs.events, narrator, lines)
    if narrator.holding:  # the showings held back, told now by a copy: the narrator kept is not changed
        narrator = narrator.copy()
        lines += tuple(_compact(line.to_json()) for line in narrator.flush())
    return lines, {"elder": narrator.count[ELDER], "younger": narrator.count[YOUNGER]}


#: The last deal's summary with one seat's lines, as JSON text, made once a seat and shared by later views.
_LAST_TOLD: _DealCache[dict[tuple[str, tuple[tuple[str, str], ...]], str]] = _DealCache(250, 96 << 20)


def last_deal_told(partie: Partie, index: int, seat: str, names: Mapping[str, str]) -> str:
    """The JSON of the finished deal ``index``'s summary (``_deal_summary``) and its lines as ``seat`` was told
    them."""
    deal = partie.deals[index]
    key = (seat, tuple(sorted(names.items())))
    told = _kept_for(_LAST_TOLD, deal, dict)
    text = told.get(key)
    if text is None:
        seats = (partie.seat(index, ELDER), partie.seat(index, YOUNGER))
        lines = seat_lines(observe(deal, partie.role(index, seat)), names, seats, seat)[0]
        won = next((g for g in partie.games() if g.last_deal == index), None) if deal.game_won else None
        you = {s: "You" if s == seat else names.get(s, s) for s in SEATS}
        text = told[key] = _compact({**_deal_summary(partie, index), "lines": [orjson.Fragment(x) for x in lines],
                                     "game_words": None if won is None else deal_stopped_words(won, deal, you)})
    return text


def events_told(deal: Deal) -> tuple[str, ...]:
    """``Observation.to_json()["events"]`` of a deal, each event's JSON text made once (events are only added)."""
    events = deal.events
    kept = _kept_for(_EVENTS, deal, lambda: [(), None])
    done: tuple[str, ...] = kept[0]
    n = len(done)
    if n > len(events) or (n and events[n - 1] is not kept[1]):
        done = ()  # an action was taken back: make them afresh
    if len(done) < len(events):
        done += tuple(_compact(e.to_json()) for e in events[len(done):])
        kept[0], kept[1] = done, events[-1]
    elif not events:
        kept[0], kept[1] = (), None
    return done


def _game_won(deal: Deal, seats: tuple[str, str]) -> dict[str, Any] | None:
    """At Piquet au cent: who reached the goal in this deal, with what, and whether a double game (p. 20)."""
    won = deal.game_won
    if won is None or deal.game is None:
        return None
    role, double = won
    return {"seat": seats[role], "score": deal.game[role] + deal.totals[role], "double": double}


def _deal_summary(partie: Partie, index: int) -> dict[str, Any]:
    """The public summary of deal ``index``, to be encoded (``last_deal_told``): its scores, tricks, last trick
    and public events (no hand), the events as the JSON fragments ``events_told`` keeps."""
    deal = partie.deals[index]
    seats = (partie.seat(index, ELDER), partie.seat(index, YOUNGER))
    public = Observation(  # the public part only: no cards of either hand
        role=ELDER, phase=deal.phase, to_move=deal.to_move, dealt=0, hand=0, discard=0,
        taken=0, seen_left=0, stock_left=0, max_discard=0, lead=deal.lead, trick=deal.trick,
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
        scores=(tuple(deal.scores[0]), tuple(deal.scores[1])), events=tuple(deal.events))
    j = replace(public, events=()).to_json()
    return {
        "deal_number": index + 1,
        "dealer": partie.dealer(index),
        "roles": {"elder": seats[ELDER], "younger": seats[YOUNGER]},
        "multiplier": partie.rules.multiplier(index),
        "scores": _by_seat((j["scores"]["elder"], j["scores"]["younger"]), seats),
        "totals": _by_seat((deal.totals[ELDER], deal.totals[YOUNGER]), seats),
        "counted": partie.deal_score(index),
        "tricks_won": _by_seat(public.tricks_won, seats),
        "last_trick": last_trick(public, seats),
        "events": [orjson.Fragment(x) for x in events_told(deal)],
        "game_won": _game_won(deal, seats),
    }


def _tally(games: Sequence[Game]) -> dict[str, int]:
    """Games won by each seat, a double counting two (p. 20)."""
    return {k: sum(g.counts for g in games if g.winner == k) for k in SEATS}


def _game_json(rules: Rules, games: Sequence[Game], number: int, scores: Mapping[str, int]) -> dict[str, Any] | None:
    """The VIEW's ``"game"`` at a game of so many up (Piquet au cent, p. 20), or None.

    ``number``: the game this deal belongs to; ``scores``: that game's score, this deal included;
    ``games``: the games won so far (their deals counted from 1).
    """
    if not rules.partie_of_games:
        return None
    return {
        "goal": rules.line, "double_below": rules.double_below, "to_win": rules.games_to_win,
        "number": number, "scores": dict(scores), "tally": _tally(games),
        "games": [{"number": g.number, "first_deal": g.first_deal + 1, "last_deal": g.last_deal + 1,
                   "scores": dict(g.scores), "winner": g.winner, "double": g.double} for g in games],
    }


def _history(partie: Partie, counted: list[dict[str, int]], after: list[dict[str, int]], games: Sequence[Game],
             start: int, stop: int) -> list[dict[str, Any]]:
    """The ``deal_history`` entries of the finished deals ``start`` to ``stop - 1`` (indexes from 0)."""
    rules = partie.rules
    ended = {g.last_deal: g for g in games}
    out = []
    for i in range(start, stop):
        entry: dict[str, Any] = {"deal": i + 1, "dealer": partie.dealer(i), "multiplier": rules.multiplier(i),
                                 "scores": counted[i], "partie": dict(after[i])}
        if rules.partie_of_games:  # Piquet au cent: its game, and whether it won it (p. 20)
            won = ended.get(i)
            entry["game"] = 1 + sum(1 for g in games if g.last_deal < i)
            entry["game_won"] = None if won is None else {"winner": won.winner, "double": won.double}
        out.append(entry)
    return out


@dataclass(frozen=True)
class _Finished:
    """What every view of a partie says of its finished deals before the one in play: it does not change."""

    last: Deal | None  # the last of them (whose identity keys the cache)
    counted: list[dict[str, int]]  # each one's score as it counts in the partie
    history: list[dict[str, Any]]  # their ``deal_history`` entries (shared between views: read-only)


#: The finished deals' part of the views, by ``id`` of the last of them: a partie at au cent runs to many deals.
_FINISHED: OrderedDict[int, _Finished] = OrderedDict()
_FINISHED_KEPT = 1024


def _finished_part(partie: Partie, index: int) -> _Finished:
    """The deals before deal ``index`` (all finished), worked out once for all the views of this deal."""
    if index == 0:
        return _Finished(None, [], [])
    last = partie.deals[index - 1]
    hit = _FINISHED.get(id(last))
    if hit is not None and hit.last is last and len(hit.counted) == index:
        _FINISHED.move_to_end(id(last))
        return hit
    counted = [partie.deal_score(i) for i in range(index)]
    after = partie.rules.running_scores(counted)
    done = _Finished(last, counted, _history(partie, counted, after, partie.rules.games(after), 0, index))
    _FINISHED[id(last)] = done
    if len(_FINISHED) > _FINISHED_KEPT:
        _FINISHED.popitem(last=False)
    return done


def view(partie: Partie, seat: str, *, players: Mapping[str, str] | None = None, status: str | None = None,
         cut: tuple[Card, Card, str] | None = None, opponent: str = "computer",
         levels: Mapping[str, str] | None = None, told: bool = False) -> dict[str, Any]:
    """The VIEW of ``seat``: its observation, and the public extras of the spec.  The only way a view is made.
    ``told``: its ``"events"``, ``"lines"`` and ``"last_deal"`` as the ``Told`` JSON texts kept for them (what a
    server sends: ``state_text``, ``encode_state``), not parsed."""
    if seat not in SEATS:
        raise ValueError(f"a seat is A or B, not {seat!r}")
    names = dict(players) if players is not None else {"A": "A", "B": "B"}
    if not partie.deals:
        raise ValueError("no deal yet")
    index = len(partie.deals) - 1
    deal = partie.deals[index]
    rules = partie.rules
    seats = (partie.seat(index, ELDER), partie.seat(index, YOUNGER))
    # The partie's scores, worked out once: what Partie.context, deals_needed and is_finished each work out.
    # At Piquet au cent the running scores are the game's, starting again at nothing after a game (p. 20).
    done = _finished_part(partie, index)  # the deals before this one, all finished
    counted = [*done.counted, partie.deal_score(index)]
    after = rules.running_scores(counted)
    over = after if deal.is_over else after[:-1]
    needed = rules.deals_needed(over)
    finished = deal.is_over and index + 1 >= needed
    games = rules.games(over)
    if deal.game is None:
        before = dict(after[-2]) if index >= 1 else {"A": 0, "B": 0}
        games_before: dict[str, int] = {}
        number = 0
    else:
        before = _by_seat(deal.game, seats)  # the game's scores before this deal, as the deal was given them
        won_before = [g for g in games if g.last_deal < index]
        games_before, number = _tally(won_before), len(won_before) + 1
    context = PartieContext(seat=seat, dealer=partie.dealer(index), deal_number=index + 1,
                            deals_in_partie=needed, rules=rules.spec, scores=before,
                            multiplier=rules.multiplier(index), games=games_before, game_number=number)
    obs = observe(deal, partie.role(index, seat), context)  # = partie.observation(seat)
    v = obs.to_json(events=False)  # the events, the same, from the cache
    v["events"] = Told(events_told(deal))
    v["seat"] = seat
    v["players"] = names
    v["status"] = status if status is not None else ("finished" if finished else "playing")
    v["my_turn"] = obs.my_turn
    v["options"] = options(obs)
    v["at_word"] = at_word(obs, deal.club)
    v["roles"] = {"elder": seats[ELDER], "younger": seats[YOUNGER]}
    v["totals"] = {"deal": _by_seat((deal.totals[ELDER], deal.totals[YOUNGER]), seats),
                   "partie": dict(after[-1])}
    v["title"] = rules.title
    v["agreements"] = list(rules.agreements)
    v["game"] = _game_json(rules, games, number, after[-1])
    v["deal_history"] = done.history + (_history(partie, counted, after, games, index, index + 1)
                                        if deal.is_over else [])
    other = "B" if seat == "A" else "A"
    you = {seat: "You", other: names[other]}
    v["prompt"] = prompt_words(obs, names[other])
    v["deal_words"] = deal_words(context, you)
    v["stakes"] = [] if finished else stake_words(context, you)
    v["turn"] = None if obs.to_move is None else turn_words(you[seats[obs.to_move]])
    won = partie.deals[index - 1].game_won if index >= 1 and not finished else None
    v["game_news"] = None if won is None else game_news_words(
        next(g for g in games if g.last_deal == index - 1), partie.deals[index - 1], index, you)
    v["score_labels"] = SCORE_LABELS
    if finished:
        # Never rules.settle at au cent: a partie of games is settled by its games (p. 20).
        s = rules.settlement_of(after, True)
        played = sum(1 for d in partie.deals if d.is_over)
        v["settlement"] = {
            "winner": s.winner, "points": s.points_won, "rubicon": s.rubicon, "scores": dict(after[-1]),
            "tally": dict(s.tally), "words": settlement_words(s, after[-1], rules, names, played, needed),
            "headline": partie_headline(s.winner, you),
        }
    else:
        v["settlement"] = None
    v["last_trick"] = last_trick(obs, seats)
    v["table_trick"] = table_trick(obs, seats)
    lines, called = seat_lines(obs, names, seats, seat, deal)
    v["lines"], v["called"] = Told(lines), called
    v["last_deal"] = None
    if index >= 1:
        v["last_deal"] = Told(text=last_deal_told(partie, index - 1, seat, names))
    v["opponent"] = opponent
    v["levels"] = dict(levels or {})
    v["cut"] = None
    if cut is not None:
        v["cut"] = {**cut_json(rules, cut), "words": [
            told_cut(rules, cut, seat, you),
            *dealer_words(you, cut[2], partie.first_dealer, partie.deal_by, not rules.higher_cut_chooses)]}
    if not told:
        for key in _TOLD_PARTS:
            if isinstance(v[key], Told):
                v[key] = v[key].value()
    return v


def forget_partie(partie: Partie) -> None:
    """Drop what the views kept of a partie's deals (a table leaving memory): its deals are not kept alive by the
    caches until they fill."""
    for deal in partie.deals:
        for cache in (_EVENTS, _TOLD, _LAST_TOLD):
            cache.forget(deal)
        done = _FINISHED.get(id(deal))
        if done is not None and done.last is deal:
            del _FINISHED[id(deal)]


def told_cut(rules: Rules, cut: tuple[Card, Card, str], seat: str, names: Mapping[str, str]) -> str:
    """The cut in words, as ``seat`` is told it (``cut_words``)."""
    return cut_words(names, {"A": cut[0], "B": cut[1]}, cut[2], not rules.higher_cut_chooses, seat)


def cut_view(rules: Rules, seat: str, cut: tuple[Card, Card, str] | None, *,
             players: Mapping[str, str] | None = None, status: str = "playing", opponent: str = "computer",
             levels: Mapping[str, str] | None = None, chooser: bool | None = None,
             options: list[dict[str, Any]] | None = None, which: str = "deal",
             prompt: str | None = None) -> dict[str, Any]:
    """The VIEW before the first deal, while the winner of the cut chooses whether to deal (Law 4), or the
    dealer how he deals (Law 9).

    The same keys as ``view``'s, with no cards yet: only the cut is known.  ``chooser``: whether this
    seat chooses (by default, whether it won ``cut``); ``options``: his (by default, deal or not); with no
    ``cut`` (chouette, whose cut is of three, p. 106) the VIEW's ``"cut"`` is null.
    """
    if seat not in SEATS:
        raise ValueError(f"a seat is A or B, not {seat!r}")
    if chooser is None:
        chooser = cut is not None and cut[2] == seat
    nothing = {kind: 0 for kind in SCORE_KINDS}
    zero = {"A": 0, "B": 0}
    names = dict(players) if players is not None else {"A": "A", "B": "B"}
    other = "B" if seat == "A" else "A"
    told = {seat: "You", other: names[other]}
    return {
        "role": None, "phase": "cut", "to_move": None, "dealt": [], "hand": [], "discard": [], "taken": [],
        "seen_left": [], "stock_left": 8, "max_discard": 0, "min_discard": 0, "lead": None, "trick": 1,
        "tricks_won": {"elder": 0, "younger": 0}, "scores": {"elder": dict(nothing), "younger": dict(nothing)},
        "events": [],
        "lines": [], "called": {"elder": 0, "younger": 0},
        "partie": {"seat": seat, "dealer": None, "deal_number": 1, "deals": rules.deals_needed([]),
                   "rules": rules.spec, "scores": dict(zero), "multiplier": rules.multiplier(0),
                   "games": dict(zero) if rules.partie_of_games else {},
                   "game_number": 1 if rules.partie_of_games else 0},
        "seat": seat, "players": names,
        "status": status, "my_turn": chooser,
        "options": ([] if not chooser else options if options is not None
                    else [{"kind": "deal", "deal": True, "label": deal_label(True)},
                          {"kind": "deal", "deal": False, "label": deal_label(False)}]),
        "prompt": prompt if prompt is not None else choice_prompt(which, chooser, names[other]),
        "score_labels": SCORE_LABELS, "table_trick": None, "deal_words": None, "stakes": [], "turn": None,
        "game_news": None, "roles": None, "totals": {"deal": dict(zero), "partie": dict(zero)}, "deal_history": [],
        "title": rules.title, "agreements": list(rules.agreements), "game": _game_json(rules, (), 1, zero),
        "settlement": None, "last_trick": None, "last_deal": None, "opponent": opponent,
        "levels": dict(levels or {}), "at_word": None,
        "cut": None if cut is None else {**cut_json(rules, cut), "words": [told_cut(rules, cut, seat, told)]},
    }


def choice_options(rules: Rules, which: str) -> list[dict[str, Any]]:
    """The options of the choice before the first deal: ``which`` is ``"deal"`` (the winner of the cut deals,
    by twos or by threes, or lets the other deal: Laws 4, 9) or ``"deal_by"`` (the dealer's mode, Law 9)."""
    if which == "deal_by":
        return [{"kind": "deal_by", "by": by, "label": deal_by_label(by)} for by in rules.deal_modes]
    return [*({"kind": "deal", "deal": True, "by": by, "label": deal_label(True, by)} for by in rules.deal_modes),
            {"kind": "deal", "deal": False, "label": deal_label(False)}]


def cut_json(rules: Rules, cut: tuple[Card, Card, str]) -> dict[str, Any]:
    """The cut for deal, public: the cards cut by A and B, who cut the higher (Law 4), and whether the lower
    card deals (Piquet au cent, p. 16) rather than the higher choosing."""
    return {"A": card_name(cut[0]), "B": card_name(cut[1]), "winner": cut[2],
            "lower_deals": not rules.higher_cut_chooses}


def state_message(version: int, seat: str, view_: dict[str, Any]) -> dict[str, Any]:
    return {"type": "state", "version": version, "seat": seat, "view": view_}


#: The parts of a VIEW a server holds as ``Told`` texts (``view(..., told=True)``).
_TOLD_PARTS = ("events", "lines", "last_deal")

#: The lists of a view that grow as a deal goes on (its events, the lines told of it): a patch sends what was
#: added at their end.
_GROWING = ("events", "lines")


def _compact(obj: object) -> str:
    """Compact JSON, made by orjson (five times as fast as ``json`` on a view: the first cost of a state under load)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


@functools.lru_cache(maxsize=512)
def _key(name: str) -> str:
    return _compact(name)


def _with(head: str, parts: Sequence[tuple[str, str]]) -> str:
    """The JSON object ``head`` with more members, each (key, JSON text), after its own."""
    more = ",".join(f"{_key(k)}:{text}" for k, text in parts)
    return f"{head[:-1]}{',' if head != '{}' and more else ''}{more}}}"


#: A member of a VIEW as sent: its JSON text, or a growing list's items' texts.
Member = str | tuple[str, ...]


def view_members(view_: Mapping[str, Any]) -> dict[str, Member]:
    """Each member of a VIEW as JSON text, a growing list (``"events"``, ``"lines"``) as its items' texts: a
    ``Told`` part is its own text, made once; the rest is made here."""
    out: dict[str, Member] = {}
    for key, value in view_.items():
        if key in _GROWING:
            items = _item_texts(value)
            if items is not None:
                out[key] = items
                continue
        out[key] = value.json() if isinstance(value, Told) else _compact(value)
    return out


def _members_json(members: Mapping[str, Member]) -> str:
    return "{" + ",".join(f"{_key(k)}:{t if isinstance(t, str) else '[' + ','.join(t) + ']'}"
                          for k, t in members.items()) + "}"


@dataclass(frozen=True, slots=True)
class Sent:
    """What a socket was last sent of the state, as text (``encode_state``): the base of its next patch.  Only text
    is kept from one action to the next, nothing for the collector to follow."""

    version: int
    seat: object
    members: dict[str, Member]


def encode_state(message: Mapping[str, Any], sent: Sent | None = None) -> tuple[str, Sent | None]:
    """The JSON text of ``message`` to send on a socket, and what the socket then holds of the state.

    A state message (``{"type": "state", "version", "seat", "view"}``) is sent whole, or, given what the socket was
    last sent of the state (``sent``, the same seat's), as a patch on it: ``{"type": "patch", "version": v,
    "since": v0, "seat": s, "set"?, "drop"?, "append"?}``, where ``set`` holds the members new or changed (whole),
    ``drop`` the members gone, and ``append`` the items added at the end of a growing list (``"events"``,
    ``"lines"``) whose old items are unchanged; each part is there only if not empty.  Made from two views of one
    seat, a patch holds nothing that the new view does not.  Any other message is sent whole and leaves nothing
    to patch on (None).  The parts shared by views (``Told``) are not encoded again."""
    view_ = message.get("view")
    if message.get("type") != "state" or not isinstance(view_, Mapping):
        return _compact(message), None
    members = view_members(view_)
    now = Sent(message["version"], message.get("seat"), members)
    if sent is None or sent.seat != now.seat:
        return _with(_compact({k: v for k, v in message.items() if k != "view"}), [("view", _members_json(members))]
                     ), now
    old = sent.members
    put: dict[str, Member] = {}
    append: dict[str, Member] = {}
    for key, text in members.items():
        was = old.get(key)
        if was is None:
            put[key] = text
        elif was is text or was == text:
            continue
        elif isinstance(text, tuple) and isinstance(was, tuple) and text[:len(was)] == was:
            append[key] = text[len(was):]
        else:
            put[key] = text
    parts = []
    if put:
        parts.append(("set", _members_json(put)))
    drop = [key for key in old if key not in members]
    if drop:
        parts.append(("drop", _compact(drop)))
    if append:
        parts.append(("append", _members_json(append)))
    head = _compact({"type": "patch", "version": now.version, "since": sent.version, "seat": now.seat})
    return _with(head, parts), now


def state_text(message: Mapping[str, Any]) -> str:
    """A message as JSON text (compact), whole (``encode_state``)."""
    return encode_state(message)[0]


def apply_patch(view_: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """The VIEW a client holds after a patch (``encode_state``) on ``view_``: what the page does (app.js)."""
    new = {**view_, **patch.get("set", {})}
    for key in patch.get("drop", ()):
        new.pop(key, None)
    for key, items in patch.get("append", {}).items():
        new[key] = [*view_.get(key, ()), *items]
    return new


def error_message(code: str, message: str) -> dict[str, Any]:
    assert code in ERROR_CODES
    return {"type": "error", "code": code, "message": message}


def database_message(reason: str | None) -> dict[str, Any]:
    """The table's database has gone (``reason``: why) or, with None, is back: the seats are told."""
    if reason is None:
        return {"type": "database", "up": True, "message": "The table's database is back: play goes on."}
    return {"type": "database", "up": False,
            "message": f"The table waits for its database, which cannot be reached now ({reason}). "
                       "Moves cannot be saved until it is back; this page goes on by itself then."}


def unsaved_message(reason: str) -> dict[str, Any]:
    """Why a move was refused when the database could not take it: it was not saved, and nothing changed."""
    return error_message("unsaved", f"your move was not saved: the table's database cannot be reached ({reason}). "
                                    "The table is as it was; choose again when the database is back")


__all__ = [
    "ChooseDeal", "ClientMessage", "DealBy", "ERROR_CODES", "ProtocolError", "SCORE_KINDS", "WireAction",
    "at_word", "choice_options", "decode_action", "table_trick", "told_cut",
    "cut_json", "cut_view", "database_message", "decode_message", "encode_action", "error_message",
    "forget_partie", "last_trick", "message_action", "message_version", "options", "read_message", "state_message",
    "state_text", "unsaved_message",
    "Sent", "Told", "apply_patch", "encode_state", "view", "view_members",
]
