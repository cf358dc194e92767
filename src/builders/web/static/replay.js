// The replay page (/replay/{id}): a finished game, step by step, with the table's own drawings.

import { api, toast, el, gameIdFromPath, GAME_TITLES, SEAT_COLOURS, applySeatColours, winnersText, logText, moverName, seatsAt, t } from "./api.js";
import { loadTable } from "./tables.js";
import { eventLine, eventsByMove } from "./seat_events.js";
import { AnalysisBoard } from "./analysis.js";

const gameId = gameIdFromPath("replay");
const tableRoot = document.getElementById("table");
const slider = document.getElementById("slider");
const stepEl = document.getElementById("step");
const stepText = document.getElementById("step-text");
const playBtn = document.getElementById("play");
const speedSel = document.getElementById("speed");
const STEP_MS = 900; // one step at 1x

const cache = new Map();
let total = 0;
let n = 0;
let table = null;
let timer = null;
let loading = 0;

const logBox = el("section", { class: "panel log-panel" }, el("h3", { text: t("log.title") }), el("ol", { class: "log", id: "log" }));
// the analysis board: its graph and labelled moves jump the replay to a position
const board = new AnalysisBoard(el("section", { id: "analysis" }), gameId, {
  onJump: (k, { reveal = false } = {}) => {
    stop();
    show(k).then(() => reveal && boardIntoView());
  },
  describe: (action) => (table && table.describe ? table.describe({ action, text: action }) : null),
});

// A position chosen on the analysis board: the board comes into view, where the better move is drawn
// (on a phone it is far below the list of moves): the table's own board where it names one, else the table.
function boardIntoView() {
  const board = (table && table.board) || tableRoot;
  const box = board.getBoundingClientRect();
  const seen = box.top >= 0 && (box.bottom <= window.innerHeight || box.top < window.innerHeight / 3);
  if (!seen) board.scrollIntoView({ block: "start" });
}

async function fetchView(k) {
  if (cache.has(k)) return cache.get(k);
  const view = await api(`/api/games/${encodeURIComponent(gameId)}/replay/${k}`);
  cache.set(k, view);
  return view;
}

function entryText(view, entry) {
  const words = table && table.describe ? table.describe(entry) : null;
  return words ? t("log.line", { who: moverName(view, entry), what: words }) : logText(view, entry, null);
}

// The step from the address: "#n=30" (null when the address names none).
function stepFromHash() {
  const raw = new URLSearchParams(location.hash.replace(/^#/, "")).get("n");
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

async function show(k) {
  k = Math.max(0, Math.min(total, k));
  n = k;
  const ticket = ++loading;
  slider.value = String(k);
  stepEl.textContent = `${k} / ${total}`;
  if (stepFromHash() !== k) history.replaceState(null, "", `#n=${k}`);
  let view;
  try {
    view = await fetchView(k);
  } catch (err) {
    toast(err.message);
    stop();
    return;
  }
  if (ticket !== loading) return;
  if ("colours" in view) applySeatColours(view.colours);
  if (typeof view.total === "number") total = view.total;
  slider.max = String(total);
  if (!table) {
    const opts = { replay: true, winnersText: (v) => winnersText(v.result, v.seats, null), extraSide: logBox };
    const Table = loadTable(view, () => show(k));
    if (!Table) return;  // its module is on its way: shown when it comes
    table = new Table(tableRoot, opts);
    document.getElementById("game-title").textContent = `${t("common.replay")} · ${GAME_TITLES[view.game] || view.game}`;
    document.body.dataset.game = view.game;
    // an analysis shown before the table was made told its moves in notation: told again in words
    if (board.data && board.data.status === "done") board.show(board.data);
  }
  // the result is shown only at the last step; the seats as they were then (who makes the next move: a
  // person, or the bot that had the seat)
  const seats = seatsAt(view.seats, view.events, k + 1);
  const shown = k < total ? { ...view, seats, result: null, scoring_hexes: null } : { ...view, seats };
  table.update(shown);
  const entries = (view.log || []).filter((e) => e.n <= k);
  const last = entries[entries.length - 1];
  stepText.textContent = k === 0 ? t("replay.start") : last ? entryText(view, last) : "";
  // mark what the step changed: its hexes on the map, its cards on the table
  const stepEntry = k > 0 ? entries.find((e) => e.n === k) : null;
  document.body.dataset.step = String(k);
  if (table.lightHexes) {
    table.lightHexes([]);
    if (stepEntry) table.lightHexes(table.constructor.actionHexes(stepEntry.action), { cls: "changed-hex" });
  } else if (table.showEntry) {
    table.showEntry(stepEntry, "changed");
  }
  const list = logBox.querySelector("#log");
  list.replaceChildren();
  // what happened to the seats by then besides their moves, each after the move it followed
  const eventsAfter = eventsByMove(view, k);
  const eventLines = (after) => {
    for (const [event, i] of eventsAfter.get(after) || []) list.appendChild(eventLine(view, event, i));
  };
  eventLines(0);
  for (const entry of entries) {
    const li = el("li", { "data-n": entry.n, "data-seat": entry.seat, class: entry === last ? "current" : "", tabindex: 0, title: t("replay.go_to_step") },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[entry.seat] || "#999" } }),
      el("span", { text: entryText(view, entry) }));
    li.addEventListener("click", () => { stop(); show(entry.n); });
    li.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); stop(); show(entry.n); } });
    list.appendChild(li);
    eventLines(entry.n);
  }
  list.scrollTop = list.scrollHeight;
  board.position(k, table, tableRoot);
  // prefetch the next step
  if (k < total) fetchView(k + 1).catch(() => {});
}

