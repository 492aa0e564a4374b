// A self-check of the page's scripts that needs no browser: `node src/piquet/web/static/check.mjs`.
// It parses every module of this folder (node --check), then imports the ones that need no DOM
// (cards.js, words.js) and checks the drawings of the 32 cards and the page's labels (the table talk is
// the server's: piquet.talk.words).
// Prints "N passed, N failed" and exits non-zero on a failure.

import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
let passed = 0;
let failed = 0;

function check(name, fn) {
  try {
    fn();
    passed += 1;
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}

function eq(a, b) {
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${JSON.stringify(a)} != ${JSON.stringify(b)}`);
}

for (const f of readdirSync(here).filter((n) => n.endsWith(".js") || n.endsWith(".mjs")).sort()) {
  check(`node --check ${f}`, () => {
    execFileSync(process.execPath, ["--check", join(here, f)], { stdio: "pipe" });
  });
}

const cards = await import("./cards.js");
const words = await import("./words.js");

check("the pack has 32 cards, each once", () => {
  eq(cards.PACK.length, 32);
  eq(new Set(cards.PACK).size, 32);
});

check("every card draws as well-formed SVG with its name", () => {
  for (const c of cards.PACK) {
    const svg = cards.cardMarkup(c);
    if (!svg.startsWith("<svg") || !svg.endsWith("</svg>")) throw new Error(`${c}: not an svg`);
    if (!svg.includes('role="img"')) throw new Error(`${c}: no role`);
    if (!svg.includes(`aria-label="${cards.cardWords(c)}"`)) throw new Error(`${c}: no label`);
    // Tags balance: every opened element is closed.
    const open = (svg.match(/<[a-z]+(\s[^>]*[^/])?>/g) || []).length;
    const close = (svg.match(/<\/[a-z]+>/g) || []).length;
    if (open !== close) throw new Error(`${c}: ${open} opened, ${close} closed`);
    if (/NaN|undefined/.test(svg)) throw new Error(`${c}: NaN or undefined in the drawing`);
    const red = c.endsWith("H") || c.endsWith("D");
    if (red !== svg.includes("#c8102e")) throw new Error(`${c}: wrong colour`);
  }
  const b = cards.backMarkup();
  if (!b.includes('class="card-back"') || /NaN|undefined/.test(b)) throw new Error("bad back");
});

check("spot cards carry their number of pips", () => {
  for (const [rank, n] of [["7", 7], ["8", 8], ["9", 9], ["10", 10], ["A", 1]]) {
    const svg = cards.cardMarkup(`${rank}S`);
    // Each pip is a <g transform="translate(...) scale(...)">: two corner pips, the rest on the face.
    const pips = (svg.match(/<g transform="translate\([^"]*scale/g) || []).length - 2;
    eq([rank, pips], [rank, n]);
  }
});

check("card names and words", () => {
  eq(cards.cardWords("QS"), "queen of spades");
  eq(cards.cardWords("JH"), "knave of hearts");
  eq(cards.cardWords("10D"), "ten of diamonds");
  eq(cards.parseCard("th"), { rank: "10", suit: "H" });
  eq(cards.parseCard("XS"), null);
  eq(cards.sortCards(["7D", "AS", "KH", "10S", "QC", "AH"]), ["AS", "10S", "AH", "KH", "QC", "7D"]);
});

check("numbers as players say them", () => {
  eq(words.numberWords(49), "forty-nine");
  eq(words.numberWords(102), "one hundred and two");
  eq(words.numberWords(30), "thirty");
});

check("sequences and sets by name", () => {
  eq(words.sequenceName(["KH", "QH", "JH", "10H", "9H"]), "quint to a king");
  eq(words.sequenceName(["AS", "KS", "QS"]), "tierce major");
  eq(words.sequenceName(["10C", "9C", "8C", "7C"]), "quart minor");
  eq(words.setName(["AS", "AH", "AC"]), "three aces");
  eq(words.setName(["KS", "KH", "KC", "KD"]), "four kings");
  eq(words.sequenceCall(8, 7), "huitieme");
});

check("declarations in words, and the fullest", () => {
  const opts = [
    { kind: "point", cards: ["AH", "KH", "QH", "9H", "8H"] },
    { kind: "point", cards: ["AH", "KH", "QH", "9H"] },
    { kind: "point", cards: [] },
  ];
  eq(words.declarationWords(opts[0]), "Point of five, making forty-eight in hearts");
  eq(words.declarationWords(opts[2]), "No point");
  eq(words.fullestDeclaration(opts), opts[0]);
  eq(words.optionForCards(opts, ["KH", "AH", "9H", "QH"]), opts[1]);
  eq(words.optionForCards(opts, ["KH"]), null);
  eq(words.declarationWords({ kind: "sequences", runs: [["KH", "QH", "JH", "10H", "9H"], ["AS", "KS", "QS"]] }),
    "Quint to a king in hearts and tierce major in spades");
  eq(words.declarationWords({ kind: "sets", sets: [["AS", "AH", "AC"]] }), "Three aces");
});

check("the rules and the au cent discard in words", () => {
  const v = { phase: "younger_discard", my_turn: true, options: [{ kind: "discard", min: 0, max: 5 }] };
  eq(words.phaseWords(v, { other: "Ann" }),
    "You are younger hand: discard up to five cards and take in as many, or keep all your cards (p. 17).");
  eq(words.rulesWords("au-cent+small-cards"), "Piquet au cent; small cards do not count in play");
  eq(words.rulesWords("four-deal"), "four-deal partie");
});

check("the tricks read from the server's events: the winner is the trick event's", () => {
  const events = [
    { kind: "play", role: "elder", card: "AS", trick: 1 },
    { kind: "play", role: "younger", card: "7S", trick: 1 },
    { kind: "trick", role: "elder", number: 1, lead: "AS", follow: "7S", points: 0 },
    { kind: "score", role: "elder", component: "play", points: 1, cards: [] },
    { kind: "play", role: "elder", card: "KH", trick: 2 },
    { kind: "play", role: "younger", card: "AH", trick: 2 },
    { kind: "trick", role: "younger", number: 2, lead: "KH", follow: "AH", points: 1 },
    { kind: "play", role: "younger", card: "QH", trick: 3 },
  ];
  const t = words.tricksOf(events);
  eq(t.map((x) => x.winner), ["elder", "younger", null]);
  eq(t.map((x) => x.plays.length), [2, 2, 1]);
});

check("an action in words, as a suggestion is told at chouette", () => {
  eq(words.actionWords({ kind: "play", card: "AS" }), "play the ace of spades");
  eq(words.actionWords({ kind: "discard", cards: ["9C", "7S", "8D"] }), "discard three: 7\u2660 9\u2663 8\u2666");
  eq(words.actionWords({ kind: "discard", cards: [] }), "keep all the cards (discard none)");
  eq(words.actionWords({ kind: "look", look: false }), "not look at the cards left");
  eq(words.actionWords({ kind: "point", cards: ["AH", "KH", "QH", "JH", "8H"] }),
    "declare: Point of five, making forty-nine in hearts");
  eq(words.actionWords({ kind: "sets", sets: [] }), "declare nothing (no quatorze or trio)");
});

check("the phase in words", () => {
  const v = { phase: "younger_discard", my_turn: true, options: [{ kind: "discard", min: 1, max: 3 }] };
  eq(words.phaseWords(v, { other: "Bob" }).startsWith("You are younger hand: discard one to three"), true);
  eq(words.phaseWords({ phase: "play", my_turn: false, trick: 4, lead: null }, { other: "Bob" }),
    "Trick four of twelve: Bob to lead.");
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
