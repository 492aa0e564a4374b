"""``piquet settle``: the scoring card of a session and the settlement of the stakes (p. 100-102, 106).

``piquet settle RECORD.json... [--partie FIGURES]... [--stake S] [--custom C] [--csv FILE] [--json FILE]``
    the parties of the records (replayed by the engine), then the parties given as figures, in that order,
    drawn on the scoring card of p. 101; each player's win or loss in points, and with ``--stake`` in money.
    A file written by ``--json`` may be given in place of a record.
``piquet settle --chouette SESSION.json [--stake S] [--custom C] [--csv FILE] [--json FILE]``
    a chouette given as figures (p. 102, 106), or a chouette played here and saved by ``piquet chouette
    --record`` (``piquet-chouette/1``): the card of its finished parties, each replayed by the engine.

Figures are written ``"A 131 B 113"`` (each player's name and score in the partie) or deal by deal,
``"A 27,15,44,18,35,25 B 13,31,6,29,12,23"``.

>>> parse_figures("Ann 131 Bob 113")
(('Ann', 'Bob'), CardPartie(deals=(), scores=(131, 113), winner=0, points=118, rubicon=False, rules='rubicon'))
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import NoReturn

from piquet.marker.calls import MarkError
from piquet.marker.partie import card_partie
from piquet.marker.record import is_marked, marked_from_json
from piquet.marker.telling import partie_text
from piquet.records.jsontext import read_json
from piquet.records.record import RecordError, parse_record, replay
from piquet.stakes.chouette import FORMAT as CHOUETTE_FORMAT
from piquet.stakes.chouette import ChouetteMatch
from piquet.stakes.settlement import (
    FIFTY,
    STAKES_FORMAT,
    CardPartie,
    ChouetteSession,
    Custom,
    Session,
    Stake,
    StakesSettlement,
    book_reckoning,
    chouette_card_text,
    custom_named,
    from_json,
    scoring_card_text,
    to_csv,
    to_json,
)

PROG = "piquet settle"

_FIGURES_HELP = ('a partie is written "A 131 B 113" (each player\'s name and score) or deal by deal, '
                 '"A 27,15,44,18,35,25 B 13,31,6,29,12,23"')


def parse_figures(text: str, rules: str = "rubicon") -> tuple[tuple[str, str], CardPartie]:
    """A partie given as figures: the names of its two players, and the partie settled by Laws 71-73.

    >>> parse_figures("A 131, B 113")[1].points, parse_figures("A 27,15,44,18,35,25 B 13,31,6,29,12,23")[1].scores
    (118, (164, 114))
    """
    tokens = re.findall(r"-?\d+|[^\s,\d-][^\s,]*", text)
    groups: list[tuple[str, list[int]]] = []
    for t in tokens:
        if re.fullmatch(r"-?\d+", t):
            if not groups:
                raise ValueError(f"cannot read the partie {text!r}: {_FIGURES_HELP}")
            groups[-1][1].append(int(t))
        else:
            groups.append((t, []))
    if len(groups) != 2 or not all(figures for _, figures in groups):
        raise ValueError(f"cannot read the partie {text!r}: {_FIGURES_HELP}")
    (first, a), (second, b) = groups
    names = (first, second)
    if first == second:
        raise ValueError(f"the partie {text!r} names {first} twice")
    try:
        if len(a) == 1 and len(b) == 1:
            return names, CardPartie.from_scores(a[0], b[0], rules)
        if len(a) != len(b):
            raise ValueError(f"{first} has {len(a)} deal scores and {second} {len(b)}")
        return names, CardPartie.from_deals(list(zip(a, b, strict=True)), rules)
    except ValueError as e:
        raise ValueError(f"the partie {text!r}: {e}") from None


def add_settle_arguments(p: argparse.ArgumentParser) -> None:
    """The ``settle`` sub-command's arguments."""
    p.add_argument("records", nargs="*", metavar="RECORD.json",
                   help="records of finished parties between the same two players, in order (or a card written "
                        "by --json)")
    p.add_argument("--partie", action="append", default=[], metavar="FIGURES",
                   help=f"{_FIGURES_HELP}; repeat for more parties (they follow the records, in order)")
    p.add_argument("--chouette", metavar="SESSION.json", default=None,
                   help="settle a chouette given as figures: {\"players\": [\"A\", \"B\", \"C\"], \"parties\": "
                        "[{\"single\": \"A\", \"winner\": \"A\", \"points\": 150}, ...]}, or a chouette saved by "
                        "piquet chouette --record (its finished parties)")
    p.add_argument("--stake", default=None,
                   help="so much a point or so much a hundred: \"10s a hundred\", \"3d a point\", \"£1 a hundred\" "
                        "(default: the points only)")
    p.add_argument("--custom", default=None,
                   help="the fractions not reckoned (p. 101): fifty (the default), twenty-five, forty, pound, "
                        "twenty, none; or book: the book's custom for the stake")
    p.add_argument("--rules", default="rubicon", help="for --partie: rubicon (the default) or four-deal")
    p.add_argument("--csv", metavar="FILE", default=None, help="write the card (and the settlement) as CSV")
    p.add_argument("--json", metavar="FILE", default=None, help="write the card (and the settlement) as JSON")
    p.error = _error  # type: ignore[method-assign]  # every bad input: one line on stderr, exit 2


def _error(message: str) -> NoReturn:
    print(f"{PROG}: {message}", file=sys.stderr)
    raise SystemExit(2)


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ValueError(f"cannot read {path}: not UTF-8 text") from None


