// The lobby: start a partie against the computer, open a table for a person and share its
// invite link, open a chouette for three (POST /api/chouettes) and share its links, and the list
// of games: this browser's own (the seats it keeps, sent to POST /api/tables/mine and /api/chouettes/mine) and the
// open invitations anyone may see (GET /api/tables and /api/chouettes). docs/web.md tells what is where.

import { $, cap, h } from "./dom.js";
import { heldSeats, holdSeat, myGames, tokenOfLink } from "./seat.js";

function storage(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v;
  } catch (e) {
    return fallback;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    // no storage (private browsing): nothing is remembered
  }
}

function rememberSeat(table, url, seat, kind) {
  holdSeat(table, { url, seat, kind });
}

function showError(text) {
  const box = $("lobby-error");
  box.textContent = text || "";
  box.hidden = !text;
}

async function errorText(resp) {
  let detail = "";
  try {
    const body = await resp.json();
    detail = body.message || body.error || body.detail || "";
  } catch (e) {
    // not JSON
  }
  return `The server refused (${resp.status})${detail ? `: ${detail}` : "."}`;
}

async function createTable(body, submit, api = "/api/tables") {
  showError("");
  submit.disabled = true;
  try {
    const resp = await fetch(api, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (!resp.ok) {
      showError(await errorText(resp));
      return null;
    }
    const t = await resp.json();
    rememberSeat(t.table, t.url, t.seat, t.kind === "chouette" ? "chouette" : "partie");
    return t;
  } catch (e) {
    showError("The server cannot be reached. Is `piquet serve` running?");
    return null;
  } finally {
    submit.disabled = false;
  }
}

/** @param {HTMLInputElement} input */
function nameOf(input) {
  const name = input.value.trim();
  if (name) store("piquet.name", name);
  return name || undefined; // the server names a seat with no name given
}

/**
 * @param {HTMLInputElement} [input]
 * @param {HTMLElement} [status]
 */
async function copyInvite(input = /** @type {HTMLInputElement} */ ($("invite-link")), status = $("copy-status")) {
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = "Copied: send it to your adversary.";
  } catch (e) {
    input.focus();
    input.select();
    let ok;
    try {
      ok = document.execCommand("copy");
    } catch (e2) {
      ok = false;
    }
    status.textContent = ok ? "Copied: send it to your adversary." : "Select the link and copy it (Ctrl+C).";
  }
}

// ------------------------------------------------------------------ the games list

function when(updated) {
  if (updated === null || updated === undefined || updated === "") return "";
  let d;
  if (typeof updated === "number") d = new Date(updated < 1e12 ? updated * 1000 : updated);
  else d = new Date(updated);
  if (Number.isNaN(d.getTime())) return String(updated);
  return d.toLocaleString();
}

/** The replay of a game: anyone's once it is finished; while it goes on, only with a seat this browser holds
 * (its token, from the seat's link), and then only what that seat has seen. */
function replayUrl(g, mine) {
  const base = `/t/${encodeURIComponent(g.table)}/replay`;
  if (g.status === "finished") return base;
  const token = mine && mine.url ? tokenOfLink(mine.url) : null;
  return token ? `${base}#token=${encodeURIComponent(token)}` : null;
}

/** An adjourned game in the list: its players have gone; either takes it up from his seat's link. */
const ADJOURNED = "adjourned: taken up from a player's seat";

/** A chouette in the list: its three players, the card's balances, the place of each. */
function chouetteRow(g, seats) {
  const id = g.table;
  const mine = seats[id];
  const balances = g.balances || {};
  const places = g.places || {};
  const status = g.status === "waiting" ? "waiting for a player" : g.status === "adjourned" ? ADJOURNED : g.status;
  const links = [];
  if (mine && mine.url) links.push(h("a", { href: mine.url, class: "button primary", testid: `resume-${id}` }, "Your seat"));
  if (g.status === "finished") {
    links.push(h("a", { href: `/api/chouettes/${encodeURIComponent(id)}/record`, download: `chouette-${id}.json`,
      class: "button", testid: `record-link-${id}` }, "Record"));
  }
  const card = (g.players || []).map((p) => `${p} ${balances[p] > 0 ? "+" : ""}${balances[p] ?? 0}`).join(", ");
  return h("li", { class: "game chouette", testid: `game-row-${id}`, "data-status": g.status || "", "data-kind": "chouette" },
    h("span", { class: "players" }, `Chouette: ${(g.players || []).join(", ")}`),
    h("span", { class: "score", title: "The chouette card, in points" }, card),
    h("span", { class: "meta", title: g.title || "" }, [
      `partie ${g.partie || 1}${places.single ? `, ${places.single} alone` : ""}`, g.title || g.rules, status,
      when(g.updated)].filter(Boolean).join(" \u00b7 ")),
    h("span", { class: "links" }, links));
}

