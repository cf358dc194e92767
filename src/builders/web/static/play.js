// The table page (/play/{id}): loads the view for this browser's seat, keeps it live, sends actions.

import {
  api, ApiError, GameSocket, copyText, toast, el, seatFromFragment, gameIdFromPath, rememberSeat, seatsFor,
  rememberGame, applySeatColours, GAME_TITLES, SEAT_COLOURS, SEAT_INK, SEAT_NAMES, winnersText, logText, seatName,
  moverName, ensureSession, currentSession, setSession, t, botLevel, ratedBadge,
} from "./api.js";
import { eventLine, eventsByMove, eventText } from "./seat_events.js";
import { mountAccount, notifyWanted, setBaseTitle, setChatUnread, setNotify } from "./account.js";
import { loadTable } from "./tables.js";
import { Guide } from "./tutorial.js";
import { fetchHint, markMove, clearMarks, percent } from "./analysis.js";
import { formatNumber } from "./i18n.js";

const gameId = gameIdFromPath("play");
const tableRoot = document.getElementById("table");
const titleEl = document.getElementById("game-title");
const connEl = document.getElementById("conn");
const toolsEl = document.getElementById("seat-tools");

let seat = null;
let token = null;
let table = null;
let current = null;
let socket = null;
let busy = false;
// the seats of this browser's account in this game (pass-and-play when several are people's)
let mySeats = [];
// the seat whose player pressed "show my cards" on the pass-the-device screen
let passed = null;
let seeded = false;
// the last hint asked for (kept while the game stays at its version)
let hintShown = null;

async function askHint() {
  const button = document.getElementById("hint-btn");
  if (button) button.disabled = true;
  try {
    hintShown = await fetchHint(gameId, { token, query: seatQuery() });
  } catch (err) {
    toast(err.message);
  }
  if (current) renderHeader(current);
  showHint();
}

// The hint of this position (if one was asked for): its move marked on the table, its words in the header.
function showHint() {
  const fresh = hintShown && current && hintShown.version === current.version && hintShown.seat === current.seat;
  if (!fresh) {
    if (table) {
      clearMarks(tableRoot, "hint-move");
      clearMarks(tableRoot, "hint-next");
    }
    return;
  }
  if (table) {
    // the hinted move, and the rest of the plan numbered in order (2, 3, ...): the moves after it
    const plan = hintShown.plan || [];
    markMove(table, tableRoot, hintShown.action, "hint-move", { step: plan.length ? 1 : null });
    clearMarks(tableRoot, "hint-next");
    plan.forEach((action, i) => markMove(table, tableRoot, action, "hint-next", { step: i + 2, keep: true }));
  }
}

// ---------------------------------------------------------------------------------------------
// Chat: the players' channel for seated people, the spectators' for the others; shown as text only.
// New messages are counted while the chat is out of sight (scrolled away, folded, closed on a phone,
// or the page hidden): on the chat's heading, on its button and in the tab title. A sound is optional
// (off unless chosen), and a player's messages can be muted (both kept in this browser).
const CHAT_SOUND_KEY = "builders.chatSound";
const MUTED_KEY = "builders.chatMuted";
const phone = window.matchMedia("(max-width: 600px)");
const chatList = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" });
const chatInput = el("input", { type: "text", id: "chat-input", maxlength: 500, placeholder: t("chat.placeholder"), "aria-label": t("chat.label"), autocomplete: "off" });
const chatUnreadEl = el("span", { class: "chat-unread", id: "chat-unread", hidden: true });
const chatFold = el("button", { type: "button", class: "btn small ghost chat-fold", id: "chat-fold", "aria-expanded": "true", "aria-controls": "chat-body", onclick: () => foldChat(!chatFolded) }, t("chat.fold"));
const chatTitle = el("h3", { id: "chat-title", class: "chat-head" }, el("span", { text: t("chat.title") }), chatUnreadEl, chatFold);
const chatForm = el("form", { id: "chat-form", onsubmit: sendChat }, chatInput, el("button", { type: "submit", class: "btn small", id: "chat-send" }, t("chat.send")));
const chatSoundBox = el("input", { type: "checkbox", id: "chat-sound", checked: stored(CHAT_SOUND_KEY) === "1", onchange: (e) => store(CHAT_SOUND_KEY, e.target.checked ? "1" : "0") });
const mutedEl = el("p", { class: "chat-muted small muted", id: "chat-muted", hidden: true });
const chatBody = el("div", { id: "chat-body", class: "chat-body" }, chatList, mutedEl, chatForm,
  el("label", { class: "small muted sound-toggle" }, chatSoundBox, ` ${t("chat.sound")}`));
const chatBox = el("section", { class: "panel chat-panel", id: "chat-panel", "aria-labelledby": "chat-title" }, chatTitle, chatBody);
const chatToggleCount = el("span", { class: "chat-unread", id: "chat-toggle-count", hidden: true });
const chatToggle = el("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "aria-controls": "chat-panel", "aria-expanded": "false", onclick: toggleChat },
  el("span", { text: t("chat.title") }), chatToggleCount);
document.body.appendChild(chatToggle);
const chatSeen = new Set();
let chatMessages = [];
let chatFolded = false;
let chatInView = false;
let chatOpen = false; // on a phone: the chat is shown over the table
let unread = 0;
let myName = null; // the name this browser's account chats under

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    return null;
  }
}
function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (err) {
    /* private mode: kept for this page only */
  }
}

// who wrote a message, as muting knows them: an account by its name (the same person in every game), a
// guest or a program on a seat link by that seat of this game only (their name is the seat's colour)
function authorKey(message) {
  return message.account ? `account:${message.author}` : `seat:${gameId}:${message.seat ?? "-"}:${message.author}`;
}

function mutedNames() {
  try {
    const list = JSON.parse(stored(MUTED_KEY) || "[]");
    return new Set(Array.isArray(list) ? list : []);
  } catch (err) {
    return new Set();
  }
}

function mute(name, on) {
  const names = mutedNames();
  if (on) names.add(name);
  else names.delete(name);
  store(MUTED_KEY, JSON.stringify([...names]));
  drawChat();
}

function ownMessage(message) {
  if (myName !== null && message.author === myName) return true;
  return Boolean(token) && message.seat === seat && message.channel === "players";
}

// Whether a person looking at the page sees the chat's messages now.
function chatInSight() {
  if (document.visibilityState !== "visible") return false;
  return phone.matches ? chatOpen : !chatFolded && chatInView;
}