def _format(text: str) -> object:
    """The document's ``format``, if it is a JSON object that says one."""
    try:
        doc = read_json(text)
    except json.JSONDecodeError:
        return None
    return doc.get("format") if isinstance(doc, dict) else None


def chouette_card(text: str) -> tuple[ChouetteSession, str | None]:
    """The chouette card of a document: a card given as figures (``piquet-stakes/1``, or written by hand),
    or a chouette played here (``piquet-chouette/1``, every partie replayed): the card of its finished
    parties, and a note when a partie in play is left off it."""
    if _format(text) == CHOUETTE_FORMAT:
        match = ChouetteMatch.from_json(text)
        card = match.card()
        note = None
        if match.game.partie is not None and not match.partie_over():
            note = f"Partie {len(match.games)} is unfinished: it is not on the card."
        return card, note
    loaded = from_json(text)
    if not isinstance(loaded, ChouetteSession):
        raise ValueError("not a chouette (three players)")
    return loaded, None


def _session(ns: argparse.Namespace) -> Session:
    named: list[tuple[tuple[str, str], CardPartie]] = []
    for path in ns.records:
        text = _read(path)
        try:
            if _format(text) == CHOUETTE_FORMAT:
                raise ValueError("this is a chouette: give it with --chouette")
            if _format(text) == STAKES_FORMAT:
                card = from_json(text)
                if not isinstance(card, Session):
                    raise ValueError("this is a chouette card: give it with --chouette")
                named += [(card.players, p) for p in card.parties]
                continue
            if is_marked(text):
                marked = marked_from_json(text)
                named.append((marked.players, card_partie(marked)))
                continue
            record = parse_record(text)
            names = record.players or {"A": "A", "B": "B"}
            named.append(((names.get("A", "A"), names.get("B", "B")), CardPartie.from_partie(replay(record))))
        except (RecordError, MarkError, ValueError) as e:
            raise ValueError(f"{path}: {e}") from None
    named += [parse_figures(text, ns.rules) for text in ns.partie]
    return Session.of(named)


#: The marked partie on the scoring card (``piquet mark --stake`` reads it here).
marked_card_partie = card_partie


def run_marked_replay(ns: argparse.Namespace) -> int | None:
    """``piquet replay`` of a marked record: its deals and scores in words (or ``--json``); None if the record
    is not marked (the engine replays it)."""
    try:
        text = _read(ns.record)
    except ValueError:
        return None
    if not is_marked(text):
        return None
    try:
        partie = marked_from_json(text)
    except MarkError as e:
        print(f"piquet replay: {ns.record}: {e}", file=sys.stderr)
        return 2
    if ns.json:
        s = partie.settlement()
        print(json.dumps({"marked": True,
                          "deals": [None if d is None else {"scores": [list(d.scores[0]), list(d.scores[1])],
                                                            "tricks": list(d.tricks)} for d in partie.deal_scores],
                          "partie": {"scores": partie.scores, "finished": s.finished, "winner": s.winner,
                                     "rubicon": s.rubicon, "points_won": s.points_won}}, indent=2))
    else:
        print(partie_text(partie))
    return 0


def stake_and_custom(ns: argparse.Namespace) -> tuple[Stake | None, Custom, str | None]:
    if ns.stake is None:
        if ns.custom is not None:
            raise ValueError("--custom says how the money is reckoned: give --stake with it")
        return None, FIFTY, None
    stake = Stake.parse(ns.stake)
    if ns.custom is not None and ns.custom.strip().lower() == "book":
        book_stake, custom = book_reckoning(stake)
        note = None
        if book_stake != stake:
            note = f"{stake} is reckoned at {book_stake} (p. 101)."
        return book_stake, custom, note
    return stake, FIFTY if ns.custom is None else custom_named(ns.custom), None


def _settle(ns: argparse.Namespace) -> tuple[str, str | None, str | None]:
    stake, custom, note = stake_and_custom(ns)
    unfinished = None
    card: Session | ChouetteSession
    if ns.chouette is not None:
        if ns.records or ns.partie:
            raise ValueError("--chouette settles a chouette alone: give no records or --partie with it")
        try:
            card, unfinished = chouette_card(_read(ns.chouette))
        except ValueError as e:
            raise ValueError(f"{ns.chouette}: {e}") from None
    else:
        if not ns.records and not ns.partie:
            raise ValueError("nothing to settle: give records, --partie figures or --chouette")
        card = _session(ns)
    settlement: StakesSettlement | None = None if stake is None else card.settle(stake, custom)
    text = (scoring_card_text(card, settlement) if isinstance(card, Session)
            else chouette_card_text(card, settlement))
    for line in (unfinished, note):
        if line:
            text += "\n" + line
    csv_text = to_csv(card, settlement) if ns.csv else None
    json_text = to_json(card, settlement) if ns.json else None
    return text, csv_text, json_text


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot write {path}: {e.strerror or e}") from None


def run_settle_command(ns: argparse.Namespace) -> int:
    """0 when settled; 2, with one line on stderr, for anything that cannot be read or settled."""
    try:
        text, csv_text, json_text = _settle(ns)
        if csv_text is not None:
            _write(ns.csv, csv_text)
        if json_text is not None:
            _write(ns.json, json_text)
    except ValueError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    print(text)
    return 0


__all__ = ["add_settle_arguments", "chouette_card", "marked_card_partie", "parse_figures", "run_marked_replay",
           "run_settle_command", "stake_and_custom"]
