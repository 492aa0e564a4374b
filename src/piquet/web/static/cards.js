// The 32 cards of the piquet pack and a card back, drawn as SVG by code: no image is fetched.
//
// A card is named as in the record format: rank then suit, "AS", "10H", "QC", "7D".
// Ranks run 7 8 9 10 J Q K A; suits S H C D (spades, hearts, clubs, diamonds: the order the
// project shows a hand in, which alternates the colours).
//
// Each drawing is first built as a small tree ({tag, attrs, kids}) so that the same code gives
// either a DOM element (cardSVG, backSVG, suitSVG: what the page uses) or SVG markup
// (cardMarkup, backMarkup: what the node self-check reads; no DOM is needed for those).

export const SUITS = ["S", "H", "C", "D"];
export const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUIT_NAMES = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };
export const SUIT_SINGULAR = { S: "spade", H: "heart", C: "club", D: "diamond" };
export const RANK_NAMES = {
  "7": "seven", "8": "eight", "9": "nine", "10": "ten",
  J: "knave", Q: "queen", K: "king", A: "ace",
};
export const RANK_PLURALS = {
  "7": "sevens", "8": "eights", "9": "nines", "10": "tens",
  J: "knaves", Q: "queens", K: "kings", A: "aces",
};
/** What each rank counts in the point: ace eleven, court cards and ten ten, the others their pips. */
export const POINT_VALUES = { "7": 7, "8": 8, "9": 9, "10": 10, J: 10, Q: 10, K: 10, A: 11 };
export const SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };

/** Every card of the pack, spades first, each suit high card first. */
export const PACK = SUITS.flatMap((s) => [...RANKS].reverse().map((r) => r + s));

const SVG_NS = "http://www.w3.org/2000/svg";
const RED = "#c8102e";
const BLACK = "#111";
const W = 100;
const H = 140;

/** {rank, suit} of a card name ("10H" -> {rank: "10", suit: "H"}), or null if it is not a card. */
export function parseCard(name) {
  if (typeof name !== "string") return null;
  const t = name.trim().toUpperCase();
  if (t.length < 2) return null;
  const suit = t.slice(-1);
  let rank = t.slice(0, -1);
  if (rank === "T") rank = "10";
  if (!SUITS.includes(suit) || !RANKS.includes(rank)) return null;
  return { rank, suit };
}

export function suitOf(name) {
  const c = parseCard(name);
  return c ? c.suit : null;
}

/** 0 (seven) to 7 (ace): within a suit a higher index is a higher card. */
export function rankIndex(name) {
  const c = parseCard(name);
  return c ? RANKS.indexOf(c.rank) : -1;
}

export function isRed(name) {
  const s = suitOf(name);
  return s === "H" || s === "D";
}

/** "queen of spades", "knave of hearts", "ten of diamonds". */
export function cardWords(name) {
  const c = parseCard(name);
  return c ? `${RANK_NAMES[c.rank]} of ${SUIT_NAMES[c.suit]}` : String(name);
}

/** "Q♠", "10♥": the card in short, for text. */
export function cardShort(name) {
  const c = parseCard(name);
  return c ? c.rank + SUIT_SYMBOLS[c.suit] : String(name);
}

/** Sort key: by suit (spades, hearts, clubs, diamonds), high cards first. */
export function displayKey(name) {
  const c = parseCard(name);
  if (!c) return 1000;
  return SUITS.indexOf(c.suit) * 8 + (7 - RANKS.indexOf(c.rank));
}

/** The cards sorted by suit then rank, as a hand is shown. */
export function sortCards(names) {
  return [...(names || [])].sort((a, b) => displayKey(a) - displayKey(b));
}

// ------------------------------------------------------------------ suit shapes
// Each suit is drawn in a 100 x 100 box, its centre at (50, 50).

function suitShape(suit, fill) {
  switch (suit) {
    case "H":
      return [el("path", {
        d: "M50 90 C38 78 4 58 4 32 C4 14 18 5 30 5 C40 5 47 12 50 22 C53 12 60 5 70 5 "
          + "C82 5 96 14 96 32 C96 58 62 78 50 90 Z",
        fill,
      })];
    case "D":
      return [el("path", { d: "M50 2 L88 50 L50 98 L12 50 Z", fill })];
    case "S":
      return [el("path", {
        d: "M50 4 C60 22 96 38 96 62 C96 78 84 86 72 86 C63 86 57 81 53 74 "
          + "C54 84 58 91 66 97 L34 97 C42 91 46 84 47 74 C43 81 37 86 28 86 "
          + "C16 86 4 78 4 62 C4 38 40 22 50 4 Z",
        fill,
      })];
    case "C":
    default:
      return [
        el("circle", { cx: 50, cy: 27, r: 21, fill }),
        el("circle", { cx: 26, cy: 59, r: 21, fill }),
        el("circle", { cx: 74, cy: 59, r: 21, fill }),
        el("path", { d: "M45 50 L55 50 C55 74 60 88 68 97 L32 97 C40 88 45 74 45 50 Z", fill }),
      ];
  }
}

