// The chouette table (p. 106) in the browser: what the table page (app.js) adds for three players.
// The page is /c/{id}?token=T; app.js draws the partie as for two (the hand this player is entitled to:
// the single player's own, or the pair's), and calls these hooks for the rest: the places, the
// suggestion standing, the adviser's "Suggest" mode and "Let him choose", the chouette card, the
// rotation, the next partie and the settlement. Like app.js it holds no rules: what may be done and
// suggested comes from the VIEW's "chouette" (docs/web.md, "The chouette table").

import { $, cap, clear, h, put } from "./dom.js";

/** Whether this page is a chouette's (its address is /c/{id}). */
export function isChouette() {
  return /^\/c\//.test(location.pathname);
}

const PLACE_WORDS = {
  single: "plays alone, at double stakes",
  playing: "plays for the pair",
  advising: "advises",
};

function about(v) {
  return (v && v.chouette) || null;
}

/**
 * The view the table page works from. The adviser may not act, but while his side is to choose he may
 * suggest: his view is given his side's options (from "suggest_options") and marked "suggesting", so the
 * hand and the choices work as for a player, and what he chooses is sent as a suggestion.
 */
export function adapt(view) {
  const c = about(view);
  if (!c || !c.can_suggest) return view;
  return { ...view, my_turn: true, options: c.suggest_options, suggesting: true };
}

/** The message a choice is sent as: a suggestion from the adviser, else an action. */
export function messageFor(view, version, action) {
  return { type: view && view.suggesting ? "suggest" : "action", version, action };
}

/** The panels the chouette adds to the table page, made once. */
export function mount() {
  const side = document.querySelector(".side");
  const panel = h("section", { class: "panel chouette-panel", id: "chouette", testid: "chouette",
    "aria-label": "The chouette" });
  side.prepend(panel);
  const me = document.querySelector(".me");
  const advice = h("div", { class: "advice", id: "advice", testid: "advice", role: "status", "aria-live": "polite",
    hidden: true });
  me.insertBefore(advice, $("actions"));
  document.body.classList.add("chouette-page");
  document.title = "Piquet \u2014 chouette";
}

function names(c) {
  return c.places || {};
}

/** The name of a player as this player says it: "you", or his name. */
function who(c, name) {
  return name === c.me ? "you" : name;
}

/** Who this player is, for the line over his hand. */
export function meLabel(v) {
  const c = about(v);
  if (!c) return null;
  const p = names(c);
  if (c.place === "single") return `You (${c.me}), playing alone`;
  if (c.place === "playing") return `You (${c.me}), playing for the pair; ${p.advising} advises you`;
  return `${p.playing}'s hand, which you advise (you are ${c.me})`;
}

/** The other side, for the adversary's line. */
export function otherLabel(v) {
  const c = about(v);
  if (!c) return null;
  const p = names(c);
  if (c.place === "single") return `${p.playing} (advised by ${p.advising})`;
  return `${p.single} (alone)`;
}

/** The status line, in the game's words and the chouette's. */
export function statusText(v, { pending, thinking, thinkingName, prompt }) {
  const c = about(v);
  if (!c) return null;
  const p = names(c);
  if (c.ended) return "The chouette is over: the players have risen from the table.";
  if (c.partie_over) {
    return `Partie ${c.number} is over. ${c.result ? c.result.words : ""}`;
  }
  if (pending) return "Sent\u2026";
  if (thinking) return `${thinkingName} is thinking${thinking === "suggest" ? " about his advice" : ""}\u2026`;
  if (!c.dealt) {
    // The single player's choice of deal (p. 106), then, if he let the pair deal, its dealer's choice of
    // twos or threes (Law 9): the server's prompt says which, and who chooses.
    return prompt(v);
  }
  if (c.can_suggest) {
    const lead = c.awaiting_advice ? `${p.playing} waits for your advice: suggest, or let him choose.`
      : `${p.playing} is to choose: you may suggest.`;
    return `${lead} ${prompt(v)}`;
  }
  if (v.my_turn) {
    const advice = c.advice ? ` ${c.advice.by} suggests: ${c.advice.words}.` : "";
    return `Your turn. ${prompt(v)}${advice}`;
  }
  if (c.awaiting_advice) return `${p.playing} waits for ${p.advising}'s advice.`;
  const actor = c.to_act;
  if (actor === p.playing && c.place === "single") return `${p.playing} (advised by ${p.advising}) to choose.`;
  return actor ? `${cap(who(c, actor))} to choose.` : "";
}

