// The piquet table in the browser: renders what the server says this seat may see, and sends back
// the player's choice. The page holds no rules: what may be done comes from the VIEW's "options".
//
// The page is /t/{id}#token=T (or table.html?table={id}#token=T; an old ?token=T is moved into the
// fragment, seat.js); it opens the websocket /ws/{id}, sends the token in its first message
// ({"type": "hello", "token": T, "patches": true}), renders every {"type": "state"} message and every
// {"type": "patch"} (what changed since the state before it, applyPatch), shows {"type": "thinking"} and
// {"type": "error"} messages, and reconnects with a growing delay when the socket closes (but
// not after close code 4403, a wrong token, 4404, no such table, 4401, a link revoked, or 4429, a seat
// open in too many windows). docs/web.md tells the rest.
// At /c/{id}#token=T the same page is a seat at a chouette (p. 106): chouette.js adds its places,
// the suggestions and the card, through the hooks marked "chouette" below.

import { backSVG, cardSVG, cardShort, cardWords, parseCard, sortCards, suitSVG } from "./cards.js";
import * as chouette from "./chouette.js";
import { $, cap, clear, h, put } from "./dom.js";
import { bearer, holdSeat, seatLink, seatToken, showSeatToken } from "./seat.js";

// The words of the page (the prompt, the labels of the choices, the talk, the scores' headings) are the
// server's, made by its one narrator (piquet.talk.words): the VIEW's "prompt", each option's "label",
// "lines", "score_labels", "cut"'s "words", the settlement's "headline". None is made here.

/** The kinds of a declaration ACTION or option. */
const DECLARING = ["point", "sequences", "sets"];

/** Every card a declaration option names (its point, its runs or its sets). */
function optionCards(o) {
  if (!o) return [];
  return o.kind === "point" ? o.cards || [] : (o.kind === "sequences" ? o.runs || [] : o.sets || []).flat();
}

/** The option declaring exactly these cards, if any (the items of a declaration never overlap). */
function optionForCards(options, cards) {
  const chosen = new Set(cards);
  return options.find((o) => {
    const named = optionCards(o);
    return named.length === chosen.size && named.every((c) => chosen.has(c));
  }) || null;
}

// ------------------------------------------------------------------ small DOM helpers

/**
 * Card names as small inline chips: "A♥ K♥" with drawn suit symbols.
 * @param {string[]} cards
 * @param {{ sorted?: boolean, testid?: string }} [options]
 */
function chips(cards, { sorted = true, testid } = {}) {
  const list = sorted ? sortCards(cards) : cards;
  return h("span", { class: "chips", testid }, list.map((c) => {
    const p = parseCard(c);
    if (!p) return h("span", { class: "chip" }, c);
    const red = p.suit === "H" || p.suit === "D";
    return h("span", { class: `chip${red ? " red" : ""}`, title: cardWords(c) },
      h("span", { "aria-hidden": "true" }, p.rank), suitSVG(p.suit, { label: cardWords(c) }));
  }));
}

// ------------------------------------------------------------------ where we are

const params = new URLSearchParams(location.search);

/** localStorage, which may be unavailable (private browsing, a locked-down browser). */
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