function showUnread() {
  for (const badge of [chatUnreadEl, chatToggleCount]) {
    badge.textContent = String(unread);
    badge.hidden = unread === 0;
    badge.setAttribute("aria-label", t("chat.unread", { count: unread }));
  }
  document.body.dataset.chatUnread = String(unread);
  setChatUnread(unread);
}

function markRead() {
  if (unread && chatInSight()) {
    unread = 0;
    showUnread();
  }
}

function foldChat(folded) {
  chatFolded = folded;
  chatBody.hidden = folded;
  chatFold.setAttribute("aria-expanded", String(!folded));
  chatFold.textContent = folded ? t("chat.unfold") : t("chat.fold");
  chatBox.classList.toggle("folded", folded);
  placeToggle();
  markRead();
}

// The chat button: on a phone it opens and closes the chat over the table; on a larger screen it
// brings the chat into view (unfolded) and puts the cursor in its field.
function toggleChat() {
  if (phone.matches) {
    chatOpen = !chatOpen;
    document.body.classList.toggle("chat-open", chatOpen);
    if (chatOpen) {
      foldChat(false);
      chatList.scrollTop = chatList.scrollHeight;
      chatInput.focus();
    }
  } else {
    foldChat(false);
    chatBox.scrollIntoView({ block: "nearest" });
    chatInput.focus();
  }
  placeToggle();
  markRead();
}

function placeToggle() {
  chatToggle.setAttribute("aria-expanded", String(phone.matches ? chatOpen : !chatFolded && chatInView));
  // on a large screen the button is there while the chat is not (scrolled away or folded)
  document.body.classList.toggle("chat-away", !phone.matches && (chatFolded || !chatInView));
}

new IntersectionObserver((entries) => {
  for (const entry of entries) chatInView = entry.isIntersecting;
  placeToggle();
  markRead();
}).observe(chatBox);
document.addEventListener("visibilitychange", markRead);
phone.addEventListener("change", () => {
  if (!phone.matches) {
    chatOpen = false;
    document.body.classList.remove("chat-open");
  }
  placeToggle();
});

function chatLine(message, muted) {
  const dot = message.seat !== null && message.seat !== undefined
    ? el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[message.seat] || "#999" } }) : null;
  const own = ownMessage(message);
  const muteBtn = own ? null : el("button", {
    type: "button", class: "chat-mute", "data-author": message.author, title: t("chat.mute_title", { name: message.author }),
    "aria-label": t("chat.mute_title", { name: message.author }), onclick: () => mute(authorKey(message), true),
  }, t("chat.mute"));
  // textContent only: a message is never markup
  return el("li", { "data-id": message.id, "data-author": message.author, class: own ? "own" : null, hidden: muted },
    dot, el("b", { text: `${message.author}: ` }), el("span", { class: "chat-text", text: message.text }), muteBtn);
}

// The whole list again (after a mute or an unmute), and the names muted with their Unmute buttons.
function drawChat() {
  const muted = mutedNames();
  chatList.replaceChildren(...chatMessages.map((m) => chatLine(m, muted.has(authorKey(m)))));
  chatList.scrollTop = chatList.scrollHeight;
  // the muted authors of this chat, each with its Unmute button
  const here = new Map(chatMessages.filter((m) => muted.has(authorKey(m))).map((m) => [authorKey(m), m.author]));
  mutedEl.hidden = !here.size;
  mutedEl.replaceChildren(t("chat.muted"), ...[...here].map(([key, name]) => el("button", {
    type: "button", class: "btn small chat-unmute", "data-author": name, onclick: () => mute(key, false),
  }, t("chat.unmute", { name }))));
}

function chatBeep() {
  if (!chatSoundBox.checked) return;
  document.body.dataset.chatSounds = String(Number(document.body.dataset.chatSounds || 0) + 1);
  try {
    audio = audio || new AudioContext();
    const at = audio.currentTime;
    for (const [i, freq] of [[0, 740], [1, 988]]) {  // two short rising notes
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.06, at + i * 0.09);
      gain.gain.exponentialRampToValueAtTime(0.001, at + i * 0.09 + 0.08);
      osc.connect(gain).connect(audio.destination);
      osc.start(at + i * 0.09);
      osc.stop(at + i * 0.09 + 0.08);
    }
  } catch (err) {
    /* no sound on this device */
  }
}

// ``live``: a message that comes now (not the history read when the page opens)
function addChat(message, live = false) {
  if (!message || chatSeen.has(message.id)) return;
  chatSeen.add(message.id);
  chatMessages.push(message);
  const muted = mutedNames().has(authorKey(message));
  chatList.appendChild(chatLine(message, muted));
  chatList.scrollTop = chatList.scrollHeight;
  if (muted && !mutedEl.querySelector(`[data-author="${CSS.escape(message.author)}"]`)) drawChat();
  if (!live || muted || ownMessage(message)) return;
  chatBeep();
  if (!chatInSight()) {
    unread += 1;
    showUnread();
  }
}

async function loadChat() {
  try {
    const info = await currentSession();
    myName = info.account ? info.account.name : null;
    const messages = await api(`/api/games/${encodeURIComponent(gameId)}/chat${seatQuery()}`, { token });
    chatSeen.clear();
    chatMessages = [];
    chatList.replaceChildren();
    messages.forEach((m) => addChat(m));
    drawChat();
  } catch (err) {
    /* no chat to show */
  }
}

