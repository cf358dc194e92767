// The first-game walkthrough: a guided game against an easy bot, with a hint for each step of a first turn.
// The hints follow the table (each step ends by itself when the player has done it); they can be skipped,
// and replayed from the "Guide" button of the table.

import { api, el, ensureSession, toast, t } from "./api.js";

// the guides' modules (each game's plugin names its own, web_guide), each loaded once
const guides = new Map();

function loadGuide(name) {
  if (!guides.has(name)) guides.set(name, import(`./${name}`));
  return guides.get(name);
}

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

// This account's first game of ``game`` still going on (null: none): kept by the server, so it is the
// same game on every browser of the person (a guest is an account too).
async function firstGameGoingOn(game) {
  return (await api(`/api/account/first-game/${encodeURIComponent(game)}`)).id;
}

// Starts a guided game (the recommended first setup against an easy bot) and opens its table: a
// private one (no other player needs to see it in the lobby), and the same one again while it is
// unfinished, from any browser of the person.
export async function startGuidedGame(game) {
  await ensureSession();
  const going = await firstGameGoingOn(game);
  if (going) {
    location.href = `/play/${encodeURIComponent(going)}`;
    return;
  }
  const body = { game, private: true, first_game: true, seats: [{ type: "human" }, { type: "bot", level: "easy" }] };
  const type = (await api("/api/game-types")).find((g) => g.name === game);
  const first = type && type.guide ? (await loadGuide(type.guide)).FIRST_SETUP : null;
  if (first) body.setup = first;
  let created;
  try {
    created = await api("/api/games", { method: "POST", body });
  } catch (err) {
    // started meanwhile on another browser of the person: that one
    const made = err.status === 409 ? await firstGameGoingOn(game) : null;
    if (!made) throw err;
    location.href = `/play/${encodeURIComponent(made)}`;
    return;
  }
  const all = load();
  all[created.id] = { step: 0, on: true, first: true };
  save(all);
  location.href = `/play/${encodeURIComponent(created.id)}`;
}

// ------------------------------------------------------------------------------------------------
// The steps. Each: title, text(view, ctx), done(view, ctx) -> true once the player did it (or null: a
// "Next" button), and the selector of what to point at.


export class Guide {
  constructor(gameId) {
    this.gameId = gameId;
    this.box = null;
    this.view = null;
    this.module = null;  // the game's guide module, once loaded
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

  // a game started as a first game (the server says so: on any browser of the person)
  get first() {
    return Boolean((this.view && this.view.first_game) || (this.state || {}).first);
  }

  // the first-game walkthrough only in a game started as a first game; in any other the guide to it
  steps() {
    if (!this.module) return [];
    return this.first ? this.module.FIRST_STEPS : this.module.GAME_STEPS;
  }

  // from the table's "Guide" button: start again from the first step
  restart() {
    this.state = { step: 0, on: true, first: this.first };
    if (this.view) this.update(this.view);
  }

  skip() {
    this.state = { ...(this.state || {}), on: false };
    this.hide();
    toast(t("guide.closed"), "info", 3500);
  }

  update(view) {
    this.view = view;
    // a first game opened on a browser that has not shown its guide yet: the walkthrough starts here too
    if (!this.state && view.first_game && view.seat !== null && view.seat !== undefined && !view.result) {
      this.state = { step: 0, on: true, first: true };
    }
    const st = this.state;
    if (!st || !st.on || view.seat === null || view.seat === undefined || !view.guide) {
      this.hide();
      return;
    }
    if (!this.module) {  // its game's guide loads first, then the latest view is shown
      loadGuide(view.guide).then((module) => {
        this.module = module;
        if (this.view) this.update(this.view);
      });
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
    if (!st || !this.view || !steps.length) return;
    const k = Math.min(st.step, steps.length - 1);
    const step = steps[k];
    const next = el("button", { type: "button", class: "btn btn-primary", id: "guide-next", onclick: () => this.advance() }, step.last ? t("guide.finish") : t("guide.next"));
    const small = Boolean(st.small);
    const box = el("aside", { class: `guide${small ? " minimised" : ""}`, id: "guide", role: "region", "aria-label": t(this.first ? "guide.label" : "guide.label_game"), "data-step": k, "data-first": this.first ? "1" : "0" },
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
    this.state = { step: this.steps().length, on: false, done: true, first: this.first };
    this.hide();
    toast(text, "info", 5000);
  }

  hide() {
    if (this.box) this.box.remove();
    this.box = null;
    for (const old of document.querySelectorAll(".guide-point")) old.classList.remove("guide-point");
  }
}
