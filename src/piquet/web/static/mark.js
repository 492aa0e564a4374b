// The marker (/mark): a partie played with real cards, the phone lying on the table. The page holds no
// rules: it sends each entry, with the partie's marked record, to POST /api/mark; the server checks the
// record whole, scores the deal by the laws and answers the new record and what to show, or refuses the
// entry with its law and the field at fault. The record lives in localStorage (a reload loses nothing),
// and what is typed for the deal in hand too (a refusal or a reload loses none of it).
//
// Something went wrong: the irregularities of the laws (GET /api/mark/referee), by group; one tapped asks
// its facts, the server's ruling ("rule") shows the law, who chooses and the options, and the option
// tapped is applied ("wrong"). A penalty or a dealer out of turn falls on the deal being entered: the
// draft keeps it ("pending") and sends it with the deal. After the ruling on a call of what is not held
// (Law 54), the offender's calls each get a "Not held" toggle ("notHeld"), sent as "held": false (Case II).
//
// A call's suit (and a point's top card) is entered where it was shown, by the selects beside it: the server
// then applies Case IV (the elder's cards shown bar the younger's smaller reckoning).

import { $, h } from "./dom.js";

const RECORD_KEY = "piquet-mark-record";
const DRAFT_KEY = "piquet-mark-draft";
const FIELDS = ["players", "rules", "first_dealer", "carte_blanche", "point", "sequences", "sets", "hands",
  "play", "pique", "first_to_goal", "deal", "stake", "wrong", "correct"];
const SEQUENCE_NAMES = { 3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième" };
const HEADS = ["A", "K", "Q", "J", "10", "9", "8", "7"];
const SET_RANKS = [["A", "aces"], ["K", "kings"], ["Q", "queens"], ["J", "knaves"], ["10", "tens"]];
const SUITS = [["", "suit?"], ["S", "♠ spades"], ["H", "♥ hearts"], ["C", "♣ clubs"], ["D", "♦ diamonds"]];
// Whose calls each list holds: the elder's as called, the younger's as he reckons them.
const LIST_ROLES = { eSeqs: "elder", eSets: "elder", ySeqs: "younger", ySets: "younger" };

/** @returns {Record<string, any>} */
function emptyDraft() {
  return {
    cb: "none", mode: "spoken", ePointCards: "", ePointValue: "", ePointSuit: "", ePointHead: "", ePointHeld: true,
    rPoint: "", eSeqs: [], rSeqs: "", eSets: [], rSets: "",
    yPointCards: "", yPointValue: "", yPointSuit: "", yPointHead: "", yPointHeld: true, ySeqs: [], ySets: [],
    qEPoint: "", qYPoint: "", qESeqs: "", qYSeqs: "", qESets: "", qYSets: "",
    playMode: "totals", eTricks: "", ePlay: "", yPlay: "", cards: "", pique: "", first: "",
    askPique: false, askFirst: false,
    // The deal being entered as the referee left it: its dealer (out of turn), who reckons nothing, waived;
    // and whose call is of what he does not hold, with the server's words (Law 54, Case II).
    pending: null, notes: [], notHeld: null,
  };
}

let record = null; // the marked record, as the server last answered it
let view = null; // the state the server last answered
let draft = emptyDraft();
let firstDealer = "";
let busy = false;
let catalogue = null; // the irregularities by group, their laws and facts (GET /api/mark/referee)
/** @type {{ entry: any, facts: Record<string, any>, ruling: any, deal: number | null, scores: Record<string, string> } | null} */
let wrongCase = null; // the irregularity picked: its facts, the ruling, the deal put right

// ------------------------------------------------------------ storage

function load(key) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch (e) {
    return null;
  }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    showError(`This browser would not keep the partie (${e.message}): download the record to keep it.`);
  }
}

function saveDraft() {
  store(DRAFT_KEY, draft);
}

// ------------------------------------------------------------ messages

function showError(text) {
  const box = $("mark-error");
  box.textContent = text || "";
  box.hidden = !text;
}

function clearErrors() {
  for (const f of FIELDS) {
    const e = $(`err-${f}`);
    if (e) {
      e.textContent = "";
      e.hidden = true;
    }
  }
  showError("");
}