async function sendChat(event) {
  event.preventDefault();
  const text = chatInput.value.trim();
  if (!text) return;
  try {
    if (!token) await ensureSession();
    addChat(await api(`/api/games/${encodeURIComponent(gameId)}/chat`, { method: "POST", body: { text }, token }));
    chatInput.value = "";
  } catch (err) {
    toast(err.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Clocks, ticking in the page between the server's views (the server decides when one runs out).
const clocksEl = el("span", { class: "clocks", id: "clocks" });

function clockText(seconds, kind) {
  const s = Math.max(0, Math.floor(seconds));
  if (kind === "turn" && s >= 86400) return t("clock.days", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClocks() {
  const clock = current && current.clock;
  if (!clock) {
    clocksEl.replaceChildren();
    return;
  }
  if (!clocksEl.isConnected) titleEl.after(clocksEl);
  const now = Date.now() / 1000;
  const items = clock.left.map((left, s) => {
    const running = clock.running === s && !current.result;
    const value = running ? left - (now - clock.since) : left;
    const flagged = (clock.flagged || []).includes(s);
    return el("span", {
      class: `clock${running ? " running" : ""}${value < 10 && running ? " low" : ""}`, "data-seat": s,
      "data-left": Math.max(0, value).toFixed(1), title: t(flagged ? "clock.title_out" : "clock.title", { colour: SEAT_NAMES[s] }),
    }, el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[s] } }), ` ${flagged ? t("clock.out") : clockText(value, clock.kind)}`);
  });
  clocksEl.replaceChildren(...items);
}
setInterval(renderClocks, 250);

async function offerRematch() {
  try {
    const created = await api(`/api/games/${encodeURIComponent(gameId)}/rematch`, { method: "POST" });
    location.href = `/play/${encodeURIComponent(created.id)}`;
  } catch (err) {
    toast(err.message);
  }
}

// Optional sounds: a short tone for each move (higher for yours), off unless chosen (kept in this browser).
const SOUND_KEY = "builders.moveSounds";
let audio = null;
function soundsOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "1";
  } catch (err) {
    return false;
  }
}
function moveSound(own) {
  if (!soundsOn()) return;
  document.body.dataset.lastSound = own ? "own" : "other";
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = own ? 880 : 560;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  } catch (err) {
    /* no sound on this device */
  }
}
const soundBox = el("input", { type: "checkbox", id: "move-sounds", checked: soundsOn(), onchange: (e) => {
  try {
    localStorage.setItem(SOUND_KEY, e.target.checked ? "1" : "0");
  } catch (err) {
    /* private mode */
  }
} });
// "Notify me": a notification from the browser while this tab is out of sight (another tab, minimised)
// when a seat runs out of time or resigns, or it becomes your turn. Off unless chosen; the browser's
// permission is asked for only by that click. The same choice as the top bar's "Alerts" (account.js).
const notifyBox = el("input", { type: "checkbox", id: "notify-away", checked: notifyWanted(), onchange: async (e) => {
  const on = await setNotify(e.target.checked);
  if (on && "Notification" in window && Notification.permission === "denied") toast(t("log.notify_blocked"), "info", 6000);
} });
document.addEventListener("builders:notify", (e) => { notifyBox.checked = Boolean(e.detail); });
const logBox = el("section", { class: "panel log-panel" },
  el("h3", { class: "log-head" }, t("log.title"),
    el("span", { class: "log-toggles" },
      el("label", { class: "small muted sound-toggle" }, soundBox, ` ${t("log.sound")}`),
      el("label", { class: "small muted sound-toggle", title: t("log.notify_title") }, notifyBox, ` ${t("log.notify")}`))),
  el("ol", { class: "log", id: "log" }));
// the side column below the table's own parts: the log, then the chat
const sideBox = el("div", { class: "side-extra" }, logBox, chatBox);
// what happens is read out to screen readers here (one line per move)
const announcer = el("div", { class: "sr-only", id: "announcer", role: "log", "aria-live": "polite" });
document.body.appendChild(announcer);
// the log as this page saw it: undone moves stay in it, struck through ({entry, undone, seq})
let logSeen = [];
let logSeq = 0;
let lastAnnounced = null;
let overSeen = false;
// the first-game walkthrough, when this game was started as a guided one (or the Guide button asks)
const guide = new Guide(gameId);

// An invitation link (#invite=CODE) takes its seat for this browser's account (a guest's if need be);
// the code leaves the address at once: it is dead once used. Until the seat is taken the code is kept
// for this tab (sessionStorage): a guest asked to sign up for a rated game, here or on the account
// page, comes back to it and takes the seat. Returns the seat taken (or null).
const INVITE_KEY = "builders.invite";

function keptInvite() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(INVITE_KEY) || "null");
    return kept && kept.game === gameId && typeof kept.code === "string" ? kept.code : null;
  } catch (err) {
    return null;
  }
}

function keepInvite(code) {
  try {
    if (code) sessionStorage.setItem(INVITE_KEY, JSON.stringify({ game: gameId, code }));
    else sessionStorage.removeItem(INVITE_KEY);
  } catch (err) {
    /* storage refused: the invitation lives in this page only */
  }
}

async function claimInvitation() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  let code = params.get("invite");
  if (code) {
    history.replaceState(null, "", location.pathname + location.search);
    keepInvite(code);
  } else {
    code = keptInvite();
  }
  if (!code) return null;
  try {
    await ensureSession();
    const joined = await api(`/api/games/${encodeURIComponent(gameId)}/claim`, { method: "POST", body: { code } });
    keepInvite(null);
    inviteNotice(null);
    toast(t("play.your_seat", { colour: SEAT_NAMES[joined.seat] }), "info", 3000);
    return joined.seat;
  } catch (err) {
    if (err.status === 401) {  // a rated game: for signed-up players (the invitation is kept)
      showSignUpForSeat(code);
      return null;
    }
    keepInvite(null);
    if (err.status === 410) {
      await loadMySeats();
      if (!mySeats.length) inviteNotice(t("invite.used"));  // (its own seat's player just sees the table)
    } else if (err.status === 404) {
      inviteNotice(t("invite.invalid"));
    } else {
      inviteNotice(err.message);
    }
    return null;
  }
}

// What is wrong with an invitation, said above the table until closed (with a way to act when there is one).
function inviteNotice(text, ...actions) {
  const old = document.getElementById("invite-notice");
  if (old) old.remove();
  if (!text) return;
  const close = el("button", { type: "button", class: "toast-close", "aria-label": t("common.dismiss"), onclick: () => box.remove() }, "×");
  const box = el("div", { class: "panel invite-notice", id: "invite-notice", role: "alert" },
    el("span", { class: "invite-notice-text", text }), ...actions, close);
  tableRoot.before(box);
}

