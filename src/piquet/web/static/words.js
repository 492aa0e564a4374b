// The page's own labels: numbers in words, the names of declarations for the buttons, the phase
// prompts. The table talk is not made here: the server sends the one narrator's lines
// (piquet.talk.words), with their cards to draw, in the view's "lines".
//
// No DOM here: the node self-check (check.mjs) imports this module.

import {
  POINT_VALUES, RANK_NAMES, RANK_PLURALS, RANKS, SUIT_NAMES, cardShort, cardWords, parseCard, rankIndex,
  sortCards, suitOf,
} from "./cards.js";

const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const COUNTS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];
export const SEQUENCE_NAMES = { 3: "tierce", 4: "quart", 5: "quint", 6: "sixieme", 7: "septieme", 8: "huitieme" };
const TO_A = ["", "", "", "ten", "knave", "queen", "king", ""];
export const REPLIES = ["Good", "Equal", "Not good"];
export const CATEGORIES = ["point", "sequences", "sets"];
export const CATEGORY_TITLES = { point: "the point", sequences: "sequences", sets: "quatorzes and trios" };

/** Piquet au cent's agreements (p. 19), by the names the server gives them, in a few words. */
export const AGREEMENT_WORDS = {
  "small-cards": "small cards do not count in play", fours: "points ending in four count one less",
};
const RULES_WORDS = { rubicon: "rubicon partie", "four-deal": "four-deal partie", "au-cent": "Piquet au cent" };

/** The rules of a partie in a few words, from the server's spec: "au-cent+fours" -> "Piquet au cent; points
 * ending in four count one less". A label only: what the rules are is the server's (its "title"). */
export function rulesWords(spec) {
  const [name, ...agreements] = String(spec || "rubicon").split("+");
  return [RULES_WORDS[name] || name, ...agreements.map((a) => AGREEMENT_WORDS[a] || a)].join("; ");
}

/** The score kinds, in the order of Law 67, and how the score table names them. */
export const SCORE_KINDS = ["carte_blanche", "point", "sequences", "sets", "play", "cards", "pique", "repique"];
export const SCORE_LABELS = {
  carte_blanche: "Carte blanche", point: "Point", sequences: "Sequences", sets: "Quatorzes and trios",
  play: "Play", cards: "The cards", pique: "Pique", repique: "Repique",
};

/** Numbers as a player says them: "forty-nine", "one hundred and two". */
export function numberWords(n) {
  n = Math.trunc(Number(n));
  if (!Number.isFinite(n)) return String(n);
  if (n < 0) return `minus ${numberWords(-n)}`;
  if (n < 20) return ONES[n];
  if (n < 100) {
    const t = Math.floor(n / 10);
    const u = n % 10;
    return TENS[t] + (u ? `-${ONES[u]}` : "");
  }
  if (n < 1000) {
    const h = Math.floor(n / 100);
    const r = n % 100;
    return `${ONES[h]} hundred${r ? ` and ${numberWords(r)}` : ""}`;
  }
  return String(n);
}

export function countWords(n) {
  return COUNTS[n] ?? numberWords(n);
}

export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** "quint to a king", "tierce major", "quart minor", "huitieme", from a length and the head's rank index. */
export function sequenceCall(length, head) {
  const name = SEQUENCE_NAMES[length] || `sequence of ${numberWords(length)}`;
  if (length >= 8) return name;
  if (head === 7) return `${name} major`;
  if (head === length - 1) return `${name} minor`;
  return `${name} to a ${TO_A[head] || RANK_NAMES[RANKS[head]]}`;
}

/** The name of a run of cards: ["KH","QH","JH","10H","9H"] -> "quint to a king". */
export function sequenceName(cards) {
  const ranks = cards.map(rankIndex);
  return sequenceCall(cards.length, Math.max(...ranks));
}

/** "three aces", "four kings". */
export function setName(cards) {
  const c = parseCard(cards[0]);
  const rank = c ? RANK_PLURALS[c.rank] : "cards";
  return `${cards.length === 4 ? "four" : "three"} ${rank}`;
}

/** What a point makes: its cards' values added. */
export function pointValue(cards) {
  return cards.reduce((t, n) => t + (POINT_VALUES[parseCard(n)?.rank] || 0), 0);
}

export function suitWords(cards) {
  const s = cards.length ? suitOf(cards[0]) : null;
  return s && cards.every((c) => suitOf(c) === s) ? SUIT_NAMES[s] : "";
}