// The server's refusal, shown by the field it names (the quick scores by the hands).
function showRefusal(doc) {
  let field = doc.field || "deal";
  if (draft.mode === "quick" && ["point", "sequences", "sets"].includes(field)) field = "hands";
  if (field === "pique") draft.askPique = true;
  if (field === "first_to_goal") draft.askFirst = true;
  const box = $(`err-${field}`) || $("err-deal");
  // The server's words: the refusal, its law and what the law says ("explained"), as the terminal says them.
  box.textContent = doc.explained
    || (doc.law && !doc.error.includes(`(${doc.law})`) ? `${doc.error} (${doc.law})` : doc.error);
  box.hidden = false;
  renderDraft();
  saveDraft();
  box.scrollIntoView({ block: "center" });
}

// ------------------------------------------------------------ the server

async function ask(body) {
  busy = true;
  document.body.dataset.busy = "true";
  try {
    const resp = await fetch("/api/mark", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    let doc = null;
    try {
      doc = await resp.json();
    } catch (e) {
      // not JSON
    }
    if (!doc) return { ok: false, status: resp.status, doc: { error: `the server answered ${resp.status}` } };
    return { ok: resp.ok, status: resp.status, doc };
  } catch (e) {
    return { ok: false, status: 0, doc: { error: `the server could not be reached (${e.message})` } };
  } finally {
    busy = false;
    document.body.dataset.busy = "false";
  }
}

function accept(doc) {
  record = doc.record;
  view = doc.state;
  store(RECORD_KEY, record);
  render();
}

// ------------------------------------------------------------ the start

function setupNames() {
  const a = /** @type {HTMLInputElement} */ ($("name-a")).value.trim();
  const b = /** @type {HTMLInputElement} */ ($("name-b")).value.trim();
  return [a, b];
}

function renderSetup() {
  const [a, b] = setupNames();
  $("first-dealer").querySelector("[data-value=A]").textContent = `${a || "First player"} deals`;
  $("first-dealer").querySelector("[data-value=B]").textContent = `${b || "Second player"} deals`;
  for (const btn of $("first-dealer").querySelectorAll("button")) {
    btn.setAttribute("aria-pressed", String(btn.dataset.value === firstDealer));
  }
  $("agreements").hidden = /** @type {HTMLSelectElement} */ ($("rules-select")).value !== "au-cent";
}

async function begin(event) {
  event.preventDefault();
  if (busy) return;
  clearErrors();
  const agreements = [...$("agreements").querySelectorAll("input:checked")]
    .map((c) => /** @type {HTMLInputElement} */ (c).value);
  const rules = /** @type {HTMLSelectElement} */ ($("rules-select")).value;
  const r = await ask({ action: "new", players: setupNames(), rules, agreements: rules === "au-cent" ? agreements : [],
    first_dealer: firstDealer || null });
  if (!r.ok) {
    showRefusal(r.doc);
    return;
  }
  draft = emptyDraft();
  saveDraft();
  accept(r.doc);
}

// ------------------------------------------------------------ the draft of the deal in hand

// Whether the calls of that role may be marked "not held": after the ruling on his call of what he does not
// hold (Law 54).
function notHeldShown(role) {
  return !!draft.notHeld && draft.notHeld.role === role;
}

// The ruling on a call not held taken back: every call is held again, and the toggles go.
function forgetNotHeld() {
  draft.notHeld = null;
  draft.ePointHeld = true;
  draft.yPointHeld = true;
  for (const list of Object.keys(LIST_ROLES)) for (const item of draft[list]) item.held = true;
}

function heldToggle(item, testid) {
  return h("button", { type: "button", class: "mk-held", testid, "aria-pressed": String(item.held === false),
    onclick: () => { item.held = item.held === false; saveDraft(); renderDraft(); } }, "Not held");
}

function rowsOf(kind, list) {
  const key = list;
  const box = document.querySelector(`[data-list=${list}]`);
  const items = draft[key];
  const rows = items.map((item, i) => {
    const a = h("select", { "aria-label": kind === "seq" ? "Length" : "Quatorze or trio",
      testid: `${list}-${i}-a` },
    kind === "seq"
      ? Object.entries(SEQUENCE_NAMES).map(([n, w]) => h("option", { value: n, selected: item.a === n }, w))
      : [h("option", { value: "4", selected: item.a === "4" }, "fourteen"),
        h("option", { value: "3", selected: item.a === "3" }, "three")]);
    const b = h("select", { "aria-label": kind === "seq" ? "Headed by" : "Of", testid: `${list}-${i}-b` },
      kind === "seq"
        ? HEADS.map((r) => h("option", { value: r, selected: item.b === r }, `to the ${r}`))
        : SET_RANKS.map(([r, w]) => h("option", { value: r, selected: item.b === r }, w)));
    a.addEventListener("change", () => { item.a = /** @type {HTMLSelectElement} */ (a).value; saveDraft(); });
    b.addEventListener("change", () => { item.b = /** @type {HTMLSelectElement} */ (b).value; saveDraft(); });
    const suit = kind === "seq"
      ? h("select", { "aria-label": "In the suit, if shown", testid: `${list}-${i}-suit` },
        SUITS.map(([v, w]) => h("option", { value: v, selected: (item.s || "") === v }, w)))
      : null;
    if (suit) {
      suit.addEventListener("change", () => { item.s = /** @type {HTMLSelectElement} */ (suit).value; saveDraft(); });
    }
    const remove = h("button", { type: "button", class: "mk-x", "aria-label": "Remove", testid: `${list}-${i}-remove`,
      onclick: () => { items.splice(i, 1); saveDraft(); renderDraft(); } }, "✕");
    const held = notHeldShown(LIST_ROLES[list]) ? heldToggle(item, `${list}-${i}-not-held`) : null;
    return h("div", { class: "mk-row" }, a, b, remove, suit, held);
  });
  const add = h("button", { type: "button", class: "mk-add", testid: `${list}-add`,
    onclick: () => {
      items.push(kind === "seq" ? { a: "3", b: "A", s: "", held: true } : { a: "3", b: "A", held: true });
      saveDraft();
      renderDraft();
    } }, kind === "seq" ? "+ a sequence" : "+ a quatorze or trio");
  box.replaceChildren(...rows, add);
}

function renderDraft() {
  for (const group of document.querySelectorAll(".mk-choice[data-draft]")) {
    const key = /** @type {HTMLElement} */ (group).dataset.draft;
    for (const btn of group.querySelectorAll("button")) {
      btn.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (btn).dataset.value === draft[key]));
    }
  }
  for (const input of document.querySelectorAll("input[data-draft], textarea[data-draft], select[data-draft]")) {
    const el = /** @type {HTMLInputElement} */ (input);
    if (el.value !== draft[el.dataset.draft]) el.value = draft[el.dataset.draft];
  }
  for (const btn of document.querySelectorAll("button[data-held]")) {
    const b = /** @type {HTMLElement} */ (btn);
    const cards = draft[b.dataset.held === "ePointHeld" ? "ePointCards" : "yPointCards"];
    b.hidden = !cards || !notHeldShown(b.dataset.heldRole);
    b.setAttribute("aria-pressed", String(draft[b.dataset.held] === false));
  }
  const hint = $("not-held-hint");
  hint.hidden = !draft.notHeld;
  hint.textContent = draft.notHeld ? draft.notHeld[draft.mode === "quick" ? "scores" : "calls"] : "";
  for (const list of ["eSeqs", "ySeqs"]) rowsOf("seq", list);
  for (const list of ["eSets", "ySets"]) rowsOf("set", list);
  $("spoken").hidden = draft.mode !== "spoken";
  $("quick").hidden = draft.mode !== "quick";
  $("play-totals-box").hidden = draft.playMode !== "totals";
  $("play-cards-box").hidden = draft.playMode !== "cards";
  $("ask-pique").hidden = !draft.askPique;
  $("ask-first").hidden = !draft.askFirst;
  const t = /^\d+$/.test(draft.eTricks.trim()) ? 12 - Number(draft.eTricks) : "";
  $("y-tricks").textContent = t === "" ? "" : String(t);
}