function gameRow(g, seats) {
  if (g.kind === "chouette") return chouetteRow(g, seats);
  const id = g.table;
  const players = g.players || {};
  const scores = g.scores || {};
  const mine = seats[id];
  const score = `${scores.A ?? 0} \u2013 ${scores.B ?? 0}`;
  const status = g.status === "waiting" ? "waiting for the invited player"
    : g.status === "adjourned" ? ADJOURNED : g.status;
  const links = [];
  if (mine && mine.url && g.status !== "finished") {
    links.push(h("a", { href: mine.url, class: "button primary", testid: `resume-${id}` }, "Your seat"));
  }
  if (g.status === "finished") {
    links.push(h("a", { href: `/api/tables/${encodeURIComponent(id)}/record`, download: `piquet-${id}.json`,
      class: "button", testid: `record-link-${id}` }, "Record"));
    if (mine && mine.url) {
      links.push(h("a", { href: mine.url, class: "button", testid: `resume-${id}` }, "Your seat"));
    }
  }
  const replay = replayUrl(g, mine);
  if (replay) links.push(h("a", { href: replay, class: "button", testid: `replay-link-${id}` }, "Replay"));
  return h("li", { class: "game", testid: `game-row-${id}`, "data-status": g.status || "" },
    h("span", { class: "players" }, `${players.A || "A"} \u2013 ${players.B || "B"}`),
    h("span", { class: "score" }, score),
    h("span", { class: "meta", title: g.title || "" }, [g.title || g.rules, status, when(g.updated)]
      .filter(Boolean).join(" \u00b7 ")),
    h("span", { class: "links" }, links));
}

async function loadGames() {
  const playing = $("games-playing");
  const finished = $("games-finished");
  let games;
  try {
    // This browser's own games first, then the open invitations not already among them.
    const lists = await Promise.all([myGames("partie"), myGames("chouette"),
      ...["/api/tables", "/api/chouettes"].map(async (api) => {
        const resp = await fetch(api, { headers: { Accept: "application/json" } });
        if (!resp.ok) throw new Error(await errorText(resp));
        const list = await resp.json();
        return Array.isArray(list) ? list : list.tables || [];
      })]);
    const seen = new Set();
    games = lists.flat().filter((g) => !seen.has(g.table) && seen.add(g.table));
  } catch (e) {
    playing.replaceChildren(h("p", { class: "muted" }, "The games list cannot be loaded."));
    finished.replaceChildren();
    return;
  }
  const seats = heldSeats();
  const byTime = (a, b) => String(b.updated ?? "").localeCompare(String(a.updated ?? ""), undefined, { numeric: true });
  const live = games.filter((g) => g.status !== "finished").sort(byTime);
  const done = games.filter((g) => g.status === "finished").sort(byTime);
  playing.replaceChildren(live.length ? h("ul", { class: "games-list", testid: "games-list" },
    live.map((g) => gameRow(g, seats))) : h("p", { class: "muted" }, "None."));
  finished.replaceChildren(done.length ? h("ul", { class: "games-list", testid: "finished-list" },
    done.map((g) => gameRow(g, seats))) : h("p", { class: "muted" }, "None yet."));
}

// ------------------------------------------------------------------ the rules and their agreements

/** The rules chosen in a form: the select's name, and Piquet au cent's agreements ticked (p. 19): "au-cent+fours". */
function rulesOf(select, fieldset) {
  const name = select.value;
  if (name !== "au-cent") return name;
  const ticked = [...fieldset.querySelectorAll("input[type=checkbox]:checked")].map((c) => c.value);
  return [name, ...ticked].join("+");
}

/** The agreements are shown, and sent, only with Piquet au cent. */
function linkAgreements(select, fieldset) {
  const sync = () => {
    const on = select.value === "au-cent";
    fieldset.hidden = !on;
    fieldset.disabled = !on;
  };
  select.addEventListener("change", sync);
  sync();
}

/** The agreement of a club table, where calls are taken at the player's word (Laws 52-54), if it is ticked: only a
 * table of persons offers it (the server refuses it with the computer). */
function clubOf(checkbox) {
  return /** @type {HTMLInputElement} */ (checkbox).checked ? ["club"] : [];
}

// ------------------------------------------------------------------ a chouette for three (p. 106)

/** The second and third seats: a name, and who plays it, a person (a link) or the computer at a level (the
 * levels as the computer form lists them). */
