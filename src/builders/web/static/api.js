// Talking to the game server: REST calls, the seats this browser holds, the live connection, messages.

import { followAccount, has, t } from "./i18n.js";
import { GAMES } from "./games.js";

export { t, GAMES };

/** The title of the game ``name`` in the page's language: the catalogue's (its key the name with _ for -),
 *  else its plugin's. */
export function gameTitle(name) {
  const key = String(name).replaceAll("-", "_");
  if (has(`game.${key}`)) return t(`game.${key}`);
  const game = GAMES.find((g) => g.name === name);
  return game ? game.title : name;
}
export const GAME_TITLES = Object.fromEntries(GAMES.map((g) => [g.name, gameTitle(g.name)]));
export const SEAT_COLOURS = ["#e0512b", "#2f6fdb", "#f4f1e6", "#2e2e33"];
export const SEAT_INK = ["#ffffff", "#ffffff", "#1d1d1d", "#ffffff"];
export const SEAT_NAMES = [t("colour.red"), t("colour.blue"), t("colour.white"), t("colour.black")];
// The colours a seat may be given in the lobby (the server's COLOURS, in the same order): fill of the
// houses and dots, and the ink of text on a seat chip (4.5:1; red chips are drawn darker, see style.css).
export const PALETTE = [
  { id: "red", name: t("colour.red"), fill: "#e0512b", ink: "#ffffff" },
  { id: "blue", name: t("colour.blue"), fill: "#2f6fdb", ink: "#ffffff" },
  { id: "white", name: t("colour.white"), fill: "#f4f1e6", ink: "#1d1d1d" },
  { id: "black", name: t("colour.black"), fill: "#2e2e33", ink: "#ffffff" },
  { id: "yellow", name: t("colour.yellow"), fill: "#f2c12e", ink: "#1d1d1d" },
  { id: "purple", name: t("colour.purple"), fill: "#8a4fc4", ink: "#ffffff" },
  { id: "pink", name: t("colour.pink"), fill: "#e5508f", ink: "#1d1d1d" },
  { id: "teal", name: t("colour.teal"), fill: "#0fa88a", ink: "#1d1d1d" },
];
export const DEFAULT_COLOURS = ["red", "blue", "white", "black"];

/** The colour of the game ``name`` (its plugin's, else one of the palette's by its place in the list). */
export function gameColour(name) {
  const i = GAMES.findIndex((g) => g.name === name);
  return (GAMES[i] && GAMES[i].colour) || PALETTE[Math.max(0, i) % PALETTE.length].fill;
}

/** Colour the seats of this page: ``colours`` is the game's list of palette ids (none: the defaults).
 *  SEAT_COLOURS, SEAT_INK and SEAT_NAMES change in place, so every drawing of a seat follows. */
export function applySeatColours(colours) {
  const ids = Array.isArray(colours) && colours.length ? colours : DEFAULT_COLOURS;
  for (let i = 0; i < 4; i++) {
    const p = PALETTE.find((c) => c.id === (ids[i] || DEFAULT_COLOURS[i])) || PALETTE[i];
    SEAT_COLOURS[i] = p.fill;
    SEAT_INK[i] = p.ink;
    SEAT_NAMES[i] = p.name;
  }
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// The session of this browser (its cookie is HttpOnly: the page only ever sees the CSRF token).
let csrfToken = null;
let sessionPromise = null;

/** The session after signing in, up or out; true when the account's language is not the page's
 *  (followAccount: the cookie keeps it, the next page shows it). */
export function setSession(info) {
  csrfToken = (info && info.csrf) || null;
  sessionPromise = Promise.resolve(info || { account: null, csrf: null });
  document.dispatchEvent(new CustomEvent("builders:session", { detail: info }));
  return followAccount(info && info.account);
}

/** {account: {id, username, guest, name, language} | null, csrf} of this browser (asked once per page;
 *  a page in another language than the account's is shown again in it). */
export function currentSession() {
  if (!sessionPromise) {
    sessionPromise = api("/api/session").then((info) => {
      csrfToken = info.csrf || null;
      if (followAccount(info.account)) location.reload();
      return info;
    }, () => ({ account: null, csrf: null }));
  }
  return sessionPromise;
}

/** The session, made a guest's first if this browser has none: a guest plays without signing up. */
export async function ensureSession() {
  const info = await currentSession();
  if (info.account) return info;
  const made = await api("/api/session/guest", { method: "POST" });
  setSession(made);
  return made;
}

// One JSON request; throws ApiError with the server's own sentence on any 4xx/5xx.
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  if (method !== "GET" && csrfToken && !token) headers["X-CSRF-Token"] = csrfToken;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, t("api.unreachable"));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      data = null;
    }
  }
  if (!response.ok) {
    throw new ApiError(response.status, describeError(response.status, data));
  }
  return data;
}