// A rated game's seat for a guest: sign up (a guest's games come along) or sign in, right here; the
// seat is then taken and the page plays it.
function showSignUpForSeat(code) {
  if (document.getElementById("claim-dialog")) return;
  const fields = (prefix, newPassword) => [
    el("label", {}, el("span", { text: t("account.username") }), el("input", { id: `${prefix}-name`, name: "username", autocomplete: "username", required: true, maxlength: 20 })),
    el("label", {}, el("span", { text: t("account.password") }), el("input", { id: `${prefix}-password`, name: "password", type: "password", autocomplete: newPassword ? "new-password" : "current-password", required: true })),
  ];
  const part = (prefix, title, path, newPassword) => {
    const error = el("p", { class: "error-text", id: `${prefix}-error`, role: "alert", hidden: true });
    const button = el("button", { type: "submit", class: `btn${newPassword ? " btn-primary" : ""}`, id: `${prefix}-btn` }, title);
    const form = el("form", { class: "stack-form", id: `${prefix}-form`, onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      button.disabled = true;
      try {
        await currentSession();
        setSession(await api(path, { method: "POST", body: { username: form.elements.username.value, password: form.elements.password.value } }));
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
        button.disabled = false;
        return;
      }
      dialog.close();
      const taken = await claimInvitation();
      if (taken !== null) await enterSeat(taken);
    } }, el("h4", { text: title }), ...fields(prefix, newPassword), button, error);
    return form;
  };
  const watch = el("button", { type: "button", class: "btn", id: "claim-watch", onclick: () => dialog.close() }, t("invite.just_watch"));
  const next = `/account?next=${encodeURIComponent(location.pathname)}`;
  const dialog = el("dialog", { class: "bot-dialog claim-dialog", id: "claim-dialog", "aria-labelledby": "claim-title" },
    el("h3", { id: "claim-title", text: t("invite.rated_title") }),
    el("p", { class: "dialog-text", text: t("invite.rated_text") }),
    el("div", { class: "claim-forms" }, part("claim-signup", t("account.sign_up"), "/api/accounts", true),
      part("claim-signin", t("account.sign_in"), "/api/session", false)),
    el("div", { class: "dialog-buttons" }, el("a", { class: "btn ghost", id: "claim-account-page", href: next }, t("invite.account_page")), watch));
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (keptInvite()) {  // only watching for now: the seat stays one click away
      inviteNotice(t("invite.waiting"), el("button", { type: "button", class: "btn small btn-primary", id: "claim-again", onclick: () => showSignUpForSeat(code) }, t("invite.take_seat")));
    }
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  dialog.querySelector("input").focus();
}

// The page plays ``newSeat`` of this browser's account from now on (a seat just taken).
async function enterSeat(newSeat) {
  token = null;
  seat = newSeat;
  passed = null;
  await loadMySeats();
  if (socket) socket.setToken(null, seat);
  await refresh();
  loadChat();
}

// A link pasted into this tab that differs only in its fragment: the page does not load again, so the
// invitation (or a program's seat link) is acted on here.
window.addEventListener("hashchange", async () => {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (params.get("invite")) {
    const taken = await claimInvitation();
    if (taken !== null) await enterSeat(taken);
  } else if (seatFromFragment(location.hash)) {
    location.reload();
  }
});

async function loadMySeats() {
  const info = await currentSession();
  if (!info.account) return;
  try {
    mySeats = (await api(`/api/games/${encodeURIComponent(gameId)}/mine`)).seats;
  } catch (err) {
    mySeats = [];
  }
}

// "?seat=N" for requests made as the account (not with a seat token)
function seatQuery() {
  return !token && seat !== null && seat !== undefined ? `?seat=${seat}` : "";
}

function chooseSeat() {
  const fromLink = seatFromFragment(location.hash);
  if (fromLink) {
    rememberSeat(gameId, fromLink.seat, fromLink.token, { mine: true });
    return fromLink;
  }
  const held = seatsFor(gameId);
  if (held && held.tokens) {
    const mine = held.mine !== null && held.mine !== undefined ? String(held.mine) : Object.keys(held.tokens)[0];
    if (mine !== undefined && held.tokens[mine]) return { seat: Number(mine), token: held.tokens[mine] };
  }
  return null;
}

function setConn(status) {
  connEl.dataset.status = status;
  connEl.textContent = { live: t("conn.live"), connecting: t("conn.connecting"), offline: t("conn.offline"), closed: t("conn.closed") }[status] || status;
  connEl.title = {
    live: t("conn.live_title"),
    connecting: t("conn.connecting_title"),
    offline: t("conn.offline_title"),
  }[status] || t("conn.closed_title");
}

// The seat this page plays, or null: a seat handed over to a bot is only watched from here.
function playingSeat(view) {
  return view.seat !== null && view.seat !== undefined && !botSeat(view) ? view.seat : null;
}

function botSeat(view) {
  if (view.seat === null || view.seat === undefined) return null;
  const info = (view.seats || []).find((s) => s.seat === view.seat);
  return info && info.type === "bot" ? info : null;
}

// Pass-and-play: the seat the device must be passed to before its view is shown (or null).
function passNeeded(view) {
  if (token || view.result) return null;
  const people = mySeats.filter((s) => ((view.seats || []).find((x) => x.seat === s) || {}).type === "human");
  if (people.length < 2) return null;
  const next = view.to_move;
  if (next === null || next === undefined || !people.includes(next)) return null;
  return next === seat && passed === next ? null : next;
}

function showPassScreen(next) {
  if (table) {
    table.destroy();
    table = null;
  }
  tableRoot.replaceChildren();
  tableRoot.hidden = true;
  let screen = document.getElementById("pass-screen");
  if (screen && screen.dataset.seat === String(next)) return;
  if (screen) screen.remove();
  const button = el("button", { type: "button", class: "btn btn-primary btn-big", id: "pass-ready", onclick: () => {
    screen.remove();
    tableRoot.hidden = false;
    passed = next;
    seat = next;
    socket.setToken(null, next);
    refresh();
  } }, t("pass.ready", { colour: SEAT_NAMES[next] }));
  screen = el("section", { class: "panel pass-screen", id: "pass-screen", "data-seat": next, role: "dialog", "aria-labelledby": "pass-title" },
    el("span", { class: "seat-chip", style: { background: SEAT_COLOURS[next], color: SEAT_INK[next] } }, SEAT_NAMES[next]),
    el("h2", { id: "pass-title", text: t("pass.title", { colour: SEAT_NAMES[next] }) }),
    el("p", { class: "muted", text: t("pass.text") }),
    button);
  tableRoot.after(screen);
  button.focus();
}