function seatRows() {
  const box = $("chouette-seats");
  for (const [i, which] of [[2, "second"], [3, "third"]]) {
    const kind = h("select", { id: `c-kind-${i}`, class: "chouette-kind", testid: `chouette-kind-${i}` },
      h("option", { value: "person" }, "a person (send a link)"),
      [.../** @type {HTMLSelectElement} */ ($("level")).options]
        .map((o) => h("option", { value: o.value }, `the computer: ${o.textContent}`)));
    box.append(h("div", { class: "seat-row" },
      h("div", { class: "field" }, h("label", { for: `c-name-${i}` }, `The ${which} player`),
        h("input", { id: `c-name-${i}`, testid: `chouette-name-${i}`, maxlength: "40", placeholder: cap(which) })),
      h("div", { class: "field" }, h("label", { for: `c-kind-${i}` }, "Played by"), kind)));
  }
}

function chouetteSeat(i) {
  const kind = /** @type {HTMLSelectElement} */ ($(`c-kind-${i}`)).value;
  const name = /** @type {HTMLInputElement} */ ($(`c-name-${i}`)).value.trim() || undefined;
  return kind === "person" ? { name, kind } : { name, kind: "computer", level: kind };
}

function showChouette(t) {
  const links = $("chouette-links");
  links.replaceChildren();
  t.seats.forEach((seat, i) => {
    if (i === 0) return;
    if (!seat.url) {
      links.append(h("p", { testid: `chouette-seat-${i + 1}` }, `${seat.name}: the computer (${seat.level}).`));
      return;
    }
    const input = h("input", { readonly: true, testid: `chouette-invite-${i + 1}`, id: `chouette-invite-${i + 1}`,
      value: new URL(seat.url, location.href).href });
    const status = h("span", { class: "muted", role: "status", "aria-live": "polite" });
    links.append(h("div", { testid: `chouette-seat-${i + 1}` },
      h("label", { for: `chouette-invite-${i + 1}` }, `${seat.name}'s link (his seat):`),
      h("div", { class: "copy-row" }, input, h("button", { type: "button", testid: `chouette-copy-${i + 1}`,
        onclick: () => copyInvite(input, status) }, "Copy")), status));
  });
  $("chouette-cut").textContent = t.cut || "";
  /** @type {HTMLAnchorElement} */ ($("chouette-own-seat")).href = t.url;
  $("chouette-invite").hidden = false;
}

// ------------------------------------------------------------------ start

function init() {
  const saved = storage("piquet.name", "");
  /** @type {HTMLInputElement} */ ($("name")).value = saved;
  /** @type {HTMLInputElement} */ ($("name2")).value = saved;
  linkAgreements($("rules"), $("agreements"));
  linkAgreements($("rules2"), $("p-agreements"));

  $("computer-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const submit = ev.submitter || $("computer-form").querySelector("button[type=submit]");
    const t = await createTable({
      opponent: "computer", level: /** @type {HTMLSelectElement} */ ($("level")).value,
      rules: rulesOf($("rules"), $("agreements")),
      name: nameOf(/** @type {HTMLInputElement} */ ($("name"))),
    }, submit);
    if (t) location.assign(t.url);
  });

  $("person-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const submit = ev.submitter || $("person-form").querySelector("button[type=submit]");
    const t = await createTable({ opponent: "person", rules: rulesOf($("rules2"), $("p-agreements")),
      agreements: clubOf($("p-club")), name: nameOf(/** @type {HTMLInputElement} */ ($("name2"))) }, submit);
    if (!t) return;
    const invite = /** @type {HTMLInputElement} */ ($("invite-link"));
    invite.value = new URL(t.invite, location.href).href;
    /** @type {HTMLAnchorElement} */ ($("own-seat-link")).href = t.url;
    $("copy-status").textContent = "";
    $("invite").hidden = false;
    invite.focus();
    invite.select();
    loadGames();
  });

  seatRows();
  /** @type {HTMLInputElement} */ ($("c-name-1")).value = saved;
  $("chouette-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const submit = ev.submitter || $("chouette-form").querySelector("button[type=submit]");
    const you = { name: nameOf(/** @type {HTMLInputElement} */ ($("c-name-1"))), kind: "person" };
    const rules = /** @type {HTMLSelectElement} */ ($("c-rules")).value;
    const t = await createTable({ players: [you, chouetteSeat(2), chouetteSeat(3)], rules,
      agreements: clubOf($("c-club")) }, submit, "/api/chouettes");
    if (!t) return;
    showChouette(t);
    loadGames();
  });

  $("copy-invite").addEventListener("click", () => copyInvite());
  $("refresh-games").addEventListener("click", loadGames);
  loadGames();
}

init();