/** A chouette's seat (its address is /c/{id}): chouette.js draws the rest. */
const C = chouette.isChouette();
const pathMatch = location.pathname.match(/\/[tc]\/([^/?#]+)/);
const tableId = pathMatch ? decodeURIComponent(pathMatch[1]) : params.get("table");
let token = seatToken();

const S = {
  ws: null,
  version: null, // the version of the last state received: an action answers it
  view: null,
  raw: null, // the VIEW as the server sent it (before chouette.adapt): the next patch applies to it
  seat: null,
  connected: false,
  retry: 0,
  retryTimer: null,
  retryAt: 0,
  pingTimer: null,
  fatal: null, // a reason not to reconnect (wrong token, no such table)
  database: null, // why the table waits for its database (the socket stays open; null while it answers)
  selected: new Set(),
  selectionKey: null,
  pending: false, // an action was sent and no answer came yet
  thinking: null, // the seat the computer is deciding for
  thinkingName: null, // at chouette: who is deciding, and what ("act", "deal" or "suggest")
  thinkingKind: null,
  error: null, // {code, message}
  showLastTrick: false,
  showDiscard: false,
  auto: params.get("auto") !== "0" && stored("piquet.auto") !== "0",
  autoFor: null, // the version a forced move was sent for
  autoTimer: null,
  spoken: 0, // talk lines already announced to screen readers
  talkDeal: null,
  lastDealOpen: null,
  notice: null, // a plain note from the page itself (not the server)
  optionsOpen: false, // the list of every declaration is open
  atWord: "", // at a club table, the cards typed for a call at the player's word
  hint: null, // {version, loading | doc | error}: the hint asked for the decision of that version
  relinking: false, // a new link for this seat is being asked: the old socket's close is expected
  exchange: null, // {version, cards}: the exchange asked about before it is sent (Law 24)
};

// ------------------------------------------------------------------ the connection

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const path = C ? "ws/c" : "ws";
  return `${proto}//${location.host}/${path}/${encodeURIComponent(tableId)}`;
}

/** The socket's first message: the seat's token (never in an address), and the name a new guest takes. */
function hello() {
  const name = params.get("name") || stored("piquet.name");
  return name ? { type: "hello", token, name, patches: true } : { type: "hello", token, patches: true };
}

/** The VIEW after a patch: members set or dropped, items appended to the lists that grow (events, lines). */
function applyPatch(view, patch) {
  const next = { ...view, ...(patch.set || {}) };
  for (const key of patch.drop || []) delete next[key];
  for (const [key, items] of Object.entries(patch.append || {})) next[key] = (view[key] || []).concat(items);
  return next;
}

function connect() {
  if (S.fatal) return;
  clearTimeout(S.retryTimer);
  S.retryTimer = null;
  let ws;
  try {
    ws = new WebSocket(wsUrl());
  } catch (e) {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  const opened = token; // the token this socket was opened with
  renderConnection("connecting");
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    ws.send(JSON.stringify(hello()));
    S.connected = true;
    S.retry = 0;
    renderConnection("open");
    clearInterval(S.pingTimer);
    S.pingTimer = setInterval(() => send({ type: "ping" }), 25000);
  });
  ws.addEventListener("message", (ev) => {
    if (S.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", (ev) => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.connected = false;
    S.pending = false;
    clearInterval(S.pingTimer);
    if (ev.code === 4403) {
      S.fatal = "This link's token does not open a seat at this table (wrong token). "
        + "Use the link you were given, or start a new partie from the lobby.";
    } else if (ev.code === 4404) {
      S.fatal = "There is no such table on this server.";
    } else if (ev.code === 4401 && S.relinking) {
      return; // this page asked for the new link: it connects with it as soon as it has it
    } else if (ev.code === 4401 && opened !== token) {
      scheduleReconnect(); // the old link's socket, closed after this page took the new one
      return;
    } else if (ev.code === 4401) {
      S.fatal = "This seat's link was replaced by a new one: the link of this page no longer opens the seat. "
        + "Use the new link (whoever holds the seat was given it).";
    } else if (ev.code === 4429) {
      S.fatal = "This seat is open in too many windows or tabs already. Close one of them, then reload this page.";
    }
    if (S.fatal) {
      renderConnection("fatal");
      render();
      return;
    }
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  const base = Math.min(15000, 500 * 2 ** S.retry);
  const delay = Math.round(base * (0.75 + Math.random() * 0.5));
  S.retry += 1;
  S.retryAt = Date.now() + delay;
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(connect, delay);
  renderConnection("waiting");
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
  S.ws.send(JSON.stringify(msg));
  return true;
}

function sendAction(action) {
  if (S.pending || S.version === null) return;
  // At chouette the adviser's choice is sent as a suggestion (chouette.messageFor).
  sendMessage(C ? chouette.messageFor(S.view, S.version, action) : { type: "action", version: S.version, action });
}

/** Send a message that answers the state shown (an action, a suggestion, or at chouette "leave",
 * "next_partie", "end"); the page waits for the answer. */
function sendMessage(msg) {
  if (S.pending || S.version === null) return;
  clearTimeout(S.autoTimer);
  if (typeof msg === "string") msg = { type: msg, version: S.version };
  if (!send(msg)) {
    showError({ code: "connection", message: "Not connected to the server: your choice was not sent. "
      + "The page reconnects by itself; choose again then." });
    return;
  }
  S.pending = true;
  S.error = null;
  S.notice = null;
  render();
}

function onMessage(msg) {
  if (msg.type === "patch") {
    if (S.raw === null || msg.since !== S.version) {
      // Not on the state this page holds (never so on one socket): a fresh connection sends it whole.
      if (S.ws) S.ws.close(4000, "patch");
      return;
    }
    onMessage({ type: "state", version: msg.version, seat: msg.seat, view: applyPatch(S.raw, msg) });
  } else if (msg.type === "state") {
    const firstOrNew = S.version === null || msg.version !== S.version;
    S.version = msg.version;
    S.seat = msg.seat || (msg.view && msg.view.seat) || S.seat;
    S.raw = msg.view || null;
    S.view = msg.view ? (C ? chouette.adapt(msg.view) : msg.view) : null;
    S.pending = false;
    S.thinking = null;
    if (firstOrNew && S.error && S.error.code !== "token") S.error = null;
    // A state comes only over an open connection: "not connected" is no longer true.
    if (S.error && S.error.code === "connection") S.error = null;
    rememberSeat();
    render();
  } else if (msg.type === "thinking") {
    S.thinking = msg.seat || "?";
    S.thinkingName = msg.name || null;
    S.thinkingKind = msg.kind || null;
    renderStatus();
  } else if (msg.type === "database") {
    // The table's database has gone (moves are refused as not saved) or is back (the state follows).
    S.database = msg.up ? null : msg.message || "The table waits for its database.";
    if (msg.up && S.error && S.error.code === "unsaved") S.error = null;
    renderConnection(S.connected ? "open" : "waiting");
    render();
  } else if (msg.type === "error") {
    S.pending = false;
    showError({ code: msg.code || "error", message: msg.message || "The server refused that." });
    if (msg.code === "stale" && S.ws) {
      // Our state is behind the table's: a fresh connection brings the current state.
      S.ws.close(4000, "stale");
    }
  }
}

const ERROR_WORDS = {
  illegal: "Not allowed", turn: "Not your turn", stale: "The table had moved on",
  malformed: "The server could not read that", token: "Wrong seat", unsaved: "Not saved",
};

function showError(err) {
  const lead = ERROR_WORDS[err.code];
  const text = String(err.message || "");
  S.error = { code: err.code, message: lead ? `${lead}: ${text}` : cap(text) };
  S.pending = false;
  render();
  const box = $("error");
  if (box && !box.hidden) box.focus({ preventScroll: true });
}

function rememberSeat() {
  const v = S.view || {};
  holdSeat(tableId, {
    url: seatLink(C ? "c" : "t", tableId, token),
    seat: S.seat, status: C && v.chouette ? v.chouette.status : v.status || null, kind: C ? "chouette" : "partie",
  });
}

/** Revoke this seat's link and take a new one (POST /api/{tables|chouettes}/{id}/new-link): the old link stops
 * opening the seat at once, and every window open with it is closed; this page goes on with the new one. */
async function newLink() {
  if (S.relinking) return;
  S.relinking = true;
  const status = $("new-link-status");
  status.textContent = "Asking for a new link…";
  try {
    const r = await fetch(`/api/${C ? "chouettes" : "tables"}/${encodeURIComponent(tableId)}/new-link`,
      { method: "POST", headers: { Accept: "application/json", ...bearer(token) } });
    const doc = await r.json();
    if (!r.ok) {
      status.textContent = `No new link: ${doc.error || r.status}.`;
      return;
    }
    token = doc.token;
    showSeatToken(token);
    rememberSeat();
    const input = /** @type {HTMLInputElement} */ ($("new-link-url"));
    input.value = new URL(doc.url, location.href).href;
    input.hidden = false;
    status.textContent = "A new link for your seat: the old one no longer opens it. This page's address is the new "
      + "link; keep it (or copy it from here).";
  } catch (e) {
    status.textContent = "No new link: the server could not be reached.";
  } finally {
    S.relinking = false;
    if (S.ws) S.ws.close(4000, "new link");
    else connect();
  }
}

// ------------------------------------------------------------------ reading the view

function other(seat) {
  return seat === "A" ? "B" : "A";
}

function otherRole(role) {
  return role === "elder" ? "younger" : "elder";
}

function playerName(seat) {
  const v = S.view;
  return (v && v.players && v.players[seat]) || `Seat ${seat}`;
}

function optionsOf(v) {
  if (!v || !v.options) return [];
  return (Array.isArray(v.options) ? v.options : [v.options]).filter((o) => o && typeof o === "object");
}

/** What this seat may do now, sorted by kind. */
function choices(v) {
  const opts = optionsOf(v);
  const c = { discard: null, looks: [], deal: null, deals: [], dealBy: [], play: null, declarations: [], category: null };
  for (const o of opts) {
    if (o.kind === "discard" && !Array.isArray(o.cards)) c.discard = o;
    else if (o.kind === "look") c.looks.push(o);
    else if (o.kind === "deal") {
      c.deal = o;
      c.deals.push(o);
    } else if (o.kind === "deal_by") c.dealBy.push(o);
    else if (o.kind === "play") {
      c.play = c.play || new Set();
      if (o.label) c.playLabel = o.label; // the one card that may be played: "Play the king of hearts"
      for (const card of o.cards || (o.card ? [o.card] : [])) c.play.add(card);
    } else if (DECLARING.includes(o.kind)) {
      c.declarations.push(o);
      c.category = o.kind;
    }
  }
  if (!v || !v.my_turn) {
    return { discard: null, looks: [], deal: null, deals: [], dealBy: [], play: null, declarations: [], category: null };
  }
  return c;
}

function myRole(v) {
  return v.role || (v.roles && v.roles.elder === S.seat ? "elder" : "younger");
}

/** The seat in each role this deal. */
function roleSeats(v) {
  if (v.roles && v.roles.elder) return v.roles;
  const me = myRole(v);
  return me === "elder" ? { elder: S.seat, younger: other(S.seat) } : { elder: other(S.seat), younger: S.seat };
}

function namesByRole(v) {
  const seats = roleSeats(v);
  const out = {};
  for (const r of ["elder", "younger"]) out[r] = seats[r] === S.seat ? "You" : playerName(seats[r]);
  return out;
}

function partieTotals(v) {
  if (v.totals && v.totals.partie) return v.totals.partie;
  const hist = v.deal_history || [];
  if (hist.length && hist[hist.length - 1].partie) return hist[hist.length - 1].partie;
  return (v.partie && v.partie.scores) || { A: 0, B: 0 };
}

function dealTotals(v) {
  if (v.totals && v.totals.deal) return v.totals.deal;
  const seats = roleSeats(v);
  const sum = (r) => Object.values((v.scores && v.scores[r]) || {}).reduce((a, b) => a + b, 0);
  return { [seats.elder]: sum("elder"), [seats.younger]: sum("younger") };
}

function adversaryCount(v) {
  if (v.phase === "cut") return 0; // nothing is dealt until the winner of the cut has chosen (Law 4)
  const them = otherRole(myRole(v));
  const played = (v.events || []).filter((e) => e.kind === "play" && e.role === them).length;
  return Math.max(0, 12 - played);
}

function adversaryKnown(v) {
  const them = otherRole(myRole(v));
  const played = new Set((v.events || []).filter((e) => e.kind === "play").map((e) => e.card));
  const known = new Set();
  for (const e of v.events || []) {
    if (e.kind === "show" && e.role === them) for (const c of e.cards || []) if (!played.has(c)) known.add(c);
  }
  return [...known];
}

/** A trick as the server gives it ("last_trick", "table_trick"), its winner as a role (null while in play). */
function trickOf(v, t) {
  if (!t || !t.plays) return null;
  const seats = roleSeats(v);
  const roleOfSeat = (s) => (seats.elder === s ? "elder" : "younger");
  return {
    number: t.number,
    plays: t.plays.map((p) => ({ role: p.role || roleOfSeat(p.seat), card: p.card })),
    winner: t.winner ? roleOfSeat(t.winner) : null,
  };
}

// ------------------------------------------------------------------ rendering

function render() {
  const v = S.view;
  const root = $("table");
  const focus = rememberFocus();
  root.dataset.version = S.version === null ? "" : String(S.version);
  root.dataset.phase = v ? v.phase || "" : "";
  root.dataset.myTurn = v && v.my_turn && !v.suggesting ? "true" : "false";
  root.dataset.status = v ? v.status || "" : "";
  root.dataset.seat = S.seat || "";
  root.dataset.pending = S.pending ? "true" : "false";
  root.dataset.rules = v && v.partie ? v.partie.rules || "" : "";
  root.classList.toggle("has-view", Boolean(v));
  renderError();
  renderFatal();
  if (v) {
    checkSelection(v);
    computeTalk(v);
    renderHeader(v);
    renderOpponent(v);
    renderCentre(v);
    renderMe(v);
    renderHand(v);
    renderActions(v);
    renderTalk(v);
    renderScores(v);
    renderScoreCard(v);
    renderLastDeal(v);
    renderGameNews(v);
    renderDiscardPanel(v);
    renderFinish(v);
    renderSitting(v);
    if (C) chouette.render(v, hooks());
    scheduleForced(v);
  }
  renderStatus();
  restoreFocus(focus);
}

function rememberFocus() {
  const a = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!a || a === document.body) return null;
  return { card: a.dataset ? a.dataset.card : null, testid: a.dataset ? a.dataset.testid : null,
    inHand: Boolean(a.closest && a.closest("#hand")), inActions: Boolean(a.closest && a.closest("#actions")) };
}

function restoreFocus(f) {
  if (!f) return;
  if (document.activeElement === $("actions")) {
    // Waiting in the panel after a choice: go to the next choice as soon as there is one.
    const next = /** @type {HTMLButtonElement | null} */ (document.querySelector("#actions button:not(:disabled)"));
    if (next) next.focus({ preventScroll: true });
    return;
  }
  if (document.activeElement && document.activeElement !== document.body
    && document.body.contains(document.activeElement)) return;
  let e = null;
  if (f.inHand) {
    if (f.card) e = document.querySelector(`#hand [data-card="${f.card}"]`);
    if (!e) e = document.querySelector("#hand button[tabindex='0']");
  }
  if (!e && f.testid) e = document.querySelector(`[data-testid="${f.testid}"]`);
  if ((!e || e.disabled) && f.inActions) {
    // The button used is gone (the choice was made): go on to the next choice, or the panel.
    e = document.querySelector("#actions button:not(:disabled)") || $("actions");
  }
  if (e && !e.disabled) e.focus({ preventScroll: true });
}

function renderConnection(state) {
  const e = $("connection");
  if (!e) return;
  e.dataset.state = state === "open" && S.database ? "database" : state;
  e.title = state === "open" && S.database ? S.database : "";
  const now = $("reconnect-now");
  if (state === "open") e.textContent = S.database ? "The table waits for its database" : "Connected";
  else if (state === "connecting") e.textContent = "Connecting\u2026";
  else if (state === "fatal") e.textContent = "Not connected";
  else {
    const secs = Math.max(1, Math.round((S.retryAt - Date.now()) / 1000));
    e.textContent = `Connection lost: trying again in ${secs} s`;
  }
  if (now) now.hidden = state !== "waiting";
  renderStatus();
}

function renderFatal() {
  const box = $("fatal");
  box.hidden = !S.fatal;
  $("fatal-text").textContent = S.fatal || "";
}

function renderError() {
  const box = $("error");
  box.hidden = !S.error || Boolean(S.fatal);
  if (S.error) {
    $("error-text").textContent = S.error.message;
    box.dataset.code = S.error.code;
  }
}

function renderStatus() {
  const e = $("status");
  const th = $("thinking");
  const v = S.view;
  let text;
  if (S.fatal) text = S.fatal;
  else if (!v) text = S.connected ? "Waiting for the table\u2026" : "Connecting to the table\u2026";
  else if (v.status === "adjourned") text = v.prompt || "Adjourned.";
  else if (C && chouette.statusText(v, chouetteWords()) !== null) text = chouette.statusText(v, chouetteWords());
  else if (v.status === "finished") text = "The partie is over.";
  else if (S.pending) text = "Sent\u2026";
  else if (v.turn) text = `${v.turn} ${v.prompt || ""}`; // "Your turn.", "Ann's turn.": the server's words
  else text = v.prompt || "";
  if (v && v.status === "waiting" && !v.my_turn && !C) {
    text += " (Your adversary has not opened the invite link yet.)";
  }
  if (e.textContent !== text) e.textContent = text;
  th.hidden = !S.thinking;
  if (S.thinking) $("thinking-text").textContent = `${S.thinkingName || playerName(S.thinking)} is thinking`;
  // A game of so many up: Piquet au cent; three players: chouette.
  const game = C ? "Chouette" : v && v.game ? "Piquet au cent" : "Piquet";
  document.title = v && v.my_turn && !v.suggesting && v.status !== "finished" && v.turn
    ? `\u25cf ${v.turn.replace(/\.$/, "")} \u2014 ${game}`
    : `${game} \u2014 the table`;
}

function otherName(v) {
  return playerName(other(S.seat || (v && v.seat) || "A"));
}

/** What chouette.js is given to draw with and to send by. */
function hooks() {
  return { button, sendAction, send: sendMessage, tableId };
}

function chouetteWords() {
  return { pending: S.pending, thinking: S.thinking ? S.thinkingKind || "act" : null,
    thinkingName: S.thinkingName || (S.thinking ? playerName(S.thinking) : ""),
    prompt: (v) => v.prompt || "" };
}

/** A choice's label; the adviser's choices are suggestions (chouette). */
function actLabel(label) {
  return S.view && S.view.suggesting ? h("span", {}, "Suggest: ", label) : label;
}

function renderHeader(v) {
  const p = v.partie || {};
  const totals = partieTotals(v);
  const me = S.seat;
  const rules = h("span", { class: "rules", testid: "rules", title: v.title || "" }, ` \u00b7 ${v.title || p.rules || ""}`);
  const sep = () => h("span", { class: "sep" }, " \u00b7 ");
  const g = v.game;
  if (g) {
    // A game of a hundred up (Piquet au cent): the game's score where the partie's would be, and the games won.
    const tally = g.tally || {};
    put(clear($("partie-line")),
      h("span", { testid: "deal-number" }, p.deal_number ? `Game ${g.number}, deal ${p.deal_number}` : `Game ${g.number}`),
      sep(),
      h("span", { testid: "partie-scores", title: `The game: the first to ${g.goal} wins it` },
        `Game (to ${g.goal}): `, h("b", {}, `You ${totals[me] ?? 0}`), " \u2013 ",
        h("b", {}, `${otherName(v)} ${totals[other(me)] ?? 0}`)),
      sep(),
      h("span", { testid: "games-tally", title: `${g.to_win} games win the partie; a double counts two` },
        "Games: ", h("b", {}, `You ${tally[me] ?? 0}`), " \u2013 ", h("b", {}, `${otherName(v)} ${tally[other(me)] ?? 0}`),
        ` (${g.to_win} to win)`),
      rules);
    return;
  }
  const deal = p.deal_number ? `Deal ${p.deal_number} of ${p.deals || "?"}` : "";
  const dbl = p.multiplier > 1 ? " (counts double)" : "";
  put(clear($("partie-line")),
    h("span", { testid: "deal-number" }, deal + dbl),
    sep(),
    h("span", { testid: "partie-scores" },
      "Partie: ", h("b", {}, `You ${totals[me] ?? 0}`), " \u2013 ",
      h("b", {}, `${otherName(v)} ${totals[other(me)] ?? 0}`)),
    rules,
  );
}

function roleWords(role) {
  return role === "elder" ? "elder hand" : "younger hand";
}

function renderOpponent(v) {
  const box = $("opponent");
  const role = otherRole(myRole(v));
  const n = adversaryCount(v);
  const won = v.tricks_won ? v.tricks_won[role] ?? 0 : 0;
  const count = S.talk ? S.talk.count[role] : 0;
  const backs = h("div", { class: "backs", testid: "opponent-hand", "aria-label": `${n} card${n === 1 ? "" : "s"}` });
  backs.style.setProperty("--n", String(Math.max(n, 1)));
  for (let i = 0; i < n; i++) backs.append(backSVG({ label: i === 0 ? `${cap(otherName(v))}'s cards, face down` : "" }));
  backs.querySelectorAll("svg:not(:first-child)").forEach((s) => s.setAttribute("aria-hidden", "true"));
  const known = adversaryKnown(v);
  put(clear(box), 
    h("div", { class: "who" },
      h("span", { class: "name", testid: "opponent-name" }, (C && chouette.otherLabel(v)) || otherName(v)),
      presence(v, other(S.seat || v.seat || "A")),
      v.phase === "cut" ? null : h("span", { class: "role" }, roleWords(role)),
      h("span", { class: "count", testid: "opponent-card-count" }, `${n} card${n === 1 ? "" : "s"}`),
      v.phase === "play" || v.phase === "done" ? h("span", { class: "tricks", testid: "opponent-tricks" },
        `tricks ${won}`) : null,
      h("span", { class: "called", testid: "opponent-count", title: "his count this deal, as called" },
        `${count} this deal`)),
    backs,
    known.length ? h("div", { class: "known", testid: "opponent-known" }, "Shown, not yet played: ",
      chips(known)) : null,
  );
}

/** Whether the person at a seat is connected now, by his name (none for the computer, always there). */
function presence(v, seat) {
  if (!v.connected || !(seat in v.connected) || v.opponent === "computer") return null;
  const here = Boolean(v.connected[seat]);
  return h("span", { class: "presence", testid: "opponent-presence", "data-connected": String(here),
    title: here ? "connected to the table now" : "not connected: he has closed the page or lost the connection" },
  here ? "at the table" : "not connected");
}

/** The sitting: an adjourned table and the button that takes it up; a seat left empty by a person and the
 * button that adjourns the table (docs/web.md, "Presence and adjournment"). */
function renderSitting(v) {
  const box = $("sitting");
  const what = C ? "chouette" : "partie";
  let gone = [];
  if (C && v.chouette) {
    gone = (v.chouette.players || []).filter((p) => p.kind === "person" && p.joined && !p.connected
      && p.name !== v.chouette.me).map((p) => p.name);
  } else if (v.connected && v.opponent !== "computer" && v.connected[other(S.seat)] === false) {
    gone = [otherName(v)];
  }
  const sit = (type) => () => {
    if (!send({ type })) {
      showError({ code: "connection", message: "Not connected to the server: nothing was sent. "
        + "The page reconnects by itself; try again then." });
    }
  };
  let content = null;
  if (v.status === "adjourned") {
    content = [h("span", {}, `The ${what} is adjourned. `),
      button(`Take up the ${what}`, "take-up", sit("take_up"), { primary: true })];
  } else if (v.status === "playing" && gone.length) {
    content = [h("span", {}, `${gone.join(", ")} ${gone.length > 1 ? "have" : "has"} left the table. `),
      button(`Adjourn the ${what}`, "adjourn", sit("adjourn"))];
  }
  box.hidden = !content;
  box.dataset.state = v.status === "adjourned" ? "adjourned" : content ? "gone" : "";
  put(clear(box), content);
}

function renderMe(v) {
  const role = myRole(v);
  const won = v.tricks_won ? v.tricks_won[role] ?? 0 : 0;
  const count = S.talk ? S.talk.count[role] : 0;
  put(clear($("me-line")), 
    h("span", { class: "name", testid: "my-name" }, (C && chouette.meLabel(v))
      || (["you", "player"].includes(playerName(S.seat).toLowerCase()) ? "You" : `You (${playerName(S.seat)})`)),
    h("span", { class: "role", testid: "my-role" }, v.phase === "cut" ? "" : roleWords(role)),
    v.phase === "play" || v.phase === "done" ? h("span", { class: "tricks", testid: "my-tricks" },
      `tricks ${won}`) : null,
    h("span", { class: "called", testid: "my-count", title: "your count this deal, as called" },
      `${count} this deal`),
  );
}

function renderCentre(v) {
  // The stock.
  const stock = clear($("stock"));
  const left = typeof v.stock_left === "number" ? v.stock_left : 0;
  const pile = h("div", { class: "pile", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(left, 8); i++) {
    const b = backSVG({ label: "" });
    b.style.setProperty("--i", String(i));
    pile.append(b);
  }
  if (v.phase === "cut") { // the pack, not yet dealt
    stock.append(pile, h("div", { class: "label", testid: "stock-count" }, "The pack: not yet dealt"));
    return;
  }
  stock.append(
    left ? pile : h("div", { class: "pile empty", "aria-hidden": "true" }),
    h("div", { class: "label", testid: "stock-count" }, left ? `Stock: ${left} card${left === 1 ? "" : "s"}`
      : "Stock: none"),
  );
  if ((v.seen_left || []).length) {
    stock.append(h("div", { class: "seen", testid: "seen-left" }, "Seen: ", chips(v.seen_left)));
  }

  // The trick in the middle: the card led, or the trick just completed until the next lead.
  const trick = clear($("trick"));
  const names = namesByRole(v);
  const cur = trickOf(v, v.table_trick);
  let shown = null;
  let caption = "";
  if (cur && cur.plays.length === 1) {
    shown = cur;
    caption = `Trick ${cur.number}`;
  } else if (cur && cur.plays.length === 2) {
    shown = cur;
    caption = `Trick ${cur.number}: ${cur.winner === myRole(v) ? "your trick" : `${names[cur.winner]}'s trick`}`;
  }
  trick.classList.toggle("complete", Boolean(shown && shown.plays.length === 2));
  if (shown) {
    for (const p of shown.plays) {
      const mine = p.role === myRole(v);
      trick.append(h("figure", { class: `played ${mine ? "mine" : "theirs"}`,
        testid: `trick-card-${p.card}` },
      cardSVG(p.card, { label: `${mine ? "you" : names[p.role]}: ${cardWords(p.card)}` }),
      h("figcaption", {}, mine ? "You" : names[p.role])));
    }
    trick.append(h("p", { class: "caption", testid: "trick-caption" }, caption));
  } else if (v.phase === "play") {
    trick.append(h("p", { class: "caption" }, v.my_turn ? "Your lead." : `${otherName(v)} to lead.`));
  } else if (v.status !== "finished") {
    trick.append(h("p", { class: "caption phase", testid: "phase" }, phaseTitle(v)));
  }
  if (v.status === "finished" || v.phase === "done") trick.append(h("p", { class: "caption" }, "The deal is over."));

  // The last trick, on demand.
  const lt = trickOf(v, v.last_trick);
  const btn = /** @type {HTMLButtonElement} */ ($("last-trick-button"));
  btn.disabled = !lt;
  btn.setAttribute("aria-expanded", S.showLastTrick && lt ? "true" : "false");
  const box = clear($("last-trick"));
  box.hidden = !(S.showLastTrick && lt);
  if (lt && S.showLastTrick) {
    box.append(h("button", { type: "button", class: "close", testid: "close-last-trick",
      "aria-label": "Close the last trick", onclick: () => { S.showLastTrick = false; render(); $("last-trick-button").focus(); } },
    "Close"));
    box.append(h("h3", {}, `Last trick (trick ${lt.number}), ${lt.winner === myRole(v) ? "yours"
      : `${names[lt.winner]}'s`}`));
    const row = h("div", { class: "row" });
    for (const p of lt.plays) {
      row.append(h("figure", { class: "played small", testid: `last-trick-card-${p.card}` },
        cardSVG(p.card), h("figcaption", {}, p.role === myRole(v) ? "You" : names[p.role])));
    }
    box.append(row);
  }
}

function phaseTitle(v) {
  const p = v.phase || "";
  if (p.endsWith("discard")) return "The exchange";
  if (p.endsWith("look")) return "The cards left";
  if (p.includes("point")) return "The calling: the point";
  if (p.includes("sequences")) return "The calling: sequences";
  if (p.includes("sets")) return "The calling: quatorzes and trios";
  if (p === "play") return "The play";
  if (p === "done") return "The deal is over";
  return "";
}

/** Keep the selection while the same decision is pending; clear it when the decision changes. */
function checkSelection(v) {
  const key = `${v.partie ? v.partie.deal_number : ""}:${v.phase}:${v.my_turn}`;
  if (key !== S.selectionKey) {
    S.selectionKey = key;
    S.selected.clear();
    S.optionsOpen = false;
    S.atWord = "";
  }
  const hand = new Set(v.hand || []);
  for (const c of [...S.selected]) if (!hand.has(c)) S.selected.delete(c);
}

function handMode(v) {
  if (!v.my_turn || S.pending || v.status === "finished") return "idle";
  const c = choices(v);
  if (c.discard) return "discard";
  if (c.declarations.length) return "declare";
  if (c.play) return "play";
  return "idle";
}

function renderHand(v) {
  const hand = clear($("hand"));
  const cards = sortCards(v.hand || []);
  const mode = handMode(v);
  const c = choices(v);
  hand.dataset.mode = mode;
  hand.style.setProperty("--n", String(Math.max(cards.length, 1)));
  hand.style.setProperty("--gaps", String(Math.max(cards.length - 1, 1)));
  hand.setAttribute("aria-label", `Your hand, ${cards.length} card${cards.length === 1 ? "" : "s"}`
    + (mode === "discard" ? ": choose the cards to discard" : mode === "play" ? ": choose a card to play"
      : mode === "declare" ? ": you may choose the cards to declare" : ""));
  let focusIndex = 0;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && active.dataset ? active.dataset.card : null;
  cards.forEach((card, i) => {
    const legal = mode === "play" && c.play.has(card);
    const selected = S.selected.has(card);
    const btn = h("button", {
      type: "button",
      class: `card${selected ? " selected" : ""}${legal ? " legal" : ""}${mode === "play" && !legal ? " illegal" : ""}`,
      testid: legal ? `play-card-${card}` : `card-${card}`,
      "data-card": card,
      "data-legal": mode === "play" ? String(legal) : null,
      "aria-pressed": mode === "discard" || mode === "declare" ? String(selected) : null,
      "aria-label": cardWords(card) + (legal ? ", may be played" : "") + (selected ? ", selected" : ""),
      "aria-disabled": mode === "play" && !legal ? "true" : null,
      tabindex: "-1",
      onclick: () => onCardClick(card),
      onkeydown: (ev) => onHandKey(ev, i),
    }, cardSVG(card));
    if (card === focused) focusIndex = i;
    hand.append(btn);
  });
  const buttons = hand.querySelectorAll("button");
  if (buttons.length) {
    if (!focused) {
      const firstLegal = [...buttons].findIndex((b) => b.classList.contains("legal"));
      if (firstLegal >= 0) focusIndex = firstLegal;
    }
    buttons[Math.min(focusIndex, buttons.length - 1)].tabIndex = 0;
  }
  $("hand-empty").hidden = cards.length > 0;
}

function onHandKey(ev, i) {
  const buttons = [...$("hand").querySelectorAll("button")];
  let j = null;
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(i + 1, buttons.length - 1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(i - 1, 0);
  else if (ev.key === "Home") j = 0;
  else if (ev.key === "End") j = buttons.length - 1;
  else if (ev.key === "Escape" && S.selected.size) {
    S.selected.clear();
    render();
    ev.preventDefault();
    return;
  }
  if (j === null) return;
  ev.preventDefault();
  buttons.forEach((b, k) => { b.tabIndex = k === j ? 0 : -1; });
  buttons[j].focus();
}

function onCardClick(card) {
  const v = S.view;
  if (!v) return;
  const mode = handMode(v);
  const c = choices(v);
  S.notice = null;
  if (mode === "play") {
    if (c.play.has(card)) sendAction({ kind: "play", card });
    else {
      S.notice = `The ${cardWords(card)} cannot be played now: play one of the highlighted cards.`;
      render();
    }
    return;
  }
  if (mode === "discard") {
    S.exchange = null; // the cards change: the question put is withdrawn
    if (S.selected.has(card)) S.selected.delete(card);
    else if (S.selected.size >= c.discard.max) {
      S.notice = `${c.discard.label}: unselect a card first.`;
    } else S.selected.add(card);
    render();
    return;
  }
  if (mode === "declare") {
    if (S.selected.has(card)) S.selected.delete(card);
    else S.selected.add(card);
    render();
  }
}

// ------------------------------------------------------------------ the actions panel

/**
 * A button of the actions panel.
 * @param {string} label
 * @param {string} testid
 * @param {(event: MouseEvent) => void} onclick
 * @param {{ primary?: boolean, disabled?: boolean, describedby?: string }} [options]
 */
function button(label, testid, onclick, { primary = false, disabled = false, describedby } = {}) {
  return h("button", { type: "button", class: primary ? "primary" : "", testid, onclick,
    disabled: disabled || S.pending, "aria-describedby": describedby }, label);
}

function renderActions(v) {
  const box = clear($("actions"));
  const c = choices(v);
  const prompt = h("p", { class: "prompt", testid: "prompt", id: "prompt" });
  box.append(prompt);
  if (S.notice) box.append(h("p", { class: "notice", testid: "notice", role: "status" }, S.notice));
  if (v.status === "finished") {
    prompt.textContent = "The partie is over.";
    return;
  }
  if (!v.my_turn) {
    const thinker = S.thinkingName || playerName(S.thinking);
    prompt.textContent = S.thinking ? `${thinker} is thinking\u2026` : v.status === "adjourned" ? v.prompt
      : C ? chouette.waitingText(v)
      : v.to_move ? `Waiting for ${otherName(v)}.` : "";
    return;
  }
  prompt.textContent = (v.suggesting ? `Your advice to ${v.chouette.places.playing}. ` : "") + (v.prompt || "");
  if (S.pending) {
    box.append(h("p", { class: "muted" }, "Sent; waiting for the table\u2026"));
    return;
  }
  if (!C && !v.suggesting) renderHint(box);
  if (c.deal) {
    // The winner of the cut deals or not (Law 4); dealing, he says how, by twos or threes (Law 9): the options
    // carry "by" then, one button each; at chouette (by twos) a single "Deal". The labels are the server's.
    const yes = c.deals.filter((o) => o.deal).map((o, i) => button(o.label,
      !o.by || o.by === 2 ? "deal-yes" : `deal-yes-${o.by}`, () => sendAction({ kind: "deal", deal: true, by: o.by }),
      { primary: i === 0 }));
    const no = c.deals.find((o) => !o.deal);
    box.append(h("div", { class: "buttons" }, ...yes,
      no ? button(no.label, "deal-no", () => sendAction({ kind: "deal", deal: false })) : null));
    return;
  }
  if (c.dealBy.length) {
    // The adversary let you deal: you deal by two or by three cards at a time, for the whole partie (Law 9).
    box.append(h("div", { class: "buttons" }, ...c.dealBy.map((o, i) =>
      button(o.label, `deal-by-${o.by}`, () => sendAction({ kind: "deal_by", by: o.by }), { primary: i === 0 }))));
    return;
  }
  if (c.discard) {
    const n = S.selected.size;
    const { min = 1, max = 5, labels = [], questions = [] } = c.discard;
    if (S.exchange && S.exchange.version === S.version) {
      renderExchangeQuestion(box, S.exchange.cards, questions);
      return;
    }
    const ok = n >= Math.max(min, 1) && n <= max;
    const sel = n ? `Selected: ${sortCards([...S.selected]).map(cardShort).join(" ")} \u2014 you take in as many.`
      : `${c.discard.label}: click them in your hand.`;
    box.append(
      h("p", { class: "selection", testid: "selection", "aria-live": "polite" }, sel),
      h("div", { class: "buttons" },
        button(actLabel(labels[Math.min(n, labels.length - 1)] || "Discard"), "discard-button",
          () => askExchange(sortCards([...S.selected]), questions), { primary: true, disabled: !ok }),
        // The younger need not discard at Piquet au cent (p. 17): the options say so with "min": 0.
        min === 0 ? button(actLabel("Keep all (discard none)"), "keep-all", () => askExchange([], questions),
          { primary: !n }) : null,
        button("Clear", "clear-selection", () => { S.selected.clear(); render(); }, { disabled: !n })),
    );
    return;
  }
  if (c.looks.length) {
    // Look at the cards left, or not (Laws 33, 36): the labels are the server's; the elder's look is his alone.
    const elder = myRole(v) === "elder";
    box.append(h("div", { class: "buttons" }, ...c.looks.map((o) => button(actLabel(o.label),
      o.look ? "look-yes" : "look-no", () => sendAction({ kind: "look", look: o.look }),
      { primary: o.look === elder }))));
    return;
  }
  if (c.declarations.length) {
    renderDeclaring(v, c, box);
    return;
  }
  if (c.play) {
    const forced = forcedPlay(v);
    if (forced) {
      if (S.auto && !v.suggesting) prompt.textContent += " It is played for you.";
      box.append(h("div", { class: "buttons" },
        button(actLabel(c.playLabel || forced), "play-forced", () => sendAction({ kind: "play", card: forced }),
          { primary: true })));
      return;
    }
    const how = c.play.size === (v.hand || []).length
      ? "Click a card, or move with the arrow keys and press Enter."
      : "The highlighted cards may be played: click one, or move with the arrow keys and press Enter.";
    box.append(h("p", { class: "muted" }, v.suggesting ? `To suggest a card: ${how[0].toLowerCase()}${how.slice(1)}` : how));
  }
}

/**
 * Before the exchange is sent, ask (Law 24: once the stock is touched, the exchange stands), as the terminal
 * does; the server's "questions" give the words. A suggestion (the adviser at chouette) touches no stock, and a
 * server that sends no questions is answered at once.
 * @param {string[]} cards
 * @param {string[]} questions
 */
function askExchange(cards, questions) {
  if (!questions.length || (S.view && S.view.suggesting)) {
    sendAction({ kind: "discard", cards });
    return;
  }
  S.exchange = { version: S.version, cards };
  render();
  const yes = document.querySelector('[data-testid="confirm-exchange"]');
  if (yes instanceof HTMLElement) yes.focus();
}

/**
 * The question before the exchange, in the page (not window.confirm: the keyboard, a screen reader and the
 * tests answer it as any button): "Discard QC 9D 7H and take in three?", Yes or No.
 * @param {HTMLElement} box
 * @param {string[]} cards
 * @param {string[]} questions
 */
function renderExchangeQuestion(box, cards, questions) {
  const question = (questions[cards.length] || "").replace("{cards}", cards.join(" "));
  const yes = button("Yes, exchange", "confirm-exchange", () => {
    S.exchange = null;
    sendAction({ kind: "discard", cards });
  }, { primary: true, describedby: "exchange-question" });
  const no = button("No, choose again", "cancel-exchange", () => { S.exchange = null; render(); });
  box.append(h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "exchange-question",
    testid: "exchange-confirm" },
  h("p", { id: "exchange-question", testid: "exchange-question" }, question),
  h("div", { class: "buttons" }, yes, no)));
}

/** The Hint button and the hint it fetched for this decision: the advice and its reasons, from this seat's
 * own hand only (GET /api/tables/{id}/hint with "Authorization: Bearer T", issue 16 item 2). */
function renderHint(box) {
  const got = S.hint && S.hint.version === S.version ? S.hint : null;
  const panel = h("div", { class: "hint", testid: "hint" },
    button(got && got.loading ? "Thinking\u2026" : "Hint", "hint-button", askHint,
      { disabled: Boolean(got && got.loading) }));
  if (got && got.doc) {
    panel.append(h("div", { class: "hint-text", testid: "hint-text", role: "status" },
      h("p", { class: "hint-advice" }, got.doc.advice),
      h("ul", { class: "hint-reasons" }, ...(got.doc.reasons || []).map((r) => h("li", {}, r)))));
  } else if (got && got.error) {
    panel.append(h("p", { class: "muted", testid: "hint-text", role: "status" }, got.error));
  }
  box.append(panel);
}

async function askHint() {
  const version = S.version;
  S.hint = { version, loading: true };
  render();
  let hint;
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hint`, { headers: bearer(token) });
    const doc = await r.json();
    hint = r.ok ? { version, doc } : { version, error: `No hint: ${doc.error || r.status}` };
  } catch (e) {
    hint = { version, error: "No hint: the server could not be reached." };
  }
  if (S.hint && S.hint.version === version) S.hint = hint;
  render();
}

function renderDeclaring(v, c, box) {
  const cat = c.category;
  const opts = c.declarations;
  const phase = v.phase || "";
  const full = opts[0]; // the server lists the strongest first: what the hand holds in that category
  const nothing = opts.find((o) => optionCards(o).length === 0) || null;
  const what = cat === "point" ? "point" : cat === "sequences" ? "sequence" : "quatorze or trio";

  // The call being answered, in the game's words.
  if (phase.startsWith("younger_") && !phase.includes("reckon") && S.talk) {
    const calls = S.talk.lines.filter((l) => l.speaker === "elder" && /^call_/.test(l.kind || ""));
    const last = calls[calls.length - 1];
    if (last) {
      box.append(h("p", { class: "call" }, `${namesByRole(v).elder} called: `, h("q", {}, last.text.replace(/\.$/, ""))));
    }
  }
  if (opts.length === 1 && nothing) {
    // The prompt, the server's, says there is nothing to declare.
    box.append(h("div", { class: "buttons" },
      button(actLabel("Go on"), "declare-none", () => sendAction(nothing), { primary: true })), atWordForm(v));
    return;
  }
  const fullCards = optionCards(full);
  const list = h("div", { class: "buttons" },
    button(actLabel(h("span", {}, full.button || full.label, fullCards.length ? " " : "",
      fullCards.length ? chips(fullCards) : null)), `declare-${cat}`, () => sendAction(full), { primary: true }),
    nothing && nothing !== full ? button(actLabel(nothing.button || nothing.label), "declare-none",
      () => sendAction(nothing)) : null,
  );
  box.append(list);

  // Declaring only some cards: select them in the hand.
  const selected = [...S.selected];
  const match = selected.length ? optionForCards(opts, selected) : null;
  box.append(h("div", { class: "buttons" },
    button(actLabel(selected.length ? `Declare the selected cards${match ? `: ${match.label}` : ""}`
      : "Declare the selected cards"), "declare-selected", () => sendAction(match), { disabled: !match }),
    selected.length ? button("Clear", "clear-selection", () => { S.selected.clear(); render(); }) : null));
  if (selected.length && !match) {
    box.append(h("p", { class: "notice" }, `${sortCards(selected).map(cardShort).join(" ")} is not a ${what} `
      + "you can declare. Choose from the list below, or select other cards."));
  } else if (!selected.length) {
    box.append(h("p", { class: "muted" }, "To declare less than your all, select those cards in your hand, "
      + "or choose below."));
  }

  // Every legal declaration, as the server lists them.
  const all = h("details", { class: "all-options", testid: "all-options", open: S.optionsOpen },
    h("summary", {}, `Every declaration you may make (${opts.length})`));
  all.addEventListener("toggle", () => { S.optionsOpen = all.open; });
  const ol = h("ol", { class: "options" });
  opts.forEach((o, i) => {
    const cards = optionCards(o);
    ol.append(h("li", {}, button(h("span", {}, o.label, cards.length ? " " : "",
      cards.length ? chips(cards, { sorted: false }) : null), `option-${i}`, () => sendAction(o))));
  });
  all.append(ol);
  box.append(all, atWordForm(v));
}

/**
 * The declaration a call at the player's word sends: the cards named in the text, several sequences or sets parted
 * by commas (or semicolons); the server reads the names and the engine the form.
 * @param {string} kind "point", "sequences" or "sets"
 * @param {string} text the cards named, e.g. "KS QS JS, AH KH QH"
 */
function atWordAction(kind, text) {
  const groups = text.split(/[,;]+/).map((g) => g.trim().split(/\s+/).filter(Boolean)).filter((g) => g.length);
  if (kind === "point") return { kind, cards: groups.flat() };
  return kind === "sequences" ? { kind, runs: groups } : { kind, sets: groups };
}

/** At a club table (the VIEW's "at_word"), a call at the player's word besides the options: he names the cards he
 * calls, held or not (Laws 52-54). The words are the server's; null at any other table or step. */
function atWordForm(v) {
  const w = v.at_word;
  if (!w || !DECLARING.includes(w.kind)) return null;
  const send = () => {
    if (S.atWord.trim()) sendAction(atWordAction(w.kind, S.atWord));
  };
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "at-word-input", testid: "at-word-input",
    autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-describedby": "at-word-hint" }));
  input.value = S.atWord;
  const call = /** @type {HTMLButtonElement} */ (h("button", { type: "submit", testid: "at-word-call",
    disabled: S.pending || !S.atWord.trim() }, actLabel(w.button)));
  input.addEventListener("input", () => {
    S.atWord = input.value;
    call.disabled = S.pending || !S.atWord.trim();
  });
  return h("form", { class: "at-word", testid: "at-word", onsubmit: (ev) => { ev.preventDefault(); send(); } },
    h("label", { for: "at-word-input" }, w.label),
    h("div", { class: "copy-row" }, input, call),
    h("p", { class: "muted small", id: "at-word-hint" }, w.hint || ""),
    h("p", { class: "muted small", testid: "at-word-note" }, w.note || ""));
}

/** The one card that may be played when following suit leaves no choice (played for the player). */
function forcedPlay(v) {
  const c = choices(v);
  if (!c.play || c.play.size !== 1 || !v.lead) return null;
  return [...c.play][0];
}

function forcedDeclaration(v) {
  if (v.at_word) return null; // a club table: he may call at his word what he does not hold
  const c = choices(v);
  if (c.declarations.length === 1 && optionCards(c.declarations[0]).length === 0) return c.declarations[0];
  return null;
}

/** With "play forced moves" on, a move that leaves no choice is made for the player after a moment. */
function scheduleForced(v) {
  // Never for an adviser: a forced move needs no advice, and the table does not wait for it.
  if (!S.auto || S.pending || !v.my_turn || v.suggesting || v.status === "finished" || S.autoFor === S.version) return;
  const card = forcedPlay(v);
  const decl = card ? null : forcedDeclaration(v);
  if (!card && !decl) return;
  S.autoFor = S.version;
  const version = S.version;
  clearTimeout(S.autoTimer);
  S.autoTimer = setTimeout(() => {
    if (S.version !== version || S.pending) return;
    sendAction(card ? { kind: "play", card } : decl);
  }, card ? 900 : 400);
}

// ------------------------------------------------------------------ the talk

/** The narrator's lines the server sent this seat, and each player's count as told aloud. */
function computeTalk(v) {
  S.talk = { lines: v.lines || [], count: v.called || { elder: 0, younger: 0 } };
}

/**
 * A line's words: its text segments, and its cards drawn as card spans.
 * @param {{segments: Array<string | {cards: string[], words?: string}>}} line
 * @returns {Array<string | Node>}
 */
function lineWords(line) {
  return (line.segments || []).flatMap((s) => (typeof s === "string" ? withTerms(s)
    : [chips(s.cards, { sorted: false })]));
}

// ------------------------------------------------------------------ the glossary

/**
 * The talk's words that lead to the glossary of the "How to play" page, as the server gives them
 * (piquet.talk.guide.talk_terms): null until fetched, or if the fetch failed (the talk is then plain).
 * @type {{ re: RegExp, anchors: Map<string, string>, page: string } | null}
 */
let glossary = null;

async function loadGlossary() {
  try {
    const r = await fetch("/api/glossary");
    if (!r.ok) return;
    const data = await r.json();
    const terms = (data.terms || []).filter((t) => t && typeof t.words === "string" && typeof t.anchor === "string");
    if (!terms.length) return;
    const esc = (/** @type {string} */ w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    glossary = {
      re: new RegExp(`\\b(?:${terms.map((t) => esc(t.words)).join("|")})\\b`, "gi"),
      anchors: new Map(terms.map((t) => [t.words.toLowerCase(), t.anchor])),
      page: typeof data.page === "string" ? data.page : "/rules",
    };
    if (S.view) render();
  } catch (e) {
    // no glossary: the talk is shown without its links
  }
}

/**
 * A text with the glossary's terms made links to the "How to play" page ("Repique!" -> /rules#repique):
 * text nodes and anchors built one by one, never HTML.
 * @param {string} text
 * @returns {Array<string | Node>}
 */
function withTerms(text) {
  if (!glossary) return [text];
  /** @type {Array<string | Node>} */
  const out = [];
  let last = 0;
  for (const m of text.matchAll(glossary.re)) {
    const anchor = glossary.anchors.get(m[0].toLowerCase());
    if (!anchor || m.index === undefined) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(h("a", { class: "term", href: `${glossary.page}#${encodeURIComponent(anchor)}`, target: "_blank",
      rel: "noopener", title: "In the glossary", testid: `term-${anchor}` }, m[0]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function renderTalk(v) {
  const names = namesByRole(v);
  const me = myRole(v);
  const list = clear($("talk"));
  const dealNo = v.partie ? v.partie.deal_number : null;
  if (dealNo !== S.talkDeal) {
    S.talkDeal = dealNo;
    S.spoken = 0;
  }
  const fresh = [];
  if (v.cut && v.cut.words && dealNo === 1) {
    // The cut, and who deals and how (Laws 4, 9; at Piquet au cent p. 16), in the narrator's words.
    list.append(h("li", { class: "narrator", testid: "cut-words" }, v.cut.words.join(" ")));
  }
  if (v.deal_words) {
    // Who deals, who is elder hand, and at Piquet au cent the game (Laws 9, 16; p. 20): the narrator's words.
    list.append(h("li", { class: "narrator deal-start" }, withTerms(v.deal_words)));
  }
  const trickRows = new Map(); // trick number -> its line: a trick's cards, counts and winner on one line
  for (const line of S.talk.lines) {
    const mine = line.speaker === me;
    const said = line.speaker ? `${mine ? "You" : names[line.speaker]}: \u201c${line.text}\u201d` : line.text;
    fresh.push(said);
    if (line.trick) {
      let row = trickRows.get(line.trick);
      if (!row) {
        row = h("li", { class: "trick-line", "data-trick": String(line.trick) },
          h("span", { class: "trick-no" }, `${line.trick}.`));
        trickRows.set(line.trick, row);
        list.append(row);
      }
      if (line.kind === "play") {
        row.append(" ", h("span", { class: `play ${line.role === me ? "mine" : "theirs"}` }, lineWords(line)));
      } else if (line.kind === "trick") {
        row.append(h("span", { class: "winner" }, " \u2014 ", lineWords(line)));
      } else {
        row.append(h("span", { class: "count-said" }, ` \u201c${line.text}\u201d`));
      }
      continue;
    }
    let li;
    if (line.speaker) {
      li = h("li", { class: `speech ${mine ? "mine" : "theirs"}${line.kind === "reply" ? " reply" : ""}` },
        h("span", { class: "speaker" }, mine ? "You" : names[line.speaker]), ": ", h("q", {}, lineWords(line)));
    } else {
      li = h("li", { class: "narrator" }, lineWords(line));
    }
    list.append(li);
    // Your own exchange, which only you see: the cards you took in.
    if (line.kind === "exchange" && line.role === me && (v.taken || []).length) {
      list.append(h("li", { class: "narrator private", testid: "taken-in" }, "You took in ", chips(v.taken), "."));
    }
  }
  const scroller = $("talk-box");
  scroller.scrollTop = scroller.scrollHeight;
  // Tell screen readers what was said since the last state.
  if (fresh.length > S.spoken) {
    $("announce").textContent = fresh.slice(S.spoken).slice(-4).join(" ");
  }
  S.spoken = fresh.length;
}

// ------------------------------------------------------------------ scores

function scoreTable(scoresByRole, v, caption, testid, { multiplier = 1 } = {}) {
  const me = myRole(v);
  const them = otherRole(me);
  const mine = scoresByRole[me] || {};
  const theirs = scoresByRole[them] || {};
  const t = h("table", { class: "scores", testid });
  if (caption) t.append(h("caption", {}, caption));
  t.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), h("th", { scope: "col" }, "You"),
    h("th", { scope: "col" }, otherName(v)))));
  const body = h("tbody");
  let a = 0;
  let b = 0;
  const labels = v.score_labels || {};
  for (const k of Object.keys(labels)) {
    const x = mine[k] || 0;
    const y = theirs[k] || 0;
    a += x;
    b += y;
    if (!x && !y && !["point", "sequences", "sets", "play", "cards"].includes(k)) continue;
    body.append(h("tr", { "data-kind": k }, h("th", { scope: "row" }, labels[k]), h("td", {}, String(x)),
      h("td", {}, String(y))));
  }
  t.append(body);
  const foot = h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"), h("td", { testid: `${testid}-mine` },
    String(a)), h("td", { testid: `${testid}-theirs` }, String(b))));
  if (multiplier > 1) {
    foot.append(h("tr", {}, h("th", { scope: "row" }, `In the partie (\u00d7${multiplier})`),
      h("td", {}, String(a * multiplier)), h("td", {}, String(b * multiplier))));
  }
  t.append(foot);
  return t;
}