function render(view) {
  if (!view || (view.id !== undefined && view.id !== gameId)) return;
  if ("colours" in view) applySeatColours(view.colours);
  const next = passNeeded(view);
  if (next !== null) {
    current = view;
    document.body.dataset.version = String(view.version ?? "");
    document.body.dataset.toMove = view.to_move === null || view.to_move === undefined ? "" : String(view.to_move);
    document.body.dataset.status = view.result ? "finished" : view.status || "";
    document.body.classList.remove("your-turn");
    renderHeader(view);
    showPassScreen(next);
    return;
  }
  // views can cross on the way (a reply to an action and a push after a bot's move): never go back
  if (current && current.seat === view.seat && typeof view.version === "number" && view.version < current.version) return;
  // a move here may change whose turn it is in this account's games: the top bar asks at once
  if (current && view.version !== current.version) document.dispatchEvent(new CustomEvent("builders:moved"));
  current = view;
  // once the seat is a bot's, the page shows the table as a spectator would (with this seat's view)
  const shown = botSeat(view) ? { ...view, seat: null } : view;
  if (table && table.shownSeat !== shown.seat) {
    table.destroy();
    table = null;
    tableRoot.replaceChildren();
  }
  if (!table) {
    const opts = {
      onAction: sendAction,
      onUndo: sendUndo,
      onRestart: restartTurn,
      winnersText: (v) => winnersText(v.result, v.seats, v.seat),
      extraSide: sideBox,
      afterRender: () => showHint(),
    };
    const Table = loadTable(view, () => render(current));
    if (!Table) return;  // its module is on its way: rendered when it comes
    table = new Table(tableRoot, opts);
    table.shownSeat = shown.seat;
    document.body.dataset.game = view.game;
  }
  table.update(shown);
  showNews();
  showHint();
  document.body.dataset.version = String(view.version ?? "");
  document.body.dataset.toMove = view.to_move === null || view.to_move === undefined ? "" : String(view.to_move);
  document.body.dataset.status = view.result ? "finished" : view.status || "";
  renderLog(shown);
  renderHeader(view);
  showEvents(view);
  noticeTurn(view);
  guide.update(shown);
  if (view.result && !overSeen) gameOver(view);
}

// The socket's views are drawn when the page is free, the latest of those that came meanwhile: a game of
// bots at full speed sends them faster than a loaded machine draws a table, and drawing each in turn left
// the page seconds behind the game (and a screenshot or a click waiting on it). After a drawing the page
// stays free as long as that drawing took. The moves of the views skipped are still in the log, said and
// flashed (the log is compared with what the page saw before).
let pendingView = null;
let drawnAt = 0;
let drawMs = 0;
function renderSoon(view) {
  const waiting = pendingView !== null;
  pendingView = view;
  if (waiting) return;
  setTimeout(() => {
    const next = pendingView;
    pendingView = null;
    const start = performance.now();
    render(next);
    drawnAt = performance.now();
    drawMs = drawnAt - start;
  }, Math.max(0, drawnAt + drawMs - performance.now()));
}

// The end: a last line in the log, said aloud, and every hidden card shown (from the whole last position).
async function gameOver(view) {
  overSeen = true;
  say(`${t("common.game_over")} ${winnersText(view.result, view.seats, playingSeat(view))}`);
  if (!table || typeof table.reveal !== "function") return;  // a table with no hidden card to show
  try {
    const last = await api(`/api/games/${encodeURIComponent(gameId)}/replay/${view.actions ?? (view.log || []).length}`);
    if (table && last && last.view) table.reveal(last.view);
  } catch (err) {
    /* the hidden cards simply stay hidden */
  }
}

function say(text) {
  announcer.appendChild(el("p", { text }));
  while (announcer.childElementCount > 5) announcer.firstChild.remove();
}

// "Restart turn": takes back the actions of this turn one by one, as far as they can be taken back.
async function restartTurn() {
  for (let i = 0; i < 40 && current && current.can_undo; i++) {
    const before = current.version;
    await sendUndo();
    if (!current || current.version === before) break;
  }
}