function describeError(status, data) {
  const detail = data && data.detail;
  if (typeof detail === "string" && detail) return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((d) => (d && d.msg ? d.msg : String(d))).join("; ");
  }
  const words = {
    400: t("api.error.400"),
    401: t("api.error.401"),
    403: t("api.error.403"),
    404: t("api.error.404"),
    409: t("api.error.409"),
    413: t("api.error.413"),
  };
  return words[status] || t("api.error.other", { status: String(status) });
}

// ---------------------------------------------------------------------------------------------
// Seats held by this browser: {gameId: {game, name, mine: seat|null, tokens: {seat: token}, created}}

const STORE_KEY = "builders.seats";
const NAME_KEY = "builders.name";

export function loadSeats() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch (err) {
    return {};
  }
}

function saveSeats(all) {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(all));
  } catch (err) {
    /* private mode: seats then live only in the page links */
  }
}

export function rememberSeat(gameId, seat, token, extra = {}) {
  const all = loadSeats();
  const entry = all[gameId] || { tokens: {}, mine: null, created: new Date().toISOString() };
  entry.tokens[String(seat)] = token;
  if (entry.mine === null || entry.mine === undefined || extra.mine) entry.mine = seat;
  if (extra.game) entry.game = extra.game;
  if (extra.name) entry.name = extra.name;
  all[gameId] = entry;
  saveSeats(all);
}

export function rememberGame(gameId, fields) {
  const all = loadSeats();
  all[gameId] = Object.assign(all[gameId] || { tokens: {}, mine: null, created: new Date().toISOString() }, fields);
  saveSeats(all);
}

export function forgetGame(gameId) {
  const all = loadSeats();
  delete all[gameId];
  saveSeats(all);
}

export function seatsFor(gameId) {
  return loadSeats()[gameId] || null;
}

export function playerName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch (err) {
    return "";
  }
}

export function setPlayerName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch (err) {
    /* ignore */
  }
}

