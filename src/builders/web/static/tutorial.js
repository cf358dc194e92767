// The first-game walkthrough: a guided game against an easy bot, with a hint for each step of a first turn.
// The hints follow the table (each step ends by itself when the player has done it); they can be skipped,
// and replayed from the "Guide" button of the table.

import { api, el, ensureSession, toast } from "./api.js";

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

const terrainWords = { flower: "flower field" };
const word = (t) => terrainWords[t] || t;

// how many turns this seat has ended so far
function ends(view) {
  return (view.log || []).filter((e) => e.seat === view.seat && e.action === "end").length;
}

function kbMe(view) {
  return view.view && view.view.players ? view.view.players[view.seat] || {} : {};
}

const KINGDOM_STEPS = [
  {
    title: "Welcome to Kingdom Builder",
    text: () => "You play Red against an easy bot, on the recommended first map. Everyone builds settlements; at the end, gold comes from the three cards on the right (and from castles). These hints follow your first turns; skip them whenever you like.",
    next: true,
  },
  {
    title: "Your terrain card",
    text: (view) => `Your card this turn is ${word(kbMe(view).terrain) || "shown on the right"}. Each turn you build 3 settlements on that terrain, and the card changes every turn.`,
    point: "#my-card",
    next: true,
  },
  {
    title: "Build",
    text: () => "The hexes you may build on have a dark outline. Click one (or press Tab to reach the map, the arrows to move and Enter to build).",
    point: "#kb-map",
    done: (view) => (view.view.built_this_turn || 0) >= 1 || ends(view) > 0,
  },
  {
    title: "Next to your own",
    text: () => "See how the outlines moved? A new settlement must go next to one of yours whenever it can. Build two more: the banner counts them.",
    point: "#kb-map",
    done: (view) => (view.legal || []).includes("end") || ends(view) > 0,
  },
  {
    title: "Location tiles",
    text: (view) => {
      const tiles = kbMe(view).tiles || [];
      return tiles.length
        ? `You took the ${tiles[0].kind} tile by building next to its location! A tile gives an extra move each turn, from your next turn on (dashed means "taken this turn"). Press "?" beside it to read what it does.`
        : "The round pictures on the map are locations. Build next to one and you take its tile: an extra move every turn. Aim for one next turn!";
    },
    point: "#player-0 .tiles",
    next: true,
  },
  {
    title: "End the turn",
    text: () => "Press End turn (or the E key). Changed your mind before that? Undo (Z) takes back one move, Restart turn all of them. The bot then plays; its moves light up one by one.",
    point: "#end-btn",
    done: (view) => ends(view) > 0,
  },
  {
    title: "Use a tile",
    text: (view) => {
      const ready = (kbMe(view).tiles || []).filter((t) => t.state === "ready");
      return ready.length
        ? `Your ${ready[0].kind} tile glows: click it (or press 1), then one of the hexes it outlines. Tiles can be used before or after your three builds.`
        : "Your turn again, with a new card. No tile yet: build next to a location (a round picture) to take one, then use it from the next turn.";
    },
    point: "#player-0 .tiles",
    done: (view) => ends(view) > 1 || (view.to_move === view.seat && ends(view) === 1
      && ((kbMe(view).tiles || []).some((t) => t.state === "used") || (view.legal || []).includes("end"))),
  },
  {
    title: "Read the score",
    text: () => "The table on the right gives the gold each card would pay if the game ended now; the Total row decides. The game ends when someone has built all 40 settlements. Good luck!",
    point: "#running-scores",
    next: true,
    last: true,
  },
];

const BUILDERS_STEPS = [
  {
    title: "Welcome to The Builders",
    text: () => "Finish buildings to score victory points (VP); the first to 17 VP ends the game. Each turn you have 3 actions, and every button shows its price before you click.",
    next: true,
  },
  {
    title: "Open a site",
    text: () => "Click Open under a building: it becomes one of your sites. Look at what it needs (stone, wood, knowledge, tile).",
    point: "#building-row",
    done: (view) => ((view.view.players[view.seat] || {}).sites || []).length > 0,
  },
  {
    title: "Send a worker",
    text: () => "Click a worker of your crew (outlined in yellow), then Send here on your site. You pay the worker's coins; a second worker on the same site in one turn costs 2 actions.",
    point: "#my-crew",
    // a worker on a site, or a building the worker finished at once (its crew came back)
    done: (view) => {
      const me = view.view.players[view.seat] || {};
      return (me.sites || []).some((s) => (s.workers || []).length) || (me.completed || []).length > 0 || ends(view) > 0;
    },
  },
  {
    title: "Recruit and take coins",
    text: () => "Recruit hires a new worker (free to take); the coin buttons turn actions into coins. When no action is left, end your turn.",
    point: "#action-bar",
    done: (view) => ends(view) > 0,
  },
  {
    title: "Read the score",
    text: () => "The score table shows VP so far. A site is complete when its workers bring everything it needs: you get its coins and VP, and the workers come back.",
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
    toast("Guide closed. The Guide button at the top brings it back.", "info", 3500);
  }

  update(view) {
    this.view = view;
    const st = this.state;
    if (!st || !st.on || view.seat === null || view.seat === undefined) {
      this.hide();
      return;
    }
    if (view.result) {
      this.finish("The game is over: the final score is on the right, and the Replay button shows it again step by step.");
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
    const next = el("button", { type: "button", class: "btn btn-primary", id: "guide-next", onclick: () => this.advance() }, step.last ? "Finish" : "Next");
    const small = Boolean(st.small);
    const box = el("aside", { class: `guide${small ? " minimised" : ""}`, id: "guide", role: "region", "aria-label": "First-game guide", "data-step": k },
      el("div", { class: "guide-top" },
        el("span", { class: "guide-step", text: `Guide · step ${k + 1} of ${steps.length}` }),
        el("button", {
          type: "button", class: "btn small ghost", id: "guide-fold", "aria-expanded": String(!small),
          onclick: () => { this.state = { ...this.state, small: !small }; this.show(); },
        }, small ? "Show" : "Fold")),
      el("h3", { id: "guide-title", text: step.title }),
      el("p", { id: "guide-text", text: step.text(this.view) }),
      el("div", { class: "dialog-buttons guide-more" },
        el("button", { type: "button", class: "btn", id: "guide-skip", onclick: () => this.skip() }, "Skip the guide"),
        step.next ? next : el("span", { class: "muted small", text: "Do it on the table: the guide follows." })));
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
      this.finish("That is all the guide has to say: play on, and open the rules (top bar) whenever you wonder about a card or a tile.");
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