/** A suit symbol of the given size, centred at (x, y), upside down if asked. */
function pip(suit, x, y, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return el("g", { transform: `translate(${fmt(x - size / 2)} ${fmt(y - size / 2)}) scale(${fmt(s)})${rot}` },
    suitShape(suit, suitColour(suit)));
}

function suitColour(suit) {
  return suit === "H" || suit === "D" ? RED : BLACK;
}

// Pip positions for the spot cards (x, y, upside down), in the 100 x 140 card.
const L = 31;
const R = 69;
const C = 50;
const PIPS = {
  "7": [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [L, 112, 1], [R, 112, 1]],
  "8": [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [C, 91, 1], [L, 112, 1], [R, 112, 1]],
  "9": [[L, 28], [R, 28], [L, 56], [R, 56], [C, 70], [L, 84, 1], [R, 84, 1], [L, 112, 1], [R, 112, 1]],
  "10": [[L, 28], [R, 28], [C, 42], [L, 56], [R, 56], [L, 84, 1], [R, 84, 1], [C, 98, 1],
    [L, 112, 1], [R, 112, 1]],
};

// ------------------------------------------------------------------ the drawings as trees

function el(tag, attrs = {}, kids = []) {
  return { tag, attrs, kids: Array.isArray(kids) ? kids : [kids] };
}

function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, "");
}

function cornerIndex(rank, suit, colour) {
  const narrow = rank === "10";
  return el("g", {}, [
    el("text", {
      x: 11, y: 21, "text-anchor": "middle", "font-size": narrow ? 15 : 18, "font-weight": "700",
      "font-family": "Georgia, 'DejaVu Serif', 'Times New Roman', serif", fill: colour,
      ...(narrow ? { "letter-spacing": "-1.5" } : {}),
    }, [rank === "10" ? "10" : rank]),
    pip(suit, 11, 32, 12),
  ]);
}

function courtFace(rank, suit, colour) {
  const letter = rank; // K, Q or J: the large rank letter
  const accent = suit === "H" || suit === "D" ? "#f6d2d8" : "#d9dde6";
  return [
    el("rect", { x: 23, y: 18, width: 54, height: 104, rx: 4, fill: accent, stroke: colour, "stroke-width": 1.6 }),
    el("rect", { x: 26.5, y: 21.5, width: 47, height: 97, rx: 3, fill: "none", stroke: colour,
      "stroke-width": 0.6 }),
    pip(suit, 36, 33, 14),
    pip(suit, 64, 107, 14, true),
    el("text", {
      x: 50, y: 85, "text-anchor": "middle", "font-size": 54, "font-weight": "700",
      "font-family": "Georgia, 'DejaVu Serif', 'Times New Roman', serif", fill: colour,
    }, [letter]),
  ];
}

function cardTree(name, label) {
  const c = parseCard(name);
  if (!c) throw new Error(`not a card: ${name}`);
  const { rank, suit } = c;
  const colour = suitColour(suit);
  let face;
  if (rank === "A") {
    face = [pip(suit, 50, 70, 46)];
  } else if (rank === "K" || rank === "Q" || rank === "J") {
    face = courtFace(rank, suit, colour);
  } else {
    face = PIPS[rank].map(([x, y, flip]) => pip(suit, x, y, 19, Boolean(flip)));
  }
  return el("svg", {
    xmlns: SVG_NS, viewBox: `0 0 ${W} ${H}`, class: `card-face suit-${suit}`, role: "img",
    "aria-label": label || cardWords(name), "data-card": `${rank}${suit}`, focusable: "false",
  }, [
    el("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, fill: "#fffef9", stroke: "#6b6b6b",
      "stroke-width": 1.2, class: "card-edge" }),
    cornerIndex(rank, suit, colour),
    el("g", { transform: `rotate(180 ${W / 2} ${H / 2})` }, [cornerIndex(rank, suit, colour)]),
    ...face,
  ]);
}