function renderHeader(view) {
  const name = GAME_TITLES[view.game] || view.game;
  const bot = botSeat(view);
  const seatStyle = (s) => ({ background: SEAT_COLOURS[s], color: SEAT_INK[s] });
  let chip;
  if (bot) {
    chip = el("span", {
      class: "seat-chip handed-over", id: "seat-chip", "data-seat": view.seat, style: seatStyle(view.seat),
      title: t("play.handed_title", { colour: SEAT_NAMES[view.seat] }),
    }, t("play.handed_chip", { colour: SEAT_NAMES[view.seat], level: botLevel(bot.level) }));
  } else if (view.seat !== null && view.seat !== undefined) {
    chip = el("span", { class: "seat-chip", id: "seat-chip", "data-seat": view.seat, style: seatStyle(view.seat) }, t("play.you_chip", { colour: SEAT_NAMES[view.seat] }));
  } else {
    chip = el("span", { class: "seat-chip spectator", id: "seat-chip", text: t("play.watching") });
  }
  titleEl.replaceChildren(el("span", { class: "game-name", text: name }), chip);
  if (view.rated) titleEl.appendChild(ratedBadge("rated-badge"));
  if (seeded) {
    titleEl.appendChild(el("span", { class: "seeded-chip", id: "seeded-chip", title: t("play.seeded_title") }, t("play.seeded")));
  }
  if (view.spectators > 0) {  // sockets without a seat, through every server process
    titleEl.appendChild(el("small", { class: "watching", id: "watching", title: t("play.spectators_title") }, t("play.spectators", { count: view.spectators })));
  }
  // a bot to move: say that it is thinking (its moves then come one by one, each lit up for a moment)
  const moverInfo = (view.seats || []).find((s) => s.seat === view.to_move);
  const thinking = !view.result && moverInfo && moverInfo.type === "bot" && view.to_move !== view.seat;
  document.body.classList.toggle("bot-thinking", Boolean(thinking));
  if (thinking) {
    titleEl.appendChild(el("span", { class: "thinking", id: "thinking", role: "status" },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[view.to_move] } }),
      ` ${t("play.thinking", { name: seatName(view.seats, view.to_move, view.seat) })}`));
  }
  const mine = playingSeat(view);
  const yourTurn = mine !== null && mine === view.to_move && !view.result;
  document.body.classList.toggle("handed-over", Boolean(bot));
  setBaseTitle(`${yourTurn ? `● ${t("play.your_turn")} · ` : ""}${name}`);
  document.body.classList.toggle("your-turn", yourTurn);

  toolsEl.replaceChildren();
  const oldPlan = document.getElementById("hint-plan");
  if (oldPlan) oldPlan.remove();
  const held = seatsFor(gameId);
  const tokens = (held && held.tokens) || {};
  const heldSeats = Object.keys(tokens).map(Number).sort();
  if (heldSeats.length > 1) {
    const select = el("select", { id: "seat-switch", "aria-label": t("play.play_as_seat"), onchange: (e) => switchSeat(Number(e.target.value)) });
    for (const s of heldSeats) select.appendChild(el("option", { value: s, selected: s === seat, text: t("play.play_as", { colour: SEAT_NAMES[s] }) }));
    toolsEl.appendChild(select);
  }
  const invites = heldSeats.filter((s) => s !== seat);
  if (invites.length && !view.result) {
    toolsEl.appendChild(el("button", { class: "btn small", id: "invite-btn", onclick: () => showInvites(invites, tokens) }, t("play.invite_links")));
  }
  if (view.result && view.rematch) {
    toolsEl.appendChild(el("a", { class: "btn small btn-primary", href: `/play/${encodeURIComponent(view.rematch)}`, id: "rematch-link" }, t("play.go_rematch")));
  } else if (view.result && !token && mySeats.length) {
    toolsEl.appendChild(el("button", { class: "btn small btn-primary", id: "rematch-btn", onclick: offerRematch }, t("play.rematch")));
  }
  if (view.result) {
    toolsEl.appendChild(el("a", { class: "btn small", href: `/replay/${encodeURIComponent(gameId)}`, id: "replay-link" }, t("common.replay")));
    toolsEl.appendChild(el("a", { class: "btn small", href: `/replay/${encodeURIComponent(gameId)}?analyse`, id: "analyse-link", title: t("play.analyse_title") }, t("analysis.analyse")));
  } else if (mine !== null) {
    toolsEl.appendChild(el("button", { class: "btn small", id: "resign-btn", title: t("play.resign_title"), onclick: showResignDialog }, t("play.resign")));
    toolsEl.appendChild(el("button", { class: "btn small", id: "handover-btn", onclick: showBotDialog }, t("play.hand_over")));
    if (view.can_abort) {
      toolsEl.appendChild(el("button", { class: "btn small", id: "abort-btn", title: t("play.abort_title"), onclick: abortGame }, t("play.abort")));
    }
  } else if (bot && !bot.resigned && !view.rated && !((view.clock && view.clock.flagged) || []).includes(view.seat)) {
    toolsEl.appendChild(el("button", { class: "btn small btn-primary", id: "take-back-btn", onclick: takeBack }, t("play.take_back")));
  }
  if (view.result && view.rating_changes) {
    const parts = view.rating_changes.map((c) => t("rating.change_line", {
      name: seatName(view.seats, c.seat, view.seat),
      rating: `${formatNumber(c.rating, { maximumFractionDigits: 0, useGrouping: false })}${c.provisional ? "?" : ""}`,
      change: `${c.change > 0 ? "+" : c.change < 0 ? "−" : "±"}${formatNumber(Math.abs(c.change), { maximumFractionDigits: 0 })}`,
    }));
    toolsEl.appendChild(el("span", { class: "rating-changes", id: "rating-changes", role: "status" }, `${t("rating.changes")} ${parts.join(" · ")}`));
  }
  if (view.hints && yourTurn && !bot) {
    toolsEl.appendChild(el("button", { class: "btn small", id: "hint-btn", title: t("hint.button_title"), onclick: askHint }, t("hint.button")));
    if (hintShown && hintShown.version === view.version && hintShown.seat === view.seat) {
      const say = (action) => (table && table.advise ? table.advise(action) : null) || action;
      // the rest of the hard bot's plan for the turn: the next hints, if the seat follows it; a plan
      // stops at the move that draws a card (what comes after depends on the card)
      const raw = hintShown.plan || [];
      const rest = raw.map(say);
      const steps = rest.join(t("hint.then"));
      let plan = null;
      if (rest.length && raw[raw.length - 1] === "end") {
        plan = t("hint.plan_rest", { steps });
      } else if (rest.length) {
        plan = t("hint.plan_drawn", { steps });
      } else if (hintShown.action !== "end") {
        plan = t("hint.plan_after");
      }
      toolsEl.appendChild(el("span", { class: "hint-text", id: "hint-text", role: "status", "data-action": null, title: plan },
        t("hint.text", { move: say(hintShown.action), chance: percent(hintShown.win_chance) })));
      // the plan in words under the bar, numbered as its moves are on the table
      if (rest.length) {
        const steps = [hintShown.action, ...raw].map((action, i) => el("li", { class: "hint-step" },
          el("span", { class: "step-no", "aria-hidden": "true", text: String(i + 1) }), say(action)));
        const line = el("div", { class: "hint-plan", id: "hint-plan" },
          el("span", { class: "hint-plan-title", text: t("hint.plan_title") }), el("ol", {}, ...steps));
        if (raw[raw.length - 1] !== "end") line.appendChild(el("span", { class: "hint-plan-after", text: t("hint.plan_again") }));
        toolsEl.closest(".topbar").appendChild(line);
      }
    }
  }
  if (playingSeat(view) !== null && !view.result) {
    toolsEl.appendChild(el("button", { class: "btn small", id: "guide-btn", title: t("guide.button_title"), onclick: () => guide.restart() }, t("guide.button")));
  }
  toolsEl.appendChild(el("a", {
    class: "btn small", id: "rules-link", href: `/static/rules.html#${view.game}`,
    target: "_blank", rel: "noopener", title: t("play.rules_title"),
  }, t("play.rules")));
  toolsEl.appendChild(el("a", { class: "btn small", href: "/" }, t("common.lobby")));
}

function entryWords(view, entry) {
  const words = table && table.describe ? table.describe(entry) : null;
  if (!words) return logText(view, entry, view.seat);
  return t("log.line", { who: moverName(view, entry, view.seat), what: words });
}

