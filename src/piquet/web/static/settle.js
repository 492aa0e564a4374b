// The settlement of the stakes (/settle): parties given as figures, and this server's finished games,
// sent to POST /api/settle; the scoring card, the settlement in words and the CSV and JSON exports shown.
// docs/stakes.md ("In the browser") tells the API.

import { $, h } from "./dom.js";
import { myGames } from "./seat.js";

let last = null; // the last answer of the server: its csv and json are downloaded

function showError(text) {
  const box = $("settle-error");
  box.textContent = text || "";
  box.hidden = !text;
}

function names() {
  const a = /** @type {HTMLInputElement} */ ($("player-a")).value.trim() || "A";
  const b = /** @type {HTMLInputElement} */ ($("player-b")).value.trim() || "B";
  return [a, b];
}

// ------------------------------------------------------------ the rows of figures

/** @returns {HTMLElement[]} */
function rows() {
  return [.../** @type {NodeListOf<HTMLElement>} */ ($("partie-rows").querySelectorAll(".st-partie"))];
}

function renumber() {
  const [a, b] = names();
  rows().forEach((row, i) => {
    row.dataset.testid = `partie-row-${i}`;
    const [ia, ib] = row.querySelectorAll("input");
    ia.id = `partie-a-${i}`;
    ia.dataset.testid = `partie-a-${i}`;
    ib.id = `partie-b-${i}`;
    ib.dataset.testid = `partie-b-${i}`;
    const [la, lb] = row.querySelectorAll("label");
    la.htmlFor = ia.id;
    la.textContent = `Partie ${i + 1}: ${a}`;
    lb.htmlFor = ib.id;
    lb.textContent = `${b}`;
    const remove = row.querySelector("button");
    remove.dataset.testid = `remove-partie-${i}`;
    remove.setAttribute("aria-label", `Remove partie ${i + 1}`);
  });
}

function addRow(focus = false) {
  const row = h("div", { class: "st-partie" },
    h("div", { class: "field" }, h("label"), h("input", { inputmode: "text", autocomplete: "off" })),
    h("div", { class: "field" }, h("label"), h("input", { inputmode: "text", autocomplete: "off" })),
    h("button", {
      type: "button", class: "st-remove", title: "Remove this partie",
      onclick: () => {
        const all = rows();
        const i = all.indexOf(row);
        row.remove();
        renumber();
        const left = rows();
        (left[Math.min(i, left.length - 1)]?.querySelector("input") || $("add-partie")).focus();
      },
    }, "Remove"));
  $("partie-rows").append(row);
  renumber();
  if (focus) row.querySelector("input").focus();
}

