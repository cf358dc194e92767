// The lobby (/): start a game, your games, open seats to join, games to watch, finished games to replay.

import {
  api, copyText, toast, el, loadSeats, forgetGame, playerName, setPlayerName, ensureSession, currentSession,
  GAME_TITLES, PALETTE, DEFAULT_COLOURS,
} from "./api.js";
import { mountAccount } from "./account.js";
import { SECTIONS, CARD_NAMES, CARD_TEXT, capital } from "./kingdom.js";

const FIRST_SECTIONS = ["tavern", "paddock", "oasis", "farm"];
const FIRST_CARDS = ["fishermen", "merchants", "knights"];
const SEAT_CHOICES = [
  ["you", "You"],
  ["friend", "A friend (by link)"],
  ["user", "A player by name"],
  ["open", "Open seat (anyone can join)"],
  ["bot-easy", "Bot: easy"],
  ["bot-medium", "Bot: medium"],
  ["bot-hard", "Bot: hard"],
  ["bot-expert", "Bot: expert"],
];

const state = {
  game: "kingdom",
  players: 2,
  seats: ["you", "bot-medium", "bot-easy", "bot-easy"],
  colours: [...DEFAULT_COLOURS],
};

/** The palette entry of ``seat`` in a game whose colours are ``colours`` (none: the defaults). */
function look(colours, seat) {
  const id = (colours || DEFAULT_COLOURS)[seat] || DEFAULT_COLOURS[seat];
  return PALETTE.find((c) => c.id === id) || PALETTE[seat];
}
const chipStyle = (p) => ({ background: p.fill, color: p.ink });

/** The sentence saying which seats share a colour (none: ""). */
function colourClash() {
  const chosen = state.colours.slice(0, state.players);
  for (let i = 0; i < chosen.length; i++) {
    const j = chosen.indexOf(chosen[i]);
    if (j < i) return `Seats ${j + 1} and ${i + 1} are both ${look(chosen, i).name.toLowerCase()}: give each seat its own colour.`;
  }
  return "";
}

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------------------------------
// New game form

function renderSeats() {
  const list = $("seats");
  list.replaceChildren();
  for (let i = 0; i < state.players; i++) {
    const colour = look(state.colours, i);
    const picker = el("select", {
      id: `seat-colour-${i}`, class: "seat-colour", "aria-label": `Colour of seat ${i + 1}`,
      onchange: (e) => { state.colours[i] = e.target.value; renderSeats(); document.getElementById(`seat-colour-${i}`).focus(); },
    });
    for (const p of PALETTE) picker.appendChild(el("option", { value: p.id, selected: p.id === colour.id, text: p.name }));
    const select = el("select", { id: `seat-${i}`, "aria-label": `Seat ${i + 1} (${colour.name})`, onchange: (e) => { state.seats[i] = e.target.value; updateNote(); } });
    for (const [value, label] of SEAT_CHOICES) select.appendChild(el("option", { value, selected: state.seats[i] === value, text: label }));
    const user = el("input", { type: "text", id: `seat-user-${i}`, class: "seat-user", maxlength: 20, placeholder: "username", "aria-label": `${colour.name}: username`, hidden: state.seats[i] !== "user", value: (state.users || {})[i] || "", oninput: (e) => { state.users = state.users || {}; state.users[i] = e.target.value.trim(); } });
    select.addEventListener("change", () => { user.hidden = select.value !== "user"; });
    list.appendChild(el("li", { class: "seat-row" },
      el("span", { class: "seat-chip", "data-colour": colour.id, style: chipStyle(colour) }, colour.name),
      picker, select, user));
  }
  const clash = colourClash();
  list.appendChild(el("li", { class: "colour-clash", id: "colour-clash", role: "alert", hidden: !clash, text: clash }));
  updateNote();
}