export function cardsShort(cards) {
  return sortCards(cards).map(cardShort).join(" ");
}

// ------------------------------------------------------------------ declarations (options)

/** The category of a declaration ACTION or option ("point", "sequences" or "sets"), else null. */
export function declarationCategory(action) {
  return action && CATEGORIES.includes(action.kind) ? action.kind : null;
}

/** The items of a declaration: a list of card lists (empty: nothing declared, sinking). */
export function declarationItems(action) {
  if (!action) return [];
  if (action.kind === "point") return action.cards && action.cards.length ? [action.cards] : [];
  if (action.kind === "sequences") return action.runs || [];
  if (action.kind === "sets") return action.sets || [];
  return [];
}

/** Every card a declaration names. */
export function declarationCards(action) {
  return declarationItems(action).flat();
}

/** One declared item in words: "point of five, making forty-nine (in hearts)", "quint to a king in hearts". */
export function itemWords(category, cards) {
  if (category === "point") {
    const suit = suitWords(cards);
    return `point of ${countWords(cards.length)}, making ${numberWords(pointValue(cards))}`
      + (suit ? ` in ${suit}` : "");
  }
  if (category === "sequences") {
    const suit = suitWords(cards);
    return `${sequenceName(cards)}${suit ? ` in ${suit}` : ""}`;
  }
  return setName(cards);
}

/** A whole declaration in words, for a button: "Quint to a king in hearts and tierce major in spades". */
export function declarationWords(action) {
  const cat = declarationCategory(action);
  const items = declarationItems(action);
  if (!items.length) {
    return cat === "point" ? "No point" : cat === "sequences" ? "No sequence" : "No quatorze or trio";
  }
  const parts = items.map((it) => itemWords(cat, it));
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0];
  return cap(text);
}

/**
 * An ACTION in words, as a suggestion at chouette is told (p. 106): "play the ace of spades",
 * "discard three: 7♠ 8♦ 9♣", "look at the cards left", "declare: Point of five, making forty-nine in hearts".
 */
export function actionWords(action) {
  if (!action || typeof action !== "object") return "";
  if (action.kind === "play") return `play the ${cardWords(action.card)}`;
  if (action.kind === "discard") {
    const cards = action.cards || [];
    return cards.length ? `discard ${countWords(cards.length)}: ${cardsShort(cards)}`
      : "keep all the cards (discard none)";
  }
  if (action.kind === "look") return action.look ? "look at the cards left" : "not look at the cards left";
  if (action.kind === "deal") {
    return action.deal ? (action.by ? `deal by ${action.by === 3 ? "threes" : "twos"}` : "deal") : "let the other side deal";
  }
  if (action.kind === "deal_by") return `deal by ${action.by === 3 ? "threes" : "twos"}`;
  if (declarationCategory(action)) {
    return declarationItems(action).length ? `declare: ${declarationWords(action)}`
      : `declare nothing (${declarationWords(action).toLowerCase()})`;
  }
  return String(action.kind || "");
}

/** How strong a declaration is, to pick the fullest one: more cards, then (for a point) more value. */
export function declarationWeight(action) {
  const cards = declarationCards(action);
  const value = action && action.kind === "point" ? pointValue(cards) : 0;
  return cards.length * 1000 + value;
}

/** The option that declares the most: what the hand holds in that category (the usual call). */
export function fullestDeclaration(options) {
  let best = null;
  for (const o of options) {
    if (best === null || declarationWeight(o) > declarationWeight(best)) best = o;
  }
  return best;
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((c) => s.has(c));
}

/** The option declaring exactly these cards, if any (the items of a declaration never overlap). */
export function optionForCards(options, cards) {
  return options.find((o) => sameCards(declarationCards(o), cards)) || null;
}

// ------------------------------------------------------------------ the phase

