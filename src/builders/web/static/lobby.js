// The lobby (/): start a game, your games, open seats to join, games to watch, finished games to replay.

import {
  api, copyText, toast, el, loadSeats, forgetGame, playerName, setPlayerName, ensureSession, currentSession,
  GAMES, GAME_TITLES, PALETTE, DEFAULT_COLOURS, t, joinNames, botLevel, ratedBadge, gameColour,
} from "./api.js";
import { formatDate, formatNumber, lang } from "./i18n.js";
import { mountAccount, setBaseTitle } from "./account.js";

const SEAT_CHOICES = [
  ["you", t("lobby.seat.you")],
  ["friend", t("lobby.seat.friend")],
  ["user", t("lobby.seat.user")],
  ["open", t("lobby.seat.open")],
  ["bot-easy", t("lobby.seat.bot", { level: t("bot.level.easy") })],
  ["bot-medium", t("lobby.seat.bot", { level: t("bot.level.medium") })],
  ["bot-hard", t("lobby.seat.bot", { level: t("bot.level.hard") })],
  ["bot-expert", t("lobby.seat.bot", { level: t("bot.level.expert") })],
];

// the games offered (those with a table in the browser; the first is chosen at first)
const PLAYABLE = GAMES.filter((g) => g.table);

const state = {
  game: PLAYABLE.length ? PLAYABLE[0].name : null,
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
    if (j < i) return t("lobby.colour_clash", { a: j + 1, b: i + 1, colour: look(chosen, i).name.toLowerCase() });
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
      id: `seat-colour-${i}`, class: "seat-colour", "aria-label": t("lobby.seat_colour", { n: i + 1 }),
      onchange: (e) => { state.colours[i] = e.target.value; renderSeats(); document.getElementById(`seat-colour-${i}`).focus(); },
    });
    for (const p of PALETTE) picker.appendChild(el("option", { value: p.id, selected: p.id === colour.id, text: p.name }));
    const select = el("select", { id: `seat-${i}`, "aria-label": t("lobby.seat_label", { n: i + 1, colour: colour.name }), onchange: (e) => { state.seats[i] = e.target.value; updateNote(); } });
    for (const [value, label] of SEAT_CHOICES) select.appendChild(el("option", { value, selected: state.seats[i] === value, text: label }));
    const user = el("input", { type: "text", id: `seat-user-${i}`, class: "seat-user", maxlength: 20, placeholder: t("lobby.username"), "aria-label": t("lobby.seat_username", { colour: colour.name }), hidden: state.seats[i] !== "user", value: (state.users || {})[i] || "", oninput: (e) => { state.users = state.users || {}; state.users[i] = e.target.value.trim(); } });
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
  if (!you) note = t("lobby.note.watch");
  else if (you > 1) note = t("lobby.note.several");
  if (friends) note += `${note ? " " : ""}${t("lobby.note.links", { count: friends })}`;
  // a chosen seed deals known cards: only for a table whose people are all you
  const others = chosen.some((s) => s === "friend" || s === "user" || s === "open");
  const seed = $("seed");
  if (seed) {
    seed.disabled = others;
    seed.title = others ? t("lobby.seed_refused") : "";
    if (others) seed.value = "";
  }
  $("start-note").textContent = note;
  checkRated();
}

/** A rated game needs a clock: said as soon as Rated and Untimed are both chosen, and Start waits. */
function checkRated() {
  const refused = $("rated").checked && !$("clock").value;
  const reason = $("rated-reason");
  reason.textContent = refused ? t("lobby.rated_needs_clock") : "";
  reason.hidden = !refused;
  $("start").disabled = refused;
  if (refused) $("start").setAttribute("aria-describedby", "rated-reason");
  else $("start").removeAttribute("aria-describedby");
}

