// The game's words: numbers as players say them, the names of sequences and sets, the phases,
// and the public events of a deal told as table talk ("Point of five." "Making forty-seven."
// "Good."). The page holds no rules: these functions only put into words what the server's
// view says. They mirror piquet.words (the terminal's narrator), with the calls in the
// treatise's longer form.
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

// ------------------------------------------------------------------ the talk

/**
 * The deal's public events told as lines of talk.
 *
 * ctx: {me: "elder"|"younger", names: {elder, younger} (the names to show; "You" for the viewer),
 *       held: cards the viewer has held (dealt, taken in, seen left)}.
 * Returns [{speaker: "elder"|"younger"|null, text, cards: [...], kind, trick?}]; speaker null is
 * the narrator. Plays come as one line per card with the player's count attached ("Ten.").
 */
export function narrate(events, ctx) {
  const out = [];
  const count = { elder: 0, younger: 0 };
  const names = ctx.names;
  const held = new Set(ctx.held || []);
  const you = (role) => role === ctx.me;
  let lead = null; // the card led to the trick in progress, and who led it
  let prev = null; // the event before this one
  for (const e of events || []) {
    const r = e.role;
    const n = names[r] || r;
    const cards = e.cards || [];
    switch (e.kind) {
      case "carte_blanche":
        out.push({ speaker: r, text: "I have a carte blanche.", kind: e.kind });
        break;
      case "carte_blanche_shown":
        out.push({ speaker: null, text: `${n} ${you(r) ? "show" : "shows"} the carte blanche:`, cards,
          kind: e.kind });
        break;
      case "exchange": {
        const k = countWords(e.value);
        let verb = you(r) ? `discard ${k} and take in ${k}` : `discards ${k} and takes in ${k}`;
        if (!e.value) verb = you(r) ? "keep all your cards, discarding none" : "keeps all his cards, discarding none";
        let left = "";
        if (e.detail) left = r === "elder" ? `, leaving ${countWords(e.detail)}` : `; ${countWords(e.detail)} left in the stock`;
        out.push({ speaker: null, text: `${n} ${verb}${left}.`, kind: e.kind, role: r });
        break;
      }
      case "look":
        if (e.value && cards.length) {
          out.push({ speaker: null, text: `${n} ${you(r) ? "look" : "looks"} at the cards left, and both see them:`,
            cards, kind: e.kind });
        } else if (e.value) {
          out.push({ speaker: null, text: `${n} ${you(r) ? "look at the cards you" : "looks at the cards he"} left.`,
            kind: e.kind });
        } else {
          out.push({ speaker: null, text: `${n} ${you(r) ? "do" : "does"} not look at the cards left.`, kind: e.kind });
        }
        break;
      case "call_point":
        out.push({ speaker: r, text: `Point of ${countWords(e.value)}.`, kind: e.kind });
        break;
      case "ask_value":
        out.push({ speaker: r, text: "What do they make?", kind: e.kind });
        break;
      case "call_value": {
        const last = out[out.length - 1];
        if (prev && prev.kind === "call_point" && prev.role === r && last && last.kind === "call_point") {
          // The elder's call stating what the point makes, unasked (Piquet au cent, p. 18).
          last.text = `${last.text.replace(/\.$/, "")}, making ${numberWords(e.value)}.`;
          last.value = e.value;
          break;
        }
        out.push({ speaker: r, text: `Making ${numberWords(e.value)}.`, kind: e.kind });
        break;
      }
      case "call_sequence":
        out.push({ speaker: r, text: `${cap(sequenceCall(e.value, e.detail))}.`, kind: e.kind });
        break;
      case "call_set":
        out.push({ speaker: r, text: `${cap(countWords(e.value))} ${RANK_PLURALS[RANKS[e.detail]] || "cards"}.`,
          kind: e.kind });
        break;
      case "reply":
        out.push({ speaker: r, text: `${REPLIES[e.value] || "?"}.`, kind: e.kind, reply: e.value });
        break;
      case "show": {
        const cat = CATEGORIES[e.value] || "point";
        const suit = suitWords(cards);
        if (!e.detail) {
          const what = cat === "point" ? "point" : cat === "sequences" ? sequenceName(cards) : setName(cards);
          out.push({ speaker: r, text: `Equal: ${what}${suit ? ` in ${suit}` : ""}.`, cards, kind: e.kind });
          break;
        }
        count[r] += e.detail;
        const total = numberWords(count[r]);
        if (cat === "point") {
          out.push({ speaker: r, text: `In ${suit || "one suit"}: ${total}.`, cards, kind: e.kind });
        } else if (cat === "sequences") {
          out.push({ speaker: r, text: `${cap(sequenceName(cards))}${suit ? ` in ${suit}` : ""}: ${total}.`, cards,
            kind: e.kind });
        } else {
          out.push({ speaker: r, text: `${cap(setName(cards))}: ${total}.`, cards, kind: e.kind });
          if (cards.length === 3 && !you(r)) {
            // Asked only where the asker cannot rule out a quatorze (p. 92).
            const rank = parseCard(cards[0]).rank;
            const missing = ["S", "H", "C", "D"].map((s) => rank + s).find((c) => !cards.includes(c));
            if (missing && !held.has(missing)) {
              const other = r === "elder" ? "younger" : "elder";
              out.push({ speaker: other, text: `Which ${RANK_NAMES[rank]} do you not reckon?`, kind: "ask_set" });
              out.push({ speaker: r, text: `The ${cardWords(missing)}.`, kind: "answer_set" });
            }
          }
        }
        break;
      }
      case "name_set": {
        // Piquet au cent: a quatorze or trio is named, not shown (p. 18).
        count[r] += e.value === 4 ? 14 : 3;
        const rank = RANK_PLURALS[RANKS[e.detail]] || "cards";
        out.push({ speaker: r, text: `${e.value === 4 ? "Four" : "Three"} ${rank}: ${numberWords(count[r])}.`,
          kind: e.kind });
        break;
      }
      case "game": {
        // Piquet au cent: the first to a hundred wins the game, and the deal stops there (p. 20).
        const double = e.detail === 2 ? ", a double game" : "";
        out.push({ speaker: null, text: `${n} ${you(r) ? "reach" : "reaches"} ${numberWords(e.value)}: `
          + `the game${double}.`, kind: e.kind, role: r, double: e.detail === 2, value: e.value });
        break;
      }
      case "play": {
        const card = cards[0];
        const leads = lead === null;
        const line = {
          speaker: null, kind: "play", trick: e.value, card, role: r, cards: [card],
          text: `${n} ${leads ? (you(r) ? "lead" : "leads") : (you(r) ? "play" : "plays")} the ${cardWords(card)}.`,
        };
        if (leads) {
          lead = { card, role: r };
        } else {
          const wins = suitOf(card) === suitOf(lead.card) && rankIndex(card) > rankIndex(lead.card);
          line.winner = wins ? r : lead.role;
          lead = null;
        }
        out.push(line);
        break;
      }
      case "score": {
        const kind = SCORE_KINDS[e.detail];
        if (kind === "play") {
          count[r] += e.value;
          const last = out[out.length - 1];
          const said = `${cap(numberWords(count[r]))}.`;
          if (last && last.kind === "play" && last.role === r && !last.said) last.said = said;
          else out.push({ speaker: r, text: said, kind: "count" });
        } else if (kind === "cards") {
          count[r] += e.value;
          const what = e.value === 40 ? "a capot, forty" : "the cards, ten";
          out.push({ speaker: r, text: `And ${what}: ${numberWords(count[r])}.`, kind: "count" });
        } else if (kind === "pique" || kind === "repique") {
          count[r] += e.value;
          out.push({ speaker: null, text: `${kind === "pique" ? "Pique" : "Repique"}! ${n} ${you(r) ? "add" : "adds"} `
            + `${numberWords(e.value)}: ${numberWords(count[r])}.`, kind: kind });
        } else if (kind === "carte_blanche") {
          count[r] += e.value || 10;
          out.push({ speaker: r, text: `Carte blanche: ${numberWords(count[r])}.`, kind: "count" });
        }
        // Point, sequences and sets were counted aloud when they were shown.
        break;
      }
      default:
        break;
    }
    prev = e;
  }
  return { lines: out, count };
}

