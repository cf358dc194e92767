// The rules page (/static/rules.html): both games explained with the table's own drawings. Every part has
// an id (kb-tile-oracle, kb-card-lords, ma-send, ...): the "?" buttons of the table open the page there.

import { el, svg, toast, SEAT_COLOURS, t } from "./api.js";
import { startGuidedGame } from "./tutorial.js";
import {
  TERRAIN_FILL, KIND_COLOUR, TILE_TEXT, CARD_TEXT, SECTIONS, locationIcon, ensureSprite, tileName, cardName, terrainName,
  legendPanel,
} from "./kingdom.js";
import { cardElement, resourceIcon, coinBadge, resourceWord, legendPanel as buildersLegend } from "./middle_ages.js";

// ------------------------------------------------------------------------------------------------
// Small example maps: rows of tokens, odd rows shifted right as on the board.
// A token is a terrain letter (G C D F T W M K), "L:kind" for a location, and "+" (Red) or "-" (Blue)
// for a settlement on it.

const MR = 16;
const MW = Math.sqrt(3) * MR;

function hexPoints(x, y, size) {
  const pts = [];
  for (const a of [-90, -30, 30, 90, 150, 210]) {
    const t = (a * Math.PI) / 180;
    pts.push(`${(x + size * Math.cos(t)).toFixed(2)},${(y + size * Math.sin(t)).toFixed(2)}`);
  }
  return pts.join(" ");
}

export function miniMap(rows, label) {
  const width = MW * (Math.max(...rows.map((r) => r.split(" ").length)) + 0.5) + 4;
  const height = 1.5 * MR * (rows.length - 1) + 2 * MR + 4;
  const s = svg("svg", { class: "mini-map", viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`, width: width.toFixed(0), height: height.toFixed(0), role: "img", "aria-label": label });
  ensureSprite();
  rows.forEach((row, r) => {
    row.split(" ").forEach((token, c) => {
      if (token === ".") return;
      const x = 2 + MW * (c + 0.5 + 0.5 * (r % 2));
      const y = 2 + MR + 1.5 * MR * r;
      const seat = token.endsWith("+") ? 0 : token.endsWith("-") ? 1 : null;
      const base = token.replace(/[+-]$/, "");
      const letter = base.startsWith("L:") ? "L" : base;
      s.appendChild(svg("polygon", { points: hexPoints(x, y, MR), fill: TERRAIN_FILL[letter] || "#eee", stroke: "#6f6252", "stroke-opacity": 0.5 }));
      const scale = (MR / 22).toFixed(3);
      if (letter === "L") {
        const kind = base.slice(2);
        s.appendChild(svg("circle", { cx: x, cy: y, r: 9, fill: KIND_COLOUR[kind] || "#777", stroke: "#fff" }));
        s.appendChild(svg("use", { href: `#kb-loc-${kind}`, transform: `translate(${x.toFixed(2)},${y.toFixed(2)}) scale(0.72)` }));
      } else if (seat === null) {
        s.appendChild(svg("use", { href: `#kb-${letter}`, transform: `translate(${x.toFixed(2)},${y.toFixed(2)}) scale(${scale})` }));
      }
      if (seat !== null) {
        s.appendChild(svg("path", {
          d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", fill: SEAT_COLOURS[seat], stroke: "#1b1b1b", "stroke-width": 1.4,
          transform: `translate(${x.toFixed(2)},${(y + 1).toFixed(2)}) scale(0.95)`,
        }));
      }
    });
  });
  return s;
}

// ------------------------------------------------------------------------------------------------
// Kingdom Builder

const TILE_MORE = Object.fromEntries(SECTIONS.map((kind) => [kind, t(`rules.tile_more.${kind}`)]));

const CARD_EXAMPLES = {
  castles: {
    text: t("rules.example.castles"),
    rows: ["G G+ G", "G K G+", "G G G"],
  },
  fishermen: {
    text: t("rules.example.fishermen"),
    rows: ["W W G", "G+ W G+", "G G G G+"],
  },
  miners: {
    text: t("rules.example.miners"),
    rows: ["M G+ G", "G M G+", "C+ C C"],
  },
  merchants: {
    text: t("rules.example.merchants"),
    rows: ["K G+ G+ L:oasis", "G G G G"],
  },
  workers: {
    text: t("rules.example.workers"),
    rows: ["K G+ G G+ L:tavern", "G G G+ G G"],
  },
  discoverers: {
    text: t("rules.example.discoverers"),
    rows: ["G+ G+ G", "G G G+", "G G+ G"],
  },
  knights: {
    text: t("rules.example.knights"),
    rows: ["G+ G+ G+ G", "G G G+ G", "G G G G"],
  },
  hermits: {
    text: t("rules.example.hermits"),
    rows: ["G+ G G G+", "G G G G", "G+ G+ G G"],
  },
  lords: {
    text: t("rules.example.lords"),
  },
  citizens: {
    text: t("rules.example.citizens"),
  },
  farmers: {
    text: t("rules.example.farmers"),
  },
};

