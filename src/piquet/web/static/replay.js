// The replay of a partie: /t/{id}/replay (a finished partie, every card shown) or
// /t/{id}/replay#token=T (a partie in progress, as that seat saw it; the token is sent as "Authorization: Bearer T",
// seat.js). It fetches /api/tables/{id}/replay once and shows one frame at a time. The page holds no rules: every
// frame (the hands, the trick, the words, the scores) is the server's, read off the engine.
// The address keeps the step (#step=k, after the token if there is one). docs/web.md ("The replay") tells the rest.

import { backSVG, cardSVG, cardWords, parseCard, sortCards, suitSVG } from "./cards.js";
import { $, clear, h, put } from "./dom.js";
import { loadReview } from "./review.js";
import { bearer, seatToken } from "./seat.js";

// ------------------------------------------------------------------ small DOM helpers

function chip(card) {
  const p = parseCard(card);
  if (!p) return h("span", { class: "chip" }, card);
  const red = p.suit === "H" || p.suit === "D";
  return h("span", { class: `chip${red ? " red" : ""}`, title: cardWords(card) },
    h("span", { "aria-hidden": "true" }, p.rank), suitSVG(p.suit, { label: cardWords(card) }));
}

function chips(cards) {
  return h("span", { class: "chips" }, sortCards(cards).map(chip));
}

/**
 * A frame's lines, as the server's narrator told them (piquet.talk.words): a player's words after his name,
 * in quotes, the narrator's as they are; each card segment drawn as chips, as the table page draws them.
 * @param {Array<{speaker: string | null, seat: string | null, segments: Array<string | {cards: string[]}>}>} lines
 * @returns {Array<string | Node>}
 */
function linesWords(lines) {
  const out = [];
  for (const line of lines || []) {
    if (out.length) out.push(" ");
    const words = (line.segments || []).map((s) => (typeof s === "string" ? s
      : h("span", { class: "chips" }, s.cards.map(chip))));
    if (line.speaker) out.push(`${name(line.seat)}: \u201c`, ...words, "\u201d");
    else out.push(...words);
  }
  return out;
}

// ------------------------------------------------------------------ where we are

