// The first-game walkthrough: a guided game against an easy bot, with a hint for each step of a first turn.
// The hints follow the table (each step ends by itself when the player has done it); they can be skipped,
// and replayed from the "Guide" button of the table.

import { api, el, ensureSession, joinNames, seatName, toast, t, SEAT_NAMES } from "./api.js";
import { cardName, terrainIn, tileName } from "./kingdom.js";

const KEY = "builders.guide";
// the first game of each game started from "First game": {game: {id, link}}, reopened while unfinished
const FIRST_KEY = "builders.firstGame";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (err) {
    return {};
  }
}

function save(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (err) {
    /* private mode: the guide lasts for this page */
  }
}

function firstGames() {
  try {
    return JSON.parse(localStorage.getItem(FIRST_KEY) || "{}") || {};
  } catch (err) {
    return {};
  }
}

// The first game of ``game`` this browser started and has not finished (null: none, or gone).
async function unfinishedFirstGame(game) {
  const kept = firstGames()[game];
  if (!kept || !kept.id || !kept.link) return null;
  try {
    const summary = await api(`/api/games/${encodeURIComponent(kept.id)}`);
    if (summary.result || ["finished", "aborted"].includes(summary.status)) return null;
    return kept;
  } catch (err) {
    return null;  // gone (or no longer this browser's)
  }
}

// Starts a guided game (the recommended first setup against an easy bot) and opens its table: a
// private one (no other player needs to see it in the lobby), and the same one again while it is
// unfinished.
export async function startGuidedGame(game = "kingdom") {
  await ensureSession();
  const open = await unfinishedFirstGame(game);
  if (open) {
    location.href = open.link;
    return;
  }
  const body = { game, private: true, seats: [{ type: "human" }, { type: "bot", level: "easy" }] };
  if (game === "kingdom") body.setup = { mode: "first" };
  const created = await api("/api/games", { method: "POST", body });
  const all = load();
  all[created.id] = { step: 0, on: true, first: true };
  save(all);
  const me = (created.seats || []).find((s) => s.seat === 0) || {};
  const link = `/play/${encodeURIComponent(created.id)}${me.token ? `#seat=0&token=${encodeURIComponent(me.token)}` : ""}`;
  try {
    localStorage.setItem(FIRST_KEY, JSON.stringify({ ...firstGames(), [game]: { id: created.id, link } }));
  } catch (err) {
    /* private mode: the next click makes a new first game */
  }
  location.href = link;
}

// ------------------------------------------------------------------------------------------------
// The steps. Each: title, text(view, ctx), done(view, ctx) -> true once the player did it (or null: a
// "Next" button), and the selector of what to point at.


// how many turns this seat has ended so far
function ends(view) {
  return (view.log || []).filter((e) => e.seat === view.seat && e.action === "end").length;
}

function kbMe(view) {
  return view.view && view.view.players ? view.view.players[view.seat] || {} : {};
}

const KINGDOM_STEPS = [
  {
    title: () => t("guide.kb.welcome.title"),
    text: () => t("guide.kb.welcome"),
    next: true,
  },
  {
    title: () => t("guide.kb.card.title"),
    text: (view) => t("guide.kb.card", { card: kbMe(view).terrain ? terrainIn(kbMe(view).terrain) : t("guide.kb.card.shown") }),
    point: "#my-card",
    next: true,
  },
  {
    title: () => t("guide.kb.build.title"),
    text: () => t("guide.kb.build"),
    point: "#kb-map",
    done: (view) => (view.view.built_this_turn || 0) >= 1 || ends(view) > 0,
  },
  {
    title: () => t("guide.kb.next.title"),
    text: () => t("guide.kb.next"),
    point: "#kb-map",
    done: (view) => (view.legal || []).includes("end") || ends(view) > 0,
  },
  {
    title: () => t("guide.kb.tiles.title"),
    text: (view) => {
      const tiles = kbMe(view).tiles || [];
      return tiles.length ? t("guide.kb.tiles.took", { tile: tileName(tiles[0].kind) }) : t("guide.kb.tiles.none");
    },
    point: "#player-0 .tiles",
    next: true,
  },
  {
    title: () => t("guide.kb.end.title"),
    text: () => t("guide.kb.end"),
    point: "#end-btn",
    done: (view) => ends(view) > 0,
  },
  {
    title: () => t("guide.kb.use.title"),
    text: (view) => {
      const ready = (kbMe(view).tiles || []).filter((tile) => tile.state === "ready");
      return ready.length ? t("guide.kb.use.ready", { tile: tileName(ready[0].kind) }) : t("guide.kb.use.none");
    },
    point: "#player-0 .tiles",
    done: (view) => ends(view) > 1 || (view.to_move === view.seat && ends(view) === 1
      && ((kbMe(view).tiles || []).some((tile) => tile.state === "used") || (view.legal || []).includes("end"))),
  },
  {
    title: () => t("guide.kb.score.title"),
    text: () => t("guide.kb.score"),
    point: "#running-scores",
    next: true,
    last: true,
  },
];