function selectGame(game) {
  state.game = game;
  for (const b of document.querySelectorAll(".game-option")) {
    const on = b.dataset.game === game;
    b.classList.toggle("selected", on);
    b.setAttribute("aria-checked", String(on));
  }
  // the game's own setup form (none: a seed is its only choice, and none is offered)
  const form = forms.get(game);
  $("game-setup").replaceChildren(...(form ? [form.element] : []));
  // the numbers of players the game is for
  const type = GAMES.find((g) => g.name === game);
  if (!type) return;
  for (const b of document.querySelectorAll("#players button")) {
    b.hidden = Number(b.dataset.n) < type.min_players || Number(b.dataset.n) > type.max_players;
  }
  const players = Math.min(Math.max(state.players, type.min_players), type.max_players);
  if (players !== state.players) selectPlayers(players);
  updateNote();
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

// ------------------------------------------------------------------------------------------------
// The games: each offered by its own lobby module (its plugin's web_lobby: blurb(), art(), setupForm(seed))

// game name -> its lobby module (null: none, or it failed to load), once loaded
const parts = new Map();
// game name -> its setup form {element, read(seed)}
const forms = new Map();

// a seed field for the setup form of a game (each form its own, shown where the form puts it)
const seedField = () => el("label", { class: "seed-field" }, el("span", { text: t("lobby.seed") }), " ",
  el("input", { id: "seed", type: "number", min: "0", step: "1", placeholder: t("lobby.seed_any") }));

async function loadParts() {
  await Promise.all(GAMES.map(async (game) => {
    let part = null;
    if (game.lobby) {
      try {
        part = await import(`./${game.lobby}`);
      } catch (err) {
        part = null;  // the game is offered by its title alone
      }
    }
    parts.set(game.name, part);
    if (part && part.setupForm) forms.set(game.name, part.setupForm(seedField()));
  }));
}

/** The game's button in the game choice: its picture, title and line (a game with no table in the browser
 *  is shown, but cannot be chosen: its games are played through the API). */
function gameOption(game) {
  const part = parts.get(game.name) || {};
  const title = GAME_TITLES[game.name] || game.title;
  const art = part.art ? part.art() : el("span", {
    class: "game-art", "aria-hidden": "true", text: title.slice(0, 1),
    style: { background: gameColour(game.name), color: "#fff", display: "grid", placeItems: "center", fontWeight: "bold", fontSize: "1.6rem" },
  });
  const line = game.table ? (part.blurb ? part.blurb() : "") : t("lobby.no_table");
  const on = game.name === state.game;
  return el("button", {
    type: "button", class: `game-option${on ? " selected" : ""}`, "data-game": game.name, role: "radio",
    "aria-checked": String(on), disabled: !game.table, onclick: () => selectGame(game.name),
  }, art, el("span", { class: "game-option-text" }, el("b", { text: title }), line ? el("small", { text: line }) : null));
}

/** The setup of the new game: its form's (it throws an Error saying what is wrong), else the seed alone
 *  (a seed only where the chosen game's form shows the field). */
function readSetup() {
  const input = $("seed");
  const seedText = input ? input.value.trim() : "";
  const seed = seedText === "" ? undefined : Number(seedText);
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0)) throw new Error(t("lobby.seed_whole"));
  const form = forms.get(state.game);
  if (form) return form.read(seed);
  return seed === undefined ? undefined : { seed };
}

async function startGame() {
  const button = $("start");
  await ready;
  if (!state.game) {
    toast(t("lobby.no_game"));
    return;
  }
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
        if (!user) throw new Error(t("lobby.type_username", { colour: look(state.colours, i).name }));
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
    checkRated();
  }
}

function fullLink(link) {
  return link.startsWith("http") ? link : `${location.origin}${link}`;
}