const params = new URLSearchParams(location.search);
const pathMatch = location.pathname.match(/\/t\/([^/?#]+)\/replay/);
const tableId = pathMatch ? decodeURIComponent(pathMatch[1]) : params.get("table");
const token = seatToken();

const R = {
  doc: null,
  step: 0,
  timer: null, // play: one step a second
  notice: null,
};

const PHASE_TITLES = [
  ["discard", "The exchange"], ["look", "The cards left"], ["point", "The calling: the point"],
  ["sequences", "The calling: sequences"], ["sets", "The calling: quatorzes and trios"], ["play", "The play"],
  ["done", "The deal is over"],
];

function phaseTitle(phase) {
  const hit = PHASE_TITLES.find(([k]) => String(phase || "").includes(k));
  return hit ? hit[1] : "";
}

function name(seat) {
  const players = (R.doc && R.doc.players) || {};
  return players[seat] || `Seat ${seat}`;
}

function other(seat) {
  return seat === "A" ? "B" : "A";
}

function lastStep() {
  return Math.max(0, (R.doc ? R.doc.steps : 1) - 1);
}

function dealOf(frame) {
  return R.doc.deals[frame.deal - 1];
}

// ------------------------------------------------------------------ loading

function apiUrl() {
  return `/api/tables/${encodeURIComponent(tableId)}/replay`;
}

/** Why the server refused, in words: its own message when it gave one. */
function refusal(status, message) {
  const said = message ? String(message).replace(/\.$/, "") : "";
  if (status === 404) return said ? `Not found: ${said}.` : "There is no such table on this server.";
  if (status === 403) {
    return said ? `Not shown: ${said}.` : "This partie is still being played: its replay is shown only to a "
      + "player, from his own seat's link. Once the partie is over, anyone may replay it.";
  }
  if (status >= 500) return `The server cannot replay this partie${said ? `: ${said}` : ""}.`;
  return `The server refused the replay (${status})${said ? `: ${said}` : ""}.`;
}

function fail(text) {
  $("rp-loading").hidden = true;
  $("replay-error").hidden = false;
  $("replay-error-text").textContent = text;
  for (const id of ["rp-controls", "rp-what", "rp-board", "rp-side"]) $(id).hidden = true;
  $("replay").dataset.error = "true";
}

async function load() {
  if (!tableId) {
    fail("This page needs a table in its address: /t/TABLE/replay.");
    return;
  }
  let resp;
  try {
    resp = await fetch(apiUrl(), { headers: { Accept: "application/json", ...bearer(token) } });
  } catch (e) {
    fail("The server cannot be reached. Is `piquet serve` running?");
    return;
  }
  if (!resp.ok) {
    let message = "";
    try {
      message = (await resp.json()).error || "";
    } catch (e) {
      // not JSON
    }
    fail(refusal(resp.status, message));
    return;
  }
  try {
    R.doc = await resp.json();
  } catch (e) {
    fail("The server's answer could not be read.");
    return;
  }
  setup();
}

// ------------------------------------------------------------------ the step in the address

/** The step named by the address (#step=k): {step, notice}; a bad one is said and the nearest is shown. */
function stepFromHash() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  fragment.delete("token");
  const hash = fragment.toString();
  if (!hash) return { step: 0, notice: null };
  const last = lastStep();
  const range = `the steps of this replay run from 0 to ${last}`;
  const text = fragment.get("step");
  if (text === null) return { step: 0, notice: `The address asks for “#${hash}”: a step is given as #step=12, and ${range}. Showing step 0.` };
  if (!/^\d+$/.test(text)) {
    return { step: 0, notice: `“${text}” is not a step: ${range}. Showing step 0.` };
  }
  const n = Number(text);
  if (n > last) return { step: last, notice: `There is no step ${n}: ${range}. Showing the last step, ${last}.` };
  return { step: n, notice: null };
}

/** The fragment of step k: the seat's token kept before it, so that a reload still opens the seat's replay. */
function stepHash(k) {
  return token ? `#token=${encodeURIComponent(token)}&step=${k}` : `#step=${k}`;
}

function writeHash() {
  const want = stepHash(R.step);
  if (location.hash !== want) history.replaceState(null, "", `${location.pathname}${location.search}${want}`);
}

// ------------------------------------------------------------------ moving

function go(step, { keepPlaying = false } = {}) {
  if (!R.doc || !R.doc.frames.length) return;
  if (!keepPlaying) pause();
  R.step = Math.min(Math.max(0, Math.trunc(step)), lastStep());
  writeHash();
  render();
}

function play() {
  if (!R.doc || R.timer || !R.doc.frames.length) return;
  if (R.step >= lastStep()) go(0);
  R.timer = setInterval(() => {
    if (R.step >= lastStep()) {
      pause();
      return;
    }
    go(R.step + 1, { keepPlaying: true });
  }, 1000);
  renderPlay();
}

function pause() {
  if (!R.timer) return;
  clearInterval(R.timer);
  R.timer = null;
  renderPlay();
}

function renderPlay() {
  const b = $("rp-play");
  b.textContent = R.timer ? "Pause" : "Play";
  b.setAttribute("aria-pressed", R.timer ? "true" : "false");
}

function onKey(ev) {
  if (!R.doc || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const t = ev.target;
  const tag = t && t.tagName ? t.tagName.toLowerCase() : "";
  if (tag === "input" || tag === "select" || tag === "textarea") return; // the slider and the select keep their keys
  if (ev.key === "ArrowLeft") go(R.step - 1);
  else if (ev.key === "ArrowRight") go(R.step + 1);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(lastStep());
  else if ((ev.key === " " || ev.key === "Spacebar") && tag !== "button" && tag !== "a") {
    if (R.timer) pause();
    else play();
  } else return;
  ev.preventDefault();
}

// ------------------------------------------------------------------ setting up

function setup() {
  const doc = R.doc;
  $("rp-loading").hidden = true;
  const who = doc.view === "all" ? "every card shown" : `as ${name(doc.view)} saw it`;
  const status = doc.status === "finished" ? "finished" : "in progress";
  $("rp-title").textContent = `Replay: ${name("A")} \u2013 ${name("B")} \u00b7 ${doc.title || doc.rules} \u00b7 `
    + `${status}, ${who}`;
  $("rp-title").title = doc.title || "";
  document.title = `Piquet \u2014 replay of ${name("A")} and ${name("B")}`;
  const root = $("replay");
  root.dataset.steps = String(doc.steps);
  root.dataset.view = doc.view;
  if (!doc.frames.length) {
    fail("Nothing to replay yet: the first deal has not been dealt (the winner of the cut is to choose "
      + "whether to deal).");
    return;
  }
  for (const id of ["rp-controls", "rp-what", "rp-board", "rp-side"]) $(id).hidden = false;
  // The viewer's seat sits at the bottom; in a public replay, A does.
  const bottom = doc.view === "all" ? "A" : doc.view;
  $(`rp-seat-${bottom}`).style.order = "3";
  $(`rp-seat-${other(bottom)}`).style.order = "1";
  $("rp-centre").style.order = "2";

  const slider = /** @type {HTMLInputElement} */ ($("rp-slider"));
  slider.max = String(lastStep());
  slider.addEventListener("input", () => go(Number(slider.value)));
  const select = /** @type {HTMLSelectElement} */ ($("rp-deal"));
  for (const d of doc.deals) {
    const dbl = d.multiplier > 1 ? ", counts double" : "";
    // At Piquet au cent a deal belongs to a game, and the deals are as many as it takes.
    const which = d.game ? `${d.number}, game ${d.game}` : `${d.number} of ${d.of}`;
    select.append(h("option", { value: String(d.number) }, `${which} (${name(d.dealer)} deals${dbl})`));
  }
  select.addEventListener("change", () => {
    const d = doc.deals[Number(select.value) - 1];
    if (d) go(d.first_step);
  });
  $("rp-first").addEventListener("click", () => go(0));
  $("rp-prev").addEventListener("click", () => go(R.step - 1));
  $("rp-next").addEventListener("click", () => go(R.step + 1));
  $("rp-last").addEventListener("click", () => go(lastStep()));
  $("rp-play").addEventListener("click", () => (R.timer ? pause() : play()));
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    const { step, notice } = stepFromHash();
    R.notice = notice;
    go(step);
  });
  const { step, notice } = stepFromHash();
  R.notice = notice;
  go(step);
  if (doc.view === "all" && doc.status === "finished") {
    // A finished partie's review: every decision valued (piquet.study.review); ?worlds=N asks for more or fewer.
    const worlds = params.get("worlds");
    const url = `/api/tables/${encodeURIComponent(tableId)}/review${worlds ? `?worlds=${encodeURIComponent(worlds)}` : ""}`;
    loadReview(url, (d) => go(doc.deals[d.deal - 1].first_step + d.action));
  }
}

// ------------------------------------------------------------------ rendering one frame

function render() {
  const doc = R.doc;
  const f = doc.frames[R.step];
  const root = $("replay");
  root.dataset.step = String(R.step);
  root.dataset.deal = String(f.deal);
  root.dataset.phase = f.phase;
  const last = lastStep();
  /** @type {HTMLButtonElement} */ ($("rp-first")).disabled = R.step === 0;
  /** @type {HTMLButtonElement} */ ($("rp-prev")).disabled = R.step === 0;
  /** @type {HTMLButtonElement} */ ($("rp-next")).disabled = R.step === last;
  /** @type {HTMLButtonElement} */ ($("rp-last")).disabled = R.step === last;
  /** @type {HTMLInputElement} */ ($("rp-slider")).value = String(R.step);
  $("rp-slider").setAttribute("aria-valuetext", `step ${R.step} of ${last}, deal ${f.deal}`);
  /** @type {HTMLSelectElement} */ ($("rp-deal")).value = String(f.deal);
  const d = dealOf(f);
  const trick = f.phase === "play" ? `, trick ${trickNumber(f)}` : "";
  $("rp-position").textContent = `Step ${R.step} of ${last} \u00b7 deal ${f.deal}${trick}`;
  const notice = $("replay-notice");
  notice.hidden = !R.notice;
  notice.textContent = R.notice || "";

  const what = clear($("rp-what"));
  what.append(h("span", { class: "rp-step-no" }, `${R.step}.`), " ", ...linesWords(f.lines));

  for (const seat of ["A", "B"]) renderSeat(f, d, seat);
  renderCentre(f);
  renderTalk(f, d);
  renderScores(f, d);
  renderScoreCard(f);
  renderSettlement();
}

function trickNumber(f) {
  if (f.trick && f.trick.deal === f.deal) return f.trick.winner ? Math.min(12, f.trick.number + 1) : f.trick.number;
  return 1;
}

function roleOf(d, seat) {
  return d.roles.elder === seat ? "elder" : "younger";
}

function renderSeat(f, d, seat) {
  const role = roleOf(d, seat);
  const mine = R.doc.view === seat;
  const toMove = f.to_move === seat;
  const box = $(`rp-seat-${seat}`);
  box.classList.toggle("to-move", toMove);
  box.classList.toggle("just-moved", f.by === seat);
  box.setAttribute("aria-label", `${name(seat)}, ${role} hand`);
  put(clear($(`rp-who-${seat}`)),
    h("span", { class: "name" }, name(seat) + (mine ? " (you)" : "")),
    h("span", { class: "role" }, `${role} hand${d.dealer === seat ? ", dealer" : ""}`),
    h("span", { class: "count" }, `${f.counts[seat]} card${f.counts[seat] === 1 ? "" : "s"}`),
    f.phase === "play" || f.phase === "done" ? h("span", { class: "tricks" }, `tricks ${f.tricks_won[seat]}`) : null,
    toMove ? h("span", { class: "rp-turn" }, "to move") : null,
  );
  const hand = clear($(`rp-hand-${seat}`));
  const cards = f.hands[seat];
  if (cards) {
    hand.setAttribute("aria-label", `${name(seat)}'s hand: ${cards.length} card${cards.length === 1 ? "" : "s"}`);
    for (const c of sortCards(cards)) hand.append(cardSVG(c));
  } else {
    hand.setAttribute("aria-label", `${name(seat)}'s hand: ${f.counts[seat]} card${f.counts[seat] === 1 ? "" : "s"}, `
      + "face down");
    for (let i = 0; i < f.counts[seat]; i++) {
      const b = backSVG({ label: i === 0 ? `${name(seat)}'s cards, face down` : "" });
      if (i) b.setAttribute("aria-hidden", "true");
      hand.append(b);
    }
  }
  hand.classList.toggle("backs-only", !cards);
  const extra = clear($(`rp-extra-${seat}`));
  const shown = (f.shown && f.shown[seat]) || [];
  if (shown.length) extra.append(h("div", { class: "rp-row" }, "Shown, not yet played: ", chips(shown)));
  const discard = (f.discards[seat] || []);
  const taken = (f.taken[seat] || []);
  if (discard.length) {
    extra.append(h("div", { class: "rp-row", testid: `replay-discard-${seat}` }, "Discard: ", mini(discard),
      taken.length ? [" Took in: ", mini(taken)] : null));
  }
}

function mini(cards) {
  return h("span", { class: "rp-mini" }, sortCards(cards).map((c) => cardSVG(c)));
}

function renderCentre(f) {
  const stock = clear($("rp-stock"));
  const n = f.stock_count;
  if (f.stock) {
    put(stock, h("div", { class: "label" }, n ? `The stock: ${n}` : "The stock: none"),
      n ? h("span", { class: "rp-mini rp-stock-cards" }, f.stock.map((c) => cardSVG(c))) : null);
  } else {
    const pile = h("div", { class: "rp-pile", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(n, 8); i++) pile.append(backSVG({ label: "" }));
    put(stock, h("div", { class: "label" }, n ? `The stock: ${n}, face down` : "The stock: none"), n ? pile : null);
    if ((f.seen_left || []).length) stock.append(h("div", { class: "rp-row" }, "Seen: ", chips(f.seen_left)));
  }
  const box = clear($("rp-trick"));
  const t = f.trick;
  if (t && t.plays && t.plays.length) {
    const row = h("div", { class: "rp-trick-cards" });
    for (const p of t.plays) {
      row.append(h("figure", { class: "played" }, cardSVG(p.card, { label: `${name(p.seat)}: ${cardWords(p.card)}` }),
        h("figcaption", {}, name(p.seat))));
    }
    let caption = `Trick ${t.number}`;
    if (t.deal !== f.deal) caption = `Deal ${t.deal}, the last trick`;
    if (t.winner) caption += `: ${name(t.winner)}'s trick`;
    box.append(row, h("p", { class: "caption" }, caption));
  } else {
    box.append(h("p", { class: "caption phase" }, phaseTitle(f.phase)));
  }
}

function renderTalk(f, d) {
  const list = clear($("rp-talk"));
  const doc = R.doc;
  if (f.deal === 1 && doc.cut && doc.cut.words) {
    list.append(h("li", { class: "narrator", testid: "replay-cut" }, doc.cut.words.join(" ")));
  }
  for (let k = d.first_step; k <= R.step; k++) {
    const frame = doc.frames[k];
    const li = h("li", { class: `rp-line${k === R.step ? " current" : ""}`, "data-step": String(k) },
      h("a", { href: stepHash(k), class: "rp-step-link", "aria-label": `step ${k}` }, `${k}.`), " ",
      ...linesWords(frame.lines));
    list.append(li);
  }
  const scroller = $("rp-talk-box");
  scroller.scrollTop = scroller.scrollHeight;
}

function renderScores(f, d) {
  const box = clear($("rp-scores"));
  const seats = [d.roles.elder, d.roles.younger];
  const t = h("table", { class: "scores" });
  t.append(h("caption", {}, `Deal ${f.deal}: the scores so far`));
  t.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""),
    seats.map((s) => h("th", { scope: "col" }, name(s))))));
  const body = h("tbody");
  R.doc.score_kinds.forEach((kind, i) => {
    const vals = seats.map((s) => f.scores[s][i]);
    if (!vals.some(Boolean) && !["point", "sequences", "sets", "play", "cards"].includes(kind)) return;
    body.append(h("tr", { "data-kind": kind }, h("th", { scope: "row" }, (R.doc.score_labels || {})[kind] || kind),
      vals.map((v) => h("td", {}, String(v)))));
  });
  t.append(body);
  const foot = h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"),
    seats.map((s) => h("td", { "data-seat": s }, String(f.totals.deal[s])))));
  if (d.multiplier > 1) {
    foot.append(h("tr", {}, h("th", { scope: "row" }, `In the partie (\u00d7${d.multiplier})`),
      seats.map((s) => h("td", {}, String(f.totals.counted[s])))));
  }
  t.append(foot);
  box.append(t, h("p", { class: "muted small" }, "Point, sequences and sets are scored when the play begins "
    + "(Law 67)."));
}

