// The review of a finished partie in its replay (GET /api/tables/{id}/review): the legend, each player's
// costliest decisions, then every decision deal by deal (the exchange, the calls, the play), or one player's
// mistakes only. The figures are the server's (piquet.study.review, as `piquet analyse --json` gives them);
// the page only shows them, and a decision's button goes to the step where it was made.

import { $, clear, h } from "./dom.js";

/**
 * @typedef {{choice: string, value: number}} Option
 * @typedef {{deal: number, kind: string, seat: string, role: string, action: number, trick: number | null,
 *   chosen: string, loss: number, mistake: boolean, options: Option[], note: string}} Decision
 * @typedef {{legend: string[], worlds: number, names: Record<string, string>,
 *   costliest: Record<string, Decision[]>, deals: Array<{number: number, elder: string, younger: string}>,
 *   decisions: Decision[]}} ReviewDoc
 */

/** A value with its sign, to one decimal for the exchange's means. */
function signed(v, kind) {
  const text = kind === "exchange" ? Math.abs(v).toFixed(1) : String(Math.abs(v));
  return `${v < 0 ? "\u2212" : "+"}${text}`;
}

/** @param {Decision} d */
function lossWords(d) {
  if (d.kind === "exchange") return d.loss < 0.05 ? "best" : `loss ${d.loss.toFixed(1)} a deal`;
  if (d.kind === "call") return d.loss === 0 ? "no loss" : `cost ${d.loss}`;
  return d.loss === 0 ? "best" : `cost ${d.loss}`;
}

/** @param {Decision} d @param {Record<string, string>} names */
function what(d, names) {
  const who = names[d.seat] || d.seat;
  if (d.kind === "play") return `deal ${d.deal}, trick ${d.trick}: ${who} ${d.note} ${d.chosen}`;
  if (d.kind === "exchange") return `deal ${d.deal}, exchange: ${who} discards ${d.chosen}`;
  return `deal ${d.deal}, calls: ${who} declares ${d.chosen}`;
}

/**
 * @param {Decision} d
 * @param {Record<string, string>} names
 * @param {(d: Decision) => void} goTo
 * @param {boolean} full  the options and the note too
 */
function decisionItem(d, names, goTo, full) {
  const li = h("li", { class: `rv-item rv-${d.kind}${d.mistake ? " rv-mistake" : ""}`, testid: "review-decision",
    "data-kind": d.kind, "data-seat": d.seat, "data-deal": String(d.deal) },
  h("button", { type: "button", class: "link rv-go", onclick: () => goTo(d), title: "Go to this step" },
    what(d, names)), " ", h("strong", {}, `(${lossWords(d)})`));
  if (full) {
    const shown = d.options.map((o) => `${o.choice} ${signed(o.value, d.kind)}`).join(d.kind === "play" ? "  " : "; ");
    if (d.note && d.kind !== "play") li.append(h("div", { class: "rv-note" }, d.note));
    li.append(h("div", { class: "rv-options" }, shown));
  }
  return li;
}

/**
 * The review panel, filled from the server's review.
 * @param {ReviewDoc} doc
 * @param {(d: Decision) => void} goTo  go to the step of a decision
 */
export function renderReview(doc, goTo) {
  const box = clear($("rp-review"));
  box.hidden = false;
  const names = doc.names;
  box.append(h("h2", {}, "The review"));
  box.append(h("details", { class: "rv-legend", testid: "review-legend", open: true },
    h("summary", {}, "Legend"), h("ul", {}, doc.legend.map((line) => h("li", {}, line)))));
  const worst = h("div", { class: "rv-costliest", testid: "review-costliest" }, h("h3", {}, "Costliest decisions"));
  for (const seat of Object.keys(doc.costliest)) {
    const list = doc.costliest[seat];
    worst.append(h("p", { class: "rv-who" }, `${names[seat] || seat}:${list.length ? "" : " no mistake"}`));
    if (list.length) worst.append(h("ol", {}, list.map((d) => decisionItem(d, names, goTo, false))));
  }
  box.append(worst);
  const filter = /** @type {HTMLSelectElement} */ (h("select", { testid: "review-filter" },
    h("option", { value: "" }, "Every decision"),
    Object.keys(names).map((s) => h("option", { value: s }, `${names[s]}'s mistakes only`))));
  box.append(h("label", { class: "rv-filter" }, "Show ", filter));
  const list = h("div", { class: "rv-list", testid: "review-list" });
  box.append(list);
  const show = () => {
    clear(list);
    const seat = filter.value;
    const shown = doc.decisions.filter((d) => !seat || (d.seat === seat && d.mistake));
    for (const deal of doc.deals) {
      const mine = shown.filter((d) => d.deal === deal.number);
      if (!mine.length) continue;
      list.append(h("h3", {}, `Deal ${deal.number}: ${names[deal.elder]} elder, ${names[deal.younger]} younger`),
        h("ul", {}, mine.map((d) => decisionItem(d, names, goTo, true))));
    }
    if (!list.firstChild) list.append(h("p", {}, "No mistake."));
  };
  filter.addEventListener("change", show);
  show();
}

/**
 * Fetch the review of a finished table and show it; a refusal or a failure is said in the panel.
 * @param {string} url
 * @param {(d: Decision) => void} goTo
 */
export async function loadReview(url, goTo) {
  const box = clear($("rp-review"));
  box.hidden = false;
  box.append(h("p", { class: "rv-loading" }, "Reviewing the partie (the exchange, the calls, the play)\u2026"));
  try {
    const resp = await fetch(url, { headers: { Accept: "application/json" } });
    const doc = await resp.json();
    if (!resp.ok) throw new Error(doc.error || String(resp.status));
    renderReview(doc, goTo);
  } catch (e) {
    clear(box).append(h("p", { class: "rv-error" }, `The review could not be made: ${e.message || e}`));
  }
  box.dataset.ready = "true";
}