function stop() {
  clearInterval(timer);
  timer = null;
  playBtn.textContent = t("replay.play");
  playBtn.setAttribute("aria-label", t("replay.play"));
}

function togglePlay() {
  if (timer) return stop();
  if (n >= total) show(0);
  playBtn.textContent = t("replay.pause");
  playBtn.setAttribute("aria-label", t("replay.pause"));
  schedule();
}

function schedule() {
  clearInterval(timer);
  document.body.dataset.stepMs = String(STEP_MS / Number(speedSel.value || 1));
  timer = setInterval(() => {
    if (n >= total) return stop();
    show(n + 1);
  }, STEP_MS / Number(speedSel.value || 1));
}

speedSel.addEventListener("change", () => {
  if (timer) schedule();
});
// the address leads: editing "#n=" (or going back and forth in the history) shows that step
window.addEventListener("hashchange", () => {
  const k = stepFromHash();
  if (k !== null && k !== n) {
    stop();
    show(k);
  }
});

document.getElementById("first").addEventListener("click", () => { stop(); show(0); });
document.getElementById("prev").addEventListener("click", () => { stop(); show(n - 1); });
document.getElementById("next").addEventListener("click", () => { stop(); show(n + 1); });
document.getElementById("last").addEventListener("click", () => { stop(); show(total); });
playBtn.addEventListener("click", togglePlay);
slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
document.addEventListener("keydown", (event) => {
  if (event.target && ["INPUT", "SELECT"].includes(event.target.tagName) && event.target.type !== "range") return;
  if (document.getElementById("last").disabled) return;  // not loaded yet
  const keys = { ArrowLeft: () => show(n - 1), ArrowRight: () => show(n + 1), Home: () => show(0), End: () => show(total) };
  if (keys[event.key]) {
    event.preventDefault();
    stop();
    keys[event.key]();
  } else if (event.key === " ") {
    event.preventDefault();
    togglePlay();
  }
});

async function main() {
  if (!gameId) {
    tableRoot.replaceChildren(el("div", { class: "panel error-panel", text: t("play.no_id") }));
    return;
  }
  try {
    const first = await fetchView(0);
    total = first.total || 0;
  } catch (err) {
    tableRoot.replaceChildren(el("div", { class: "panel error-panel", text: err.message }));
    toast(err.message);
    return;
  }
  slider.max = String(total);
  // the controls work once the game's length is known (an End clicked before would show the start)
  for (const id of ["first", "prev", "play", "next", "last", "slider"]) document.getElementById(id).disabled = false;
  document.getElementById("replay-controls").after(board.root);
  // shown to everyone once made; "?analyse" (the game-over screen's Analyse button) starts it
  board.load({ start: new URLSearchParams(location.search).has("analyse") });
  // a replay starts at the beginning, unless the address names a step
  const wanted = stepFromHash();
  await show(wanted === null ? 0 : wanted);
}

main();