function renderScores(v) {
  const box = clear($("deal-scores-box"));
  const p = v.partie || {};
  box.append(scoreTable(v.scores || {}, v, `Deal ${p.deal_number || ""}: the scores`, "deal-scores",
    { multiplier: p.multiplier || 1 }));
  if (S.talk) {
    const me = myRole(v);
    box.append(h("p", { class: "muted small" }, `As called so far: you ${S.talk.count[me]}, ${otherName(v)} `
      + `${S.talk.count[otherRole(me)]}. Point, sequences and sets are scored when the play begins (Law 67).`));
  }
  renderStakes(v, box);
}

/** What is at stake (the server's words: the VIEW's "stakes"), under the deal's scores. */
function renderStakes(v, box) {
  const stakes = v.stakes || [];
  if (!stakes.length) return;
  box.append(h("div", { class: "stakes", testid: "stakes", role: "note", "aria-label": "What is at stake" },
    h("h4", {}, "What is at stake"), h("ul", {}, stakes.map((line) => h("li", {}, line)))));
}

/** "Another partie": a new table against the computer with the same rules, level and name; the lobby else. */
async function anotherPartie(v, btn) {
  const level = (v.levels || {})[other(v.seat)];
  if (v.opponent !== "computer" || !level) {
    window.location.assign("/");
    return;
  }
  btn.disabled = true;
  try {
    const resp = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ opponent: "computer", rules: (v.partie || {}).rules || "rubicon", level,
        name: (v.players || {})[v.seat] }),
    });
    if (!resp.ok) throw new Error(`the server refused (${resp.status})`);
    const t = await resp.json();
    window.location.assign(t.url);
  } catch (e) {
    btn.disabled = false;
    showError({ code: "another", message: `Another partie could not be started: ${e instanceof Error ? e.message : e}.` });
  }
}

