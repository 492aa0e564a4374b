// Small DOM helpers shared by the pages (the lobby, the table, the replay, the settlement).

/**
 * An element: h("p", { class: "x", testid: "y", onclick: f, text: "..." }, child, ...).
 * Attributes that are null, undefined or false are left out; children that are null,
 * undefined or false are skipped; strings become text.
 */
export function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "testid") e.dataset.testid = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

/** The element of that id. */
export const $ = (id) => document.getElementById(id);

/** Append the children that are not null, undefined or false. */
export function put(parent, ...kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid !== null && kid !== undefined && kid !== false) parent.append(kid);
  }
  return parent;
}

/** Remove every child. */
export function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
  return e;
}

/** The text with its first letter a capital ("you" -> "You"): a name at the start of a sentence. */
export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
