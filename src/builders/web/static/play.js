// The table page (/play/{id}): loads the view for this browser's seat, keeps it live, sends actions.

import {
  api, ApiError, GameSocket, toast, el, seatFromFragment, gameIdFromPath, rememberSeat, seatsFor,
  rememberGame, GAME_TITLES, SEAT_COLOURS, SEAT_NAMES, seatName, winnersText, logText,
} from "./api.js";
import { KingdomTable } from "./kingdom.js";
import { BuildersTable } from "./middle_ages.js";

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

const logBox = el("section", { class: "panel log-panel" }, el("h3", { text: "Game log" }), el("ol", { class: "log", id: "log" }));

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
  connEl.textContent = { live: "live", connecting: "connecting…", offline: "reconnecting…", closed: "closed" }[status] || status;
  connEl.title = status === "live" ? "Connected: moves appear as they happen" : "The live connection is down; retrying";
}

function render(view) {
  if (!view || (view.id !== undefined && view.id !== gameId)) return;
  // views can cross on the way (a reply to an action and a push after a bot's move): never go back
  if (current && current.seat === view.seat && typeof view.version === "number" && view.version < current.version) return;
  current = view;
  if (!table) {
    const opts = {
      onAction: sendAction,
      onUndo: sendUndo,
      winnersText: (v) => winnersText(v.result, v.seats, v.seat),
      extraSide: logBox,
    };
    table = view.game === "kingdom" ? new KingdomTable(tableRoot, opts) : new BuildersTable(tableRoot, opts);
    document.body.dataset.game = view.game;
  }
  table.update(view);
  document.body.dataset.version = String(view.version ?? "");
  document.body.dataset.toMove = view.to_move === null || view.to_move === undefined ? "" : String(view.to_move);
  document.body.dataset.status = view.result ? "finished" : view.status || "";
  renderLog(view);
  renderHeader(view);
}

function renderHeader(view) {
  const name = GAME_TITLES[view.game] || view.game;
  titleEl.replaceChildren(el("span", { class: "game-name", text: name }),
    view.seat !== null && view.seat !== undefined
      ? el("span", { class: "seat-chip", style: { background: SEAT_COLOURS[view.seat], color: view.seat === 2 ? "#1d1d1d" : "#fff" } }, `you: ${SEAT_NAMES[view.seat]}`)
      : el("span", { class: "seat-chip spectator", text: "watching" }));
  const yourTurn = view.seat !== null && view.seat === view.to_move && !view.result;
  document.title = `${yourTurn ? "● Your turn · " : ""}${name}`;
  document.body.classList.toggle("your-turn", yourTurn);

  toolsEl.replaceChildren();
  const held = seatsFor(gameId);
  const tokens = (held && held.tokens) || {};
  const heldSeats = Object.keys(tokens).map(Number).sort();
  if (heldSeats.length > 1) {
    const select = el("select", { id: "seat-switch", "aria-label": "Play as seat", onchange: (e) => switchSeat(Number(e.target.value)) });
    for (const s of heldSeats) select.appendChild(el("option", { value: s, selected: s === seat, text: `Play as ${SEAT_NAMES[s]}` }));
    toolsEl.appendChild(select);
  }
  const invites = heldSeats.filter((s) => s !== seat);
  if (invites.length && !view.result) {
    toolsEl.appendChild(el("button", { class: "btn small", id: "invite-btn", onclick: () => showInvites(invites, tokens) }, "Invite links"));
  }
  if (view.result) {
    toolsEl.appendChild(el("a", { class: "btn small", href: `/replay/${encodeURIComponent(gameId)}`, id: "replay-link" }, "Replay"));
  } else if (view.seat !== null && view.seat !== undefined) {
    toolsEl.appendChild(el("button", { class: "btn small", id: "resign-btn", onclick: resign }, "Hand over to a bot"));
  }
  toolsEl.appendChild(el("a", { class: "btn small", href: "/" }, "Lobby"));
}

function renderLog(view) {
  const list = logBox.querySelector("#log");
  const entries = view.log || [];
  if (list.dataset.count === String(entries.length) && list.dataset.last === String(entries.length ? entries[entries.length - 1].n : "")) return;
  list.replaceChildren();
  for (const entry of entries) {
    list.appendChild(el("li", { "data-n": entry.n, "data-seat": entry.seat },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[entry.seat] || "#999" } }),
      el("span", { text: logText(view, entry, view.seat) })));
  }
  if (!entries.length) list.appendChild(el("li", { class: "muted", text: "No move yet." }));
  list.dataset.count = String(entries.length);
  list.dataset.last = String(entries.length ? entries[entries.length - 1].n : "");
  list.scrollTop = list.scrollHeight;
}

function showInvites(seats, tokens) {
  const dialog = el("dialog", { class: "invite-dialog" });
  dialog.appendChild(el("h3", { text: "Send these links to your friends" }));
  for (const s of seats) {
    const link = `${location.origin}/play/${encodeURIComponent(gameId)}#seat=${s}&token=${encodeURIComponent(tokens[String(s)])}`;
    const input = el("input", { type: "text", readonly: true, value: link, class: "link-input" });
    dialog.appendChild(el("div", { class: "invite-row" },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[s] } }), el("b", { text: SEAT_NAMES[s] }), input,
      el("button", { class: "btn small", onclick: () => copy(link) }, "Copy")));
  }
  dialog.appendChild(el("button", { class: "btn", onclick: () => { dialog.close(); dialog.remove(); } }, "Close"));
  document.body.appendChild(dialog);
  dialog.showModal();
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Link copied.", "info", 2500);
  } catch (err) {
    toast("Copying is blocked here: select the link and copy it by hand.", "error");
  }
}

async function refresh() {
  try {
    const view = await api(`/api/games/${encodeURIComponent(gameId)}/state`, { token });
    render(view);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && token) {
      toast("This seat's link is not valid for this game; you are watching instead.");
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
    const view = await api(`/api/games/${encodeURIComponent(gameId)}/actions`, { method: "POST", body, token });
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
    const view = await api(`/api/games/${encodeURIComponent(gameId)}/undo`, { method: "POST", token });
    render(view);
  } catch (err) {
    toast(err.message);
    await refresh();
  } finally {
    busy = false;
  }
}

async function resign() {
  const level = window.prompt("Hand your seat over to a bot: which level? (easy, medium, hard)", "medium");
  if (level === null) return;
  const bot = level.trim().toLowerCase();
  if (!["easy", "medium", "hard"].includes(bot)) {
    toast("Choose easy, medium or hard.");
    return;
  }
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/resign`, { method: "POST", body: { bot }, token });
    toast(`A ${bot} bot plays your seat from now on.`, "info");
    await refresh();
  } catch (err) {
    toast(err.message);
  }
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
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "z" && current && current.can_undo) sendUndo();
});

async function main() {
  if (!gameId) {
    tableRoot.replaceChildren(el("div", { class: "panel error-panel", text: "No game id in the address." }));
    return;
  }
  const chosen = chooseSeat();
  if (chosen) {
    seat = chosen.seat;
    token = chosen.token;
  }
  setConn("connecting");
  await refresh();
  if (current && seat !== null) rememberGame(gameId, { game: current.game });
  socket = new GameSocket(gameId, token, {
    onState: (msg) => {
      const { type, ...view } = msg;
      render(view);
    },
    onError: (message) => toast(message),
    onStatus: setConn,
  });
}

main();