function updateNote() {
  const chosen = state.seats.slice(0, state.players);
  const friends = chosen.filter((s) => s === "friend").length;
  const you = chosen.filter((s) => s === "you").length;
  let note = "";
  if (!you) note = "No seat is yours: you will watch.";
  else if (you > 1) note = "Several seats are yours: play them in turn on this screen.";
  if (friends) note += `${note ? " " : ""}You get ${friends === 1 ? "a link" : `${friends} links`} to send: each works once.`;
  // a chosen seed deals known cards: only for a table whose people are all you
  const others = chosen.some((s) => s === "friend" || s === "user" || s === "open");
  const seed = $("seed");
  seed.disabled = others;
  seed.title = others ? "A seed is for games against bots or pass-and-play only: it would tell you the others' cards" : "";
  if (others) seed.value = "";
  $("start-note").textContent = note;
}

function selectGame(game) {
  state.game = game;
  for (const b of document.querySelectorAll(".game-option")) {
    const on = b.dataset.game === game;
    b.classList.toggle("selected", on);
    b.setAttribute("aria-checked", String(on));
  }
  $("kb-setup").hidden = game !== "kingdom";
}

function selectPlayers(n) {
  state.players = n;
  for (const b of document.querySelectorAll("#players button")) {
    const on = Number(b.dataset.n) === n;
    b.classList.toggle("selected", on);
    b.setAttribute("aria-checked", String(on));
  }
  renderSeats();
}

function buildCustom() {
  const sections = $("sections");
  sections.replaceChildren(el("div", { class: "label", text: "Board sections (top left, top right, bottom left, bottom right)" }));
  const grid = el("div", { class: "section-grid" });
  for (let slot = 0; slot < 4; slot++) {
    const select = el("select", { id: `section-${slot}`, "aria-label": `Section in slot ${slot}` });
    for (const name of SECTIONS) select.appendChild(el("option", { value: name, selected: name === FIRST_SECTIONS[slot], text: capital(name) }));
    grid.appendChild(el("div", { class: "section-slot" }, select,
      el("label", { class: "small" }, el("input", { type: "checkbox", id: `turned-${slot}` }), " turned")));
  }
  sections.appendChild(grid);
  const cards = $("cards-choice");
  cards.replaceChildren(el("div", { class: "label", text: "Kingdom Builder cards" }));
  const row = el("div", { class: "card-selects" });
  for (let i = 0; i < 3; i++) {
    const select = el("select", { id: `card-${i}`, "aria-label": `Card ${i + 1}` });
    for (const name of CARD_NAMES) select.appendChild(el("option", { value: name, selected: name === FIRST_CARDS[i], text: capital(name), title: CARD_TEXT[name] }));
    row.appendChild(select);
  }
  cards.appendChild(row);
}

function setupMode() {
  const checked = document.querySelector('input[name="mode"]:checked');
  return checked ? checked.value : "random";
}

function onModeChange() {
  const mode = setupMode();
  $("custom").hidden = mode !== "custom";
  $("setup-summary").textContent = { first: "first game", random: "random", custom: "chosen" }[mode];
}

function readSetup() {
  const seedText = $("seed").value.trim();
  const seed = seedText === "" ? undefined : Number(seedText);
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0)) throw new Error("The seed must be a whole number, 0 or more.");
  if (state.game !== "kingdom") return seed === undefined ? undefined : { seed };
  const mode = setupMode();
  const setup = { mode };
  if (seed !== undefined) setup.seed = seed;
  if (mode === "custom") {
    setup.sections = [0, 1, 2, 3].map((slot) => [$(`section-${slot}`).value, $(`turned-${slot}`).checked]);
    setup.cards = [0, 1, 2].map((i) => $(`card-${i}`).value);
    if (new Set(setup.sections.map((s) => s[0])).size !== 4) throw new Error("Choose 4 different board sections.");
    if (new Set(setup.cards).size !== 3) throw new Error("Choose 3 different cards.");
  }
  return setup;
}

