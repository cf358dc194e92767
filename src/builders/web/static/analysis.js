// Hints at the table and the post-game analysis board of the replay page.
//
// A hint (POST /api/games/{id}/hint) names the move the hard bot would play for the seat to move and
// its win chance; markMove() draws a move on the table (by what the game's table offers: hexes outlined
// on a map, cards and action buttons marked). The analysis board (GET/POST
// /api/games/{id}/analysis) shows the progress of a running analysis, then a win-chance graph per
// player (click a point to jump the replay there), the labelled moves with the better move, and a
// summary per player.

import { api, el, svg, toast, SEAT_COLOURS, SEAT_NAMES, t } from "./api.js";
import { formatNumber } from "./i18n.js";

const LABEL_WORDS = { inaccuracy: t("analysis.label.inaccuracy"), mistake: t("analysis.label.mistake"), blunder: t("analysis.label.blunder") };
const labelIn = (label) => t(`analysis.label_in.${label}`);
const LABEL_MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
// as long as setTimeout allows: the mark stays until the table clears its marks itself
const KEEP = 0x3fffffff;

export function percent(x) {
  return formatNumber(x, { style: "percent", maximumFractionDigits: 0 });
}

// Clear the marks of markMove() (class cls) from the table.
export function clearMarks(root, cls) {
  // the numbers and outlines drawn over the map go; the map's own targets and the cards keep only
  // their class
  for (const node of root.querySelectorAll(`.${cls}-label`)) node.remove();
  for (const node of root.querySelectorAll(`.${cls}, .${cls}-inner`)) {
    if (node.tagName === "polygon" && !node.hasAttribute("data-action")) node.remove();
    else {
      node.classList.remove(cls);
      node.removeAttribute("data-step");
    }
  }
}

// Mark the move ``action`` on ``table`` (inside ``root``) with the class ``cls``; returns how many
// things were marked (hexes, cards, buttons). ``step``: a number shown on the marks (the place of
// the move in a plan); ``keep``: the marks of ``cls`` already there stay (the moves of a plan: their
// hexes and buttons, not the cards a table marks for one move at a time).
export function markMove(table, root, action, cls, { step = null, keep = false } = {}) {
  if (!keep) clearMarks(root, cls);
  let marked = 0;
  const label = step === null ? null : String(step);
  if (table && table.lightHexes && table.constructor.actionHexes) {
    const hexes = table.constructor.actionHexes(action);
    if (hexes.length) table.lightHexes(hexes, { ms: KEEP, cls, label });
    marked += hexes.length;
  } else if (table && table.showEntry && !keep) {
    marked += table.showEntry({ action }, cls).length;
  }
  const parts = [...root.querySelectorAll("[data-action]")].filter((node) => node.getAttribute("data-action") === action);
  // what else to click for it (the table's moveParts: a tile of a move that uses one, say)
  parts.push(...(table && table.moveParts ? table.moveParts(action) : []));
  for (const node of parts) {
    node.classList.add(cls);
    // a number on a button or a card (not on the map's own targets: the hex carries it)
    if (label !== null && node.tagName !== "polygon") node.setAttribute("data-step", label);
    marked += 1;
  }
  return marked;
}

// Ask for a hint for this browser's seat: {seat, action, win_chance, visits, version, actions}.
export async function fetchHint(gameId, { token, query = "" } = {}) {
  return api(`/api/games/${encodeURIComponent(gameId)}/hint${query}`, { method: "POST", token });
}

// -- the analysis board --------------------------------------------------------------------------
export class AnalysisBoard {
  // ``root``: the element to fill; ``onJump(n, {reveal})``: show position n (before decision n) in the
  // replay, with the board brought into view when ``reveal``;
  // ``describe(action)``: words for an action (or null).
  constructor(root, gameId, { onJump, describe } = {}) {
    this.root = root;
    this.gameId = gameId;
    this.onJump = onJump || (() => {});
    this.describe = describe || (() => null);
    this.data = null;
    this.timer = null;
    this.n = 0;
    this.root.classList.add("analysis-board", "panel");
    this.root.id = this.root.id || "analysis";
  }

  url() {
    return `/api/games/${encodeURIComponent(this.gameId)}/analysis`;
  }

  // Show the stored analysis, or its progress, or an "Analyse" button.
  async load({ start = false } = {}) {
    let data = null;
    try {
      data = await api(this.url());
    } catch (err) {
      if (err.status !== 404) {
        this.root.replaceChildren(el("h3", { text: t("analysis.title") }), el("p", { class: "muted", text: err.message }));
        return;
      }
    }
    if (!data && start) return this.start();
    this.show(data);
  }

  async start() {
    try {
      this.show(await api(this.url(), { method: "POST" }));
    } catch (err) {
      toast(err.message);
    }
  }