function renderScoreCard(v) {
  if (v.game) {
    renderGamesCard(v);
    return;
  }
  const box = clear($("score-card-box"));
  const me = S.seat;
  const them = other(me);
  const hist = v.deal_history || [];
  const t = h("table", { class: "scores card", testid: "score-card" });
  t.append(h("caption", {}, "The partie"));
  t.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"), h("th", { scope: "col" }, "Dealer"),
    h("th", { scope: "col" }, "You"), h("th", { scope: "col" }, otherName(v)))));
  const body = h("tbody");
  for (const d of hist) {
    const s = d.scores || d;
    const mult = d.multiplier > 1 ? ` \u00d7${d.multiplier}` : "";
    body.append(h("tr", { "data-deal": String(d.deal) }, h("th", { scope: "row" }, `${d.deal}${mult}`),
      h("td", {}, d.dealer ? (d.dealer === me ? "You" : playerName(d.dealer)) : ""),
      h("td", {}, String(s[me] ?? 0)), h("td", {}, String(s[them] ?? 0))));
  }
  const p = v.partie || {};
  const inHistory = hist.some((d) => d.deal === p.deal_number);
  if (p.deal_number && !inHistory && v.status !== "finished") {
    const dt = dealTotals(v);
    const m = p.multiplier || 1;
    body.append(h("tr", { class: "in-play" }, h("th", { scope: "row" }, `${p.deal_number}${m > 1 ? ` \u00d7${m}` : ""}`),
      h("td", {}, p.dealer ? (p.dealer === me ? "You" : playerName(p.dealer)) : ""),
      h("td", {}, `${(dt[me] ?? 0) * m}`), h("td", {}, `${(dt[them] ?? 0) * m}`)));
  }
  t.append(body);
  const totals = v.settlement && v.settlement.scores ? v.settlement.scores : partieTotals(v);
  t.append(h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: "2" }, "Total"),
    h("td", { testid: "score-card-mine" }, String(totals[me] ?? 0)),
    h("td", { testid: "score-card-theirs" }, String(totals[them] ?? 0)))));
  box.append(t);
  if (p.deals) {
    const played = hist.length;
    box.append(h("p", { class: "muted small" }, `${played} of ${p.deals} deals played`
      + (p.rules === "four-deal" ? "; the first and last deals count double." : ".")));
  }
}

