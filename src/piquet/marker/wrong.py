"""Something went wrong at the table: the referee's ruling applied to a marked partie.

``piquet.core.referee`` rules on an irregularity and gives the options; this module applies the option chosen,
for every interface alike (``piquet mark`` and the browser's ``/mark``).  ``apply_choice`` is pure: it takes the
partie, the ruling, the option, and the deal being entered (its dealer and the penalties already incurred in
it), and returns what changed, with a sentence citing the law:

- a fresh deal (Laws 10-15): the deal annulled, the same dealer deals again;
- the deal void (Law 16, p. 16 (5): dealt out of turn, found in time; Law 75: an incorrect pack);
- dealt out of turn and found too late: the deal stands, its dealer is the wrong one, and (Law 16) the elder
  of it deals twice running;
- a penalty of reckoning nothing (Laws 25, 27-29, 31, 35, 54, 58; Cases XIV, XVII, XXI), or its waiver
  (Law 44): it falls on the deal being entered; for a call of what is not held (Law 54), ``Applied.not_held``
  says whose call is to be marked ``held=False``, so that the adversary's good is reckoned (Case II):
  ``not_held_says`` in words;
- the game lost (au cent, p. 17 (3)): the deal scores nothing, the adversary wins the game;
- a score corrected (Law 70, au cent p. 19 (7); Law 74): a deal re-entered;
- what concerns only the cards on the table (``TABLE_ONLY``): told, and nothing changes in the score.

>>> from piquet.core.referee import Irregularity, Kind, rule
>>> r = rule(Irregularity(Kind.TOOK_MORE, offender=YOUNGER))
>>> done = apply_choice(MarkedPartie(players=("Ann", "Bob")), r, r.options[0], Pending("B"))
>>> sorted(done.pending.reckons_nothing), done.deal_over
([1], False)
>>> done.note
'Bob reckons nothing this deal; his calls still bar (Law 35).'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from piquet.core.referee import PENALTIES, TABLE_ONLY, Kind, Option, Remedy, Ruling
from piquet.marker.calls import ELDER, YOUNGER, MarkError
from piquet.marker.deal import MarkedDeal
from piquet.marker.partie import MarkedPartie, other_seat

#: The remedies that put a deal's score right: the deal is entered again (Laws 70, 74).
CORRECTIONS = frozenset({Remedy.SCORE_CORRECTED, Remedy.OWN_HAND_SCORE})


@dataclass(frozen=True)
class Pending:
    """The deal being entered: who dealt it (the dealer is the younger hand, Law 9), whether out of turn and
    found too late (Law 16), and the roles that reckon nothing in it, of which those waived (Law 44)."""

    dealer: str
    out_of_turn: bool = False
    reckons_nothing: frozenset[int] = frozenset()
    waived: frozenset[int] = frozenset()

    def seat(self, role: int) -> str:
        return self.dealer if role == YOUNGER else other_seat(self.dealer)


@dataclass(frozen=True)
class Applied:
    """What the choice changed: the partie, the deal being entered (a fresh one when ``deal_over``: the deal in
    progress is annulled, void or lost), and what happened, in a sentence citing the law."""

    partie: MarkedPartie
    pending: Pending
    deal_over: bool
    says: str
    #: A line for the deal being entered, where it changed ("Bob reckons nothing this deal (Law 54)").
    note: str | None = None
    #: The role whose call of what he does not hold is to be marked among his calls (Law 54, Case II).
    not_held: int | None = None


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def apply_choice(partie: MarkedPartie, ruling: Ruling, option: Option, pending: Pending,
                 correction: tuple[int, MarkedDeal] | None = None, kind: Kind | None = None) -> Applied:
    """The option chosen of ``ruling`` applied; ``correction`` (a counted deal's index from 0, and the deal
    entered again) for a score corrected; ``kind``, the irregularity ruled on (a call of what is not held,
    ``Kind.OVERCALL``, asks which call it was: ``Applied.not_held``).  ``MarkError``, nothing changed, when it
    cannot be."""
    if option not in ruling.options:
        raise MarkError(f"the ruling ({ruling.law}) gives no such choice as {option.says!r}", ruling.law)
    r, law, p = option.remedy, ruling.law, partie
    if r in CORRECTIONS:
        return _correct(p, ruling, pending, correction)
    if p.is_finished and r not in TABLE_ONLY:
        raise MarkError(f"the partie is over ({p.rules.title})", p.rules.partie_end_law)
    if r is Remedy.FRESH_DEAL:
        new = p.annul()
        return Applied(new, Pending(new.next_dealer), True,
                       f"A fresh deal: {p.name(new.next_dealer)} deals again ({law}).")
    if r is Remedy.VOID:
        if law.startswith(("Law 16", "p. 16")):  # dealt out of turn, found in time: the wrong dealer's deal
            dealer = pending.dealer if pending.dealer != p.next_dealer else other_seat(p.next_dealer)
        else:
            dealer = pending.dealer
        new = p.void(dealer)
        return Applied(new, Pending(new.next_dealer), True,
                       f"The deal is void; the deals before stand. {p.name(new.next_dealer)} deals ({law}).")
    if r is Remedy.DEAL_TWICE or (r is Remedy.STANDS and law in ("Law 16", "p. 16 (5)")):
        wrong = other_seat(p.next_dealer)
        twice = " The elder of it deals twice running." if r is Remedy.DEAL_TWICE else ""
        says = f"{p.name(wrong)} dealt out of turn; the deal stands ({law}).{twice}"
        return Applied(p, replace(pending, dealer=wrong, out_of_turn=True), False, says,
                       f"{p.name(wrong)} dealt out of turn, found too late ({law}).")
    if r in PENALTIES or r is Remedy.WAIVE:
        if option.role not in (ELDER, YOUNGER):
            raise MarkError("a penalty falls on the elder or the younger", "Law 44")
        who = p.name(pending.seat(option.role))
        rn = pending.reckons_nothing | {option.role}
        not_held = option.role if kind is Kind.OVERCALL else None
        if r is Remedy.WAIVE:
            says = f"The penalty is not enforced: {who} reckons what he holds (Law 44)."
            return Applied(p, replace(pending, reckons_nothing=rn, waived=pending.waived | {option.role}), False,
                           says, says, not_held)
        says = (f"{who} reckons nothing this deal; his calls still bar ({law}). Enter the deal as played: what he "
                "calls, and what the adversary reckons.")
        return Applied(p, replace(pending, reckons_nothing=rn), False, says,
                       f"{who} reckons nothing this deal; his calls still bar ({law}).", not_held)
    if r is Remedy.GAME_LOST:
        if option.role not in (ELDER, YOUNGER):
            raise MarkError("the game is lost by the elder or the younger", law)
        loser = pending.seat(option.role)
        new = p.lose_game(loser, pending.dealer)
        return Applied(new, Pending(new.next_dealer), True,
                       f"{p.name(loser)} loses the game ({law}): {p.name(other_seat(loser))} wins it, a single game; "
                       f"nothing of the deal is scored, and {p.name(new.next_dealer)} deals the next.")
    if r not in TABLE_ONLY:
        raise MarkError(f"the marker cannot apply {r.value!r}", law)
    return Applied(p, pending, False, f"{_capital(option.says)} ({law}). Nothing changes in the score.")


def not_held_says(partie: MarkedPartie, pending: Pending, role: int) -> tuple[str, str]:
    """What is asked where a call of what is not held came to light (Law 54, Case II), in words: for the hands
    as spoken (mark the call), and for the hands entered as quick scores (the scores as reckoned).

    >>> calls, scores = not_held_says(MarkedPartie(players=("Ann", "Bob")), Pending("B"), ELDER)
    >>> print(calls)  # doctest: +NORMALIZE_WHITESPACE
    Mark which of Ann's calls he does not hold: that call is void, and Bob reckons what he has good against
    Ann's correct calls (Law 54, Case II).
    >>> print(scores)  # doctest: +NORMALIZE_WHITESPACE
    Entered as quick scores, the hands' scores are entered as reckoned: Bob's with what he has good against
    Ann's correct calls (Law 54, Case II).
    """
    who, other = partie.name(pending.seat(role)), partie.name(pending.seat(YOUNGER if role == ELDER else ELDER))
    return (f"Mark which of {who}'s calls he does not hold: that call is void, and {other} reckons what he has good "
            f"against {who}'s correct calls (Law 54, Case II).",
            f"Entered as quick scores, the hands' scores are entered as reckoned: {other}'s with what he has good "
            f"against {who}'s correct calls (Law 54, Case II).")


def correctable(partie: MarkedPartie) -> list[int]:
    """The deals whose score may be put right (Law 70): those played (by index, from 0)."""
    return [i for i, d in enumerate(partie.deals) if d.status == "played"]


def _correct(p: MarkedPartie, ruling: Ruling, pending: Pending,
             correction: tuple[int, MarkedDeal] | None) -> Applied:
    """A deal's score put right (Law 70; Law 74: each player's score of his own hand): the deal entered again,
    before the player in error has seen his next hand (the ruling asked it), so any played deal may be."""
    if correction is None:
        raise MarkError("say which deal is put right, and its scores", ruling.law)
    index, deal = correction
    if index not in correctable(p):
        raise MarkError(f"there is no deal {index + 1} scored to put right", ruling.law)
    old = p.deals[index]
    new = p.correct(index, replace(deal, dealer=old.dealer, status=old.status, out_of_turn=old.out_of_turn),
                    seen_next_hand=False)
    number = sum(d.counts for d in p.deals[:index + 1])
    return Applied(new, pending, False, f"Deal {number} is corrected ({ruling.law}).")


__all__ = ["CORRECTIONS", "Applied", "Pending", "apply_choice", "correctable", "not_held_says"]