  show(data) {
    this.data = data;
    clearTimeout(this.timer);
    const title = el("h3", { text: t("analysis.title") });
    if (!data) {
      this.root.dataset.status = "none";
      this.root.replaceChildren(title,
        el("p", { class: "muted", text: t("analysis.offer") }),
        el("button", { class: "btn btn-primary", id: "analyse-btn", onclick: () => this.start() }, t("analysis.analyse")));
      return;
    }
    this.root.dataset.status = data.status;
    if (data.status === "running") {
      const bar = el("progress", { id: "analysis-progress", max: Math.max(1, data.total), value: data.done });
      this.root.replaceChildren(title, el("p", { id: "analysis-status", text: t("analysis.running", { done: data.done, total: data.total }) }), bar);
      this.timer = setTimeout(() => this.load(), 1000);
      return;
    }
    if (data.status === "failed") {
      this.root.replaceChildren(title, el("p", { class: "muted", text: data.error || t("analysis.failed") }),
        el("button", { class: "btn", id: "analyse-btn", onclick: () => this.start() }, t("analysis.again")));
      return;
    }
    const result = data.result;
    this.root.replaceChildren(title, this.graph(result), this.summary(result), this.moves(result),
      el("p", { class: "muted small", text: t("analysis.thresholds", { inaccuracy: percent(result.thresholds.inaccuracy), mistake: percent(result.thresholds.mistake), blunder: percent(result.thresholds.blunder), iterations: data.iterations }) }));
    this.position(this.n);
  }