function backTree(label = "a card, face down") {
  const kids = [
    el("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, fill: "#fbfbf8", stroke: "#6b6b6b",
      "stroke-width": 1.2 }),
    el("rect", { x: 7, y: 7, width: W - 14, height: H - 14, rx: 5, fill: "#1f3f7a" }),
  ];
  // A lattice of small diamonds inside the inner frame.
  const cols = 6;
  const rows = 9;
  const cw = (W - 18) / cols;
  const rh = (H - 18) / rows;
  let d = "";
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < rows; j++) {
      const x = 9 + cw * (i + 0.5);
      const y = 9 + rh * (j + 0.5);
      d += `M${fmt(x)} ${fmt(y - rh / 2 + 1)}L${fmt(x + cw / 2 - 1)} ${fmt(y)}L${fmt(x)} ${fmt(y + rh / 2 - 1)}`
        + `L${fmt(x - cw / 2 + 1)} ${fmt(y)}Z`;
    }
  }
  kids.push(el("path", { d, fill: "#2f5aa8", stroke: "#9db4e0", "stroke-width": 0.6 }));
  kids.push(el("rect", { x: 30, y: 52, width: 40, height: 36, rx: 4, fill: "#1f3f7a", stroke: "#d7e1f5",
    "stroke-width": 1 }));
  kids.push(el("g", { transform: "translate(34 55) scale(0.14)" }, suitShape("S", "#d7e1f5")));
  kids.push(el("g", { transform: "translate(52 55) scale(0.14)" }, suitShape("H", "#f3b1bd")));
  kids.push(el("g", { transform: "translate(34 71) scale(0.14)" }, suitShape("D", "#f3b1bd")));
  kids.push(el("g", { transform: "translate(52 71) scale(0.14)" }, suitShape("C", "#d7e1f5")));
  return el("svg", {
    xmlns: SVG_NS, viewBox: `0 0 ${W} ${H}`, class: "card-back", role: "img", "aria-label": label,
    focusable: "false",
  }, kids);
}

function suitTree(suit, label) {
  return el("svg", {
    xmlns: SVG_NS, viewBox: "0 0 100 100", class: `suit-icon suit-${suit}`, role: "img",
    "aria-label": label || SUIT_SINGULAR[suit] || suit, focusable: "false",
  }, suitShape(suit, suitColour(suit)));
}

// ------------------------------------------------------------------ output: DOM or markup

function toElement(node, doc) {
  if (typeof node === "string") return doc.createTextNode(node);
  const e = doc.createElementNS(SVG_NS, node.tag);
  for (const [k, v] of Object.entries(node.attrs)) {
    if (k === "xmlns") continue;
    e.setAttribute(k, String(v));
  }
  for (const kid of node.kids) e.appendChild(toElement(kid, doc));
  return e;
}

function escapeXml(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function toMarkup(node) {
  if (typeof node === "string") return escapeXml(node);
  const attrs = Object.entries(node.attrs).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join("");
  if (!node.kids.length) return `<${node.tag}${attrs}/>`;
  return `<${node.tag}${attrs}>${node.kids.map(toMarkup).join("")}</${node.tag}>`;
}

/** @typedef {{ label?: string, doc?: Document }} DrawOptions A drawing's words for a screen reader, and its document. */

function theDocument(doc) {
  const d = doc || (typeof document !== "undefined" ? document : null);
  if (!d) throw new Error("no document: use cardMarkup() outside a browser");
  return d;
}

/**
 * An <svg> element showing the card, role="img" and aria-label "queen of spades".
 * @param {string} name
 * @param {DrawOptions} [options]
 */
export function cardSVG(name, { label, doc } = {}) {
  return toElement(cardTree(name, label), theDocument(doc));
}

/**
 * An <svg> element showing a card back (the adversary's hand, the stock).
 * @param {DrawOptions} [options]
 */
export function backSVG({ label, doc } = {}) {
  return toElement(backTree(label), theDocument(doc));
}

/**
 * A small suit symbol as an <svg> element (for text such as "A♥ K♥" in the talk).
 * @param {string} suit
 * @param {DrawOptions} [options]
 */
export function suitSVG(suit, { label, doc } = {}) {
  return toElement(suitTree(suit, label), theDocument(doc));
}

/**
 * The card as SVG markup (a string).
 * @param {string} name
 * @param {{ label?: string }} [options]
 */
export function cardMarkup(name, { label } = {}) {
  return toMarkup(cardTree(name, label));
}

/**
 * A card back as SVG markup (a string).
 * @param {{ label?: string }} [options]
 */
export function backMarkup({ label } = {}) {
  return toMarkup(backTree(label));
}

/**
 * A suit symbol as SVG markup (a string).
 * @param {string} suit
 * @param {{ label?: string }} [options]
 */
export function suitMarkup(suit, { label } = {}) {
  return toMarkup(suitTree(suit, label));
}