// A number as typed: a whole number, 0 for nothing, or the text itself (the server says what is wrong).
function num(text, empty = 0) {
  const t = String(text).trim();
  if (!t) return empty;
  return /^\d+$/.test(t) ? Number(t) : t;
}

// A call's suit where entered, and "held": false for a call of what is not held (Law 54), as the record has them.
function shown(suit, held) {
  return { ...(suit ? { suit } : {}), ...(held === false ? { held: false } : {}) };
}

// One hand's calls as the record writes them; r is "e" (the elder's) or "y" (the younger's).
function declared(r) {
  const out = {};
  const cards = draft[`${r}PointCards`];
  const value = draft[`${r}PointValue`];
  const head = draft[`${r}PointHead`];
  if (cards) {
    out.point = { cards: Number(cards), ...(value.trim() ? { value: num(value) } : {}), ...(head ? { head } : {}),
      ...shown(draft[`${r}PointSuit`], draft[`${r}PointHeld`]) };
  }
  const seqs = draft[`${r}Seqs`];
  const sets = draft[`${r}Sets`];
  if (seqs.length) out.sequences = seqs.map((s) => ({ length: Number(s.a), head: s.b, ...shown(s.s, s.held) }));
  if (sets.length) out.sets = sets.map((s) => ({ size: Number(s.a), rank: s.b, ...shown("", s.held) }));
  return out;
}