async function startGame() {
  const button = $("start");
  const name = $("your-name").value.trim();
  setPlayerName(name);
  let setup;
  try {
    setup = readSetup();
  } catch (err) {
    toast(err.message);
    return;
  }
  const choices = state.seats.slice(0, state.players);
  let seats;
  try {
    seats = choices.map((choice, i) => {
      if (choice.startsWith("bot-")) return { type: "bot", level: choice.slice(4) };
      if (choice === "open") return { type: "human", open: true };
      if (choice === "friend") return { type: "human", invite: true };
      if (choice === "user") {
        const user = ((state.users || {})[i] || "").trim();
        if (!user) throw new Error(`Type the username of the player of ${look(state.colours, i).name}.`);
        return { type: "human", user };
      }
      return name ? { type: "human", name } : { type: "human" };
    });
  } catch (err) {
    toast(err.message);
    return;
  }
  const clash = colourClash();
  if (clash) {
    toast(clash);
    return;
  }
  const body = { game: state.game, seats };
  const colours = state.colours.slice(0, state.players);
  if (colours.some((c, i) => c !== DEFAULT_COLOURS[i])) body.colours = colours;
  if (setup) body.setup = setup;
  if ($("private").checked) body.private = true;
  if ($("rated").checked) body.rated = true;
  if ($("hints").checked) body.hints = true;
  const clock = $("clock").value;
  if (clock) {
    const [kind, a, b] = clock.split(":");
    body.clock = kind === "live"
      ? { kind, total: Number(a), increment: Number(b), bot: $("clock-bot").value }
      : { kind, per_turn: Number(a), bot: $("clock-bot").value };
  }
  button.disabled = true;
  try {
    await ensureSession();
    const created = await api("/api/games", { method: "POST", body });
    const target = `/play/${encodeURIComponent(created.id)}`;
    const links = (created.seats || []).filter((s) => s.invite);
    if (links.length) showLinks(created, links, target);
    else location.href = target;
  } catch (err) {
    toast(err.message);
  } finally {
    button.disabled = false;
  }
}

function fullLink(link) {
  return link.startsWith("http") ? link : `${location.origin}${link}`;
}

function showLinks(created, seats, target) {
  const dialog = el("dialog", { class: "invite-dialog", id: "invite-dialog" });
  dialog.appendChild(el("h3", { text: "Send each friend their link" }));
  dialog.appendChild(el("p", { class: "muted small", text: "Each link works once: whoever opens it first takes the seat. You cannot play a friend's seat." }));
  for (const s of seats) {
    const link = fullLink(s.invite);
    dialog.appendChild(el("div", { class: "invite-row" },
      el("span", { class: "seat-chip", style: chipStyle(look(state.colours, s.seat)) }, look(state.colours, s.seat).name),
      el("input", { type: "text", readonly: true, value: link, class: "link-input", "data-seat": s.seat }),
      el("button", { class: "btn small", onclick: () => copyText(link) }, "Copy")));
  }
  dialog.appendChild(el("div", { class: "form-row" }, el("a", { class: "btn btn-primary", href: target, id: "go-to-table" }, "Go to the table")));
  document.body.appendChild(dialog);
  dialog.showModal();
}

// ------------------------------------------------------------------------------------------------
// Lists

function seatChips(summary, mySeats = []) {
  const box = el("span", { class: "seat-chips" });
  for (const s of summary.seats || []) {
    let label;
    if (s.type === "bot") label = `bot ${s.level || ""}`.trim();
    else if (mySeats.includes(s.seat)) label = "you";
    else if (s.open && !s.claimed) label = "open";
    else label = s.name || "player";
    const chip = el("span", { class: `seat-chip small${s.connected ? " online" : ""}`, style: chipStyle(look(summary.colours, s.seat)), title: `${look(summary.colours, s.seat).name}: ${label}${s.connected ? " (online)" : ""}` }, label);
    box.appendChild(chip);
  }
  return box;
}

function resultText(summary) {
  const r = summary.result;
  if (!r || !r.players) return "";
  const scores = r.players.map((p) => `${look(summary.colours, p.seat).name} ${p.total}`).join(" · ");
  const winners = (r.winners || []).map((w) => look(summary.colours, w).name).join(" and ");
  return `${winners ? `${winners} won. ` : ""}${scores}`;
}

function when(iso) {
  if (!iso) return "";
  const d = typeof iso === "number" ? new Date(iso < 1e12 ? iso * 1000 : iso) : new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString([], { dateStyle: "short", timeStyle: "short" });
}