// A player's figures as typed: the server reads "131" or "27, 15, 44" (and says what is wrong).
function figures(text) {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

// ------------------------------------------------------------ the finished games

function gameLabel(g) {
  const p = g.players || {};
  const s = g.scores || {};
  const when = (g.updated || "").replace("T", " ").replace("+00:00", " UTC");
  return `${p.A || "A"} ${s.A ?? "?"}, ${p.B || "B"} ${s.B ?? "?"} (${g.rules}; ${when})`;
}

async function loadGames() {
  const box = $("finished-games");
  let games;
  try {
    games = await myGames("partie"); // the finished games of the seats this browser holds

  } catch (e) {
    box.replaceChildren(h("p", { class: "muted" }, `The games could not be listed (${e.message}).`));
    return;
  }
  const finished = games.filter((g) => g.status === "finished")
    .sort((x, y) => (x.created < y.created ? -1 : x.created > y.created ? 1 : 0));
  if (!finished.length) {
    box.replaceChildren(h("p", { class: "muted" }, "No finished game of yours on this server yet (the games of the seats this browser has opened)."));
    return;
  }
  box.replaceChildren(h("ul", { class: "st-games-list" }, finished.map((g) => {
    const id = `game-${g.table}`;
    return h("li", {},
      h("input", { type: "checkbox", id, value: g.table, testid: `finished-game-${g.table}` }),
      h("label", { for: id }, gameLabel(g)));
  })));
}

// ------------------------------------------------------------ settling

function request() {
  const [a, b] = names();
  const checked = /** @type {NodeListOf<HTMLInputElement>} */ (
    $("finished-games").querySelectorAll("input[type=checkbox]:checked"));
  /** @type {Record<string, unknown>[]} */
  const parties = [...checked].map((c) => ({ table: c.value }));
  for (const row of rows()) {
    const [ia, ib] = row.querySelectorAll("input");
    if (!ia.value.trim() && !ib.value.trim()) continue;
    parties.push({ [a]: figures(ia.value), [b]: figures(ib.value) });
  }
  if (a === b && parties.some((p) => !("table" in p))) {
    throw new Error("the two players have the same name: give them different names");
  }
  /** @type {{ parties: Record<string, unknown>[], stake?: string, custom?: string }} */
  const body = { parties };
  const stake = /** @type {HTMLInputElement} */ ($("stake")).value.trim();
  if (stake) {
    body.stake = stake;
    body.custom = /** @type {HTMLSelectElement} */ ($("custom")).value;
  }
  return body;
}

function showResult(doc) {
  last = doc;
  const card = $("scoring-card");
  // The card is the server's HTML (scoring_card_html: every cell escaped), drawn as the book draws it.
  card.innerHTML = doc.card_html;
  $("result-title").textContent = doc.kind === "chouette" ? "The chouette card" : "The scoring card";
  const words = $("settlement-words");
  words.replaceChildren(
    h("ul", { class: "st-players-list" }, doc.settlement.players.map((p) => h("li", {
      class: p.points > 0 ? "st-win" : p.points < 0 ? "st-loss" : "",
      testid: `settlement-${p.player}`,
    }, p.words))),
    ...doc.words.map((line) => h("p", { class: "small" }, line)));
  $("settle-result").hidden = false;
}

async function settle(event) {
  event.preventDefault();
  showError("");
  let body;
  try {
    body = request();
  } catch (e) {
    showError(e.message);
    return;
  }
  if (!body.parties.length) {
    showError("Nothing to settle: type a partie's figures, or tick a finished game.");
    return;
  }
  const button = /** @type {HTMLButtonElement} */ ($("settle-button"));
  button.disabled = true;
  try {
    const resp = await fetch("/api/settle", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    let doc = null;
    try {
      doc = await resp.json();
    } catch (e) {
      // not JSON
    }
    if (!resp.ok || !doc) {
      showError(`Not settled: ${(doc && doc.error) || `the server answered ${resp.status}`}`);
      return;
    }
    showResult(doc);
    $("settle-result").scrollIntoView({ block: "nearest" });
  } catch (e) {
    showError(`Not settled: the server could not be reached (${e.message}).`);
  } finally {
    button.disabled = false;
  }
}

function download(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function fileName() {
  return last && last.kind === "chouette" ? "piquet-chouette" : "piquet-scoring-card";
}

// ------------------------------------------------------------ the page

function start() {
  $("settle-form").addEventListener("submit", settle);
  $("add-partie").addEventListener("click", () => addRow(true));
  for (const id of ["player-a", "player-b"]) $(id).addEventListener("input", renumber);
  for (const b of document.querySelectorAll(".st-example")) {
    b.addEventListener("click", () => {
      const stake = /** @type {HTMLInputElement} */ ($("stake"));
      stake.value = b.textContent;
      stake.focus();
    });
  }
  $("download-csv").addEventListener("click", () => {
    if (last) download(last.csv, `${fileName()}.csv`, "text/csv;charset=utf-8");
  });
  $("download-json").addEventListener("click", () => {
    if (last) download(last.json, `${fileName()}.json`, "application/json");
  });
  addRow();
  addRow();
  loadGames();
  document.body.dataset.ready = "true";
}

start();