// The deal as the marked record writes it (piquet.marker.record); the dealer is the server's (Law 16).
function dealJson() {
  const d = /** @type {Record<string, any>} */ ({});
  if (draft.cb !== "none") d.carte_blanche = draft.cb;
  if (draft.mode === "spoken") {
    const elder = declared("e");
    const replies = {};
    if (draft.rPoint && elder.point) replies.point = draft.rPoint;
    if (draft.rSeqs && elder.sequences) replies.sequences = draft.rSeqs;
    if (draft.rSets && elder.sets) replies.sets = draft.rSets;
    d.declared = { elder, replies, younger: declared("y") };
  } else {
    d.scored = {
      elder: { point: num(draft.qEPoint), sequences: num(draft.qESeqs), sets: num(draft.qESets) },
      younger: { point: num(draft.qYPoint), sequences: num(draft.qYSeqs), sets: num(draft.qYSets) },
    };
  }
  if (draft.playMode === "totals") {
    d.tricks = { elder: num(draft.eTricks, null) };
    d.play_points = { elder: num(draft.ePlay), younger: num(draft.yPlay) };
    if (draft.askPique && draft.pique) d.pique = draft.pique === "yes";
    if (draft.askFirst && draft.first) d.first_to_goal = draft.first;
  } else {
    d.play = draft.cards.split(/[\s,]+/).filter(Boolean);
  }
  const p = draft.pending;
  if (p) {
    d.dealer = p.dealer;
    if (p.out_of_turn) d.out_of_turn = true;
    if (p.reckons_nothing.length) d.reckons_nothing = p.reckons_nothing;
    if (p.waived.length) d.waived = p.waived;
  }
  return d;
}

async function scoreDeal(event) {
  event.preventDefault();
  if (busy || !record) return;
  clearErrors();
  const r = await ask({ action: "add", record, deal: dealJson() });
  if (!r.ok) {
    if (r.status === 422) showRefusal(r.doc);
    else showError(`Not scored: ${r.doc.error}`);
    return;
  }
  draft = emptyDraft();
  saveDraft();
  accept(r.doc);
  $("last-deal").scrollIntoView({ block: "start" });
}

async function act(action) {
  if (busy || !record) return;
  clearErrors();
  const r = await ask({ action, record });
  if (!r.ok) {
    if (r.status === 422) showRefusal(r.doc);
    else showError(r.doc.error);
    return;
  }
  /** @type {HTMLDetailsElement} */ ($("wrong")).open = false;
  if (action === "undo") {
    draft.pending = null; // the rulings on the deal that was being entered go with it
    draft.notes = [];
    forgetNotHeld();
  } else {
    draft = emptyDraft(); // the deal in progress is annulled or void
  }
  saveDraft();
  accept(r.doc);
}

// ------------------------------------------------------------ something went wrong (the referee)