function showLinks(created, seats, target) {
  const dialog = el("dialog", { class: "invite-dialog", id: "invite-dialog" });
  dialog.appendChild(el("h3", { text: t("lobby.invite_title") }));
  dialog.appendChild(el("p", { class: "muted small", text: t("lobby.invite_text") }));
  for (const s of seats) {
    const link = fullLink(s.invite);
    dialog.appendChild(el("div", { class: "invite-row" },
      el("span", { class: "seat-chip", style: chipStyle(look(state.colours, s.seat)) }, look(state.colours, s.seat).name),
      el("input", { type: "text", readonly: true, value: link, class: "link-input", "data-seat": s.seat }),
      el("button", { class: "btn small", onclick: () => copyText(link) }, t("common.copy"))));
  }
  dialog.appendChild(el("div", { class: "form-row" }, el("a", { class: "btn btn-primary", href: target, id: "go-to-table" }, t("lobby.go_to_table"))));
  document.body.appendChild(dialog);
  dialog.showModal();
}

// ------------------------------------------------------------------------------------------------
// Lists

function seatChips(summary, mySeats = []) {
  const box = el("span", { class: "seat-chips" });
  for (const s of summary.seats || []) {
    let label;
    if (s.type === "bot") label = s.level ? t("lobby.chip.bot", { level: t(`bot.level.${s.level}`) }) : t("seat.bot_lower");
    else if (mySeats.includes(s.seat)) label = t("lobby.chip.you");
    else if (s.open && !s.claimed) label = t("lobby.chip.open");
    else label = s.name || t("lobby.chip.player");
    if (s.guest && s.type !== "bot" && !mySeats.includes(s.seat)) label = t("seat.guest_named", { name: label });
    const chip = el("span", { class: `seat-chip small${s.connected ? " online" : ""}`, style: chipStyle(look(summary.colours, s.seat)), title: t(s.connected ? "lobby.chip.title_online" : "lobby.chip.title", { colour: look(summary.colours, s.seat).name, label }) }, label);
    box.appendChild(chip);
  }
  return box;
}

function resultText(summary) {
  const r = summary.result;
  if (!r || !r.players) return "";
  const scores = r.players.map((p) => `${look(summary.colours, p.seat).name} ${formatNumber(p.total)}`).join(" · ");
  const winners = joinNames((r.winners || []).map((w) => look(summary.colours, w).name));
  return `${winners ? `${t("lobby.won", { names: winners })} ` : ""}${scores}`;
}

/** The time left on the clock of the player to move: in words for a turn-based clock ("2 days left"),
 *  as minutes and seconds for a live one ("4:05 left"). */
