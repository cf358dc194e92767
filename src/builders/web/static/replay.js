// The replay page (/replay/{id}): a finished game, step by step, with the table's own drawings.

import { api, toast, el, gameIdFromPath, GAME_TITLES, SEAT_COLOURS, winnersText, logText } from "./api.js";
import { KingdomTable } from "./kingdom.js";
import { BuildersTable } from "./middle_ages.js";

const gameId = gameIdFromPath("replay");
const tableRoot = document.getElementById("table");
const slider = document.getElementById("slider");
const stepEl = document.getElementById("step");
const stepText = document.getElementById("step-text");
const playBtn = document.getElementById("play");

const cache = new Map();
let total = 0;
let n = 0;
let table = null;
let timer = null;
let loading = 0;

const logBox = el("section", { class: "panel log-panel" }, el("h3", { text: "Game log" }), el("ol", { class: "log", id: "log" }));

async function fetchView(k) {
  if (cache.has(k)) return cache.get(k);
  const view = await api(`/api/games/${encodeURIComponent(gameId)}/replay/${k}`);
  cache.set(k, view);
  return view;
}

function entryText(view, entry) {
  return logText(view, entry, null);
}

async function show(k) {
  k = Math.max(0, Math.min(total, k));
  n = k;
  const ticket = ++loading;
  slider.value = String(k);
  stepEl.textContent = `${k} / ${total}`;
  history.replaceState(null, "", `#n=${k}`);
  let view;
  try {
    view = await fetchView(k);
  } catch (err) {
    toast(err.message);
    stop();
    return;
  }
  if (ticket !== loading) return;
  if (typeof view.total === "number") total = view.total;
  slider.max = String(total);
  if (!table) {
    const opts = { replay: true, winnersText: (v) => winnersText(v.result, v.seats, null), extraSide: logBox };
    table = view.game === "kingdom" ? new KingdomTable(tableRoot, opts) : new BuildersTable(tableRoot, opts);
    document.getElementById("game-title").textContent = `Replay · ${GAME_TITLES[view.game] || view.game}`;
    document.body.dataset.game = view.game;
  }
  // the result is shown only at the last step
  const shown = k < total ? { ...view, result: null, scoring_hexes: k < total ? null : view.scoring_hexes } : view;
  table.update(shown);
  const entries = (view.log || []).filter((e) => e.n <= k);
  const last = entries[entries.length - 1];
  stepText.textContent = k === 0 ? "Start of the game" : last ? entryText(view, last) : "";
  const list = logBox.querySelector("#log");
  list.replaceChildren();
  for (const entry of entries) {
    list.appendChild(el("li", { "data-n": entry.n, class: entry === last ? "current" : "" },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[entry.seat] || "#999" } }),
      el("span", { text: entryText(view, entry) })));
  }
  list.scrollTop = list.scrollHeight;
  // prefetch the next step
  if (k < total) fetchView(k + 1).catch(() => {});
}

function stop() {
  clearInterval(timer);
  timer = null;
  playBtn.textContent = "Play";
  playBtn.setAttribute("aria-label", "Play");
}

function togglePlay() {
  if (timer) return stop();
  if (n >= total) show(0);
  playBtn.textContent = "Pause";
  playBtn.setAttribute("aria-label", "Pause");
  timer = setInterval(() => {
    if (n >= total) return stop();
    show(n + 1);
  }, 600);
}

document.getElementById("first").addEventListener("click", () => { stop(); show(0); });
document.getElementById("prev").addEventListener("click", () => { stop(); show(n - 1); });
document.getElementById("next").addEventListener("click", () => { stop(); show(n + 1); });
document.getElementById("last").addEventListener("click", () => { stop(); show(total); });
playBtn.addEventListener("click", togglePlay);
slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
document.addEventListener("keydown", (event) => {
  if (event.target && event.target.tagName === "INPUT" && event.target.type !== "range") return;
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
    tableRoot.replaceChildren(el("div", { class: "panel error-panel", text: "No game id in the address." }));
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
  const wanted = Number(new URLSearchParams(location.hash.replace(/^#/, "")).get("n"));
  await show(Number.isFinite(wanted) && location.hash.includes("n=") ? wanted : total);
}

main();