const TERRAINS_SHOWN = [
  ["grass", "G", t("rules.terrain.grass")],
  ["canyon", "C", t("rules.terrain.canyon")],
  ["desert", "D", t("rules.terrain.desert")],
  ["flower", "F", t("rules.terrain.flower")],
  ["forest", "T", t("rules.terrain.forest")],
  ["water", "W", t("rules.terrain.water")],
  ["mountain", "M", t("rules.terrain.mountain")],
  ["castle", "K", t("rules.terrain.castle")],
];

function terrainTile(letter, size = 40) {
  ensureSprite();
  const s = svg("svg", { viewBox: "-20 -20 40 40", width: size, height: size, "aria-hidden": "true", class: "terrain-swatch" });
  s.appendChild(svg("polygon", { points: hexPoints(0, 0, 19), fill: TERRAIN_FILL[letter], stroke: "#6f6252" }));
  s.appendChild(svg("use", { href: `#kb-${letter}` }));
  return s;
}

function section(id, title, ...children) {
  return el("section", { class: "rules-part", id, tabindex: -1 }, el("h3", {}, title, el("a", { class: "anchor", href: `#${id}`, "aria-label": t("rules.link_to", { title }) }, "#")), ...children);
}

function p(text) {
  return el("p", { text });
}

function kingdomRules() {
  const tiles = SECTIONS.map((kind) => section(`kb-tile-${kind}`, tileName(kind),
    el("div", { class: "rule-with-picture" }, locationIcon(kind, 48),
      el("div", {}, el("p", {}, el("b", { text: TILE_TEXT[kind] })), p(TILE_MORE[kind])))));
  const cards = ["castles", "fishermen", "miners", "merchants", "workers", "discoverers", "knights", "hermits", "lords", "citizens", "farmers"]
    .map((card) => {
      const ex = CARD_EXAMPLES[card];
      return section(`kb-card-${card}`, cardName(card),
        el("p", {}, el("b", { text: CARD_TEXT[card] })),
        el("div", { class: "rule-example" },
          ex.rows ? miniMap(ex.rows, t("rules.example_for", { card: cardName(card), text: ex.text })) : null,
          el("p", {}, el("span", { class: "example-tag", text: t("rules.example") }), " ", ex.text)));
    });
  return el("article", { class: "rules-game", id: "kingdom" },
    el("h2", { text: t("game.kingdom") }),
    el("nav", { class: "rules-toc", "aria-label": t("rules.contents", { game: t("game.kingdom") }) },
      ...[["kb-goal", t("rules.toc.kb-goal")], ["kb-turn", t("rules.toc.kb-turn")], ["kb-terrains", t("rules.toc.kb-terrains")], ["kb-building", t("rules.toc.kb-building")],
        ["kb-tiles", t("rules.toc.kb-tiles")], ["kb-cards", t("rules.toc.kb-cards")], ["kb-end", t("rules.toc.kb-end")], ["kb-table", t("rules.toc.kb-table")]]
        .map(([id, label]) => el("a", { href: `#${id}`, text: label }))),
    section("kb-goal", t("rules.title.kb-goal"),
      p(t("rules.kb-goal.1")),
      p(t("rules.kb-goal.2"))),
    section("kb-turn", t("rules.title.kb-turn"),
      el("ol", {},
        el("li", { text: t("rules.kb-turn.1") }),
        el("li", { text: t("rules.kb-turn.2") }),
        el("li", { text: t("rules.kb-turn.3") }),
        el("li", { text: t("rules.kb-turn.4") })),
      p(t("rules.kb-turn.5"))),
    section("kb-terrains", t("rules.title.kb-terrains"),
      el("div", { class: "terrain-list" }, TERRAINS_SHOWN.map(([word, letter, text]) =>
        el("div", { class: "terrain-item", "data-terrain": letter }, terrainTile(letter),
          el("div", {}, el("b", { text: terrainName(word) }), el("br"), el("span", { class: "muted", text })))))),
    section("kb-building", t("rules.title.kb-building"),
      el("div", { class: "rule-example" },
        miniMap(["C C+ C", "C C G", "G C C"], t("rules.kb-building.map")),
        p(t("rules.kb-building.1"))),
      p(t("rules.kb-building.2"))),
    section("kb-tiles", t("rules.title.kb-tiles"),
      p(t("rules.kb-tiles.1")),
      p(t("rules.kb-tiles.2")),
      p(t("rules.kb-tiles.3")),
      el("div", { class: "tile-grid" }, tiles)),
    section("kb-cards", t("rules.title.kb-cards"),
      p(t("rules.kb-cards.1")),
      el("div", { class: "card-grid" }, cards)),
    section("kb-end", t("rules.title.kb-end"),
      p(t("rules.kb-end.1")),
      p(t("rules.kb-end.2"))),
    section("kb-table", t("rules.title.kb-table"), legendPanel()));
}

// ------------------------------------------------------------------------------------------------
// The Builders: Middle Ages