function timeLeft(deadline, kind) {
  const seconds = Math.max(0, deadline - Date.now() / 1000);
  if (kind === "live") {
    const s = Math.floor(seconds);
    const h = Math.floor(s / 3600);
    const ms = `${String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
    return t("lobby.time_left", { time: h ? `${h}:${ms}` : ms });
  }
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, s]) => seconds >= s) || units[units.length - 1];
  const amount = Math.floor(seconds / size);
  const words = new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(amount);
  return t("lobby.time_left", { time: words });
}

function when(iso) {
  if (!iso) return "";
  const d = typeof iso === "number" ? new Date(iso < 1e12 ? iso * 1000 : iso) : new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return formatDate(d);
}

/** The name of the player to move in a game's row ("Mallory (guest)", "Blue bot (easy)"). */
function moverName(summary) {
  const s = (summary.seats || []).find((x) => x.seat === summary.to_move);
  if (!s) return "";
  const colour = look(summary.colours, s.seat).name;
  if (s.type === "bot") return t("seat.colour_bot", { colour, level: botLevel(s.level) });
  const name = s.name || s.user || colour;
  return s.guest ? t("seat.guest_named", { name }) : name;
}

function gameRow(summary, { actions = [], mySeats = [], note = "" } = {}) {
  const title = GAME_TITLES[summary.game] || summary.game;
  // a seat of yours a bot now plays (you left the game) is not your turn
  const yourTurn = summary.status !== "finished" && mySeats.includes(summary.to_move)
    && summary.seats?.[summary.to_move]?.type !== "bot";
  const going = summary.status !== "finished";
  const status = summary.status === "finished" ? t("lobby.status.finished") : yourTurn ? t("lobby.status.your_turn") : summary.status === "open" ? t("lobby.status.waiting") : t("lobby.status.turn", { turn: summary.turn ?? "" });
  // a game going on says whose turn it is, the time left on their clock and the kind of clock
  const mover = going && !yourTurn && summary.to_move !== null && summary.to_move !== undefined ? moverName(summary) : "";
  return el("li", { class: `game-row${yourTurn ? " your-turn" : ""}`, "data-id": summary.id },
    el("div", { class: "game-row-main" },
      el("b", { text: summary.name || title }),
      summary.name && summary.name !== title ? el("span", { class: "muted small", text: ` ${title}` }) : null,
      summary.rated ? ratedBadge() : null,
      el("div", { class: "small" }, seatChips(summary, mySeats), " ", el("span", { class: `status status-${summary.status}`, text: status }),
        mover ? el("span", { class: "to-move", text: ` · ${t("lobby.to_move", { name: mover })}` }) : null,
        note ? el("span", { class: "muted", text: ` ${note}` }) : null,
        summary.deadline && going
          ? el("span", { class: "deadline", "data-deadline": String(summary.deadline), "data-kind": summary.clock_kind || "", text: ` · ${timeLeft(summary.deadline, summary.clock_kind)}` }) : null,
        going ? el("span", { class: "clock-kind muted", text: ` · ${t(`lobby.clock_kind.${summary.clock_kind || "none"}`)}` }) : null,
        summary.created ? el("span", { class: "muted", text: ` · ${when(summary.created)}` }) : null)),
    el("div", { class: "game-row-actions" }, ...actions));
}

// the time left in the rows goes down as the page stays open (a live clock by the second)
function tickDeadlines() {
  for (const span of document.querySelectorAll(".deadline[data-deadline]")) {
    span.textContent = ` · ${timeLeft(Number(span.dataset.deadline), span.dataset.kind)}`;
  }
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
          ? [el("a", { class: "btn small", href: `/replay/${encodeURIComponent(summary.id)}` }, t("common.replay")), el("a", { class: "btn small", href: link }, t("lobby.table"))]
          : [el("a", { class: "btn small btn-primary", href: link }, summary.waiting ? t("lobby.play_now") : summary.my_seats.length ? t("lobby.open") : t("lobby.watch"))];
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
    const forget = el("button", { class: "btn small ghost", title: t("lobby.forget_title"), onclick: () => { forgetGame(id); loadMine(); } }, t("lobby.forget"));
    try {
      const summary = await api(`/api/games/${encodeURIComponent(id)}`);
      const actions = summary.status === "finished"
        ? [el("a", { class: "btn small", href: `/replay/${encodeURIComponent(id)}` }, t("common.replay")), el("a", { class: "btn small", href: link }, t("lobby.table")), forget]
        : [el("a", { class: "btn small btn-primary", href: link }, summary.to_move !== null && mySeats.includes(summary.to_move) ? t("lobby.play_now") : t("lobby.open")), forget];
      return gameRow(summary, { actions, mySeats, note: summary.status === "finished" ? resultText(summary) : "" });
    } catch (err) {
      return el("li", { class: "game-row gone" }, el("div", { class: "game-row-main" }, el("b", { text: GAME_TITLES[entry.game] || t("lobby.game") }), el("div", { class: "muted small", text: err.message })), el("div", { class: "game-row-actions" }, forget));
    }
  })));
  if (!rows.length) rows.push(el("li", { class: "muted", text: t("lobby.my_games_empty") }));
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
  for (const { name: game } of GAMES) {
    const list = $(`leaderboard-${game}`);
    try {
      const leaders = await api(`/api/leaderboard/${game}`);
      list.replaceChildren(...(leaders.length ? leaders.slice(0, 10).map((p) => el("li", { "data-user": p.username },
        el("a", { href: `/players/${encodeURIComponent(p.username)}`, text: p.username }),
        el("span", { class: "muted small", text: ` ${t("lobby.rating_line", { rating: `${formatNumber(p.rating, { maximumFractionDigits: 0, useGrouping: false })}${p.provisional ? "?" : ""}`, count: p.games })}` })))
        : [el("li", { class: "muted empty", text: t("lobby.no_rated") })]));
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
    const actions = free.map((s) => el("button", { class: "btn small btn-primary join", "data-seat": s.seat, onclick: () => join(summary, s.seat) }, t("lobby.join_as", { colour: look(summary.colours, s.seat).name })));
    actions.push(el("a", { class: "btn small", href: `/play/${encodeURIComponent(summary.id)}` }, t("lobby.watch")));
    return gameRow(summary, { actions, mySeats });
  }, t("lobby.no_open"));
  loadList("running", "running-games", (summary, mySeats) => gameRow(summary, {
    actions: [el("a", { class: "btn small", href: `/play/${encodeURIComponent(summary.id)}` }, t("lobby.watch"))], mySeats,
  }), t("lobby.no_running"));
  loadList("finished", "finished-games", (summary, mySeats) => gameRow(summary, {
    actions: [el("a", { class: "btn small", href: `/replay/${encodeURIComponent(summary.id)}` }, t("common.replay"))], mySeats, note: resultText(summary),
  }), t("lobby.no_finished"));
}

// ------------------------------------------------------------------------------------------------

/** The games in the page's title, the top bar and the leaderboards (from the server's list of games). */
function showGames() {
  const titles = joinNames(GAMES.map((g) => GAME_TITLES[g.name]));
  setBaseTitle(titles ? t("page.lobby.title", { games: titles }) : "Builders");
  $("lobby-subtitle").textContent = titles;
  $("leaderboards").replaceChildren(...GAMES.flatMap((g) => [
    el("div", { class: "form-row" }, el("b", { text: GAME_TITLES[g.name] })),
    el("ol", { class: "leaderboard", id: `leaderboard-${g.name}` }, el("li", { class: "muted empty", text: t("common.loading") })),
  ]));
}

// the games' lobby modules are loaded: the game choice and the chosen game's setup form are shown
const ready = loadParts().then(() => {
  const choice = $("game-choice");
  if (PLAYABLE.length) {
    choice.setAttribute("role", "radiogroup");
    choice.setAttribute("aria-label", t("lobby.game"));
    choice.replaceChildren(...GAMES.map(gameOption));
  } else {
    choice.replaceChildren(el("p", { class: "muted", text: t("lobby.no_game") }));
  }
  if (state.game) selectGame(state.game);
});

function init() {
  mountAccount();
  $("your-name").value = playerName();
  showGames();
  // the numbers of players answer once their handlers are on (before, a click did nothing)
  for (const b of document.querySelectorAll("#players button")) {
    b.addEventListener("click", () => selectPlayers(Number(b.dataset.n)));
    b.disabled = false;
  }
  $("start").addEventListener("click", startGame);
  // why Start is disabled, under the row of Start (said at once: role alert)
  $("start").closest(".start-row").after(el("p", { class: "error-text small rated-reason", id: "rated-reason", role: "alert", hidden: true }));
  $("rated").addEventListener("change", checkRated);
  $("clock").addEventListener("change", checkRated);
  setInterval(tickDeadlines, 1000);
  // the top bar's count changed (a move in a game of yours): "Your games" follows at once
  let waitingKey = null;
  document.addEventListener("builders:waiting", (event) => {
    const key = event.detail.map((g) => g.id).join(",");
    if (waitingKey !== null && key !== waitingKey) loadMine();
    waitingKey = key;
  });
  renderSeats();
  refreshLists();
  setInterval(() => {
    if (document.visibilityState === "visible") refreshLists();
  }, 15000);
}

init();
