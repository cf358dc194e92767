// The account corner of every page's top bar: who you are, the games waiting for you (also in the tab
// title), and an opt-in notification with a sound when it becomes your turn in any of your games.

import { api, currentSession, el, GAME_TITLES, t } from "./api.js";

const NOTIFY_KEY = "builders.notify";
const POLL_MS = 10000;

let box = null;
let waitingIds = null; // ids of the games waiting for you at the last look (null: not looked yet)
let baseTitle = document.title;
let timer = null;

export function setBaseTitle(title) {
  baseTitle = title;
  updateTitle(waitingIds ? waitingIds.size : 0);
}

function updateTitle(count) {
  const own = baseTitle.replace(/^\(\d+\) /, "");
  document.title = count ? `(${count}) ${own}` : own;
}

function notifyWanted() {
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

async function toggleNotify(button) {
  if (notifyWanted()) {
    localStorage.setItem(NOTIFY_KEY, "0");
  } else {
    if ("Notification" in window && Notification.permission === "default") {
      try {
        await Notification.requestPermission();
      } catch (err) {
        /* ignore */
      }
    }
    localStorage.setItem(NOTIFY_KEY, "1");
  }
  button.setAttribute("aria-pressed", notifyWanted() ? "true" : "false");
  button.textContent = notifyWanted() ? t("account.alerts_on") : t("account.alerts_off");
}

/** Games of this browser's account that wait for it (its turn), newest first. */
export async function waitingGames() {
  const info = await currentSession();
  if (!info.account) return [];
  const games = await api("/api/account/games");
  return games.filter((g) => g.waiting);
}

async function refresh() {
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
  updateTitle(ids.size);
  const count = box.querySelector("#waiting-count");
  count.textContent = String(ids.size);
  count.hidden = ids.size === 0;
  const list = box.querySelector("#waiting-list");
  list.replaceChildren(...(waiting.length ? waiting.map((g) => el("li", { "data-id": g.id },
    el("a", { href: `/play/${encodeURIComponent(g.id)}`, text: `${g.name || GAME_TITLES[g.game] || g.game} · ${t("lobby.status.turn", { turn: g.turn })}` })))
    : [el("li", { class: "muted", text: t("account.none_waiting") })]));
  document.dispatchEvent(new CustomEvent("builders:waiting", { detail: waiting }));
}

/** Puts the account corner into the top bar (once per page) and keeps it current. */
export function mountAccount() {
  const bar = document.querySelector(".topbar");
  if (!bar || box) return;
  const notify = el("button", { type: "button", class: "btn small ghost", id: "notify-btn", "aria-pressed": notifyWanted() ? "true" : "false", title: t("account.alerts_title") }, notifyWanted() ? t("account.alerts_on") : t("account.alerts_off"));
  notify.addEventListener("click", () => toggleNotify(notify));
  const waitingBtn = el("button", { type: "button", class: "btn small", id: "waiting-btn", "aria-haspopup": "true", title: t("account.waiting_title") },
    `${t("play.your_turn")} `, el("span", { class: "waiting-count", id: "waiting-count", hidden: true, text: "0" }));
  const list = el("ul", { class: "waiting-list", id: "waiting-list", hidden: true });
  waitingBtn.addEventListener("click", () => { list.hidden = !list.hidden; });
  box = el("div", { class: "account-box", id: "account-box" },
    waitingBtn, list, notify, el("a", { class: "btn small", id: "account-name", href: "/account" }, "…"));
  bar.appendChild(box);
  document.addEventListener("builders:session", () => refresh());
  refresh();
  clearInterval(timer);
  timer = setInterval(() => { if (document.visibilityState === "visible") refresh(); }, POLL_MS);
}

export const refreshAccount = refresh;