function gameRow(summary, { actions = [], mySeats = [], note = "" } = {}) {
  const title = GAME_TITLES[summary.game] || summary.game;
  // a seat of yours a bot now plays (you left the game) is not your turn
  const yourTurn = summary.status !== "finished" && mySeats.includes(summary.to_move)
    && summary.seats?.[summary.to_move]?.type !== "bot";
  const status = summary.status === "finished" ? "finished" : yourTurn ? "your turn" : summary.status === "open" ? "waiting for players" : `turn ${summary.turn ?? ""}`;
  return el("li", { class: `game-row${yourTurn ? " your-turn" : ""}`, "data-id": summary.id },
    el("div", { class: "game-row-main" },
      el("b", { text: summary.name || title }),
      summary.name && summary.name !== title ? el("span", { class: "muted small", text: ` ${title}` }) : null,
      el("div", { class: "small" }, seatChips(summary, mySeats), " ", el("span", { class: `status status-${summary.status}`, text: status }),
        note ? el("span", { class: "muted", text: ` ${note}` }) : null,
        summary.created ? el("span", { class: "muted", text: ` · ${when(summary.created)}` }) : null)),
    el("div", { class: "game-row-actions" }, ...actions));
}

async function loadMine() {
  const list = $("my-games");
  const rows = [];
  const seen = new Set();
  const info = await currentSession();
  if (info.account) {
    try {
      for (const summary of (await api("/api/account/games")).slice(0, 30)) {
        seen.add(summary.id);
        const link = `/play/${encodeURIComponent(summary.id)}`;
        const actions = summary.status === "finished"
          ? [el("a", { class: "btn small", href: `/replay/${encodeURIComponent(summary.id)}` }, "Replay"), el("a", { class: "btn small", href: link }, "Table")]
          : [el("a", { class: "btn small btn-primary", href: link }, summary.waiting ? "Play now" : summary.my_seats.length ? "Open" : "Watch")];
        rows.push(gameRow(summary, { actions, mySeats: summary.my_seats, note: summary.status === "finished" ? resultText(summary) : "" }));
      }
    } catch (err) {
      rows.push(el("li", { class: "error-text", text: err.message }));
    }
  }
  // seats held by their tokens (links made by programs) in this browser
  const held = loadSeats();
  const ids = Object.keys(held).filter((id) => !seen.has(id))
    .sort((a, b) => String(held[b].created || "").localeCompare(String(held[a].created || "")));
  rows.push(...await Promise.all(ids.slice(0, 30).map(async (id) => {
    const entry = held[id];
    const mySeats = Object.keys(entry.tokens || {}).map(Number);
    const mine = entry.mine ?? mySeats[0];
    const token = entry.tokens && entry.tokens[String(mine)];
    const link = `/play/${encodeURIComponent(id)}#seat=${mine}&token=${encodeURIComponent(token || "")}`;
    const forget = el("button", { class: "btn small ghost", title: "Remove from this list (the game stays on the server)", onclick: () => { forgetGame(id); loadMine(); } }, "Forget");
    try {
      const summary = await api(`/api/games/${encodeURIComponent(id)}`);
      const actions = summary.status === "finished"
        ? [el("a", { class: "btn small", href: `/replay/${encodeURIComponent(id)}` }, "Replay"), el("a", { class: "btn small", href: link }, "Table"), forget]
        : [el("a", { class: "btn small btn-primary", href: link }, summary.to_move !== null && mySeats.includes(summary.to_move) ? "Play now" : "Open"), forget];
      return gameRow(summary, { actions, mySeats, note: summary.status === "finished" ? resultText(summary) : "" });
    } catch (err) {
      return el("li", { class: "game-row gone" }, el("div", { class: "game-row-main" }, el("b", { text: GAME_TITLES[entry.game] || "Game" }), el("div", { class: "muted small", text: err.message })), el("div", { class: "game-row-actions" }, forget));
    }
  })));
  if (!rows.length) rows.push(el("li", { class: "muted", text: "Games you start or join appear here." }));
  list.replaceChildren(...rows);
}

// game id -> the seats of this browser's account (asked once per refresh of the lists)
let seatsByGame = null;