/** Over the choices, while another is to choose: whom the table waits for. */
export function waitingText(v) {
  const c = about(v);
  if (!c || !c.to_act || c.to_act === c.me) return "";
  const p = names(c);
  if (c.to_act === p.single) return `Waiting for ${p.single}, who plays alone.`;
  if (!c.dealt) return `Waiting for ${p.playing}, who deals.`;
  if (c.awaiting_advice) return `Waiting for ${p.advising}'s advice to ${p.playing}.`;
  return c.place === "single" ? `Waiting for ${p.playing} (advised by ${p.advising}).` : `Waiting for ${p.playing}.`;
}

function placeRow(c, place) {
  const name = names(c)[place];
  const mine = name === c.me;
  const seat = (c.players || []).find((p) => p.name === name);
  const gone = !mine && seat && seat.kind === "person" && seat.joined && seat.connected === false;
  return h("li", { class: `place${mine ? " mine" : ""}`, testid: `place-${place}`, "data-name": name },
    h("b", {}, mine ? `You (${name})` : name), ` ${place === "advising" ? `advises ${names(c).playing}`
      : PLACE_WORDS[place]}`,
    gone ? h("span", { class: "presence", testid: `presence-${place}`, "data-connected": "false" },
      " not connected") : null);
}

/** The suggestion standing, shown to the pair: "Cy suggests: play the ace of spades", with "Follow". */
function renderAdvice(v, ctx) {
  const box = $("advice");
  const c = about(v);
  clear(box);
  const show = c && !c.partie_over && (c.advice || c.can_suggest || c.awaiting_advice);
  box.hidden = !show;
  if (!show) return;
  const mine = c.advice && c.advice.by === c.me;
  if (c.advice) {
    const text = mine ? "You suggest: " : `${c.advice.by} suggests: `;
    box.append(h("p", { class: "advice-text", testid: "advice-text", "data-by": c.advice.by },
      h("b", {}, text), c.advice.words,
      c.advice.computer ? h("span", { class: "muted" }, " (the computer's own choice)") : null));
    if (v.my_turn && !v.suggesting) {
      box.append(h("div", { class: "buttons" },
        ctx.button("Follow the advice", "follow-advice", () => ctx.sendAction(c.advice.action), { primary: false })));
    }
  } else if (c.can_suggest) {
    box.append(h("p", { class: "muted", testid: "advice-text" }, c.awaiting_advice
      ? `${names(c).playing} plays as you suggest: choose below as if you played, or let him choose.`
      : `You advise ${names(c).playing}: what you choose below is sent to him as your suggestion; he decides.`));
  }
  if (c.can_suggest && c.can_leave) {
    box.append(h("div", { class: "buttons" },
      ctx.button("Let him choose", "leave-choice", () => ctx.send("leave"))));
  }
}

/** The cards of the hand named by the suggestion standing: marked, so the player sees them. */
function markSuggested(c) {
  document.querySelectorAll("#hand .suggested").forEach((e) => e.classList.remove("suggested"));
  if (!c || !c.advice) return;
  const a = c.advice.action;
  const cards = a.card ? [a.card] : (a.cards || (a.runs || a.sets || []).flat());
  for (const card of cards) {
    const e = document.querySelector(`#hand [data-card="${card}"]`);
    if (e) e.classList.add("suggested");
  }
}

function cardBox(c) {
  const card = c.card || {};
  const box = h("div", { class: "st-card-box", testid: "chouette-card" });
  if (card.parties) {
    box.innerHTML = card.html; // the server's table (stakes.scoring_card_html): escaped, numbers and names only
  } else {
    box.append(h("p", { class: "muted" }, "No partie finished yet."));
  }
  return box;
}