function buildersRules() {
  const res = (name) => el("span", { class: "res" }, resourceIcon(name, 16), ` ${resourceWord(name)}`);
  return el("article", { class: "rules-game", id: "middle-ages" },
    el("h2", { text: t("game.middle_ages") }),
    el("nav", { class: "rules-toc", "aria-label": t("rules.contents", { game: t("game.middle_ages_short") }) },
      ...[["ma-goal", t("rules.toc.ma-goal")], ["ma-cards", t("rules.toc.ma-cards")], ["ma-turn", t("rules.toc.ma-turn")], ["ma-open", t("rules.toc.ma-open")], ["ma-recruit", t("rules.toc.ma-recruit")],
        ["ma-send", t("rules.toc.ma-send")], ["ma-coins", t("rules.toc.ma-coins")], ["ma-buy", t("rules.toc.ma-buy")], ["ma-complete", t("rules.toc.ma-complete")],
        ["ma-machines", t("rules.toc.ma-machines")], ["ma-end", t("rules.toc.ma-end")], ["ma-table", t("rules.toc.ma-table")]]
        .map(([id, label]) => el("a", { href: `#${id}`, text: label }))),
    section("ma-goal", t("rules.title.ma-goal"),
      p(t("rules.ma-goal.1")),
      p(t("rules.ma-goal.2"))),
    section("ma-cards", t("rules.title.ma-cards"),
      el("p", {}, `${t("rules.ma.four")} `, res("stone"), ", ", res("wood"), ", ", res("knowledge"), ` ${t("rules.ma.and")} `, res("tile"), "."),
      el("div", { class: "card-examples" },
        el("figure", {}, cardElement("W19"), el("figcaption", { text: t("rules.ma-cards.1") })),
        el("figure", {}, cardElement("B06"), el("figcaption", { text: t("rules.ma-cards.2") })),
        el("figure", {}, cardElement("M1"), el("figcaption", { text: t("rules.ma-cards.3") }))),
      p(t("rules.ma-cards.4"))),
    section("ma-turn", t("rules.title.ma-turn"),
      p(t("rules.ma-turn.1")),
      el("p", { class: "muted", text: t("rules.ma-turn.2") })),
    section("ma-open", t("rules.title.ma-open"),
      p(t("rules.ma-open.1"))),
    section("ma-recruit", t("rules.title.ma-recruit"),
      p(t("rules.ma-recruit.1"))),
    section("ma-send", t("rules.title.ma-send"),
      p(t("rules.ma-send.1")),
      el("div", { class: "rule-example" }, el("p", {}, el("span", { class: "example-tag", text: t("rules.example") }),
        ` ${t("rules.ma.send_example")}`))),
    section("ma-coins", t("rules.title.ma-coins"),
      el("ul", {},
        el("li", {}, `${t("rules.ma.n_actions", { count: 1 })} `, coinBadge(1)),
        el("li", {}, `${t("rules.ma.n_actions", { count: 2 })} `, coinBadge(3)),
        el("li", {}, `${t("rules.ma.n_actions", { count: 3 })} `, coinBadge(6)))),
    section("ma-buy", t("rules.title.ma-buy"),
      p(t("rules.ma-buy.1"))),
    section("ma-complete", t("rules.title.ma-complete"),
      p(t("rules.ma-complete.1"))),
    section("ma-machines", t("rules.title.ma-machines"),
      p(t("rules.ma-machines.1"))),
    section("ma-end", t("rules.title.ma-end"),
      p(t("rules.ma-end.1")),
      p(t("rules.ma-end.2"))),
    section("ma-table", t("rules.title.ma-table"), buildersLegend()));
}

async function guided(event, game) {
  event.target.disabled = true;
  try {
    await startGuidedGame(game);
  } catch (err) {
    toast(err.message);
    event.target.disabled = false;
  }
}

function main() {
  const root = document.getElementById("rules");
  root.replaceChildren(
    el("div", { class: "rules-intro panel" },
      el("p", { text: t("rules.intro") }),
      el("div", { class: "dialog-buttons start-guides" },
        el("button", { type: "button", class: "btn btn-primary", id: "guide-kingdom", onclick: (e) => guided(e, "kingdom") }, t("rules.guide_kingdom")),
        el("button", { type: "button", class: "btn", id: "guide-middle-ages", onclick: (e) => guided(e, "middle-ages") }, t("rules.guide_builders")))),
    kingdomRules(), buildersRules());
  document.body.dataset.ready = "1";
  showTarget();
}

// After the page is drawn, go to the part named in the address and mark it for a moment.
function showTarget() {
  for (const old of document.querySelectorAll(".rules-part.flash")) old.classList.remove("flash");
  const id = decodeURIComponent(location.hash.replace(/^#/, ""));
  const target = id && document.getElementById(id);
  if (!target) return;
  target.scrollIntoView({ block: "start" });
  if (target.classList.contains("rules-part")) {
    target.classList.add("flash");
    target.focus({ preventScroll: true });
  }
}

window.addEventListener("hashchange", showTarget);
main();