async function loadCatalogue() {
  try {
    const resp = await fetch("/api/mark/referee");
    if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
    catalogue = await resp.json();
  } catch (e) {
    catalogue = null;
    $("wrong-groups").replaceChildren(h("p", { class: "mk-err" }, `The laws could not be fetched (${e.message}).`));
    return;
  }
  renderWrong();
}

// The names of the elder and the younger of the deal being entered (its dealer is the younger, Law 9).
function roleNames() {
  const dealer = draft.pending ? draft.pending.dealer : view && view.next ? view.next.dealer : "B";
  return { elder: nameOf(dealer === "A" ? "B" : "A"), younger: nameOf(dealer) };
}

function pendingJson() {
  const p = draft.pending;
  return p ? { dealer: p.dealer, out_of_turn: p.out_of_turn, reckons_nothing: p.reckons_nothing, waived: p.waived }
    : {};
}

function pick(entry) {
  const facts = {};
  for (const name of entry.facts) facts[name] = catalogue.facts[name].default;
  wrongCase = { entry, facts, ruling: null, deal: null, scores: {} };
  clearErrors();
  renderWrong();
  $("wrong-case").scrollIntoView({ block: "start" });
}

function factView(name) {
  const fact = catalogue.facts[name];
  const value = wrongCase.facts[name];
  const set = (v) => {
    wrongCase.facts[name] = v;
    wrongCase.ruling = null; // asked again with the facts changed
    renderWrong();
  };
  if (name === "offender") {
    const names = roleNames();
    return h("div", { class: "mk-fact", testid: `fact-${name}` },
      h("p", {}, `Who is in error: ${names.elder} (the elder) or ${names.younger} (the younger)?`),
      h("div", { class: "mk-choice" }, ["elder", "younger"].map((role) => h("button", {
        type: "button", "aria-pressed": String(value === role), testid: `fact-offender-${role}`,
        onclick: () => set(role) }, names[role]))));
  }
  if (fact.number) {
    const input = h("input", { inputmode: "numeric", autocomplete: "off", value: String(value), testid: `fact-${name}`,
      "aria-label": fact.question });
    input.addEventListener("input", () => {
      const t = /** @type {HTMLInputElement} */ (input).value.trim();
      wrongCase.facts[name] = /^\d+$/.test(t) ? Number(t) : t;
      wrongCase.ruling = null;
      $("wrong-ruling").hidden = true;
    });
    return h("label", { class: "mk-fact" }, h("span", {}, fact.question), input);
  }
  return h("div", { class: "mk-fact", testid: `fact-${name}` },
    h("p", {}, fact.question),
    h("div", { class: "mk-choice" },
      h("button", { type: "button", "aria-pressed": String(value === true), testid: `fact-${name}-yes`,
        onclick: () => set(true) }, "Yes"),
      h("button", { type: "button", "aria-pressed": String(value === false), testid: `fact-${name}-no`,
        onclick: () => set(false) }, "No")));
}

// The re-entry of a deal put right (Laws 70, 74): which deal, then what each scored and the play, quickly.
function correctionView(ruling) {
  const c = wrongCase;
  const deal = ruling.deals.find((d) => d.index === c.deal);
  const box = h("div", { class: "mk-referee", testid: "correction" },
    h("p", { class: "small" }, "Which deal is put right? Then enter its scores again."),
    h("div", { class: "mk-choice" }, ruling.deals.map((d) => h("button", {
      type: "button", "aria-pressed": String(c.deal === d.index), testid: `correct-deal-${d.index}`,
      onclick: () => { c.deal = d.index; renderWrong(); } }, d.words))));
  if (!deal) return box;
  const input = (key, label) => {
    const el = h("input", { inputmode: "numeric", autocomplete: "off", value: c.scores[key] || "",
      testid: `correct-${key}`, "aria-label": label });
    el.addEventListener("input", () => { c.scores[key] = /** @type {HTMLInputElement} */ (el).value; });
    return el;
  };
  const el = nameOf(deal.elder);
  const yo = nameOf(deal.dealer);
  box.append(h("div", { class: "mk-grid" },
    h("span", {}), h("span", { class: "mk-col" }, el), h("span", { class: "mk-col" }, yo),
    h("span", {}, "Point"), input("elder-point", `${el}'s point`), input("younger-point", `${yo}'s point`),
    h("span", {}, "Sequences"), input("elder-sequences", `${el}'s sequences`),
    input("younger-sequences", `${yo}'s sequences`),
    h("span", {}, "Quatorzes, trios"), input("elder-sets", `${el}'s quatorzes and trios`),
    input("younger-sets", `${yo}'s quatorzes and trios`),
    h("span", {}, "Tricks"), input("e-tricks", `${el}'s tricks`), h("span", {}),
    h("span", {}, "Play points"), input("e-play", `${el}'s play points`), input("y-play", `${yo}'s play points`)));
  return box;
}

