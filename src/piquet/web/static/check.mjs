// A self-check of the page's scripts that needs no browser: `node src/piquet/web/static/check.mjs`.
// It parses every module of this folder (node --check), then imports the ones that need no DOM
// (cards.js, words.js) and checks the drawings of the 32 cards and the game's words.
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

check("the calling told in the game's words", () => {
  const events = [
    { kind: "exchange", role: "elder", cards: [], value: 5, detail: 0 },
    { kind: "exchange", role: "younger", cards: [], value: 3, detail: 0 },
    { kind: "call_point", role: "elder", cards: [], value: 5, detail: 0 },
    { kind: "ask_value", role: "younger", cards: [], value: 5, detail: 0 },
    { kind: "call_value", role: "elder", cards: [], value: 47, detail: 0 },
    { kind: "reply", role: "younger", cards: [], value: 0, detail: 0 },
    { kind: "show", role: "elder", cards: ["KH", "QH", "JH", "10H", "7H"], value: 0, detail: 5 },
    { kind: "call_sequence", role: "elder", cards: [], value: 5, detail: 6 },
    { kind: "reply", role: "younger", cards: [], value: 2, detail: 0 },
    { kind: "call_set", role: "elder", cards: [], value: 3, detail: 7 },
    { kind: "reply", role: "younger", cards: [], value: 1, detail: 0 },
    { kind: "show", role: "elder", cards: ["AS", "AH", "AC"], value: 2, detail: 0 },
  ];
  const t = words.narrate(events, { me: "younger", names: { elder: "Ann", younger: "You" }, held: [] });
  eq(t.lines.map((l) => l.text), [
    "Ann discards five and takes in five.",
    "You discard three and take in three.",
    "Point of five.", "What do they make?", "Making forty-seven.", "Good.", "In hearts: five.",
    "Quint to a king.", "Not good.", "Three aces.", "Equal.", "Equal: three aces.",
  ]);
  eq(t.count, { elder: 5, younger: 0 });
});

check("Piquet au cent told in the game's words", () => {
  const events = [
    { kind: "exchange", role: "elder", cards: [], value: 3, detail: 2 },
    { kind: "carte_blanche", role: "younger", cards: [], value: 0, detail: 0 },
    { kind: "exchange", role: "younger", cards: [], value: 0, detail: 5 },
    { kind: "call_point", role: "elder", cards: [], value: 5, detail: 0 },
    { kind: "call_value", role: "elder", cards: [], value: 47, detail: 0 },
    { kind: "reply", role: "younger", cards: [], value: 0, detail: 0 },
    { kind: "show", role: "elder", cards: ["KH", "QH", "JH", "10H", "7H"], value: 0, detail: 4 },
    { kind: "call_set", role: "elder", cards: [], value: 3, detail: 6 },
    { kind: "reply", role: "younger", cards: [], value: 0, detail: 0 },
    { kind: "name_set", role: "elder", cards: [], value: 3, detail: 6 },
    { kind: "game", role: "elder", cards: [], value: 104, detail: 2 },
  ];
  const t = words.narrate(events, { me: "younger", names: { elder: "Ann", younger: "You" }, held: [] });
  eq(t.lines.map((l) => l.text), [
    "Ann discards three and takes in three, leaving two.", "I have a carte blanche.",
    "You keep all your cards, discarding none; five left in the stock.",
    "Point of five, making forty-seven.", "Good.", "In hearts: four.", "Three kings.", "Good.",
    "Three kings: seven.", "Ann reaches one hundred and four: the game, a double game.",
  ]);
  eq(t.lines.every((l) => !(l.cards || []).some((c) => c.startsWith("K") && !c.endsWith("H"))), true);
  eq(t.count, { elder: 7, younger: 0 });
  const v = { phase: "younger_discard", my_turn: true, options: [{ kind: "discard", min: 0, max: 5 }] };
  eq(words.phaseWords(v, { other: "Ann" }),
    "You are younger hand: discard up to five cards and take in as many, or keep all your cards (p. 17).");
  eq(words.rulesWords("au-cent+small-cards"), "Piquet au cent; small cards do not count in play");
  eq(words.rulesWords("four-deal"), "four-deal partie");
});

check("tricks and the count in the play", () => {
  const events = [
    { kind: "score", role: "elder", cards: [], value: 1, detail: 4 },
    { kind: "play", role: "elder", cards: ["AS"], value: 1, detail: 0 },
    { kind: "play", role: "younger", cards: ["7S"], value: 1, detail: 0 },
    { kind: "score", role: "elder", cards: [], value: 1, detail: 4 },
    { kind: "play", role: "elder", cards: ["KH"], value: 2, detail: 0 },
    { kind: "play", role: "younger", cards: ["AH"], value: 2, detail: 0 },
    { kind: "score", role: "younger", cards: [], value: 1, detail: 4 },
  ];
  eq(words.tricksOf(events).map((x) => x.winner), ["elder", "younger"]);
  const t = words.narrate(events, { me: "elder", names: { elder: "You", younger: "Bob" } });
  eq(t.count, { elder: 2, younger: 1 });
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

check("the settlement in words", () => {
  eq(words.settlementWords({ winner: "A", points: 283, rubicon: true }, { A: 120, B: 63 }, { A: "You", B: "Bob" }),
    "You win the partie, and Bob is rubiconed (under 100): 120 + 63 + 100 = 283 points (Law 73).");
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