function renderLog(view) {
  const list = logBox.querySelector("#log");
  const entries = view.log || [];
  // moves that were in the log and are gone now were undone: keep them, struck through
  const now = new Map(entries.map((e) => [e.n, e]));
  const live = logSeen.filter((x) => !x.undone);
  for (const x of live) {
    const same = now.get(x.entry.n);
    if (!same || same.action !== x.entry.action || same.seat !== x.entry.seat) x.undone = true;
  }
  const known = new Set(logSeen.filter((x) => !x.undone).map((x) => x.entry.n));
  const fresh = entries.filter((e) => !known.has(e.n));
  for (const entry of fresh) logSeen.push({ entry, undone: false, seq: ++logSeq });
  // undone lines are kept only for the current turn and the one before it (the log would fill up)
  if (entries.length) {
    const first = Math.max(1, entries[entries.length - 1].n - 12);
    logSeen = logSeen.filter((x) => !x.undone || x.entry.n >= first);
  }
  // in the order the moves were made: taken-back ones where they were, the moves made instead after them
  logSeen.sort((a, b) => a.seq - b.seq);
  const events = view.events || [];
  const keyNow = logSeen.map((x) => `${x.entry.n}${x.undone ? "u" : ""}`).join(",") + `|${events.length}` + (view.result ? "!" : "");
  // announce what is new (not on the first load)
  if (lastAnnounced !== null) {
    for (const entry of fresh) if (entry.n > lastAnnounced) say(entryWords(view, entry));
    const news = fresh.filter((e) => e.n > lastAnnounced);
    if (news.length) moveSound(news[news.length - 1].seat === view.seat);
    const theirs = fresh.filter((e) => e.seat !== view.seat && e.n > lastAnnounced);
    if (theirs.length && table && table.flash) theirs.forEach((e) => table.flash(e));
  }
  lastAnnounced = entries.length ? entries[entries.length - 1].n : 0;
  if (list.dataset.key === keyNow) return;
  list.replaceChildren();
  // the events (a timeout, a resignation, a seat handed over or taken back), each after the move it followed
  const eventsAfter = eventsByMove(view, entries.length ? entries[entries.length - 1].n : 0);
  const eventLines = (n) => {
    for (const [event, i] of eventsAfter.get(n) || []) list.appendChild(eventLine(view, event, i));
  };
  eventLines(0);
  for (const x of logSeen) {
    const { entry } = x;
    const text = entryWords(view, entry);
    const li = el("li", {
      "data-n": entry.n, "data-seat": entry.seat, class: x.undone ? "undone" : null, tabindex: 0,
      title: x.undone ? t("log.taken_back") : t("log.point"),
    },
    el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[entry.seat] || "#999" } }),
    x.undone ? el("s", {}, el("span", { class: "sr-only", text: `${t("log.undone")} ` }), text) : el("span", { text }));
    const on = () => table && table.showEntry && table.showEntry(entry);
    const off = () => table && table.showEntry && table.showEntry(null);
    li.addEventListener("mouseenter", on);
    li.addEventListener("mouseleave", off);
    li.addEventListener("focus", on);
    li.addEventListener("blur", off);
    list.appendChild(li);
    if (!x.undone) eventLines(entry.n);
  }
  if (!logSeen.length && !events.length) list.appendChild(el("li", { class: "muted", text: t("log.empty") }));
  if (view.result) {
    list.appendChild(el("li", { class: "game-over-line", id: "game-over-line" },
      el("strong", { text: `${t("common.game_over")} ` }), winnersText(view.result, view.seats, playingSeat(view))));
  }
  list.dataset.key = keyNow;
  list.dataset.count = String(entries.length);
  list.dataset.last = String(entries.length ? entries[entries.length - 1].n : "");
  list.scrollTop = list.scrollHeight;
}

function showInvites(seats, tokens) {
  const dialog = el("dialog", { class: "invite-dialog" });
  dialog.appendChild(el("h3", { text: t("play.invite_title") }));
  for (const s of seats) {
    const link = `${location.origin}/play/${encodeURIComponent(gameId)}#seat=${s}&token=${encodeURIComponent(tokens[String(s)])}`;
    const input = el("input", { type: "text", readonly: true, value: link, class: "link-input" });
    dialog.appendChild(el("div", { class: "invite-row" },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[s] } }), el("b", { text: SEAT_NAMES[s] }), input,
      el("button", { class: "btn small", onclick: () => copyText(link) }, t("common.copy"))));
  }
  dialog.appendChild(el("button", { class: "btn", onclick: () => { dialog.close(); dialog.remove(); } }, t("common.close")));
  document.body.appendChild(dialog);
  dialog.showModal();
}

async function refresh() {
  try {
    const view = await api(`/api/games/${encodeURIComponent(gameId)}/state${seatQuery()}`, { token });
    render(view);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && token) {
      toast(t("play.bad_link"));
      token = null;
      seat = null;
      return refresh();
    }
    toast(err.message);
    if (!current) tableRoot.replaceChildren(el("div", { class: "panel error-panel", text: err.message }));
  }
}

async function sendAction(action) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    const body = { action };
    if (current && typeof current.version === "number") body.version = current.version;
    const view = await api(`/api/games/${encodeURIComponent(gameId)}/actions${seatQuery()}`, { method: "POST", body, token });
    render(view);
  } catch (err) {
    toast(err.message);
    if (err.status === 409 || err.status === 403 || err.status === 400) await refresh();
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

async function sendUndo() {
  if (busy) return;
  busy = true;
  try {
    const view = await api(`/api/games/${encodeURIComponent(gameId)}/undo${seatQuery()}`, { method: "POST", token });
    render(view);
  } catch (err) {
    toast(err.message);
    await refresh();
  } finally {
    busy = false;
  }
}

const BOT_LEVELS = ["easy", "medium", "hard", "expert"].map((level) => [level, t(`bot.name.${level}`), t(`bot.text.${level}`)]);

// "Hand over to a bot": a small dialog to choose the level; the bot then plays this seat to the end.
function showBotDialog() {
  if (document.getElementById("bot-dialog") || seat === null) return;
  const error = el("p", { class: "error-text dialog-error", role: "alert", hidden: true });
  const options = el("fieldset", { class: "level-options" },
    el("legend", { class: "sr-only", text: t("bot.level") }),
    BOT_LEVELS.map(([level, label, text]) => el("label", { class: "level-option", "data-level": level },
      el("input", { type: "radio", name: "bot-level", value: level, checked: level === "medium" }),
      el("b", { text: label }),
      el("small", { text }))));
  const cancel = el("button", { type: "button", class: "btn", id: "bot-cancel", onclick: () => dialog.close() }, t("common.cancel"));
  const confirm = el("button", { type: "submit", class: "btn btn-primary", id: "bot-confirm" }, t("bot.hand_over"));
  const form = el("form", { method: "dialog", onsubmit: submit },
    el("h3", { id: "bot-dialog-title" },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[seat] } }), ` ${t("bot.dialog_title", { colour: SEAT_NAMES[seat] })}`),
    el("p", { class: "dialog-text", text: t("bot.dialog_text") }),
    options, error,
    el("div", { class: "dialog-buttons" }, cancel, confirm));
  const dialog = el("dialog", { class: "bot-dialog", id: "bot-dialog", "aria-labelledby": "bot-dialog-title" }, form);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  options.querySelector("input:checked").focus();

  async function submit(event) {
    event.preventDefault();
    const bot = form.elements["bot-level"].value;
    confirm.disabled = true;
    cancel.disabled = true;
    error.hidden = true;
    try {
      await api(`/api/games/${encodeURIComponent(gameId)}/resign${seatQuery()}`, { method: "POST", body: { bot }, token });
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      confirm.disabled = false;
      cancel.disabled = false;
      return;
    }
    dialog.close();
    toast(t(`bot.handed.${bot}`, { colour: SEAT_NAMES[seat] }), "info");
    await refresh();
  }
}