/** The tricks of the deal from its public events: [{trick, plays: [{role, card}], winner}]. */
export function tricksOf(events) {
  const tricks = [];
  let cur = null;
  for (const e of events || []) {
    if (e.kind !== "play") continue;
    const card = (e.cards || [])[0];
    if (!cur || cur.plays.length === 2) {
      cur = { trick: e.value, plays: [], winner: null };
      tricks.push(cur);
    }
    cur.plays.push({ role: e.role, card });
    if (cur.plays.length === 2) {
      const [a, b] = cur.plays;
      const wins = suitOf(b.card) === suitOf(a.card) && rankIndex(b.card) > rankIndex(a.card);
      cur.winner = wins ? b.role : a.role;
    }
  }
  return tricks;
}

/** The end of a partie in words (Laws 72, 73), from the settlement and the final scores. */
export function settlementWords(settlement, scores, names, rubicon = 100, bonus = 100) {
  if (!settlement) return "";
  if (settlement.text) return settlement.text;
  if (settlement.words) return settlement.words;
  const winner = settlement.winner;
  if (winner === null || winner === undefined) {
    return settlement.finished === false ? "The partie is unfinished."
      : "The partie is drawn: tied again after the extra deals (Law 71).";
  }
  const loser = winner === "A" ? "B" : "A";
  const wn = names[winner];
  const ln = names[loser];
  const wins = wn === "You" ? "win" : "wins";
  const is = ln === "You" ? "are" : "is";
  const points = settlement.points ?? settlement.points_won;
  const w = scores ? scores[winner] : undefined;
  const l = scores ? scores[loser] : undefined;
  const known = typeof w === "number" && typeof l === "number";
  if (settlement.rubicon) {
    const sum = known ? `: ${w} + ${l} + ${bonus} = ${points} points` : `: ${points} points`;
    return `${wn} ${wins} the partie, and ${ln} ${is} rubiconed (under ${rubicon})${sum} (Law 73).`;
  }
  const diff = known ? `: ${w} \u2212 ${l} + ${bonus} = ${points} points` : `: ${points} points`;
  return `${wn} ${wins} the partie${diff} (Law 72).`;
}

export { cardShort, cardWords };