function renderScoreCard(f) {
  const box = clear($("rp-scorecard"));
  const t = h("table", { class: "scores card" });
  const g = f.game;
  t.append(h("caption", {}, g ? `The partie: game ${g.number}, to ${g.goal}` : "The partie"));
  t.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"), h("th", { scope: "col" }, "Dealer"),
    h("th", { scope: "col" }, name("A")), h("th", { scope: "col" }, name("B")))));
  const body = h("tbody");
  for (const d of R.doc.deals) {
    if (d.number > f.deal) break;
    const current = d.number === f.deal;
    const s = current ? f.totals.counted : d.counted;
    if (!s) continue;
    if (g && d.game !== g.number) continue; // at Piquet au cent: the deals of this game
    body.append(h("tr", { "data-deal": String(d.number), class: current && f.phase !== "done" ? "in-play" : null },
      h("th", { scope: "row" }, `${d.number}${d.multiplier > 1 ? ` \u00d7${d.multiplier}` : ""}`),
      h("td", {}, name(d.dealer)), h("td", {}, String(s.A)), h("td", {}, String(s.B))));
  }
  t.append(body);
  const foot = h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: "2" }, g ? `Game ${g.number}` : "Total"),
    h("td", { "data-seat": "A" }, String(f.totals.partie.A)), h("td", { "data-seat": "B" }, String(f.totals.partie.B))));
  if (g) {
    foot.append(h("tr", { class: "tally" }, h("th", { scope: "row", colspan: "2" }, "Games won"),
      h("td", { "data-seat": "A" }, String(g.tally.A)), h("td", { "data-seat": "B" }, String(g.tally.B))));
  }
  t.append(foot);
  box.append(t);
}

function renderSettlement() {
  const box = $("rp-settlement");
  const s = R.doc.settlement;
  const show = Boolean(s) && R.step === lastStep();
  box.hidden = !show;
  if (!show) return;
  clear(box).append(h("p", { class: "settlement" }, s.words),
    h("p", {}, h("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record`,
      download: `piquet-${tableId}.json` }, "Download the record"), " ",
    h("a", { class: "button", href: "/" }, "Back to the lobby")));
}

// For the console and for tests: the state of the page (read only).
/** @type {Window & { piquetReplay?: object }} */ (window).piquetReplay = { get state() { return R; } };

load();