function correctionJson() {
  const s = wrongCase.scores;
  const n = (k) => num(s[k] || "");
  return {
    deal: wrongCase.deal,
    scored: {
      elder: { point: n("elder-point"), sequences: n("elder-sequences"), sets: n("elder-sets") },
      younger: { point: n("younger-point"), sequences: n("younger-sequences"), sets: n("younger-sets") },
    },
    tricks: { elder: num(s["e-tricks"] || "", null) },
    play_points: { elder: n("e-play"), younger: n("y-play") },
  };
}

function renderRuling() {
  const box = $("wrong-ruling");
  const r = wrongCase && wrongCase.ruling;
  box.hidden = !r;
  if (!r) {
    box.replaceChildren();
    return;
  }
  const corrects = r.options.some((o) => o.corrects);
  const options = r.options.map((o) => h("button", { type: "button", class: "mk-option",
    testid: `wrong-option-${o.remedy}`, onclick: () => choose(o) }, o.says, h("span", { class: "small" }, o.effect)));
  box.replaceChildren(
    h("p", { testid: "ruling-law" }, h("strong", {}, `${r.law}: `), r.says),
    h("p", { testid: "ruling-who" }, r.who),
    ...(corrects ? [correctionView(r)] : []),
    ...options);
}

function renderWrong() {
  if (!catalogue) return;
  $("wrong-groups").replaceChildren(...catalogue.groups.map((g) => h("section", { class: "mk-referee",
    testid: `wrong-group-${g.name.replace(/\W+/g, "-")}` },
  h("h3", {}, g.name[0].toUpperCase() + g.name.slice(1)),
  g.entries.map((e) => h("button", { type: "button", class: "mk-wide mk-entry", testid: `wrong-${e.kind}`,
    onclick: () => pick(e) }, e.label, h("span", { class: "small" }, e.laws))))));
  $("wrong-list").hidden = !!wrongCase;
  $("wrong-case").hidden = !wrongCase;
  if (!wrongCase) return;
  const e = wrongCase.entry;
  const names = roleNames();
  $("wrong-title").textContent = `${e.label} (${e.laws})`;
  $("wrong-facts").replaceChildren(...(e.facts.length ? e.facts.map(factView)
    : [h("p", { class: "small" }, `The laws ask nothing more. ${names.elder} is elder, ${names.younger} younger.`)]));
  renderRuling();
}

async function askRuling() {
  if (busy || !record || !wrongCase) return;
  clearErrors();
  const r = await ask({ action: "rule", record, kind: wrongCase.entry.kind, facts: wrongCase.facts,
    pending: pendingJson() });
  if (!r.ok) {
    if (r.status === 422) showRefusal(r.doc);
    else showError(r.doc.error);
    return;
  }
  wrongCase.ruling = r.doc.ruling;
  if (r.doc.ruling.deals.length === 1) wrongCase.deal = r.doc.ruling.deals[0].index;
  renderWrong();
  $("wrong-ruling").scrollIntoView({ block: "start" });
}

async function choose(option) {
  if (busy || !record || !wrongCase) return;
  clearErrors();
  const body = /** @type {Record<string, any>} */ ({ action: "wrong", record, kind: wrongCase.entry.kind,
    facts: wrongCase.facts, pending: pendingJson(), remedy: option.remedy });
  if (option.corrects) body.correct = correctionJson();
  const r = await ask(body);
  if (!r.ok) {
    if (r.status === 422) showRefusal(r.doc);
    else showError(r.doc.error);
    return;
  }
  const applied = r.doc.applied;
  if (applied.deal_over) {
    draft = emptyDraft();
  } else {
    const p = applied.pending;
    const changed = p.out_of_turn || p.reckons_nothing.length || p.waived.length;
    draft.pending = changed ? p : null;
    if (applied.note) draft.notes = [...(draft.notes || []), applied.note];
    if (applied.not_held) draft.notHeld = applied.not_held;
  }
  saveDraft();
  wrongCase = null;
  /** @type {HTMLDetailsElement} */ ($("wrong")).open = false;
  $("wrong-told").textContent = applied.says;
  $("wrong-told").hidden = false;
  accept(r.doc);
  $("wrong-told").scrollIntoView({ block: "center" });
}