/** The score card of a partie of games (Piquet au cent): each game's deals and how it ended, the games won. */
function renderGamesCard(v) {
  const box = clear($("score-card-box"));
  const me = S.seat;
  const them = other(me);
  const g = v.game;
  const hist = v.deal_history || [];
  const p = v.partie || {};
  const t = h("table", { class: "scores card games", testid: "score-card" });
  t.append(h("caption", {}, `The partie: games of ${g.goal} up`));
  t.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"), h("th", { scope: "col" }, "Dealer"),
    h("th", { scope: "col" }, "You"), h("th", { scope: "col" }, otherName(v)))));
  const body = h("tbody");
  const dealer = (seat) => (seat ? (seat === me ? "You" : playerName(seat)) : "");
  for (let n = 1; n <= g.number; n++) {
    body.append(h("tr", { class: "game-head", "data-game": String(n) },
      h("th", { scope: "rowgroup", colspan: "4" }, `Game ${n}`)));
    for (const d of hist.filter((x) => x.game === n)) {
      const s = d.scores || {};
      body.append(h("tr", { "data-deal": String(d.deal) }, h("th", { scope: "row" }, String(d.deal)),
        h("td", {}, dealer(d.dealer)), h("td", {}, String(s[me] ?? 0)), h("td", {}, String(s[them] ?? 0))));
    }
    const won = (g.games || []).find((x) => x.number === n);
    if (won) {
      body.append(h("tr", { class: "game-end", "data-game-won": String(n), testid: `game-result-${n}` },
        h("th", { scope: "row", colspan: "2" }, `${won.winner === me ? "Yours" : playerName(won.winner)}`
          + `${won.double ? ", double" : ""}`),
        h("td", {}, String(won.scores[me])), h("td", {}, String(won.scores[them]))));
    }
  }
  const inHistory = hist.some((d) => d.deal === p.deal_number);
  if (p.deal_number && !inHistory && v.status !== "finished") {
    const dt = dealTotals(v);
    body.append(h("tr", { class: "in-play" }, h("th", { scope: "row" }, String(p.deal_number)),
      h("td", {}, dealer(p.dealer)), h("td", {}, `${dt[me] ?? 0}`), h("td", {}, `${dt[them] ?? 0}`)));
  }
  t.append(body);
  const totals = v.settlement && v.settlement.scores ? v.settlement.scores : partieTotals(v);
  const tally = g.tally || {};
  t.append(h("tfoot", {},
    h("tr", {}, h("th", { scope: "row", colspan: "2" }, `Game ${g.number}`),
      h("td", { testid: "score-card-mine" }, String(totals[me] ?? 0)),
      h("td", { testid: "score-card-theirs" }, String(totals[them] ?? 0))),
    h("tr", { class: "tally" }, h("th", { scope: "row", colspan: "2" }, "Games won"),
      h("td", { testid: "games-mine" }, String(tally[me] ?? 0)),
      h("td", { testid: "games-theirs" }, String(tally[them] ?? 0)))));
  box.append(t);
  box.append(h("p", { class: "muted small" }, `${hist.length} deal${hist.length === 1 ? "" : "s"} played. `
    + `The first to ${g.goal} wins a game, a double game if the other has not ${g.double_below}; `
    + `${g.to_win} games win the partie, a double counting two.`));
}