// Resigning: a real loss, asked for once more in a dialog.
function showResignDialog() {
  if (document.getElementById("resign-dialog") || seat === null) return;
  const error = el("p", { class: "error-text dialog-error", role: "alert", hidden: true });
  const cancel = el("button", { type: "button", class: "btn", id: "resign-cancel", onclick: () => dialog.close() }, t("common.cancel"));
  const confirm = el("button", { type: "submit", class: "btn btn-primary", id: "resign-confirm" }, t("resign.confirm"));
  const form = el("form", { method: "dialog", onsubmit: submit },
    el("h3", { id: "resign-dialog-title", text: t("resign.dialog_title") }),
    el("p", { class: "dialog-text", text: t("resign.dialog_text") }),
    error,
    el("div", { class: "dialog-buttons" }, cancel, confirm));
  const dialog = el("dialog", { class: "bot-dialog", id: "resign-dialog", "aria-labelledby": "resign-dialog-title" }, form);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  cancel.focus();

  async function submit(event) {
    event.preventDefault();
    confirm.disabled = true;
    cancel.disabled = true;
    error.hidden = true;
    try {
      await api(`/api/games/${encodeURIComponent(gameId)}/resign${seatQuery()}`, { method: "POST", token });
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      confirm.disabled = false;
      cancel.disabled = false;
      return;
    }
    dialog.close();
    await refresh();
  }
}

async function abortGame() {
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/abort${seatQuery()}`, { method: "POST", token });
  } catch (err) {
    toast(err.message);
    await refresh();
    return;
  }
  showAborted();
}

// The game was aborted (here or by another player): nothing more to show but the way back.
function showAborted() {
  if (socket) socket.close();
  if (table) {
    table.destroy();
    table = null;
  }
  toolsEl.replaceChildren(el("a", { class: "btn small", href: "/" }, t("common.lobby")));
  tableRoot.replaceChildren(el("div", { class: "panel", id: "aborted", role: "status" },
    el("p", { text: t("play.aborted") }), el("a", { class: "btn btn-primary", href: "/" }, t("common.lobby"))));
}

async function takeBack() {
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/take-back${seatQuery()}`, { method: "POST", token });
  } catch (err) {
    toast(err.message);
  }
  await refresh();
}

// An event (a timeout, a resignation, a seat handed over or taken back) is a line of the log; while it is
// news the banner says it too, it is said aloud, and notified while the page is out of sight (if chosen).
// The banner says the latest event for a while (the table draws its banner again at each view).
const NEWS_MS = 20000;
let news = null; // {text, until}
let newsTimer = null;
function showNews() {
  const old = document.getElementById("event-news");
  const banner = document.getElementById("turn-banner");
  if (!news || Date.now() > news.until || !banner) {
    if (old) old.remove();
    return;
  }
  const line = el("span", { class: "event-news", id: "event-news", text: news.text });
  if (old) old.remove();
  banner.appendChild(line);
}
function tellNews(text, ms = NEWS_MS) {
  news = { text, until: Date.now() + ms };
  showNews();
  clearTimeout(newsTimer);
  newsTimer = setTimeout(showNews, ms + 50);
}

// A notification from the browser, only while this page is out of sight and if chosen.
function notifyAway(title, body, tag) {
  if (!document.hidden || !notifyWanted() || !("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const note = new Notification(title, { body, tag });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch (err) {
    /* notifications refused by the browser */
  }
}

function gameTitle(view) {
  return GAME_TITLES[view.game] || view.game;
}

let eventsSeen = null;
function showEvents(view) {
  const events = view.events || [];
  if (eventsSeen === null) {  // those of before the page opened are in the log; the latest is news a while
    eventsSeen = events.length;
    const last = events[events.length - 1];
    const age = last ? Date.now() - last.at * 1000 : Infinity;
    if (age >= 0 && age < NEWS_MS) tellNews(eventText(view, last), NEWS_MS - age);
    return;
  }
  events.slice(eventsSeen).forEach((event, i) => {
    const text = eventText(view, event);
    tellNews(text);
    say(text);
    notifyAway(text, gameTitle(view), `${gameId}:event:${eventsSeen + i}`);
  });
  eventsSeen = events.length;
}

// It became this page's turn while the page is out of sight: a notification (if chosen).
let turnSeen = null;
function noticeTurn(view) {
  const mine = playingSeat(view);
  const now = mine !== null && mine === view.to_move && !view.result;
  if (turnSeen === false && now) notifyAway(t("play.your_turn"), t("account.notify_body", { game: gameTitle(view) }), gameId);
  turnSeen = now;
}

function switchSeat(newSeat) {
  const held = seatsFor(gameId);
  const t = held && held.tokens && held.tokens[String(newSeat)];
  if (!t) return;
  seat = newSeat;
  token = t;
  rememberGame(gameId, { mine: newSeat });
  history.replaceState(null, "", `#seat=${newSeat}&token=${encodeURIComponent(t)}`);
  if (table) table.destroy();
  table = null;
  tableRoot.replaceChildren();
  socket.setToken(token);
  refresh();
}

document.addEventListener("keydown", (event) => {
  const typing = event.target && ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName);
  if (typing || event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) return;
  if ((event.key === "z" || event.key === "Z") && current && current.can_undo) {
    if (table) table.keyboard = true;
    sendUndo();
  }
});

async function main() {
  if (!gameId) {
    tableRoot.replaceChildren(el("div", { class: "panel error-panel", text: t("play.no_id") }));
    return;
  }
  mountAccount();
  await claimInvitation();
  const chosen = chooseSeat();
  if (chosen) {
    seat = chosen.seat;
    token = chosen.token;
  } else {
    await loadMySeats();
  }
  try {
    seeded = Boolean((await api(`/api/games/${encodeURIComponent(gameId)}`)).seeded);
  } catch (err) {
    seeded = false;
  }
  setConn("connecting");
  await refresh();
  if (current && token && seat !== null) rememberGame(gameId, { game: current.game });
  if (!token && current && current.seat !== null && current.seat !== undefined && mySeats.includes(current.seat)) seat = current.seat;
  socket = new GameSocket(gameId, token, {
    seat: token ? null : seat,
    onState: (msg) => {
      const { type, ...view } = msg;
      renderSoon(view);
    },
    onError: (message) => toast(message),
    onStatus: setConn,
    onMessage: (msg) => {
      if (msg.type === "chat") addChat(msg, true);
      else if (msg.type === "aborted") showAborted();
    },
  });
  loadChat();
}

main();