// "#seat=1&token=abc" -> {seat: 1, token: "abc"} (or null)
export function seatFromFragment(hash) {
  const params = new URLSearchParams((hash || "").replace(/^#/, ""));
  const token = params.get("token");
  const seat = params.get("seat");
  if (!token || seat === null || !/^\d+$/.test(seat)) return null;
  return { seat: Number(seat), token };
}

export function gameIdFromPath(prefix) {
  const parts = location.pathname.split("/").filter(Boolean);
  const at = parts.indexOf(prefix);
  if (at >= 0 && parts[at + 1]) return decodeURIComponent(parts[at + 1]);
  return new URLSearchParams(location.search).get("id");
}

// ---------------------------------------------------------------------------------------------
// Messages in words

let toastBox = null;

export function toast(message, kind = "error", ms = 6000) {
  if (!toastBox) {
    toastBox = document.createElement("div");
    toastBox.className = "toasts";
    toastBox.setAttribute("role", "status");
    toastBox.setAttribute("aria-live", "polite");
    document.body.appendChild(toastBox);
  }
  const item = document.createElement("div");
  item.className = `toast toast-${kind}`;
  item.textContent = message;
  const close = document.createElement("button");
  close.className = "toast-close";
  close.setAttribute("aria-label", t("common.dismiss"));
  close.textContent = "×";
  close.addEventListener("click", () => item.remove());
  item.appendChild(close);
  toastBox.appendChild(item);
  if (ms) setTimeout(() => item.remove(), ms);
  return item;
}

// ---------------------------------------------------------------------------------------------
// The live connection: hello with the seat token, state pushes, ping, reconnect with backoff.

/** Copy ``text`` to the clipboard, saying in a toast whether it worked. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("common.link_copied"), "info", 2500);
  } catch (err) {
    toast(t("common.copy_blocked"), "error");
  }
}

export class GameSocket {
  constructor(gameId, token, { onState, onError, onStatus, onMessage, seat = null }) {
    this.gameId = gameId;
    this.token = token || null;
    this.seat = seat;
    this.onState = onState;
    this.onMessage = onMessage || (() => {});
    this.onError = onError || ((m) => toast(m));
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.pingTimer = null;
    this.retryTimer = null;
    this.lost = false; // a connection was lost and is not back yet: the badge says "reconnecting…"
    this.connect();
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.isOpen()) this.reconnectNow();
    };
    // the browser knows before the socket does that the network is gone: an open socket may stay
    // "open" for minutes while nothing gets through, so let go of it at once and say so
    this.onOffline = () => this.drop();
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onVisible);
    window.addEventListener("offline", this.onOffline);
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}`;
    this.onStatus(this.lost ? "offline" : "connecting");
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (err) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      // the server answers hello with the current view: whatever was missed while away is caught up
      const hello = { type: "hello", token: this.token };
      if (!this.token && this.seat !== null && this.seat !== undefined) hello.seat = this.seat;
      ws.send(JSON.stringify(hello));
      this.lost = false;
      this.onStatus("live");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return; // a socket let go of (dropped, or replaced by a new seat's)
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (msg.type === "state") {
        this.delay = 500; // served: the next loss starts from a short wait again
        this.onState(msg);
      } else if (msg.type === "error") this.onError(msg.message || t("api.socket_error"));
      else this.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      // a socket already let go of closes late: the timer then belongs to its successor
      if (this.ws === ws) {
        // 1013: the server cannot reach its database just now; ask again in a couple of seconds
        if (event.code === 1013) this.delay = Math.max(this.delay, 2000);
        clearInterval(this.pingTimer);
        this.ws = null;
        this.lost = !this.closed;
        this.onStatus(this.closed ? "closed" : "offline");
        this.scheduleRetry();
      }
    });
    ws.addEventListener("error", () => {
      /* close follows */
    });
  }

  scheduleRetry() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const wait = this.delay + Math.random() * 250;
    this.delay = Math.min(this.delay * 2, 15000);
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  // Lets go of the current socket (it may not have noticed yet that the network is gone) and retries.
  drop() {
    const ws = this.ws;
    if (!ws || this.closed) return;
    this.ws = null;
    this.lost = true;
    clearInterval(this.pingTimer);
    this.onStatus("offline");
    try {
      ws.close();
    } catch (err) {
      /* already closing */
    }
    this.scheduleRetry();
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    this.delay = 500;
    if (!this.ws) this.connect();
  }

  send(message) {
    if (this.isOpen()) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  setToken(token, seat = null) {
    this.token = token || null;
    this.seat = seat;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close();
    }
    clearInterval(this.pingTimer);
    this.delay = 500;
    this.connect();
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onVisible);
    window.removeEventListener("offline", this.onOffline);
    if (this.ws) this.ws.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