/** The phase of the deal in words, from the point of view of the seat that sees it. */
export function phaseWords(view, names) {
  const phase = view.phase;
  const mine = Boolean(view.my_turn);
  const other = names.other;
  const otherIs = `${other} is`;
  const opt = view.options;
  switch (phase) {
    case "cut":
      if (view.choice === "deal_by") {
        return mine ? `${other} lets you deal: deal by two or by three cards at a time, for the whole partie (Law 9).`
          : `${other} deals, and is choosing whether to deal by twos or by threes (Law 9).`;
      }
      return mine ? "You won the cut: you choose whether to deal first (Law 4)."
        : `${other} won the cut and is choosing whether to deal first (Law 4).`;
    case "elder_discard":
      return mine
        ? `You are elder hand: discard one to ${numberWords(maxOf(opt, 5))} cards and take in as many (Law 21).`
        : `${other}, elder hand, is exchanging.`;
    case "elder_look":
      return mine
        ? "You left cards of the top five in the stock. You may look at them: only you see them (Law 33)."
        : `${otherIs} deciding whether to look at the cards he left.`;
    case "younger_discard":
      if (mine && minOf(opt, 1) === 0) {
        // Piquet au cent: the younger need not discard (p. 17).
        return `You are younger hand: discard up to ${numberWords(maxOf(opt, view.max_discard || 3))} cards `
          + "and take in as many, or keep all your cards (p. 17).";
      }
      return mine
        ? `You are younger hand: discard one to ${numberWords(maxOf(opt, view.max_discard || 3))} cards `
          + "and take in as many (Laws 22, 34)."
        : `${other}, younger hand, is exchanging.`;
    case "elder_point":
      return mine ? "Call your point." : `${otherIs} calling his point.`;
    case "younger_point":
      return mine ? "Answer the point: declare yours." : `${otherIs} answering the point.`;
    case "elder_sequences":
      return mine ? "Call your sequences." : `${otherIs} calling his sequences.`;
    case "younger_sequences":
      return mine ? "Answer the sequence: declare yours." : `${otherIs} answering the sequence.`;
    case "elder_sets":
      return mine ? "Call your quatorzes and trios." : `${otherIs} calling his quatorzes and trios.`;
    case "younger_sets":
      return mine ? "Answer: declare your quatorzes and trios." : `${otherIs} answering the quatorze or trio.`;
    case "younger_reckon_point":
      return mine ? "The elder called no point: reckon yours." : `${otherIs} reckoning his point.`;
    case "younger_reckon_sequences":
      return mine ? "The elder called no sequence: reckon yours." : `${otherIs} reckoning his sequences.`;
    case "younger_reckon_sets":
      return mine ? "The elder called no quatorze or trio: reckon yours."
        : `${otherIs} reckoning his quatorzes and trios.`;
    case "younger_look":
      return mine
        ? `You leave ${countWords(view.stock_left)} card${view.stock_left === 1 ? "" : "s"} in the stock. `
          + "Look at them? The elder sees them too (Law 36)."
        : `${otherIs} deciding whether to look at the cards left in the stock.`;
    case "play": {
      const trick = `Trick ${numberWords(view.trick || 1)} of twelve`;
      if (!mine) return `${trick}: ${other} to ${view.lead ? "play" : "lead"}.`;
      return view.lead ? `${trick}: play to the ${cardWords(view.lead)}.` : `${trick}: your lead.`;
    }
    case "done":
      return "The deal is over.";
    default:
      return phase ? cap(String(phase).replace(/_/g, " ")) + "." : "";
  }
}

function discardOption(options) {
  return Array.isArray(options) ? options.find((x) => x && x.kind === "discard") : options;
}

function maxOf(options, fallback) {
  const o = discardOption(options);
  return o && typeof o.max === "number" ? o.max : fallback;
}

function minOf(options, fallback) {
  const o = discardOption(options);
  return o && typeof o.min === "number" ? o.min : fallback;
}

// ------------------------------------------------------------------ the tricks

/**
 * The tricks of the deal, read from the server's events: the cards played to each (``play``) and its
 * winner (``trick``, the engine's fact; never worked out here).
 * @param {Array<{kind: string, role: string, card?: string, trick?: number, number?: number}>} events
 * @returns {Array<{trick: number, plays: Array<{role: string, card: string}>, winner: string | null}>}
 */
export function tricksOf(events) {
  /** @type {Array<{trick: number, plays: Array<{role: string, card: string}>, winner: string | null}>} */
  const tricks = [];
  for (const e of events || []) {
    if (e.kind === "play") {
      const last = tricks[tricks.length - 1];
      if (!last || last.trick !== e.trick) tricks.push({ trick: Number(e.trick), plays: [], winner: null });
      tricks[tricks.length - 1].plays.push({ role: e.role, card: String(e.card) });
    } else if (e.kind === "trick" && tricks.length) {
      tricks[tricks.length - 1].winner = e.role;
    }
  }
  return tricks;
}

export { cardShort, cardWords };