/** When the last deal won a game: who reached the goal, and that this deal begins the next game at nothing. */
function renderGameNews(v) {
  const box = $("game-news");
  box.hidden = !v.game_news;
  if (v.game_news) box.textContent = v.game_news; // the server's words (p. 20)
}

function renderLastDeal(v) {
  const box = /** @type {HTMLDetailsElement} */ ($("last-deal"));
  const ld = v.last_deal;
  box.hidden = !ld;
  if (!ld) return;
  const p = v.partie || {};
  // Open by itself while the new deal has not begun, so the end of the last one can be read.
  const fresh = !(v.events || []).some((e) => e.kind === "exchange");
  const key = `${p.deal_number}`;
  if (fresh && S.lastDealOpen !== key) {
    box.open = true;
    S.lastDealOpen = key;
  } else if (!fresh && S.lastDealClosed !== key) {
    box.open = false;
    S.lastDealClosed = key;
  }
  const body = clear($("last-deal-body"));
  $("last-deal-title").textContent = `Deal ${ld.deal_number}: how it ended`;
  const me = S.seat;
  const them = other(me);
  const seats = ld.roles || {};
  const myR = seats.elder === me ? "elder" : "younger";
  // Its score table, by kind.
  const byRole = {};
  if (ld.scores) {
    byRole[myR] = ld.scores[me] || {};
    byRole[otherRole(myR)] = ld.scores[them] || {};
  }
  if (ld.game_words) {
    // Piquet au cent: the deal stopped when a player reached the goal (p. 20), in the server's words.
    body.append(h("p", { class: "game-won", testid: "last-deal-game" }, ld.game_words));
  }
  const fakeV = { ...v, role: myR };
  body.append(scoreTable(byRole, fakeV, "", "last-deal-scores",
    { multiplier: ld.multiplier || 1 }));
  if (ld.tricks_won) {
    body.append(h("p", {}, `Tricks: you ${ld.tricks_won[me] ?? 0}, ${otherName(v)} ${ld.tricks_won[them] ?? 0}.`));
  }
  if (ld.last_trick && ld.last_trick.plays) {
    const row = h("div", { class: "row" });
    for (const pl of ld.last_trick.plays) {
      row.append(h("figure", { class: "played small" }, cardSVG(pl.card),
        h("figcaption", {}, pl.seat === me ? "You" : playerName(pl.seat))));
    }
    body.append(h("p", {}, `The last trick, ${ld.last_trick.winner === me ? "yours" : `${otherName(v)}'s`}:`), row);
  }
  if (ld.lines) {
    const names = { [myR]: "You", [otherRole(myR)]: otherName(v) };
    const tail = ld.lines.filter((l) => l.kind !== "play" && l.kind !== "trick").slice(-4);
    if (tail.length) {
      body.append(h("ul", { class: "tail" }, tail.map((l) => h("li", {},
        l.speaker ? `${names[l.speaker]}: \u201c${l.text}\u201d` : l.text))));
    }
  }
}

function renderDiscardPanel(v) {
  const btn = $("my-discard-button");
  btn.setAttribute("aria-expanded", S.showDiscard ? "true" : "false");
  const box = clear($("my-discard"));
  box.hidden = !S.showDiscard;
  if (!S.showDiscard) return;
  const discard = v.discard || [];
  box.append(h("button", { type: "button", class: "close", testid: "close-my-discard",
    "aria-label": "Close your discard", onclick: () => { S.showDiscard = false; render(); $("my-discard-button").focus(); } },
  "Close"));
  box.append(h("h3", {}, "Your discard"));
  box.append(discard.length ? h("div", { class: "row" }, sortCards(discard).map((c) =>
    h("figure", { class: "played small", testid: `discard-card-${c}` }, cardSVG(c))))
    : h("p", { class: "muted" }, "You have not discarded yet this deal."));
  if ((v.taken || []).length) body(box, "Taken in", v.taken, "taken-card");
  if ((v.seen_left || []).length) body(box, "Left in the stock, seen", v.seen_left, "seen-card");
  box.append(h("p", { class: "muted small" }, "The laws let you look at your own discard at any time."));
}

function body(box, title, cards, prefix) {
  box.append(h("h4", {}, title), h("div", { class: "row" }, sortCards(cards).map((c) =>
    h("figure", { class: "played tiny", testid: `${prefix}-${c}` }, cardSVG(c)))));
}

function renderFinish(v) {
  const box = clear($("finish"));
  const finished = v.status === "finished";
  box.hidden = !finished;
  if (!finished) return;
  if (C && chouette.renderFinish(box, v, hooks())) return;
  const s = v.settlement || {};
  const text = s.words || "";
  box.append(
    h("h2", {}, s.headline || ""),
    h("p", { class: "settlement", testid: "settlement" }, text),
    h("p", {}, h("a", { class: "button primary", href: `/api/tables/${encodeURIComponent(tableId)}/record`,
      download: `piquet-${tableId}.json`, testid: "download-record" }, "Download the record"),
    " ", h("a", { class: "button", href: `/t/${encodeURIComponent(tableId)}/replay`, testid: "replay-partie" },
      "Replay the partie"),
    " ", h("a", { class: "button", href: "/", testid: "back-to-lobby" }, "Back to the lobby")),
  );
  const again = button("Another partie", "another-partie", () => anotherPartie(v, again), { primary: true });
  box.append(h("p", {}, again));
}

// ------------------------------------------------------------------ start

function init() {
  if (C) chouette.mount();
  $("error-dismiss").addEventListener("click", () => { S.error = null; render(); });
  $("last-trick-button").addEventListener("click", () => { S.showLastTrick = !S.showLastTrick; render(); });
  $("my-discard-button").addEventListener("click", () => { S.showDiscard = !S.showDiscard; render(); });
  $("reconnect-now").addEventListener("click", () => { S.retry = 0; connect(); });
  $("new-link").addEventListener("click", newLink);
  // Another seat's link opened over this one (only the fragment differs, so the browser does not load the page):
  // open it as a page of its own.
  window.addEventListener("hashchange", () => {
    const t = new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
    if (t && t !== token) location.reload();
  });
  const auto = /** @type {HTMLInputElement} */ ($("auto-forced"));
  auto.checked = S.auto;
  auto.addEventListener("change", () => {
    S.auto = auto.checked;
    try {
      localStorage.setItem("piquet.auto", S.auto ? "1" : "0");
    } catch (e) {
      // no storage: the choice lasts for this page only
    }
    if (!S.auto) {
      clearTimeout(S.autoTimer);
      S.autoFor = null;
    }
    if (S.view) render();
  });
  setInterval(() => {
    if (!S.connected && !S.fatal && S.retryTimer) renderConnection("waiting");
  }, 1000);
  if (!tableId || !token) {
    S.fatal = "This page needs a table and a seat's token in its address (/t/TABLE#token=TOKEN). "
      + "Start or join a partie from the lobby.";
    renderConnection("fatal");
    render();
    return;
  }
  render();
  connect();
  loadGlossary();
}

// For the console and for tests: the state of the page (read only).
/** @type {Window & { piquetTable?: object }} */ (window).piquetTable = { get state() { return S; } };

init();
