// A self-check of the page's scripts that needs no browser: `node src/piquet/web/static/check.mjs`.
// It parses every module of this folder (node --check), then imports the one that needs no DOM
// (cards.js) and checks the drawings of the 32 cards and their names. The page makes no words of its own:
// the prompt, the labels, the talk and the scores' headings are the server's (piquet.talk.words).
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

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