/** The panel of the chouette: the places, why they are so, and the card. */
export function render(v, ctx) {
  const c = about(v);
  const root = $("table");
  root.dataset.chouette = "true";
  root.dataset.place = c ? c.place : "";
  root.dataset.partie = c ? String(c.number) : "";
  root.dataset.partieOver = c && c.partie_over ? "true" : "false";
  root.dataset.suggest = v && v.suggesting ? "true" : "false";
  root.dataset.advice = c && c.advice ? c.advice.by : "";
  root.dataset.ended = c && c.ended ? "true" : "false";
  const panel = clear($("chouette"));
  if (!c) return;
  const waiting = (c.players || []).filter((p) => p.kind === "person" && !p.joined).map((p) => p.name);
  put(panel,
    h("h2", {}, `Chouette \u00b7 partie ${c.number}`),
    h("ul", { class: "places", testid: "chouette-places" }, ["single", "playing", "advising"].map((p) => placeRow(c, p))),
    h("p", { class: "small", testid: "chouette-rotation" }, c.rotation),
    waiting.length ? h("p", { class: "small notice", testid: "chouette-waiting" },
      `Not yet at the table: ${waiting.join(", ")} (send them their links).`) : null,
    h("details", { class: "chouette-card-box", open: c.partie_over || undefined },
      h("summary", {}, `The chouette card (${c.card.parties} finished)`), cardBox(c),
      h("p", { class: "small", testid: "chouette-balances" }, c.card.parties ? c.card.words : "")));
  renderAdvice(v, ctx);
  markSuggested(c);
}

/** The end of a partie: its line on the card, the rotation, the next partie, and the settlement. */
export function renderFinish(box, v, ctx) {
  const c = about(v);
  if (!c) return false;
  clear(box);
  box.hidden = false;
  if (c.ended) {
    put(box, h("h2", {}, "The chouette is over."),
      h("p", { testid: "chouette-result" }, c.card.words),
      cardBox(c),
      h("p", {}, h("a", { class: "button primary", href: `/api/chouettes/${encodeURIComponent(ctx.tableId)}/record`,
        download: `chouette-${ctx.tableId}.json`, testid: "download-chouette" }, "Download the chouette"),
      " ", h("a", { class: "button", href: "/", testid: "back-to-lobby" }, "Back to the lobby")));
  } else {
    const r = c.result || {};
    put(box, h("h2", {}, r.headline || ""),
      h("p", { class: "settlement", testid: "settlement" }, r.words || ""),
      v.settlement && v.settlement.words ? h("p", { class: "small muted" }, v.settlement.words) : null,
      cardBox(c),
      h("p", { testid: "next-places" }, c.next_places ? c.next_places.words : ""),
      h("div", { class: "buttons" },
        c.can_begin ? ctx.button("Begin the next partie", "next-partie", () => ctx.send("next_partie"),
          { primary: true }) : null,
        c.can_begin ? ctx.button("Rise from the table", "end-chouette", () => ctx.send("end")) : null));
  }
  if (c.card.parties) box.append(settleForm(c));
  return true;
}

/** The card settled at a stake, by the server's /api/settle (p. 100-102): the stake is optional. */
function settleForm(c) {
  const out = h("div", { class: "settle-out", testid: "settle-words", "aria-live": "polite" });
  const input = h("input", { id: "chouette-stake", testid: "stake-input", placeholder: "10s a hundred",
    "aria-label": "The stake (optional): so much a point or a hundred" });
  const go = async () => {
    clear(out).append(h("p", { class: "muted" }, "Settling\u2026"));
    try {
      const resp = await fetch("/api/settle", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ chouette: c.card.json, stake: input.value.trim() || null }) });
      const body = await resp.json();
      clear(out);
      if (!resp.ok) out.append(h("p", { class: "notice" }, body.error || `The server refused (${resp.status}).`));
      else out.append(h("ul", {}, (body.words || []).map((w) => h("li", {}, w))));
    } catch (e) {
      clear(out).append(h("p", { class: "notice" }, "The server cannot be reached."));
    }
  };
  return h("form", { class: "settle-form", testid: "settle-form",
    onsubmit: (ev) => { ev.preventDefault(); go(); } },
  h("label", { for: "chouette-stake" }, "Settle the card at a stake (optional)"),
  h("div", { class: "copy-row" }, input, h("button", { type: "submit", testid: "settle-card" }, "Settle")), out);
}
