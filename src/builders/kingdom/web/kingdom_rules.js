// Kingdom Builder on the rules page (its plugin's web_rules): every terrain, tile and card explained with
// the table's own drawings, and small example maps. Every part has an id (kb-tile-oracle, kb-card-lords,
// ...): the table's "?" buttons open the page there.

import { el, svg, SEAT_COLOURS, t } from "/static/api.js";
import {
  TERRAIN_FILL, KIND_COLOUR, TILE_TEXT, CARD_TEXT, SECTIONS, locationIcon, ensureSprite, tileName, cardName, terrainName,
  legendPanel,
} from "./kingdom.js";
import { section, p } from "/static/rules_parts.js";

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

function miniMap(rows, label) {
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
// The parts

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

export const shortTitle = () => t("game.kingdom");

export const guideLabel = () => t("rules.guide_kingdom");

/** The rules of Kingdom Builder: its article of the page (id "kingdom"). */
export function rules() {
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