const BUILDERS_STEPS = [
  {
    title: () => t("guide.ma.welcome.title"),
    text: () => t("guide.ma.welcome"),
    next: true,
  },
  {
    title: () => t("guide.ma.open.title"),
    text: () => t("guide.ma.open"),
    point: "#building-row",
    done: (view) => ((view.view.players[view.seat] || {}).sites || []).length > 0,
  },
  {
    title: () => t("guide.ma.send.title"),
    text: () => t("guide.ma.send"),
    point: "#my-crew",
    // a worker on a site, or a building the worker finished at once (its crew came back)
    done: (view) => {
      const me = view.view.players[view.seat] || {};
      return (me.sites || []).some((s) => (s.workers || []).length) || (me.completed || []).length > 0 || ends(view) > 0;
    },
  },
  {
    title: () => t("guide.ma.recruit.title"),
    text: () => t("guide.ma.recruit"),
    point: "#action-bar",
    done: (view) => ends(view) > 0,
  },
  {
    title: () => t("guide.kb.score.title"),
    text: () => t("guide.ma.score"),
    point: "#running-scores",
    next: true,
    last: true,
  },
];

// -- the guide of any other game: this game's parts, what to do now, the score ---------------------

function others(view) {
  const seats = (view.view.players || []).map((p, i) => p.seat ?? i).filter((s) => s !== view.seat);
  return joinNames(seats.map((s) => seatName(view.seats, s, view.seat)));
}

function myTurn(view) {
  return view.to_move === view.seat && !view.result;
}

function waitText(view) {
  return t("guide.now.wait", { name: seatName(view.seats, view.to_move, view.seat) });
}

const KINGDOM_GAME_STEPS = [
  {
    title: () => t("guide.game.title"),
    text: (view) => {
      const kinds = [...new Set([...document.querySelectorAll("#kb-map .location")].map((e) => e.dataset.kind))];
      return t("guide.kb.game", {
        colour: SEAT_NAMES[view.seat], others: others(view),
        cards: joinNames((view.view.cards || []).map(cardName)), tiles: joinNames(kinds.map(tileName)),
      });
    },
    point: "#running-scores",
    next: true,
  },
  {
    title: () => t("guide.now.title"),
    text: (view) => {
      if (!myTurn(view)) return waitText(view);
      const left = 3 - (view.view.built_this_turn || 0);
      const me = kbMe(view);
      if (left > 0 && me.terrain) return t("guide.kb.now.build", { count: left, terrain: terrainIn(me.terrain) });
      return t("guide.kb.now.end");
    },
    point: "#kb-map",
    next: true,
  },
  { ...KINGDOM_STEPS[KINGDOM_STEPS.length - 1] },
];

const BUILDERS_GAME_STEPS = [
  {
    title: () => t("guide.game.title"),
    text: (view) => {
      const me = view.view.players[view.seat] || {};
      return t("guide.ma.game", { colour: SEAT_NAMES[view.seat], others: others(view), vp: me.vp ?? 0, coins: t("ma.coins", { count: me.coins ?? 0 }) });
    },
    point: "#building-row",
    next: true,
  },
  {
    title: () => t("guide.now.title"),
    text: (view) => {
      if (!myTurn(view)) return waitText(view);
      const left = view.view.actions_left;
      const me = view.view.players[view.seat] || {};
      const actions = t("ma.actions", { count: left });
      if (!left) return t("guide.ma.now.end");
      if (!(me.sites || []).length) return t("guide.ma.now.open", { actions });
      if ((view.legal || []).some((a) => a.startsWith("send "))) return t("guide.ma.now.send", { actions });
      return t("guide.ma.now.other", { actions });
    },
    point: "#action-bar",
    next: true,
  },
  { ...BUILDERS_STEPS[BUILDERS_STEPS.length - 1] },
];