const SVGNS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export function seatLabel(seats, seat, mySeat = null) {
  const info = (seats || []).find((s) => s.seat === seat) || {};
  let who;
  if (info.type === "bot") who = t("seat.bot_named", { name: info.name || t("seat.bot"), level: botLevel(info.level) });
  else if (info.name) who = info.guest ? t("seat.guest_named", { name: info.name }) : info.name;
  else who = info.open && !info.claimed ? t("seat.open_seat") : t("seat.player");
  const you = mySeat === seat ? t("seat.you_suffix") : "";
  return `${SEAT_NAMES[seat] || t("seat.numbered", { seat: String(seat) })} · ${who}${you}`;
}

/** The badge of a rated game (its result moves the players' ratings): in the lobby's rows, on the table. */
export function ratedBadge(id = null) {
  return el("span", { class: "rated-badge", id, title: t("rated.title") }, t("lobby.rated"));
}

/** A bot's level in words ("easy", "hard"; none: "bot"). */
export function botLevel(level) {
  return level ? t(`bot.level.${level}`) : t("seat.bot_lower");
}

/** Names in a list: "A, B and C" in the page's language. */
export function joinNames(names) {
  if (names.length < 2) return names.join("");
  return t("common.and_list", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** A touch screen (a finger, no Esc key): the tables and guides say tap there, not click. */
export const touchScreen = () => Boolean((window.matchMedia && window.matchMedia("(pointer: coarse)").matches) || "ontouchstart" in window);

export function seatName(seats, seat, mySeat = null) {
  if (mySeat === seat) return t("seat.you");
  const info = (seats || []).find((s) => s.seat === seat) || {};
  if (info.type === "bot") return t("seat.colour_bot", { colour: SEAT_NAMES[seat], level: botLevel(info.level) });
  return info.name || SEAT_NAMES[seat] || t("seat.numbered", { seat: String(seat) });
}

export function winnersText(result, seats, mySeat = null) {
  if (!result || !result.winners) return "";
  if (result.winners.length === 1 && result.winners[0] === mySeat) return t("result.you_win");
  const names = result.winners.map((w) => seatName(seats, w, mySeat));
  if (names.length === 1) return t("result.wins", { name: names[0] });
  return t("result.shared", { names: joinNames(names) });
}

// "seat 1" in a line the server wrote, in each of its languages (builders.server's catalogues: "Platz 1",
// "la place 1", the article going with the number)
const SEAT_IN_LOG = /(?<![\p{L}\p{N}])(?:seat|Platz|(?:la )?place) (\d)(?![\p{L}\p{N}])/giu;

// The seats as they were when move ``n`` was made. A seat changes hands at its events (a timeout, a
// resignation or a hand-over gives it to a bot, a take-back to its person again), each made after the
// move numbered ``after``; a seat with events was its person's before the first.
export function seatsAt(seats, events, n) {
  const then = new Map();
  for (const e of events || []) {
    if (!then.has(e.seat)) then.set(e.seat, { type: "human" });
    if (e.after < n) then.set(e.seat, e.kind !== "took_back" && e.bot ? { type: "bot", level: e.bot } : { type: "human" });
  }
  return (seats || []).map((s) => (then.has(s.seat) ? { ...s, ...then.get(s.seat) } : s));
}

// Who made the log's ``entry``: the person of the seat, or the bot that played it then (named so on
// the page of that seat's person too).
export function moverName(view, entry, mySeat = null) {
  const seats = seatsAt(view.seats, view.events, entry.n);
  const bot = seats.some((s) => s.seat === entry.seat && s.type === "bot");
  return seatName(seats, entry.seat, bot ? null : mySeat);
}

// One line of the game log in words: who, then what (a seat the server names by number, by its colour).
export function logText(view, entry, mySeat = null) {
  const who = moverName(view, entry, mySeat);
  const what = (entry.text || entry.action || "").replace(SEAT_IN_LOG, (m, d) => SEAT_NAMES[Number(d)] || m);
  return t("log.line", { who, what });
}