function mySeatsByGame() {
  if (!seatsByGame) {
    seatsByGame = currentSession().then(async (info) => {
      if (!info.account) return new Map();
      const games = await api("/api/account/games");
      return new Map(games.map((g) => [g.id, g.my_seats]));
    }).catch(() => new Map());
  }
  return seatsByGame;
}

async function loadList(status, listId, makeActions, empty) {
  const list = $(listId);
  try {
    const games = await api(`/api/games?status=${status}`);
    const held = loadSeats();
    const accountSeats = await mySeatsByGame();
    const rows = [];
    for (const summary of games.slice(0, 20)) {
      const mySeats = accountSeats.get(summary.id) || Object.keys((held[summary.id] || {}).tokens || {}).map(Number);
      const row = makeActions(summary, mySeats);
      if (row) rows.push(row);
    }
    if (rows.length) list.replaceChildren(...rows);
    else list.replaceChildren(el("li", { class: "muted", text: empty }));
  } catch (err) {
    list.replaceChildren(el("li", { class: "error-text", text: err.message }));
  }
}

async function join(summary, seat) {
  const name = ($("your-name").value || playerName()).trim();
  try {
    const body = name ? { seat, name } : { seat };
    await ensureSession();
    await api(`/api/games/${encodeURIComponent(summary.id)}/join`, { method: "POST", body });
    location.href = `/play/${encodeURIComponent(summary.id)}`;
  } catch (err) {
    toast(err.message);
    refreshLists();
  }
}

async function loadLeaderboards() {
  for (const game of ["kingdom", "middle-ages"]) {
    const list = $(`leaderboard-${game}`);
    try {
      const leaders = await api(`/api/leaderboard/${game}`);
      list.replaceChildren(...(leaders.length ? leaders.slice(0, 10).map((p) => el("li", { "data-user": p.username },
        el("a", { href: `/players/${encodeURIComponent(p.username)}`, text: p.username }),
        el("span", { class: "muted small", text: ` ${p.rating.toFixed(1)} · ${p.games} rated` })))
        : [el("li", { class: "muted empty", text: "No rated game yet." })]));
    } catch (err) {
      list.replaceChildren(el("li", { class: "error-text empty", text: err.message }));
    }
  }
}

function refreshLists() {
  seatsByGame = null;
  loadLeaderboards();
  loadMine();
  loadList("open", "open-games", (summary, mySeats) => {
    const free = (summary.seats || []).filter((s) => s.type === "human" && s.open && !s.claimed);
    if (!free.length) return null;
    const actions = free.map((s) => el("button", { class: "btn small btn-primary join", "data-seat": s.seat, onclick: () => join(summary, s.seat) }, `Join as ${look(summary.colours, s.seat).name}`));
    actions.push(el("a", { class: "btn small", href: `/play/${encodeURIComponent(summary.id)}` }, "Watch"));
    return gameRow(summary, { actions, mySeats });
  }, "No open seat right now. Start a game with an open seat and others can join it here.");
  loadList("running", "running-games", (summary, mySeats) => gameRow(summary, {
    actions: [el("a", { class: "btn small", href: `/play/${encodeURIComponent(summary.id)}` }, "Watch")], mySeats,
  }), "No game in progress.");
  loadList("finished", "finished-games", (summary, mySeats) => gameRow(summary, {
    actions: [el("a", { class: "btn small", href: `/replay/${encodeURIComponent(summary.id)}` }, "Replay")], mySeats, note: resultText(summary),
  }), "No finished game yet.");
}

// ------------------------------------------------------------------------------------------------

function init() {
  mountAccount();
  $("your-name").value = playerName();
  for (const b of document.querySelectorAll(".game-option")) b.addEventListener("click", () => selectGame(b.dataset.game));
  for (const b of document.querySelectorAll("#players button")) b.addEventListener("click", () => selectPlayers(Number(b.dataset.n)));
  for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", onModeChange);
  $("start").addEventListener("click", startGame);
  buildCustom();
  renderSeats();
  onModeChange();
  refreshLists();
  setInterval(() => {
    if (document.visibilityState === "visible") refreshLists();
  }, 15000);
}

init();
