// The first-game walkthrough: a guided game against an easy bot, with a hint for each step of a first turn.
// The hints follow the table (each step ends by itself when the player has done it); they can be skipped,
// and replayed from the "Guide" button of the table.

import { api, el, ensureSession, toast, t } from "./api.js";
import { terrainIn, tileName } from "./kingdom.js";

const KEY = "builders.guide";

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

// Starts a guided game (the recommended first setup against an easy bot) and opens its table.
export async function startGuidedGame(game = "kingdom") {
  const body = { game, seats: [{ type: "human" }, { type: "bot", level: "easy" }] };
  if (game === "kingdom") body.setup = { mode: "first" };
  await ensureSession();
  const created = await api("/api/games", { method: "POST", body });
  const all = load();
  all[created.id] = { step: 0, on: true };
  save(all);
  const me = (created.seats || []).find((s) => s.seat === 0) || {};
  location.href = `/play/${encodeURIComponent(created.id)}${me.token ? `#seat=0&token=${encodeURIComponent(me.token)}` : ""}`;
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

  steps() {
    return this.view && this.view.game === "kingdom" ? KINGDOM_STEPS : BUILDERS_STEPS;
  }

  // from the table's "Guide" button: start again from the first step
  restart() {
    this.state = { step: 0, on: true };
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
    const box = el("aside", { class: `guide${small ? " minimised" : ""}`, id: "guide", role: "region", "aria-label": t("guide.label"), "data-step": k },
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
    if (this.box) this.box.replaceWith(box);
    else document.body.appendChild(box);
    this.box = box;
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
    this.state = { step: this.steps().length, on: false, done: true };
    this.hide();
    toast(text, "info", 5000);
  }

  hide() {
    if (this.box) this.box.remove();
    this.box = null;
    for (const old of document.querySelectorAll(".guide-point")) old.classList.remove("guide-point");
  }
}