// ------------------------------------------------------------ the partie shown

function nameOf(seat) {
  return view.players[seat];
}

function renderDeal(entry) {
  const title = entry.counts ? `Deal ${entry.number}` : entry.status === "annulled" ? "Annulled" : "Void";
  const summary = entry.lost_by
    ? `${title}: ${nameOf(entry.lost_by)} loses the game`
    : entry.counts
      ? `${title}: ${nameOf("A")} ${entry.counts_as.A}, ${nameOf("B")} ${entry.counts_as.B}`
      : `${title}: ${entry.lines[0]}`;
  return h("details", { class: "mk-deal", testid: `deal-${entry.index}` },
    h("summary", {}, summary),
    h("div", { class: "mk-lines" }, entry.lines.map((l) => h("p", {}, l.trim()))));
}

function render() {
  $("setup").hidden = true;
  $("partie").hidden = false;
  for (const seat of ["A", "B"]) {
    $(`name-${seat}`).textContent = nameOf(seat);
    $(`score-${seat}`).textContent = String(view.scores[seat]);
  }
  $("rules-title").textContent = view.title;
  const tally = view.settlement.tally || {};
  $("games-line").hidden = !view.of_games;
  if (view.of_games) {
    $("games-line").textContent = `Games: ${nameOf("A")} ${tally.A ?? 0}, ${nameOf("B")} ${tally.B ?? 0}`;
  }
  const played = view.deals.filter((d) => d.counts);
  const last = view.deals[view.deals.length - 1];
  $("last-deal").hidden = !last;
  if (last) {
    $("last-title").textContent = last.counts ? last.lines[0] : last.lines[0];
    $("last-order").replaceChildren(...(last.order || []).map((o) => h("li", {}, `${o.name}: ${o.words}`)));
    $("last-total").textContent = last.counts
      ? `${last.lines[last.lines.length - 1].trim()} The partie: ${nameOf("A")} ${last.after.A}, ${nameOf("B")} ${last.after.B}.`
      : "";
  }
  $("history").replaceChildren(...(view.deals.length ? view.deals.map(renderDeal)
    : [h("p", { class: "muted" }, "No deal marked yet.")]));
  /** @type {HTMLButtonElement} */ ($("undo-deal")).disabled = !view.can_undo;
  const next = view.next;
  $("deal").hidden = !next;
  $("wrong").hidden = !next;
  $("end").hidden = !view.finished;
  $("settlement-words").textContent = view.settlement.words;
  $("stake-form").hidden = view.of_games;
  $("stakes-words").replaceChildren(...(view.stakes || []).map((l) => h("p", {}, l)));
  if (next) {
    const p = draft.pending;
    $("next-deal").textContent = p && p.out_of_turn && p.words ? p.words : next.words;
    const names = roleNames();
    const notes = draft.notes || [];
    $("deal-notes").replaceChildren(...notes.map((n) => h("li", {}, n)));
    $("deal-notes").hidden = !notes.length;
    for (const e of document.querySelectorAll("[data-role-name]")) {
      e.textContent = names[/** @type {HTMLElement} */ (e).dataset.roleName];
    }
    for (const e of document.querySelectorAll("button[data-role]")) {
      e.textContent = names[/** @type {HTMLElement} */ (e).dataset.role];
    }
  }
  document.body.dataset.deals = String(played.length);
  renderDraft();
  renderWrong();
}

async function settleStakes(event) {
  event.preventDefault();
  if (busy || !record) return;
  clearErrors();
  const r = await ask({ action: "state", record, stake: /** @type {HTMLInputElement} */ ($("stake")).value,
    custom: /** @type {HTMLSelectElement} */ ($("custom")).value });
  if (!r.ok) {
    if (r.status === 422) showRefusal(r.doc);
    else showError(r.doc.error);
    return;
  }
  accept(r.doc);
}