  // The win chance of each player at each of their decisions (before it), across the game.
  graph(result) {
    const W = 600;
    const H = 160;
    const pad = 8;
    const left = 40;  // room for the percentages of the win-chance axis
    const decisions = result.decisions;
    const count = Math.max(1, decisions.length);
    const x = (i) => left + (i / Math.max(1, count - 1)) * (W - left - pad);
    const y = (v) => H - pad - v * (H - 2 * pad);
    const chart = svg("svg", { id: "wc-graph", class: "wc-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("analysis.graph_label") });
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      chart.appendChild(svg("line", { x1: left, x2: W - pad, y1: y(v), y2: y(v), class: v === 0.5 ? "wc-mid" : "wc-grid", stroke: v === 0.5 ? "#999" : "#e4dccb", "stroke-dasharray": v === 0.5 ? "4 4" : "none" }));
      chart.appendChild(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "wc-axis", "font-size": 11, fill: "#5c5040", text: percent(v) }));
    }
    this.cursor = svg("line", { class: "wc-cursor", y1: pad, y2: H - pad, x1: x(0), x2: x(0), stroke: "#333", "stroke-width": 1 });
    chart.appendChild(this.cursor);
    this.x = x;
    const shown = decisions.filter((d) => !d.forced);
    for (const player of result.players) {
      const mine = shown.filter((d) => d.seat === player.seat);
      if (!mine.length) continue;
      chart.appendChild(svg("polyline", {
        class: "wc-line", "data-seat": player.seat, fill: "none", stroke: SEAT_COLOURS[player.seat] || "#666", "stroke-width": 2,
        points: mine.map((d) => `${x(d.index).toFixed(1)},${y(d.before).toFixed(1)}`).join(" "),
      }));
    }
    // a point per decision, in the game's order (the keyboard's too); a labelled one is drawn larger
    // with a ring that takes no clicks, so that every point is clicked at its centre even where
    // the points of a long game come close
    for (const d of shown) {
      const colour = SEAT_COLOURS[d.seat] || "#666";
      const cx = x(d.index).toFixed(1);
      const cy = y(d.before).toFixed(1);
      if (d.label) {
        chart.appendChild(svg("circle", { class: "wc-ring", cx, cy, r: 5, fill: colour, stroke: "#111", "stroke-width": 1.5, "pointer-events": "none" }));
      }
      const point = svg("circle", {
        class: `wc-point${d.label ? ` wc-${d.label}` : ""}`, "data-n": d.index, "data-seat": d.seat,
        cx, cy, r: 3, fill: colour, tabindex: 0, role: "button",
        "aria-label": `${t("analysis.point_label", { n: d.index + 1, colour: SEAT_NAMES[d.seat], chance: percent(d.before) })}${d.label ? `, ${labelIn(d.label)}` : ""}`,
      }, svg("title", { text: `${t("analysis.point_title", { n: d.index + 1, colour: SEAT_NAMES[d.seat], chance: percent(d.before) })}${d.label ? ` (${labelIn(d.label)})` : ""}` }));
      point.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); this.jump(d.index); } });
      chart.appendChild(point);
    }
    // a click on a point, or anywhere on the graph, shows the decision nearest to it (the points of
    // a long game are a few pixels apart)
    chart.addEventListener("click", (e) => {
      const box = chart.getBoundingClientRect();
      if (!shown.length || !box.width) return;
      const px = ((e.clientX - box.left) / box.width) * W;
      let best = shown[0];
      for (const d of shown) if (Math.abs(x(d.index) - px) < Math.abs(x(best.index) - px)) best = d;
      this.jump(best.index);
    });
    return el("figure", { class: "wc-figure" }, chart,
      el("figcaption", { class: "muted small" }, t("analysis.caption")));
  }

  summary(result) {
    const rows = result.players.map((p) => el("tr", { "data-seat": p.seat },
      el("th", { scope: "row" }, el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[p.seat] } }), ` ${SEAT_NAMES[p.seat]}`),
      el("td", { text: formatNumber(result.scores[p.seat]) }),
      el("td", { class: "mean-loss", text: formatNumber(p.mean_loss, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }) }),
      ...["inaccuracy", "mistake", "blunder"].map((name) => el("td", { class: `count-${name}`, text: String(p.counts[name] || 0) }))));
    return el("table", { class: "analysis-summary", id: "analysis-summary" },
      el("thead", {}, el("tr", {}, ...["player", "score", "mean_loss", "inaccuracies", "mistakes", "blunders"].map((col) => el("th", { scope: "col", text: t(`analysis.col.${col}`) })))),
      el("tbody", {}, rows));
  }

  moves(result) {
    const labelled = result.decisions.filter((d) => d.label);
    const list = el("ol", { class: "analysis-moves", id: "analysis-moves" });
    for (const d of labelled) {
      const played = this.describe(d.played) || d.played;
      const best = this.describe(d.best) || d.best;
      const li = el("li", { class: `move-${d.label}`, "data-n": d.index, "data-label": d.label, tabindex: 0, title: t("analysis.show_position") },
        el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[d.seat] } }),
        el("b", { text: ` ${LABEL_WORDS[d.label]} ${LABEL_MARK[d.label]} ` }),
        el("span", { text: `${t("analysis.move_line", { n: d.index + 1, colour: SEAT_NAMES[d.seat], played, chance: percent(d.after) })} ` }),
        el("span", { class: "better", text: `${best} (${percent(d.best_value)})` }));
      // a labelled move shown brings the board into view (the graph's points do not: one looks along it)
      li.addEventListener("click", () => this.jump(d.index, { reveal: true }));
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); this.jump(d.index, { reveal: true }); } });
      list.appendChild(li);
    }
    if (!labelled.length) list.appendChild(el("li", { class: "muted", text: t("analysis.clean") }));
    return el("section", {}, el("h4", { text: t("analysis.moves_title") }), list);
  }

  jump(n, { reveal = false } = {}) {
    this.onJump(n, { reveal });
  }

  // The decision made at position n (null: none, or no analysis yet).
  decisionAt(n) {
    const result = this.data && this.data.status === "done" ? this.data.result : null;
    return result ? result.decisions.find((d) => d.index === n) || null : null;
  }

  // Position n is shown: move the graph's cursor, mark the current move in the list and draw the
  // better move on the table when the move played there was labelled.
  position(n, table = this.table, root = this.tableRoot) {
    this.n = n;
    this.table = table;
    this.tableRoot = root;
    if (this.cursor && this.x) {
      const xs = this.x(Math.min(n, Math.max(0, this.data.result.decisions.length - 1))).toFixed(1);
      this.cursor.setAttribute("x1", xs);
      this.cursor.setAttribute("x2", xs);
    }
    for (const li of this.root.querySelectorAll(".analysis-moves li")) li.classList.toggle("current", li.dataset.n === String(n));
    if (!root) return;
    clearMarks(root, "better-move");
    const d = this.decisionAt(n);
    let note = this.root.querySelector("#analysis-note");
    if (!note) {
      note = el("p", { id: "analysis-note", class: "analysis-note" });
      const graph = this.root.querySelector(".wc-figure");
      if (graph) graph.after(note);
    }
    if (!d || d.forced) {
      note.textContent = d ? t("analysis.only_move", { n: n + 1 }) : "";
      return;
    }
    const played = this.describe(d.played) || d.played;
    const best = this.describe(d.best) || d.best;
    note.textContent = d.best === d.played
      ? t("analysis.note_good", { n: n + 1, colour: SEAT_NAMES[d.seat], played, chance: percent(d.before) })
      : t("analysis.note_better", { n: n + 1, colour: SEAT_NAMES[d.seat], played, chance: percent(d.after), label: d.label ? `, ${labelIn(d.label)}` : "", best, best_chance: percent(d.best_value) });
    if (d.best !== d.played && table) markMove(table, root, d.best, "better-move");
  }
}
