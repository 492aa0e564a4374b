// A seat's token and the seats this browser holds (docs/web.md, "Security").
//
// A seat's link carries its token in the fragment, /t/{id}#token=T: a browser never sends the fragment to a
// server, so the token reaches no log, no proxy and no Referer. The page sends it itself: in the websocket's
// first message ({"type": "hello", "token": T}) and as "Authorization: Bearer T" (the hint, the replay, a new
// link). An old link, /t/{id}?token=T, is turned into the new form as soon as the page opens.
// The seats this browser has opened are kept in localStorage ("piquet.seats": {table id: {url, seat, kind, ...}});
// the lobby asks the server for those games only (POST /api/tables/mine, /api/chouettes/mine).

/** The token of this page's link, or null; an old ?token=T is moved into the fragment (history.replaceState). */
export function seatToken() {
  const query = new URLSearchParams(location.search);
  const old = query.get("token");
  if (old) {
    query.delete("token");
    const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (!fragment.get("token")) fragment.set("token", old);
    const search = query.toString();
    history.replaceState(history.state, "", `${location.pathname}${search ? `?${search}` : ""}#${fragment}`);
  }
  return new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
}

/** Put a seat's new token in this page's address (the new link replaces the old in the history). */
export function showSeatToken(token) {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  fragment.set("token", token);
  history.replaceState(history.state, "", `${location.pathname}${location.search}#${fragment}`);
}

/** The token of a seat's link, in either form (#token=T, or an old ?token=T); null if it has none. */
export function tokenOfLink(url) {
  try {
    const u = new URL(url, location.href);
    return new URLSearchParams(u.hash.replace(/^#/, "")).get("token") || u.searchParams.get("token");
  } catch (e) {
    return null;
  }
}

/** The link of a seat: its token in the fragment. */
export function seatLink(prefix, tableId, token) {
  return `/${prefix}/${encodeURIComponent(tableId)}#token=${encodeURIComponent(token)}`;
}

/** The headers that carry a seat's token to the server. */
export function bearer(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The seats this browser holds, by table id: {url, seat, kind ("partie" or "chouette"), ...}. */
export function heldSeats() {
  try {
    return JSON.parse(localStorage.getItem("piquet.seats") || "{}") || {};
  } catch (e) {
    return {};
  }
}

/** Remember a seat this browser holds (merged with what is kept of it). */
export function holdSeat(tableId, fields) {
  try {
    const seats = heldSeats();
    seats[tableId] = { ...(seats[tableId] || {}), ...fields, updated: Date.now() };
    localStorage.setItem("piquet.seats", JSON.stringify(seats));
  } catch (e) {
    // no storage (private browsing): nothing is remembered
  }
}

/**
 * The games of the seats this browser holds, as the server lists them (each with its "seat"): POST
 * /api/tables/mine or /api/chouettes/mine with their tokens. At most 200 are asked, the newest.
 * @param {"partie" | "chouette"} kind
 */
export async function myGames(kind) {
  const chouette = kind === "chouette";
  const seats = Object.entries(heldSeats())
    .filter(([, s]) => s && s.url && (s.kind === "chouette" || /\/c\//.test(s.url)) === chouette)
    .sort(([, a], [, b]) => (b.updated || 0) - (a.updated || 0))
    .slice(0, 200)
    .map(([table, s]) => ({ table, token: tokenOfLink(s.url) }))
    .filter((s) => s.token);
  if (!seats.length) return [];
  const resp = await fetch(chouette ? "/api/chouettes/mine" : "/api/tables/mine", {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ seats }),
  });
  if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
  return resp.json();
}
