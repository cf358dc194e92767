// The account corner of every page's top bar: who you are, the games waiting for you (also in the tab
// title), and an opt-in notification with a sound when it becomes your turn in any of your games.
// The count is asked for every 1.5 seconds while the page is seen, at once when it comes back into
// view, and at once when a game of this page changes ("builders:moved").

import { api, currentSession, el, GAME_TITLES, t } from "./api.js";

const NOTIFY_KEY = "builders.notify";
const POLL_MS = 1500;

let box = null;
let waitingIds = null; // ids of the games waiting for you at the last look (null: not looked yet)
let baseTitle = document.title;
let timer = null;
let chatUnread = 0; // unread chat messages of the table page: they lead the tab title
let asking = null;

export function setBaseTitle(title) {
  baseTitle = title;
  updateTitle();
}

/** The table page's unread chat messages: while there are any, the title starts with their number. */
export function setChatUnread(count) {
  chatUnread = count;
  updateTitle();
}

function updateTitle() {
  const own = baseTitle.replace(/^\(\d+\) /, "");
  const count = chatUnread || (waitingIds ? waitingIds.size : 0);
  document.title = count ? `(${count}) ${own}` : own;
}

/** Whether this browser wants alerts (the top bar's "Alerts", the table's "Notify me"). */
export function notifyWanted() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "1";
  } catch (err) {
    return false;
  }
}

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
  } catch (err) {
    /* no sound here */
  }
}

function announce(game) {
  if (!notifyWanted()) return;
  beep();
  if ("Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(t("play.your_turn"), { body: t("account.notify_body", { game: game.name || GAME_TITLES[game.game] || t("account.a_game") }), tag: game.id });
      note.onclick = () => { window.focus(); location.href = `/play/${encodeURIComponent(game.id)}`; };
    } catch (err) {
      /* notifications refused by the browser */
    }
  }
}

/** Alerts on or off, kept in this browser; turning them on asks the browser's permission (only ever
from the click that chose it). Every toggle of the page follows ("builders:notify"). */
export async function setNotify(on) {
  try {
    localStorage.setItem(NOTIFY_KEY, on ? "1" : "0");
  } catch (err) {
    /* private mode */
  }
  document.dispatchEvent(new CustomEvent("builders:notify", { detail: notifyWanted() }));
  if (on && "Notification" in window && Notification.permission === "default") {
    try {
      await Notification.requestPermission();  // (the person may take their time to answer)
    } catch (err) {
      /* ignore */
    }
  }
  return notifyWanted();
}

function showNotify(button) {
  button.setAttribute("aria-pressed", notifyWanted() ? "true" : "false");
  button.textContent = notifyWanted() ? t("account.alerts_on") : t("account.alerts_off");
}

/** Games of this browser's account that wait for it (its turn), newest first. */
export async function waitingGames() {
  const info = await currentSession();
  if (!info.account) return [];
  return (await api("/api/account/waiting")).games;
}

// one look at a time: a look asked for during one is made once it is done
let again = false;
function refresh() {
  if (asking) {
    again = true;
    return asking;
  }
  asking = look().finally(() => {
    asking = null;
    if (again) {
      again = false;
      refresh();
    }
  });
  return asking;
}

async function look() {
  if (!box) return;
  let info;
  try {
    info = await currentSession();
  } catch (err) {
    return;
  }
  const who = box.querySelector("#account-name");
  if (info.account) {
    who.textContent = info.account.guest ? t("account.guest") : info.account.username;
    who.href = info.account.guest ? "/account" : `/players/${encodeURIComponent(info.account.username)}`;
    who.title = info.account.guest ? t("account.guest_title") : t("account.profile");
  } else {
    who.textContent = t("account.sign_in");
    who.href = "/account";
  }
  let waiting = [];
  try {
    waiting = await waitingGames();
  } catch (err) {
    return;
  }
  const ids = new Set(waiting.map((g) => g.id));
  if (waitingIds) {
    for (const g of waiting) if (!waitingIds.has(g.id)) announce(g);
  }
  waitingIds = ids;
  updateTitle();
  showCount(ids.size);
  const list = box.querySelector("#waiting-list");
  const items = waiting.map((g) => el("li", { "data-id": g.id },
    el("a", { href: `/play/${encodeURIComponent(g.id)}`, text: `${g.name || GAME_TITLES[g.game] || g.game} · ${t("lobby.status.turn", { turn: g.turn })}` })));
  if (!items.length) items.push(el("li", { class: "muted", text: t("account.none_waiting") }));
  items.push(el("li", { class: "waiting-all" }, el("a", { href: "/#my-games-panel", id: "waiting-all" }, t("account.all_games"))));
  list.replaceChildren(...items);
  document.dispatchEvent(new CustomEvent("builders:waiting", { detail: waiting }));
}

// "Your turn (2)" while games wait for you, else "Your games"
function showCount(n) {
  box.querySelector("#waiting-label").textContent = n ? t("play.your_turn") : t("account.your_games");
  const paren = box.querySelector("#waiting-paren");
  if (n) paren.replaceChildren(" (", el("span", { class: "waiting-count", id: "waiting-count", text: String(n) }), ")");
  else paren.replaceChildren();
  box.querySelector("#waiting-btn").classList.toggle("has-waiting", n > 0);
}

// The menu of the games waiting: opened by the button, closed by it, by Esc (the focus back on the
// button) and by a click anywhere else.
function menu(button, list) {
  const open = (on) => {
    list.hidden = !on;
    button.setAttribute("aria-expanded", String(on));
  };
  button.addEventListener("click", () => {
    open(list.hidden);
    if (!list.hidden) refresh();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || list.hidden) return;
    open(false);
    button.focus();
  });
  document.addEventListener("click", (event) => {
    if (!list.hidden && !button.contains(event.target) && !list.contains(event.target)) open(false);
  });
}

/** Puts the account corner into the top bar (once per page) and keeps it current. */
export function mountAccount() {
  const bar = document.querySelector(".topbar");
  if (!bar || box) return;
  const notify = el("button", { type: "button", class: "btn small ghost", id: "notify-btn", "aria-pressed": notifyWanted() ? "true" : "false", title: t("account.alerts_title") }, notifyWanted() ? t("account.alerts_on") : t("account.alerts_off"));
  notify.addEventListener("click", () => setNotify(!notifyWanted()));
  document.addEventListener("builders:notify", () => showNotify(notify));
  const waitingBtn = el("button", { type: "button", class: "btn small", id: "waiting-btn", "aria-haspopup": "true", "aria-expanded": "false", "aria-controls": "waiting-list", title: t("account.waiting_title") },
    el("span", { id: "waiting-label", text: t("account.your_games") }),
    el("span", { id: "waiting-paren" }));
  const list = el("ul", { class: "waiting-list", id: "waiting-list", hidden: true });
  menu(waitingBtn, list);
  box = el("div", { class: "account-box", id: "account-box" },
    waitingBtn, list, notify, el("a", { class: "btn small", id: "account-name", href: "/account" }, "…"));
  bar.appendChild(box);
  document.addEventListener("builders:session", () => refresh());
  document.addEventListener("builders:moved", () => refresh());
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
  refresh();
  clearInterval(timer);
  timer = setInterval(() => { if (document.visibilityState === "visible") refresh(); }, POLL_MS);
}

export const refreshAccount = refresh;