export class Guide {
  constructor(gameId) {
    this.gameId = gameId;
    this.box = null;
    this.view = null;
  }

  get state() {
    return load()[this.gameId] || null;
  }

  set state(value) {
    const all = load();
    if (value) all[this.gameId] = value;
    else delete all[this.gameId];
    save(all);
  }

  // the first-game walkthrough only in a game started as a first game; in any other the guide to it
  steps() {
    const first = Boolean((this.state || {}).first);
    if (this.view && this.view.game === "kingdom") return first ? KINGDOM_STEPS : KINGDOM_GAME_STEPS;
    return first ? BUILDERS_STEPS : BUILDERS_GAME_STEPS;
  }

  // from the table's "Guide" button: start again from the first step
  restart() {
    this.state = { step: 0, on: true, first: Boolean((this.state || {}).first) };
    this.show();
  }

  skip() {
    this.state = { ...(this.state || {}), on: false };
    this.hide();
    toast(t("guide.closed"), "info", 3500);
  }

  update(view) {
    this.view = view;
    const st = this.state;
    if (!st || !st.on || view.seat === null || view.seat === undefined) {
      this.hide();
      return;
    }
    if (view.result) {
      this.finish(t("guide.over"));
      return;
    }
    // steps done by the player move on by themselves
    const steps = this.steps();
    let step = st.step;
    while (step < steps.length && steps[step].done && steps[step].done(view)) step += 1;
    if (step >= steps.length) step = steps.length - 1;
    if (step !== st.step) this.state = { ...st, step };
    this.show();
  }

  show() {
    const st = this.state;
    const steps = this.steps();
    if (!st || !this.view) return;
    const k = Math.min(st.step, steps.length - 1);
    const step = steps[k];
    const next = el("button", { type: "button", class: "btn btn-primary", id: "guide-next", onclick: () => this.advance() }, step.last ? t("guide.finish") : t("guide.next"));
    const small = Boolean(st.small);
    const box = el("aside", { class: `guide${small ? " minimised" : ""}`, id: "guide", role: "region", "aria-label": t(st.first ? "guide.label" : "guide.label_game"), "data-step": k, "data-first": st.first ? "1" : "0" },
      el("div", { class: "guide-top" },
        el("span", { class: "guide-step", text: t("guide.step", { n: k + 1, of: steps.length }) }),
        el("button", {
          type: "button", class: "btn small ghost", id: "guide-fold", "aria-expanded": String(!small),
          onclick: () => { this.state = { ...this.state, small: !small }; this.show(); },
        }, small ? t("guide.show") : t("guide.fold"))),
      el("h3", { id: "guide-title", text: step.title() }),
      el("p", { id: "guide-text", text: step.text(this.view) }),
      el("div", { class: "dialog-buttons guide-more" },
        el("button", { type: "button", class: "btn", id: "guide-skip", onclick: () => this.skip() }, t("guide.skip")),
        step.next ? next : el("span", { class: "muted small", text: t("guide.follows") })));
    // in the page's flow above the table, never over it: it covers no control
    const focused = this.box && this.box.contains(document.activeElement) ? document.activeElement.id : null;
    const table = document.getElementById("table");
    if (this.box && this.box.isConnected) this.box.replaceWith(box);
    else if (table) table.before(box);
    else document.body.appendChild(box);
    this.box = box;
    const again = focused && (box.querySelector(`#${focused}`) || box.querySelector("button"));
    if (again) again.focus({ preventScroll: true });
    for (const old of document.querySelectorAll(".guide-point")) old.classList.remove("guide-point");
    const target = step.point && document.querySelector(step.point);
    if (target) target.classList.add("guide-point");
  }

  advance() {
    const st = this.state || { step: 0, on: true };
    const steps = this.steps();
    if (st.step >= steps.length - 1) {
      this.finish(t("guide.all"));
      return;
    }
    this.state = { ...st, step: st.step + 1 };
    this.update(this.view);
  }

  finish(text) {
    this.state = { step: this.steps().length, on: false, done: true, first: Boolean((this.state || {}).first) };
    this.hide();
    toast(text, "info", 5000);
  }

  hide() {
    if (this.box) this.box.remove();
    this.box = null;
    for (const old of document.querySelectorAll(".guide-point")) old.classList.remove("guide-point");
  }
}