function download() {
  if (!record) return;
  const text = `${JSON.stringify(record, null, 2)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const names = Object.values(record.players || {}).join("-").replace(/[^\w-]+/g, "_");
  const a = h("a", { href: url, download: `piquet-marked-${names || "partie"}.json`, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

let newArmed = false;

function newPartie() {
  const btn = $("new-partie");
  if (!newArmed && record && record.deals.length) {
    newArmed = true;
    btn.textContent = "Tap again to leave this partie (download its record first)";
    setTimeout(() => { newArmed = false; btn.textContent = "A new partie"; }, 5000);
    return;
  }
  newArmed = false;
  btn.textContent = "A new partie";
  record = null;
  view = null;
  store(RECORD_KEY, null);
  draft = emptyDraft();
  saveDraft();
  showSetup();
}

function showSetup() {
  $("partie").hidden = true;
  $("setup").hidden = false;
  if (record && record.players) {
    /** @type {HTMLInputElement} */ ($("name-a")).value = record.players.A || "";
    /** @type {HTMLInputElement} */ ($("name-b")).value = record.players.B || "";
  }
  renderSetup();
}

// ------------------------------------------------------------ the page

function bind() {
  $("setup").addEventListener("submit", begin);
  for (const id of ["name-a", "name-b", "rules-select"]) {
    $(id).addEventListener("input", renderSetup);
    $(id).addEventListener("change", renderSetup);
  }
  for (const btn of $("first-dealer").querySelectorAll("button")) {
    btn.addEventListener("click", () => { firstDealer = /** @type {HTMLElement} */ (btn).dataset.value; renderSetup(); });
  }
  for (const group of document.querySelectorAll(".mk-choice[data-draft]")) {
    const key = /** @type {HTMLElement} */ (group).dataset.draft;
    for (const btn of group.querySelectorAll("button")) {
      btn.addEventListener("click", () => {
        draft[key] = /** @type {HTMLElement} */ (btn).dataset.value;
        saveDraft();
        renderDraft();
      });
    }
  }
  for (const btn of document.querySelectorAll("button[data-held]")) {
    btn.addEventListener("click", () => {
      const key = /** @type {HTMLElement} */ (btn).dataset.held;
      draft[key] = draft[key] === false;
      saveDraft();
      renderDraft();
    });
  }
  for (const input of document.querySelectorAll("input[data-draft], textarea[data-draft], select[data-draft]")) {
    input.addEventListener("input", () => {
      const el = /** @type {HTMLInputElement} */ (input);
      draft[el.dataset.draft] = el.value;
      saveDraft();
      if (el.dataset.draft === "eTricks") renderDraft();
    });
  }
  $("deal").addEventListener("submit", scoreDeal);
  $("clear-deal").addEventListener("click", () => { draft = emptyDraft(); saveDraft(); clearErrors(); renderDraft(); });
  $("wrong-rule").addEventListener("click", askRuling);
  $("wrong-back").addEventListener("click", () => { wrongCase = null; clearErrors(); renderWrong(); });
  $("annul-deal").addEventListener("click", () => act("annul"));
  $("void-deal").addEventListener("click", () => act("void"));
  $("undo-deal").addEventListener("click", () => act("undo"));
  $("download-record").addEventListener("click", download);
  $("new-partie").addEventListener("click", newPartie);
  $("stake-form").addEventListener("submit", settleStakes);
}

async function start() {
  bind();
  loadCatalogue();
  const kept = load(DRAFT_KEY);
  if (kept && typeof kept === "object") draft = { ...emptyDraft(), ...kept };
  record = load(RECORD_KEY);
  if (record) {
    const r = await ask({ action: "state", record });
    if (r.ok) {
      accept(r.doc);
    } else {
      showError(`The partie kept in this browser cannot be read: ${r.doc.error}. It is still kept: download it, or begin a new partie.`);
      showSetup();
    }
  } else {
    showSetup();
  }
  document.body.dataset.ready = "true";
}

start();
