// Kingdom Builder at the table: the map as SVG, the legal targets of the current decision, the panels.

import { el, svg, SEAT_COLOURS, SEAT_INK, SEAT_NAMES, seatName, t, joinNames, touchScreen } from "/static/api.js";
import { formatNumber } from "/static/i18n.js";

const R = 22; // hex size: centre to corner
const HEX_W = Math.sqrt(3) * R;
const ROW_H = 1.5 * R;
const PAD_X = 26;
const PAD_Y = 22;
const SIZE = 20;
export const MAP_W = PAD_X * 2 + HEX_W * (SIZE + 0.5);
export const MAP_H = PAD_Y * 2 + 2 * R + ROW_H * (SIZE - 1);

export const TERRAIN_FILL = {
  G: "#b5dc7c", C: "#d79a62", D: "#f3dc94", F: "#dfb1e0", T: "#5f9a52",
  W: "#76b6e4", M: "#b3aea6", K: "#ddd5c4", L: "#f7eccb",
};
export const TERRAIN_LETTER = { grass: "G", canyon: "C", desert: "D", flower: "F", forest: "T" };
const LETTER_TERRAIN = { G: "grass", C: "canyon", D: "desert", F: "flower", T: "forest", W: "water", M: "mountain", K: "castle" };
/** A terrain's name as a heading ("Flower field"); ``terrainIn``: as a word in a sentence ("flower field"). */
export const terrainName = (terrain) => t(`kb.terrain.${terrain}`);
export const terrainIn = (terrain) => t(`kb.terrain_in.${terrain}`);
/** A location tile's name ("Oasis"), a scoring card's name ("Fishermen"). */
export const tileName = (kind) => t(`kb.tile.${kind}`);
export const cardName = (card) => t(`kb.card.${card}`);

export const KIND_COLOUR = {
  oracle: "#7b4fb8", farm: "#9a7a1c", oasis: "#1f9486", tower: "#4f6472",
  tavern: "#b8432f", barn: "#8a3324", harbor: "#1d67a3", paddock: "#a0612a",
};
// The outline of a highlighted hex: dark shades of the tile colours (and of magenta for the three builds),
// at least 3:1 against every terrain (tests/web/test_pictures.py computes the ratios from these values).
export const TARGET_INK = {
  build: "#780042", oracle: "#492d6f", farm: "#48390d", oasis: "#0e423c", tower: "#303c45",
  tavern: "#69261b", barn: "#68261b", harbor: "#113e62", paddock: "#553416",
};
export const SCORING_INK = "#4d3800";
export const SCORING_FILL = "#fff45c";
export const RECENT_RING = "#fff8d0";
export const SECTIONS = ["oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"];
export const CARD_NAMES = ["fishermen", "miners", "merchants", "workers", "discoverers", "knights", "hermits", "lords", "citizens", "farmers"];

export const TILE_TEXT = Object.fromEntries(SECTIONS.map((kind) => [kind, t(`kb.tile_text.${kind}`)]));
const MOVE_TILES = new Set(["barn", "harbor", "paddock"]);

export const CARD_TEXT = Object.fromEntries(["castles", ...CARD_NAMES].map((card) => [card, t(`kb.card_text.${card}`)]));


export function centre(r, c) {
  return [PAD_X + HEX_W * (c + 0.5 + 0.5 * (r % 2)), PAD_Y + R + ROW_H * r];
}

function corners(x, y, size = R) {
  const pts = [];
  for (const a of [-90, -30, 30, 90, 150, 210]) {
    const t = (a * Math.PI) / 180;
    pts.push(`${(x + size * Math.cos(t)).toFixed(2)},${(y + size * Math.sin(t)).toFixed(2)}`);
  }
  return pts.join(" ");
}

function neighbour(r, c, edge) {
  const odd = r % 2;
  return [
    [r - 1, c + odd], [r, c + 1], [r + 1, c + odd],
    [r + 1, c - 1 + odd], [r, c - 1], [r - 1, c - 1 + odd],
  ][edge];
}

const sectionOf = (r, c) => (r >= 10 ? 2 : 0) + (c >= 10 ? 1 : 0);
const key = (r, c) => `${r},${c}`;

// Symbols drawn around (0, 0) for a hex of size R.
function defs() {
  const d = svg("defs");
  const add = (id, ...children) => d.appendChild(svg("g", { id }, ...children));
  add("kb-G",
    svg("path", { d: "M-10,-1 l-2,-5 M-8,-1 l0,-6 M-6,-1 l2,-5 M5,-5 l-2,-5 M7,-5 l0,-6 M9,-5 l2,-5 M-1,10 l-2,-5 M1,10 l0,-6 M3,10 l2,-5",
      fill: "none", stroke: "#5f9435", "stroke-width": 1.5, "stroke-linecap": "round" }));
  add("kb-C",
    svg("path", { d: "M-14,-6 q4,-3 8,0 t8,0 t8,0 t6,0 M-15,1 q4,-3 8,0 t8,0 t8,0 t7,0 M-13,8 q4,-3 8,0 t8,0 t8,0 t5,0",
      fill: "none", stroke: "#a3643a", "stroke-width": 1.6, "stroke-linecap": "round" }));
  add("kb-D",
    svg("path", { d: "M-14,5 q7,-9 14,0 z", fill: "#e3c06a" }),
    svg("path", { d: "M-2,0 q7,-10 15,0 z", fill: "#e9c877" }),
    svg("path", { d: "M-6,-8 h.1 M2,-11 h.1 M7,8 h.1 M-3,11 h.1", stroke: "#c29a4a", "stroke-width": 2.2, "stroke-linecap": "round" }));
  const flower = (x, y) => svg("g", { transform: `translate(${x},${y})` },
    svg("circle", { r: 3.6, fill: "#fff7fc" }),
    svg("circle", { r: 1.6, fill: "#efae2a" }));
  add("kb-F", flower(-7, -6), flower(7, -3), flower(-2, 8),
    svg("path", { d: "M4,-12 h.1 M-12,4 h.1 M10,8 h.1", stroke: "#a3479a", "stroke-width": 2.6, "stroke-linecap": "round" }));
  const tree = (x, y) => svg("g", { transform: `translate(${x},${y})` },
    svg("rect", { x: -1, y: 4, width: 2, height: 4, fill: "#5b3b1e" }),
    svg("path", { d: "M0,-9 L6,5 L-6,5 Z", fill: "#2c6a2a", stroke: "#1f4b1e", "stroke-width": 0.8, "stroke-linejoin": "round" }));
  add("kb-T", tree(-7, -3), tree(6, -6), tree(2, 7));
  add("kb-W",
    svg("path", { d: "M-13,-5 q3,-3 6,0 t6,0 t6,0 M-6,3 q3,-3 6,0 t6,0 t6,0 M-12,10 q3,-3 6,0 t6,0",
      fill: "none", stroke: "#eaf5ff", "stroke-width": 1.5, "stroke-linecap": "round" }));
  add("kb-M",
    svg("path", { d: "M-15,10 L-4,-12 L7,10 Z", fill: "#7f796f", stroke: "#5b554d", "stroke-linejoin": "round" }),
    svg("path", { d: "M-4,-12 L-7.6,-4.8 L-5,-6 L-3,-4 L-0.6,-5.2 Z", fill: "#fff" }),
    svg("path", { d: "M0,10 L8,-4 L16,10 Z", fill: "#948d83", stroke: "#5b554d", "stroke-linejoin": "round" }),
    svg("path", { d: "M8,-4 L5.7,0 L8,-1 L10.3,0 Z", fill: "#fff" }));
  add("kb-K",
    svg("g", { transform: "scale(1.15)", stroke: "#4d4438", "stroke-width": 1, "stroke-linejoin": "round" },
      svg("path", { d: "M-12,11 V-4 H-9 V-1 H-6 V-4 H-3 V-1 H3 V-4 H6 V-1 H9 V-4 H12 V11 Z", fill: "#9c9282" }),
      svg("path", { d: "M-4,-1 V-9 H-2 V-7 H0 V-9 H2 V-7 H4 V-9 V-1 Z", fill: "#aaa090" }),
      svg("path", { d: "M-3,11 V5 Q0,1 3,5 V11 Z", fill: "#4d3a28" }),
      svg("path", { d: "M0,-9 V-16", fill: "none" }),
      svg("path", { d: "M0,-16 L6,-14 L0,-12 Z", fill: "#c8392b", stroke: "#8e2519", "stroke-width": 0.6 })));
  // the eight locations: a white picture on the location's colour, drawn for a disc of radius 12
  const W = "#ffffff";
  const line = { fill: "none", stroke: W, "stroke-width": 1.8, "stroke-linecap": "round", "stroke-linejoin": "round" };
  add("kb-loc-oracle", // a crystal ball on its stand
    svg("circle", { cx: 0, cy: -2.5, r: 5.6, fill: W }),
    svg("path", { d: "M-2.6,-4.6 a3,3 0 0 1 2.6,-1.6", fill: "none", stroke: KIND_COLOUR.oracle, "stroke-width": 1.3, "stroke-linecap": "round" }),
    svg("path", { d: "M-4.5,3.6 H4.5 L6,7.5 H-6 Z", fill: W }));
  add("kb-loc-farm", // a sheaf of wheat
    svg("path", { d: "M0,8 V-7 M0,8 L-5,-4 M0,8 L5,-4 M-4,3 H4", ...line }),
    svg("ellipse", { cx: 0, cy: -7.5, rx: 1.8, ry: 3, fill: W }),
    svg("ellipse", { cx: -5.2, cy: -5, rx: 1.7, ry: 2.8, fill: W, transform: "rotate(-22 -5.2 -5)" }),
    svg("ellipse", { cx: 5.2, cy: -5, rx: 1.7, ry: 2.8, fill: W, transform: "rotate(22 5.2 -5)" }));
  add("kb-loc-oasis", // a palm tree over a pool
    svg("path", { d: "M1,5 Q-1,-1 1,-6", ...line, "stroke-width": 2 }),
    svg("path", { d: "M1,-6 Q-4,-9 -8,-5 M1,-6 Q5,-10 8,-5 M1,-6 Q-2,-3 -5,0 M1,-6 Q5,-3 6,0", ...line, "stroke-width": 1.6 }),
    svg("ellipse", { cx: 0, cy: 7, rx: 7.5, ry: 2.2, fill: W }));
  add("kb-loc-tower", // a watchtower with battlements
    svg("path", { d: "M-4,8.5 V-4 H-5.5 V-9 H-3 V-7 H-1 V-9 H1 V-7 H3 V-9 H5.5 V-4 H4 V8.5 Z", fill: W }),
    svg("path", { d: "M-1,-2 h2 v3 h-2 Z", fill: KIND_COLOUR.tower }));
  add("kb-loc-tavern", // a mug with foam
    svg("path", { d: "M-6,-3 H3 V8 H-6 Z", fill: W }),
    svg("path", { d: "M3,-1 H6 V5 H3", ...line }),
    svg("path", { d: "M-7,-3 a2.6,2.6 0 0 1 3,-4 a3,3 0 0 1 5,0 a2.6,2.6 0 0 1 3,4 Z", fill: W }),
    svg("path", { d: "M-3,0 V6 M0,0 V6", stroke: KIND_COLOUR.tavern, "stroke-width": 1.2 }));
  add("kb-loc-barn", // a barn with its cross-braced door
    svg("path", { d: "M-8,8 V-2 L0,-9 L8,-2 V8 Z", fill: W }),
    svg("path", { d: "M-3.5,8 V1 H3.5 V8 M-3.5,1 L3.5,8 M3.5,1 L-3.5,8", fill: "none", stroke: KIND_COLOUR.barn, "stroke-width": 1.3 }));
  add("kb-loc-harbor", // an anchor
    svg("circle", { cx: 0, cy: -6.5, r: 2.2, ...line }),
    svg("path", { d: "M0,-4.3 V8 M-4,-1 H4 M-7,2 Q-6,8 0,8 Q6,8 7,2", ...line }));
  add("kb-loc-paddock", // a horseshoe
    svg("path", { d: "M-5,8 L-6.5,0 A6.5,7 0 0 1 6.5,0 L5,8", fill: "none", stroke: W, "stroke-width": 3.6, "stroke-linecap": "butt" }),
    svg("path", { d: "M-5.6,2.5 h.1 M5.6,2.5 h.1 M-4.5,-4 h.1 M4.5,-4 h.1", stroke: KIND_COLOUR.paddock, "stroke-width": 1.5, "stroke-linecap": "round" }));
  // a settlement: a small house, coloured per seat where it is used
  add("kb-house",
    svg("path", { d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", "stroke-width": 1.6, stroke: "#1b1b1b", "stroke-linejoin": "round" }),
    svg("rect", { x: -2, y: 2, width: 4, height: 6, fill: "#3a2a1c" }));
  return d;
}

// The drawings live once in the page, in a hidden SVG that every map, swatch and icon refers to.
export function ensureSprite() {
  if (document.getElementById("kb-sprite")) return;
  const sprite = svg("svg", { id: "kb-sprite", width: 0, height: 0, "aria-hidden": "true", focusable: "false", style: "position:absolute;width:0;height:0;overflow:hidden" });
  sprite.appendChild(defs());
  document.body.appendChild(sprite);
}

// A settlement drawn in a seat colour
export function houseIcon(seat, size = 22) {
  const s = svg("svg", { viewBox: "-10 -11 20 21", width: size, height: size, class: "house-icon", "aria-hidden": "true" });
  s.appendChild(svg("path", { d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", fill: SEAT_COLOURS[seat], stroke: "#1b1b1b", "stroke-width": 1.6, "stroke-linejoin": "round" }));
  s.appendChild(svg("rect", { x: -2, y: 2, width: 4, height: 6, fill: SEAT_COLOURS[seat] === "#2e2e33" ? "#6b6b6b" : "#3a2a1c" }));
  return s;
}

// A location's picture (a disc in the location's colour), for the rules, the legend and the tiles.
export function locationIcon(kind, size = 30) {
  const s = svg("svg", { viewBox: "-13 -13 26 26", width: size, height: size, class: "location-icon", "aria-hidden": "true" });
  ensureSprite();
  s.appendChild(svg("circle", { r: 12.5, fill: KIND_COLOUR[kind] || "#777", stroke: "#fff", "stroke-width": 1 }));
  s.appendChild(svg("use", { href: `#kb-loc-${kind}` }));
  return s;
}

export function terrainSwatch(terrain, size = 34) {
  const letter = TERRAIN_LETTER[terrain];
  const s = svg("svg", { viewBox: "-20 -20 40 40", width: size, height: size, class: "terrain-swatch", "aria-hidden": "true" });
  ensureSprite();
  s.appendChild(svg("polygon", { points: corners(0, 0, 19), fill: TERRAIN_FILL[letter] || "#ddd", stroke: "#6f6252", "stroke-width": 1 }));
  if (letter) s.appendChild(svg("use", { href: `#kb-${letter}` }));
  return s;
}

// ------------------------------------------------------------------------------------------------
// The legend: what every mark on the table means (also on the rules page)

function legendPicture(letter, ...marks) {
  ensureSprite();
  const s = svg("svg", { viewBox: "-24 -24 48 48", width: 40, height: 40, "aria-hidden": "true", class: "legend-pic" });
  s.appendChild(svg("polygon", { points: corners(0, 0, 22), fill: TERRAIN_FILL[letter], stroke: "#6f6252", "stroke-opacity": 0.5 }));
  s.append(...marks);
  return s;
}

function houseMark(seat) {
  return svg("g", { transform: "translate(0,1) scale(1.3)" },
    svg("path", { d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", fill: SEAT_COLOURS[seat], stroke: "#1b1b1b", "stroke-width": 1.4, "stroke-linejoin": "round" }),
    svg("rect", { x: -2, y: 2, width: 4, height: 6, fill: "#3a2a1c" }));
}

function tileSample(kind, state) {
  const label = tileName(kind);
  return el("span", { class: `tile-chip sample state-${state}`, style: { background: TARGET_INK[kind] } }, locationIcon(kind, 16), label);
}

export function legendPanel() {
  const touch = touchScreen();  // "tap", and no keys to tell of
  const row = (pic, text) => el("li", { class: "legend-row" }, pic, el("span", {}, ...[].concat(text)));
  const target = (ink, extra = {}) => svg("polygon", { points: corners(0, 0, R - 2.6), fill: "#fff", "fill-opacity": 0.3, stroke: ink, "stroke-width": 3.4, "stroke-linejoin": "round", ...extra });
  const list = el("ul", { class: "legend" },
    row(legendPicture("C", svg("use", { href: "#kb-C" }), target(TARGET_INK.build)),
      t(touch ? "kb.legend.build_touch" : "kb.legend.build")),
    row(legendPicture("G", svg("use", { href: "#kb-G" }), target(TARGET_INK.farm)),
      t("kb.legend.tile_outline")),
    row(legendPicture("D", houseMark(0), target("#111", { "stroke-dasharray": "5 3", fill: "none" })),
      t("kb.legend.dashed")),
    row(legendPicture("L",
      svg("circle", { cx: 0, cy: 1, r: 12.5, fill: KIND_COLOUR.oasis, stroke: "#fff", "stroke-width": 1.5 }),
      svg("use", { href: "#kb-loc-oasis", y: 1 }),
      svg("circle", { cx: 10, cy: -10.5, r: 6.8, fill: "#3b2f22", stroke: "#fff", "stroke-width": 1.2 }),
      svg("text", { x: 10, y: -7.2, "text-anchor": "middle", class: "loc-count", text: "2" })),
    t("kb.legend.location")),
    row(legendPicture("F", svg("circle", { r: R - 5, fill: "none", stroke: "#3b2f22", "stroke-width": 4.5 }), svg("circle", { r: R - 5, fill: "none", stroke: RECENT_RING, "stroke-width": 3 }), houseMark(1)),
      t("kb.legend.ringed")),
    row(legendPicture("T", svg("polygon", { points: corners(0, 0, R - 1), fill: SCORING_FILL, "fill-opacity": 0.55, stroke: SCORING_INK, "stroke-width": 3 })),
      t("kb.legend.yellow")),
    row(el("span", { class: "legend-tiles" }, tileSample("farm", "ready")), t(touch ? "kb.legend.glows_touch" : "kb.legend.glows")),
    row(el("span", { class: "legend-tiles" }, tileSample("tower", "new")), t("kb.legend.new")),
    row(el("span", { class: "legend-tiles" }, tileSample("harbor", "used")), t("kb.legend.used")));
  const places = el("ul", { class: "legend-places" }, SECTIONS.map((kind) =>
    el("li", {}, locationIcon(kind, 26), el("a", { href: `/static/rules.html#kb-tile-${kind}`, target: "_blank", rel: "noopener", text: tileName(kind) }))));
  return el("div", { class: "legend-panel" }, list, el("h4", { text: t("kb.legend.eight") }), places,
    touch ? null : el("p", { class: "muted small" }, t("kb.legend.keys")));
}

// Whether the running gold is hidden during the game (a choice kept in this browser).
const HIDE_KEY = "builders.hideScores";
export function scoresHidden() {
  try {
    return localStorage.getItem(HIDE_KEY) === "1";
  } catch (err) {
    return false;
  }
}
function setScoresHidden(on) {
  try {
    localStorage.setItem(HIDE_KEY, on ? "1" : "0");
  } catch (err) {
    /* private mode: the choice lasts for this page */
  }
}

// A "?" that opens the rules page at the part that explains something (in a new tab: the game stays).
export function helpLink(part, what) {
  return el("a", {
    class: "help-link", href: `/static/rules.html#${part}`, target: "_blank", rel: "noopener",
    "aria-label": t("help.label", { what }), title: t("help.title", { what }), "data-part": part,
  }, "?");
}

// ------------------------------------------------------------------------------------------------
// Reading the current decision

export function parseLegal(legal) {
  const out = { builds: new Map(), tiles: new Map(), end: false };
  for (const action of legal || []) {
    if (action === "end") {
      out.end = true;
      continue;
    }
    const [word, rest] = action.split(" ");
    if (!rest) continue;
    if (word === "build") {
      out.builds.set(rest, action);
    } else if (rest.includes(">")) {
      const [from, to] = rest.split(">");
      if (!out.tiles.has(word)) out.tiles.set(word, { move: true, from: new Map() });
      const t = out.tiles.get(word);
      if (!t.from.has(from)) t.from.set(from, new Map());
      t.from.get(from).set(to, action);
    } else {
      if (!out.tiles.has(word)) out.tiles.set(word, { move: false, to: new Map() });
      out.tiles.get(word).to.set(rest, action);
    }
  }
  return out;
}

// The hexes touched by an action ("build 3,4" -> ["3,4"], "barn 1,2>3,4" -> ["3,4"]).
function actionTarget(action) {
  const rest = (action || "").split(" ")[1];
  if (!rest) return null;
  return rest.includes(">") ? rest.split(">")[1] : rest;
}

function actionWords(action, table = null) {
  const [word, rest] = action.split(" ");
  const hex = (h) => {
    if (!table) return h;
    const [r, c] = h.split(",").map(Number);
    return `${table.hexWords(r, c)}${table.nearWords(r, c)}`;
  };
  if (word === "end") return t("kb.action.end");
  if (word === "build") return t("kb.action.build", { hex: hex(rest) });
  if (rest && rest.includes(">")) {
    const [a, b] = rest.split(">");
    return t("kb.action.move", { tile: tileName(word), from: a, hex: hex(b) });
  }
  return t("kb.action.tile_build", { tile: tileName(word), hex: hex(rest) });
}

// ------------------------------------------------------------------------------------------------
// The hexes that score a card now (rules.md, Scoring), worked out from the map and the settlements, so
// that pointing at a number of the running score lights them during the game as at the end.

export function scoringHexesNow(rows, players, seat, card) {
  const inside = ([r, c]) => r >= 0 && r < SIZE && c >= 0 && c < SIZE;
  const letter = (r, c) => (rows[r] || "")[c];
  const nbrs = (r, c) => [0, 1, 2, 3, 4, 5].map((e) => neighbour(r, c, e)).filter(inside);
  const ownList = ((players[seat] || {}).settlements || []).map(([r, c]) => [r, c])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const own = new Set(ownList.map(([r, c]) => key(r, c)));
  const near = (r, c, letters) => nbrs(r, c).some(([a, b]) => letters.includes(letter(a, b)));
  const groups = () => {
    const seen = new Set();
    const out = [];
    for (const [r, c] of ownList) {
      if (seen.has(key(r, c))) continue;
      const group = [];
      const stack = [[r, c]];
      seen.add(key(r, c));
      while (stack.length) {
        const [a, b] = stack.pop();
        group.push([a, b]);
        for (const [x, y] of nbrs(a, b)) {
          if (own.has(key(x, y)) && !seen.has(key(x, y))) {
            seen.add(key(x, y));
            stack.push([x, y]);
          }
        }
      }
      out.push(group);
    }
    return out;
  };
  const sectorCount = (list, q) => list.filter(([r, c]) => sectionOf(r, c) === q).length;
  switch (card) {
    case "castles": {
      const out = [];
      rows.forEach((row, r) => [...row].forEach((l, c) => {
        if (l === "K" && nbrs(r, c).some(([a, b]) => own.has(key(a, b)))) out.push([r, c]);
      }));
      return out;
    }
    case "fishermen":
      return ownList.filter(([r, c]) => letter(r, c) !== "W" && near(r, c, ["W"]));
    case "miners":
      return ownList.filter(([r, c]) => near(r, c, ["M"]));
    case "workers":
      return ownList.filter(([r, c]) => near(r, c, ["K", "L"]));
    case "discoverers":
    case "hermits":
      return ownList;
    case "knights": {
      let best = -1;
      let count = 0;
      for (let r = 0; r < SIZE; r++) {
        const n = ownList.filter(([a]) => a === r).length;
        if (n > count) { count = n; best = r; }
      }
      return ownList.filter(([r]) => r === best);
    }
    case "citizens": {
      const gs = groups();
      return gs.reduce((a, g) => (g.length > a.length ? g : a), []);
    }
    case "merchants": {
      const linked = new Map();
      for (const g of groups()) {
        const touched = new Map();
        for (const [r, c] of g) for (const [a, b] of nbrs(r, c)) if (["K", "L"].includes(letter(a, b))) touched.set(key(a, b), [a, b]);
        if (touched.size >= 2) for (const [k, h] of touched) linked.set(k, h);
      }
      return [...linked.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    }
    case "lords": {
      const out = [];
      for (let q = 0; q < 4; q++) {
        const counts = [...new Set(players.map((p) => sectorCount(p.settlements || [], q)))].sort((a, b) => b - a);
        if (counts.slice(0, 2).includes(sectorCount(ownList, q))) out.push(...ownList.filter(([r, c]) => sectionOf(r, c) === q));
      }
      return out;
    }
    case "farmers": {
      const counts = [0, 1, 2, 3].map((q) => sectorCount(ownList, q));
      const least = Math.min(...counts);
      if (!least) return [];
      const q = counts.indexOf(least);
      return ownList.filter(([r, c]) => sectionOf(r, c) === q);
    }
    default:
      return [];
  }
}

// ------------------------------------------------------------------------------------------------
// The table

export class KingdomTable {
  // root: element to draw into; opts: {onAction(action), onUndo(), replay: bool}
  constructor(root, opts = {}) {
    this.root = root;
    this.opts = opts;
    this.view = null;
    this.selection = { tile: null, from: null };
    this.legalKey = "";
    this.pinned = null; // {seat, card} pinned in the score table
    this.boardKey = "";
    this.build();
    if (!opts.replay && window.matchMedia && window.matchMedia("(max-width: 600px)").matches) this.mapBox.classList.add("zoomed");
    // at the table a phone's whole map is still tapped: its hexes keep 32 px and the map scrolls (style.css)
    if (!opts.replay) this.mapBox.classList.add("playing");
    this.onKey = (event) => this.onKeyDown(event);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  // The part of the table a position is seen on (the replay brings it into view): the map.
  get board() {
    return this.svg;
  }

  // Keys of the table: Esc drops a tile choice, 1-9 choose a tile, E ends the turn, R restarts it (Z, undo,
  // is the page's); M goes to the map.
  onKeyDown(event) {
    if (event.key === "Escape") {
      this.clearSelection();
      return;
    }
    const typing = event.target && ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName);
    if (typing || event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]") || this.opts.replay) return;
    const view = this.view;
    if (!view) return;
    if (/^[1-9]$/.test(event.key)) {
      const chips = [...this.side.querySelectorAll(".my-tiles .tile-chip")];
      const chip = chips[Number(event.key) - 1];
      if (chip && !chip.disabled) {
        event.preventDefault();
        this.keyboard = true;
        chip.click();
        const first = this.layerTargets.querySelector(".target");
        if (first) first.focus();
      }
    } else if (event.key === "e" || event.key === "E") {
      const end = this.actionBar.querySelector("#end-btn:not([disabled])");
      if (end) {
        event.preventDefault();
        this.keyboard = true;
        end.click();
      }
    } else if (event.key === "r" || event.key === "R") {
      const restart = this.actionBar.querySelector("#restart-btn:not([disabled])");
      if (restart) {
        event.preventDefault();
        this.keyboard = true;
        restart.click();
      }
    } else if (event.key === "m" || event.key === "M") {
      const first = this.layerTargets.querySelector(".target");
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  }

  build() {
    this.root.replaceChildren();
    this.root.classList.add("kingdom-table");
    this.banner = el("div", { class: "turn-banner", id: "turn-banner", "aria-live": "polite" });
    this.mapBox = el("div", { class: "map-box" });
    this.svg = svg("svg", { class: "kb-map", id: "kb-map", viewBox: `0 0 ${MAP_W.toFixed(1)} ${MAP_H.toFixed(1)}`, role: "group", "aria-label": t("kb.map_label") });
    this.mapBox.appendChild(this.svg);
    this.actionBar = el("div", { class: "action-bar", id: "action-bar" });
    this.hint = el("div", { class: "hint", id: "hint" });
    const boardCol = el("section", { class: "board-col" }, this.banner, this.mapBox, this.actionBar, this.hint);
    this.side = el("aside", { class: "side-col" });
    this.root.append(boardCol, this.side);
    this.svg.addEventListener("click", (event) => this.onMapClick(event));
  }

  toggleZoom(on = null) {
    const zoomed = on === null ? !this.mapBox.classList.contains("zoomed") : on;
    this.mapBox.classList.toggle("zoomed", zoomed);
    if (this.view) this.drawActionBar();
    this.centreOnTargets();
  }

  // In a zoomed map, scroll so that the hexes that can be played now (else your settlements, else the
  // middle of the map) are in the middle of the view.
  centreOnTargets() {
    if (!this.mapBox.classList.contains("zoomed") && this.mapBox.scrollWidth <= this.mapBox.clientWidth + 1) return;
    let hexes = [...this.layerTargets.querySelectorAll(".target")].map((t) => [Number(t.dataset.r), Number(t.dataset.c)]);
    if (!hexes.length && this.view && this.view.seat !== null && this.view.seat !== undefined) {
      const me = (this.view.view.players || [])[this.view.seat];
      hexes = (me && me.settlements) || [];
    }
    if (!hexes.length) hexes = [[10, 10]];
    const xs = hexes.map(([r, c]) => centre(r, c)[0]);
    const ys = hexes.map(([r, c]) => centre(r, c)[1]);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const scale = this.svg.getBoundingClientRect().width / MAP_W;
    this.mapBox.scrollLeft = Math.max(0, cx * scale - this.mapBox.clientWidth / 2);
    this.mapBox.scrollTop = Math.max(0, cy * scale - this.mapBox.clientHeight / 2);
  }

  clearSelection() {
    if (this.selection.tile || this.selection.from) {
      this.selection = { tile: null, from: null };
      this.render();
    }
  }

  update(view) {
    this.view = view;
    const legalKey = (view.legal || []).join("|");
    const legalChanged = legalKey !== this.legalKey;
    if (legalChanged) {
      this.legalKey = legalKey;
      const parsed = parseLegal(view.legal);
      // keep a tile choice only while it still has targets
      const t = this.selection.tile && parsed.tiles.get(this.selection.tile);
      if (!t) this.selection = { tile: null, from: null };
      else if (this.selection.from && !(t.move && t.from.has(this.selection.from))) this.selection.from = null;
    }
    this.render();
    if (legalChanged && legalKey && !this.keyboard) this.centreOnTargets();
  }

  // The end of a game: every hand shown, from the whole last position (``view``: its replay view).
  reveal(view) {
    if (!view.players) return;
    this.revealed = view.players.map((p) => p.terrain || null);
    this.render();
  }

  render() {
    const view = this.view;
    if (!view) return;
    const obs = view.view;
    const boardKey = JSON.stringify(obs.sections);
    if (boardKey !== this.boardKey) {
      this.boardKey = boardKey;
      this.drawStaticMap();
    }
    this.parsed = parseLegal(view.legal);
    this.drawDynamic();
    this.drawBanner();
    this.drawActionBar();
    this.drawSide();
    // a move that ended a placement (the third build, a tile's build) took the focused hex away:
    // the focus goes to the next target, a usable tile or End turn, never to the page's body
    if (this.refocus) {
      this.refocus = false;
      this.restoreFocus();
    }
    // the page's marks (a hint) go with the redrawn parts: the page puts them back
    if (this.opts.afterRender) this.opts.afterRender();
  }

  // What to click for ``action`` besides its hexes: the tile of a tile move, in this player's row
  // (one usable now: a tile of the same kind taken this turn waits for the next).
  moveParts(action) {
    const kind = (action || "").split(" ")[0];
    if (!TILE_TEXT[kind] || !this.side) return [];
    const chip = this.side.querySelector(`.my-tiles .tile-chip.usable[data-kind="${kind}"]`);
    return chip ? [chip] : [];
  }

  // --------------------------------------------------------------------------------------------
  // Map

  drawStaticMap() {
    const view = this.view;
    const rows = (view.board && view.board.rows) || [];
    const locations = new Map();
    for (const loc of (view.board && view.board.locations) || []) locations.set(key(loc.at[0], loc.at[1]), loc.kind);
    this.locations = locations;
    this.rows = rows;
    const s = this.svg;
    s.replaceChildren();
    ensureSprite();
    const shadow = svg("g", { fill: "#d6c8aa" });
    const hexes = svg("g", { class: "hexes" });
    const symbols = svg("g", { class: "symbols", "pointer-events": "none" });
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const [x, y] = centre(r, c);
        shadow.appendChild(svg("polygon", { points: corners(x + 2, y + 3, R + 0.5) }));
        const letter = (rows[r] || "")[c] || "G";
        const words = this.hexWords(r, c);
        const hex = svg("polygon", {
          class: "hex", "data-r": r, "data-c": c, "data-terrain": letter, role: "img", "aria-label": words,
          points: corners(x, y), fill: TERRAIN_FILL[letter] || "#eee",
          stroke: "#6f6252", "stroke-opacity": 0.45, "stroke-width": 1,
        });
        hex.appendChild(svg("title", { text: words }));
        hexes.appendChild(hex);
        if (letter !== "L") symbols.appendChild(svg("use", { href: `#kb-${letter}`, x: x.toFixed(2), y: y.toFixed(2), class: `sym sym-${r}-${c}` }));
      }
    }
    // section borders and the map's edge
    let d = "";
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const [x, y] = centre(r, c);
        const pts = corners(x, y).split(" ");
        for (let e = 0; e < 6; e++) {
          const [nr, nc] = neighbour(r, c, e);
          const outside = nr < 0 || nr >= SIZE || nc < 0 || nc >= SIZE;
          if (outside || sectionOf(nr, nc) !== sectionOf(r, c)) d += `M${pts[e]}L${pts[(e + 1) % 6]}`;
        }
      }
    }
    const borders = svg("path", { d, fill: "none", stroke: "#3b2f22", "stroke-width": 2.6, "stroke-linecap": "round", "pointer-events": "none" });
    // coordinates
    const labels = svg("g", { class: "coords", "pointer-events": "none" });
    for (let c = 0; c < SIZE; c += 1) {
      const [x, y] = centre(0, c);
      labels.appendChild(svg("text", { x: x.toFixed(1), y: (y - R - 5).toFixed(1), "text-anchor": "middle", text: String(c) }));
    }
    for (let r = 0; r < SIZE; r += 1) {
      const [x, y] = centre(r, 0);
      labels.appendChild(svg("text", { x: (x - HEX_W / 2 - 4).toFixed(1), y: (y + 3.5).toFixed(1), "text-anchor": "end", text: String(r) }));
    }
    this.layerSymbols = symbols;
    this.layerDynamic = svg("g", { class: "dynamic", "pointer-events": "none" });
    this.layerScoring = svg("g", { class: "scoring-layer", "pointer-events": "none" });
    this.layerTargets = svg("g", { class: "targets" });
    this.layerLit = svg("g", { class: "lit-layer", "pointer-events": "none" });
    s.append(shadow, hexes, symbols, borders, this.layerScoring, this.layerDynamic, this.layerLit, this.layerTargets, labels);
  }

  recentHexes() {
    // the hexes changed by the last turn of another player and by the current turn so far
    const log = this.view.log || [];
    const out = new Map();
    let seatsSeen = 0;
    let lastSeat = null;
    for (let i = log.length - 1; i >= 0 && seatsSeen <= 2; i--) {
      const entry = log[i];
      if (entry.seat !== lastSeat) {
        seatsSeen += 1;
        lastSeat = entry.seat;
        if (seatsSeen > 2) break;
      }
      const target = actionTarget(entry.action);
      if (target && !out.has(target)) out.set(target, entry.seat);
    }
    return out;
  }

  drawDynamic() {
    const view = this.view;
    const obs = view.view;
    const dyn = this.layerDynamic;
    dyn.replaceChildren();
    const occupied = new Map();
    obs.players.forEach((p, seat) => (p.settlements || []).forEach(([r, c]) => occupied.set(key(r, c), seat)));
    const left = new Map((obs.tiles_left || []).map((t) => [key(t.at[0], t.at[1]), t.count]));
    // every hex says what it is and what stands on it (its tooltip, read by screen readers)
    for (const hex of this.svg.querySelectorAll(".hexes .hex")) {
      const r = Number(hex.dataset.r);
      const c = Number(hex.dataset.c);
      const k = key(r, c);
      let text = this.hexWords(r, c);
      if (occupied.has(k)) text += t("kb.hex.settlement", { colour: SEAT_NAMES[occupied.get(k)] });
      if (this.locations.has(k)) text += t("kb.hex.tiles_left", { count: left.has(k) ? left.get(k) : 0 });
      const title = hex.firstChild;
      if (title && title.textContent !== text) {
        title.textContent = text;
        hex.setAttribute("aria-label", text);
      }
    }
    // terrain symbols under settlements are hidden
    for (const use of this.layerSymbols.children) {
      const [, r, c] = use.getAttribute("class").split(" ")[1].split("-");
      use.style.display = occupied.has(key(r, c)) ? "none" : "";
    }
    // locations with the tiles left
    for (const [k, kind] of this.locations) {
      const [r, c] = k.split(",").map(Number);
      const [x, y] = centre(r, c);
      const count = left.has(k) ? left.get(k) : 0;
      const g = svg("g", { class: "location", "data-r": r, "data-c": c, "data-kind": kind, "data-count": count });
      g.appendChild(svg("circle", { cx: x, cy: y + 1, r: 12.5, fill: KIND_COLOUR[kind] || "#777", stroke: "#fff", "stroke-width": 1.5 }));
      g.appendChild(svg("use", { href: `#kb-loc-${kind}`, x: x.toFixed(2), y: (y + 1).toFixed(2) }));
      const bx = x + 10;
      const by = y - 10.5;
      g.appendChild(svg("circle", { cx: bx, cy: by, r: 6.8, fill: count ? "#3b2f22" : "#b9ad98", stroke: "#fff", "stroke-width": 1.2 }));
      g.appendChild(svg("text", { x: bx, y: by + 3.3, "text-anchor": "middle", class: "loc-count", text: String(count) }));
      dyn.appendChild(g);
    }
    // settlements
    const recent = this.opts.replay ? new Map() : this.recentHexes();
    for (const [k, seat] of occupied) {
      const [r, c] = k.split(",").map(Number);
      const [x, y] = centre(r, c);
      if (recent.has(k)) {
        dyn.appendChild(svg("circle", { cx: x, cy: y, r: R - 5, class: "recent-ring-edge", fill: "none", stroke: "#3b2f22", "stroke-width": 4.5 }));
        dyn.appendChild(svg("circle", { cx: x, cy: y, r: R - 5, class: "recent-ring", fill: "none", stroke: RECENT_RING, "stroke-width": 3 }));
      }
      const g = svg("g", { class: "house", "data-seat": seat, "data-r": r, "data-c": c, transform: `translate(${x.toFixed(2)},${(y + 1).toFixed(2)}) scale(1.3)` });
      g.appendChild(svg("path", { d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", fill: SEAT_COLOURS[seat], stroke: "#1b1b1b", "stroke-width": 1.4, "stroke-linejoin": "round" }));
      g.appendChild(svg("rect", { x: -2, y: 2, width: 4, height: 6, fill: SEAT_COLOURS[seat] === "#2e2e33" ? "#6b6b6b" : "#3a2a1c" }));
      dyn.appendChild(g);
    }
    this.drawTargets();
    this.drawScoring();
  }

  // the targets of the current decision: [{hex: "R,C", action|null, kind: "build"|"tile"|"from"}]
  targets() {
    const p = this.parsed;
    const sel = this.selection;
    if (!p) return [];
    if (sel.tile) {
      const t = p.tiles.get(sel.tile);
      if (!t) return [];
      if (!t.move) return [...t.to].map(([hex, action]) => ({ hex, action, kind: "tile" }));
      if (!sel.from) return [...t.from.keys()].map((hex) => ({ hex, action: null, kind: "from" }));
      return [...t.from.get(sel.from)].map(([hex, action]) => ({ hex, action, kind: "tile" }));
    }
    return [...p.builds].map(([hex, action]) => ({ hex, action, kind: "build" }));
  }

  drawTargets() {
    const layer = this.layerTargets;
    // a redraw must not steal the focus from the hex that has it
    const active = document.activeElement;
    const hadFocus = active && layer.contains(active) ? active.dataset.hex : null;
    layer.replaceChildren();
    if (this.opts.replay) return;
    const ink = this.selection.tile ? TARGET_INK[this.selection.tile] : TARGET_INK.build;
    if (this.selection.from) {
      const [r, c] = this.selection.from.split(",").map(Number);
      const [x, y] = centre(r, c);
      layer.appendChild(svg("polygon", { class: "selected-from", points: corners(x, y, R - 2.5), fill: "none", stroke: "#111", "stroke-width": 3.4, "stroke-dasharray": "5 3", "pointer-events": "none" }));
    }
    // reading order: row by row, left to right
    const targets = this.targets().map((t) => ({ ...t, rc: t.hex.split(",").map(Number) }))
      .sort((a, b) => a.rc[0] - b.rc[0] || a.rc[1] - b.rc[1]);
    this.svg.classList.toggle("choosing", targets.length > 0);
    for (const tg of targets) {
      const [r, c] = tg.rc;
      const [x, y] = centre(r, c);
      const label = tg.action ? t("kb.target.legal", { what: actionWords(tg.action, this) }) : t("kb.target.from", { hex: this.hexWords(r, c) });
      const poly = svg("polygon", {
        class: `target target-${tg.kind}`, "data-r": r, "data-c": c, "data-hex": tg.hex,
        "data-action": tg.action || "", points: corners(x, y, R - 2.6), tabindex: 0, role: "button", "aria-label": label,
        fill: "#ffffff", "fill-opacity": 0.3, stroke: tg.kind === "from" ? "#111" : ink, "stroke-width": 3.4, "stroke-linejoin": "round",
      });
      poly.appendChild(svg("title", { text: label }));
      poly.addEventListener("keydown", (event) => this.onTargetKey(event, poly));
      poly.addEventListener("focus", () => { this.focusHex = tg.hex; });
      layer.appendChild(poly);
      layer.appendChild(svg("polygon", { class: "target-glow", points: corners(x, y, R - 5), fill: "none", stroke: "#ffffff", "stroke-width": 1.2, "stroke-opacity": 0.9, "pointer-events": "none" }));
    }
    const same = hadFocus && layer.querySelector(`.target[data-hex="${hadFocus}"]`);
    if (same) same.focus({ preventScroll: true });
    else if (this.keyboard || hadFocus) {
      this.restoreFocus();
      // the buttons and tiles are drawn after the map: look again once they are (render())
      this.refocus = true;
    }
  }

  // After a move made from the keyboard the map is redrawn: focus the target nearest to the last one,
  // or the next sensible button when the map has none.
  restoreFocus() {
    const active = document.activeElement;
    if (active && active !== document.body && this.root.contains(active) && active.isConnected) return;
    const targets = [...this.layerTargets.querySelectorAll(".target")];
    if (targets.length) {
      const [fr, fc] = (this.focusHex || "0,0").split(",").map(Number);
      const [fx, fy] = centre(fr, fc);
      let best = targets[0];
      let bestD = Infinity;
      for (const t of targets) {
        const [x, y] = centre(Number(t.dataset.r), Number(t.dataset.c));
        const d = (x - fx) ** 2 + (y - fy) ** 2;
        if (d < bestD) { bestD = d; best = t; }
      }
      best.focus({ preventScroll: false });
      return;
    }
    const usable = this.side && this.side.querySelector(".tile-chip.usable");
    const end = this.actionBar.querySelector("#end-btn:not([disabled])");
    (usable || end || this.actionBar.querySelector("button:not([disabled])") || this.svg).focus();
  }

  onTargetKey(event, poly) {
    const dirs = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.keyboard = true;
      this.focusHex = poly.dataset.hex;
      this.onMapClick({ target: poly });
    } else if (dirs[event.key]) {
      event.preventDefault();
      const [dx, dy] = dirs[event.key];
      const [x0, y0] = centre(Number(poly.dataset.r), Number(poly.dataset.c));
      let best = null;
      let bestScore = Infinity;
      for (const t of this.layerTargets.querySelectorAll(".target")) {
        if (t === poly) continue;
        const [x, y] = centre(Number(t.dataset.r), Number(t.dataset.c));
        const along = (x - x0) * dx + (y - y0) * dy;
        if (along <= 1) continue;
        const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
        const score = along + 2.5 * across;
        if (score < bestScore) { bestScore = score; best = t; }
      }
      if (best) best.focus();
    }
  }

  // "canyon 16,15"
  hexWords(r, c) {
    const letter = ((this.rows || [])[r] || "")[c];
    const place = this.locations && this.locations.get(key(r, c));
    const kind = letter === "L" ? (place ? t(`kb.place.${place}`) : t("kb.place.location")) : LETTER_TERRAIN[letter] ? terrainIn(LETTER_TERRAIN[letter]) : t("kb.place.hex");
    return t("kb.hex.words", { kind, hex: `${r},${c}` });
  }

  // " next to the Oasis and a castle" (or "")
  nearWords(r, c) {
    const near = [];
    for (let e = 0; e < 6; e++) {
      const [nr, nc] = neighbour(r, c, e);
      const letter = ((this.rows || [])[nr] || "")[nc];
      const place = this.locations && this.locations.get(key(nr, nc));
      if (letter === "L") near.push(place ? t(`kb.near_tile.${place}`) : t("kb.near.location"));
      else if (letter === "K") near.push(t("kb.near.castle"));
    }
    const unique = [...new Set(near)];
    return unique.length ? t("kb.near.next_to", { list: joinNames(unique) }) : "";
  }

  // A hex "r,c" in words, with its terrain and neighbours: "canyon 16,15 next to the Oasis".
  hexPhrase(h) {
    const [r, c] = h.split(",").map(Number);
    return `${this.hexWords(r, c)}${this.nearWords(r, c)}`;
  }

  // A move to make, in words (the hint): "build on canyon 16,15 next to the Oasis".
  advise(action) {
    const [word, rest] = (action || "").split(" ");
    const hex = (h) => this.hexPhrase(h);
    if (word === "end") return t("kb.advise.end");
    if (word === "build" && rest) return t("kb.advise.build", { hex: hex(rest) });
    if (rest && rest.includes(">")) {
      const [a, b] = rest.split(">");
      return t("kb.advise.move", { tile: tileName(word), from: a, hex: hex(b) });
    }
    if (rest) return t("kb.advise.tile_build", { tile: tileName(word), hex: hex(rest) });
    return action;
  }

  // One log line in words, with terrains and neighbours: "built on canyon 16,15 next to the Oasis".
  describe(entry) {
    const action = entry.action || "";
    const [word, rest] = action.split(" ");
    const hex = (h) => this.hexPhrase(h);
    const text = entry.text || "";
    // the server's message says what the action alone does not (its parameters): the card shown next
    // (next, terrain), the cards drawn (cards)
    const params = entry.params || {};
    const drew = Array.isArray(params.cards) ? t("kb.log.drew", { cards: params.cards.map(terrainIn).join(", ") }) : "";
    let words;
    if (word === "end") {
      const next = params.terrain ? params.next : null;
      return t("kb.log.ended") + (next !== null && next !== undefined ? t("kb.log.plays", { colour: SEAT_NAMES[Number(next)] || String(next), terrain: terrainIn(params.terrain) }) : "");
    } else if (word === "build") {
      words = t("kb.log.built", { hex: hex(rest) });
    } else if (rest && rest.includes(">")) {
      const [a, b] = rest.split(">");
      words = t("kb.log.moved", { tile: tileName(word), from: a, hex: hex(b) });
    } else if (rest) {
      words = t("kb.log.tile_built", { tile: tileName(word), hex: hex(rest) });
    } else {
      return text || action;
    }
    return words + drew;
  }

  // The hexes an action touched, for lighting them up from the log.
  static actionHexes(action) {
    const rest = (action || "").split(" ")[1];
    if (!rest) return [];
    return rest.split(">").filter((h) => /^\d+,\d+$/.test(h));
  }

  // A log line pointed at (null: none): its hexes light up.
  showEntry(entry) {
    this.lightHexes(entry ? KingdomTable.actionHexes(entry.action) : []);
  }

  // Another player's move as it arrives: its hexes light up for a moment.
  flash(entry) {
    const hexes = KingdomTable.actionHexes(entry.action);
    if (hexes.length) this.lightHexes(hexes, { ms: 1400, cls: "flash-hex" });
  }

  // Light up hexes (from a log line, a bot's move) for a moment, or until lightHexes([]) . ``label``:
  // a number drawn in each hex (the place of a move in the hint's plan).
  lightHexes(hexes, { ms = 0, cls = "lit-hex", label = null } = {}) {
    if (!this.layerLit) return;
    if (!ms) this.layerLit.replaceChildren();
    const made = [];
    for (const h of hexes || []) {
      const [r, c] = h.split(",").map(Number);
      const [x, y] = centre(r, c);
      const poly = svg("polygon", { class: cls, "data-hex": h, points: corners(x, y, R - 1), fill: "none", stroke: "#111", "stroke-width": 4.5, "pointer-events": "none" });
      const inner = svg("polygon", { class: `${cls}-inner`, points: corners(x, y, R - 4.5), fill: "none", stroke: "#fff", "stroke-width": 2.2, "pointer-events": "none" });
      this.layerLit.append(poly, inner);
      made.push(poly, inner);
      if (label !== null) {
        const badge = svg("g", { class: `${cls}-label`, "data-hex": h, "pointer-events": "none" },
          svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 9.5 }),
          svg("text", { x: x.toFixed(1), y: (y + 4.5).toFixed(1), "text-anchor": "middle", text: label }));
        // over the targets (whose light fill would pale it)
        this.svg.append(badge);
        made.push(badge);
      }
    }
    if (ms) setTimeout(() => made.forEach((m) => m.remove()), ms);
  }

  drawScoring() {
    const layer = this.layerScoring;
    layer.replaceChildren();
    const focus = this.pinned || this.hovered;
    const hexes = this.view.scoring_hexes;
    if (!focus) return;
    const list = hexes
      ? (hexes[String(focus.seat)] || {})[focus.card] || []
      : scoringHexesNow(this.rows || [], this.view.view.players || [], focus.seat, focus.card);
    for (const [r, c] of list) {
      const [x, y] = centre(r, c);
      layer.appendChild(svg("polygon", { class: "scoring-hex", "data-r": r, "data-c": c, points: corners(x, y, R - 1), fill: SCORING_FILL, "fill-opacity": 0.55, stroke: SCORING_INK, "stroke-width": 3 }));
    }
  }

  onMapClick(event) {
    const target = event.target.closest && event.target.closest(".target");
    if (!target) {
      return;
    }
    const hex = target.getAttribute("data-hex");
    const action = target.getAttribute("data-action");
    if (action) {
      this.act(action);
    } else if (this.selection.tile) {
      this.selection.from = hex;
      this.render();
    }
  }

  act(action) {
    this.selection = { tile: null, from: null };
    if (this.opts.onAction) this.opts.onAction(action);
  }

  selectTile(kind) {
    if (!this.parsed || !this.parsed.tiles.has(kind)) return;
    if (this.selection.tile === kind) this.selection = { tile: null, from: null };
    else this.selection = { tile: kind, from: null };
    this.render();
  }

  // --------------------------------------------------------------------------------------------
  // Words around the map

  drawBanner() {
    const view = this.view;
    const obs = view.view;
    const me = view.seat;
    const b = this.banner;
    b.replaceChildren();
    b.className = "turn-banner";
    if (view.result || obs.game_over) {
      b.classList.add("over");
      b.append(el("strong", { text: `${t("common.game_over")} ` }), this.opts.winnersText ? this.opts.winnersText(view) : "");
      return;
    }
    const mover = view.to_move;
    if (mover === null || mover === undefined) {
      b.textContent = t("kb.banner.waiting");
      return;
    }
    const p = obs.players[mover];
    const chip = el("span", { class: "seat-chip", "data-seat": mover, style: { background: SEAT_COLOURS[mover], color: SEAT_INK[mover] } }, SEAT_NAMES[mover]);
    if (me === mover && !this.opts.replay) {
      b.classList.add("yours");
      const terrain = p.terrain;
      const built = obs.built_this_turn || 0;
      const need = Math.min(3, built + (p.supply || 0));
      const text = this.parsed.builds.size
        ? t("kb.banner.build", { terrain: terrainIn(terrain), built, need })
        : this.parsed.end
          ? t("kb.banner.done")
          : t("kb.banner.use_tile");
      b.append(chip, " ", text);
      if (terrain) b.prepend(terrainSwatch(terrain, 26));
    } else {
      const name = seatName(view.seats, mover, me);
      const terrain = p && p.terrain;
      const which = this.opts.replay ? (terrain ? "kb.banner.to_move_on" : "kb.banner.to_move") : terrain ? "kb.banner.playing_on" : "kb.banner.playing";
      b.append(chip, ` ${t(which, { name, terrain: terrain ? terrainIn(terrain) : "" })}`);
    }
    if (obs.final_round) b.append(el("span", { class: "final-round", text: ` ${t("common.final_round")}` }));
  }

  drawActionBar() {
    const bar = this.actionBar;
    bar.replaceChildren();
    const view = this.view;
    if (this.opts.replay) {
      bar.hidden = true;
      this.hint.hidden = true;
      return;
    }
    const mine = view.seat !== null && view.seat === view.to_move && !view.result;
    const over = Boolean(view.result || view.view.game_over);
    const zoomed = this.mapBox.classList.contains("zoomed");
    const zoom = el("button", {
      class: "btn small zoom-btn", id: "zoom-btn", "aria-pressed": String(zoomed),
      title: t("kb.zoom_title"),
      onclick: () => this.toggleZoom(),
    }, zoomed ? t("kb.fit_map") : t("kb.zoom_map"));
    if (over) {
      // the game is over: no turn buttons, only what still helps to look at the map
      bar.hidden = false;
      bar.append(zoom);
      this.hint.hidden = true;
      return;
    }
    bar.hidden = view.seat === null || view.seat === undefined;
    const undo = el("button", { class: "btn", id: "undo-btn", disabled: !view.can_undo, title: t("turn.undo_title"), onclick: () => this.opts.onUndo && this.opts.onUndo() }, `↶ ${t("turn.undo")}`);
    const restart = el("button", {
      class: "btn", id: "restart-btn", disabled: !view.can_undo || !this.opts.onRestart,
      title: t("kb.restart_title"),
      onclick: () => this.opts.onRestart && this.opts.onRestart(),
    }, `⟲ ${t("turn.restart")}`);
    const end = el("button", { class: "btn btn-primary", id: "end-btn", "data-action": "end", disabled: !(mine && this.parsed.end), title: t("turn.end_title"), onclick: () => this.act("end") }, t("turn.end"));
    bar.append(undo, restart);
    if (this.selection.tile) {
      const kind = this.selection.tile;
      bar.append(el("span", { class: "tile-chip selected", style: { background: TARGET_INK[kind] } }, locationIcon(kind, 16), tileName(kind)),
        el("button", { class: "btn", id: "cancel-tile", onclick: () => this.clearSelection() }, t("common.cancel")));
    }
    bar.append(end, zoom, helpLink("kb-turn", t("help.a_turn")));
    // what the highlights mean
    let hint = "";
    const touch = touchScreen();
    if (mine) {
      if (this.selection.tile) {
        const kind = this.selection.tile;
        const tile = this.parsed.tiles.get(kind);
        hint = tile && tile.move && !this.selection.from
          ? t("kb.hint.choose_settlement", { tile: tileName(kind) })
          : t("kb.hint.choose_hex", { tile: tileName(kind), text: TILE_TEXT[kind] || "" });
      } else if (this.parsed.builds.size) {
        hint = t(touch ? "kb.hint.build_touch" : "kb.hint.build", { count: this.parsed.builds.size });
        if (this.parsed.tiles.size) hint += ` ${t(touch ? "kb.hint.or_tile_touch" : "kb.hint.or_tile")}`;
      } else if (this.parsed.tiles.size) {
        hint = t(touch ? "kb.hint.tile_or_end_touch" : "kb.hint.tile_or_end");
      } else if (this.parsed.end) {
        hint = t("kb.hint.no_tile");
      }
    }
    this.hint.textContent = hint;
    this.hint.hidden = !hint;
  }

  drawSide() {
    const view = this.view;
    const obs = view.view;
    const me = view.seat;
    const side = this.side;
    side.replaceChildren();

    if (view.result) side.appendChild(this.scoreTable(true));

    // my terrain card
    if (me !== null && me !== undefined && obs.players[me] && !this.opts.replay && !view.result) {
      const terrain = obs.players[me].terrain;
      side.appendChild(el("div", { class: "panel my-card", id: "my-card" },
        el("h3", { text: t("kb.your_card") }),
        terrain
          ? el("div", { class: "terrain-card", "data-terrain": terrain, style: { background: TERRAIN_FILL[TERRAIN_LETTER[terrain]] } }, terrainSwatch(terrain, 40), el("span", { text: terrainName(terrain) }))
          : el("div", { class: "muted", text: t("kb.no_card") })));
    }

    // players
    const players = el("div", { class: "panel players" }, el("h3", { text: t("lobby.players") }));
    const running = new Map(((view.scores && view.scores.players) || []).map((p) => [p.seat, p]));
    obs.players.forEach((p, seat) => {
      const moving = seat === view.to_move && !view.result;
      const card = el("div", { class: `player${moving ? " moving" : ""}`, "data-seat": seat, id: `player-${seat}` });
      const head = el("div", { class: "player-head" }, houseIcon(seat, 22),
        el("span", { class: "player-name", text: seatName(view.seats, seat, me) }),
        moving ? el("span", { class: "to-move", text: t("kb.to_move") }) : null,
        scoresHidden() && !view.result ? null : el("span", { class: "gold", title: t("kb.gold_title"), text: t("kb.gold", { count: (running.get(seat) || {}).total ?? 0 }) }));
      // at the end every card is shown (the page fetches the whole last position)
      const shownTerrain = p.terrain || (this.revealed && this.revealed[seat]) || null;
      const facts = el("div", { class: "player-facts" },
        el("span", { class: "supply", title: t("kb.supply_title") }, el("b", { text: formatNumber(p.supply) }), ` ${t("kb.in_supply")}`),
        shownTerrain && (seat !== me || view.result)
          ? el("span", { class: "their-terrain", "data-terrain": shownTerrain }, terrainSwatch(shownTerrain, 18), " ", terrainName(shownTerrain))
          : seat !== me ? el("span", { class: "muted", text: this.revealed ? t("kb.no_card_in_hand") : t("kb.card_hidden") }) : null);
      const mineRow = seat === me && !this.opts.replay && !view.result;
      const tiles = el("div", { class: `tiles${mineRow ? " my-tiles" : ""}` });
      let number = 0;
      (p.tiles || []).forEach((tile) => {
        const usable = !this.opts.replay && seat === me && moving && this.parsed.tiles.has(tile.kind) && tile.state === "ready";
        const selected = usable && this.selection.tile === tile.kind;
        const stateWords = tile.state === "new" ? t("kb.tile_state.new") : tile.state === "used" ? t("kb.tile_state.used") : t("kb.tile_state.ready");
        if (mineRow) number += 1;
        const keyHint = mineRow && number <= 9 && !touchScreen() ? t("kb.tile.key", { n: number }) : "";
        const chip = el("button", {
          class: `tile-chip state-${tile.state}${usable ? " usable" : ""}${selected ? " selected" : ""}`,
          "data-kind": tile.kind, "data-state": tile.state, disabled: !usable, "aria-pressed": usable ? String(selected) : null,
          "aria-label": `${t("kb.tile.label", { tile: tileName(tile.kind), state: stateWords })}${usable ? t("kb.tile.usable") : ""}${keyHint}`,
          title: `${t("kb.tile.title", { tile: tileName(tile.kind), state: stateWords, text: TILE_TEXT[tile.kind] })}${keyHint}`,
          style: { background: TARGET_INK[tile.kind] },
          onclick: () => this.selectTile(tile.kind),
        }, locationIcon(tile.kind, 18), tileName(tile.kind), el("small", { text: tile.state === "ready" ? "" : ` · ${t(`kb.tile_short.${tile.state}`)}` }),
        keyHint ? el("kbd", { class: "key-hint", "aria-hidden": "true", text: String(number) }) : null);
        tiles.append(el("span", { class: "tile-wrap" }, chip, helpLink(`kb-tile-${tile.kind}`, t("help.the_tile", { tile: tileName(tile.kind) }))));
      });
      if (!(p.tiles || []).length) tiles.appendChild(el("span", { class: "muted", text: t("kb.no_tiles") }));
      card.append(head, facts, tiles);
      players.appendChild(card);
    });
    side.appendChild(players);

    // cards with their text and running gold
    if (!view.result) side.appendChild(this.scoreTable(false));
    side.appendChild(el("details", { class: "panel legend-box", id: "legend", open: this.legendOpen || null,
      ontoggle: (e) => { this.legendOpen = e.target.open; } },
    el("summary", { text: t("legend.title") }), legendPanel()));

    // deck
    const deckCount = obs.deck_count ?? (obs.deck ? obs.deck.length : null);
    side.appendChild(el("div", { class: "panel deck muted" },
      deckCount === null ? t("kb.deck_unknown") : t("kb.deck", { count: deckCount }),
      obs.discard && obs.discard.length ? ` · ${t("kb.discard", { cards: obs.discard.map(terrainName).join(", ") })}` : ""));
    if (this.opts.extraSide) side.appendChild(this.opts.extraSide);
  }

  scoreTable(final) {
    const view = this.view;
    const obs = view.view;
    const me = view.seat;
    const source = final ? view.result : view.scores;
    const rows = ["castles", ...obs.cards];
    const bySeat = new Map(((source && source.players) || []).map((p) => [p.seat, p]));
    const panel = el("div", { class: `panel score-panel${final ? " final" : ""}`, id: final ? "final-scores" : "running-scores" });
    panel.appendChild(el("h3", { text: final ? t("score.final") : t("kb.score.so_far") }));
    const hide = !final && scoresHidden();
    if (!final && !this.opts.replay) {
      panel.appendChild(el("label", { class: "hide-scores small" },
        el("input", { type: "checkbox", id: "hide-scores", checked: hide, onchange: (e) => { setScoresHidden(e.target.checked); this.drawSide(); } }),
        ` ${t("kb.score.hide")}`));
    }
    if (final && this.opts.winnersText) panel.appendChild(el("p", { class: "winners", text: this.opts.winnersText(view) }));
    const table = el("table", { class: "score-table" });
    const head = el("tr", {}, el("th", { text: t("kb.score.card") }));
    obs.players.forEach((_, seat) => head.appendChild(el("th", { class: "seat-col" }, houseIcon(seat, 16), el("span", { class: "sr-only", text: seatName(view.seats, seat, me) }))));
    table.appendChild(el("thead", {}, head));
    const body = el("tbody");
    // the hexes behind a number: the server's at the end, worked out here during the game (not while hidden)
    const hasHexes = !!view.scoring_hexes || (!final && !hide);
    for (const card of rows) {
      const tr = el("tr", { "data-card": card });
      tr.appendChild(el("th", { class: "card-name", scope: "row" }, el("b", { text: cardName(card) }), " ", helpLink(`kb-card-${card}`, t("help.the_card", { card: cardName(card) })), el("span", { class: "card-text", text: CARD_TEXT[card] || "" })));
      obs.players.forEach((_, seat) => {
        const p = bySeat.get(seat);
        const parts = p ? p.cards || p.breakdown || {} : {};
        const value = parts[card] ?? 0;
        const focus = this.pinned || this.hovered;
        const active = focus && focus.seat === seat && focus.card === card;
        const td = el("td", { class: `score-cell${hasHexes ? " has-hexes" : ""}${active ? " active" : ""}`, "data-seat": seat, "data-card": card, text: hide ? "·" : formatNumber(value), tabindex: hasHexes ? 0 : null, "aria-label": hide ? t("kb.score.hidden") : null });
        if (hasHexes) {
          td.title = final ? t("kb.score.hover_final") : t("kb.score.hover_now");
          td.addEventListener("mouseenter", () => { this.hovered = { seat, card }; this.drawScoring(); this.markActive(); });
          td.addEventListener("mouseleave", () => { this.hovered = null; this.drawScoring(); this.markActive(); });
          td.addEventListener("focus", () => { this.hovered = { seat, card }; this.drawScoring(); this.markActive(); });
          td.addEventListener("click", () => {
            const same = this.pinned && this.pinned.seat === seat && this.pinned.card === card;
            this.pinned = same ? null : { seat, card };
            this.drawScoring();
            this.markActive();
          });
        }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    const total = el("tr", { class: "total-row" }, el("th", { text: t("score.total") }));
    obs.players.forEach((_, seat) => {
      const p = bySeat.get(seat);
      const win = final && view.result.winners && view.result.winners.includes(seat);
      total.appendChild(el("td", { class: `total${win ? " winner" : ""}`, "data-seat": seat, text: hide ? "·" : formatNumber(p ? p.total : 0), "aria-label": hide ? t("kb.score.hidden") : null }));
    });
    body.appendChild(total);
    table.appendChild(body);
    panel.appendChild(table);
    if (hasHexes) panel.appendChild(el("p", { class: "muted small", text: final ? t("kb.score.light_final") : t("kb.score.light_now") }));
    return panel;
  }

  markActive() {
    const focus = this.pinned || this.hovered;
    for (const td of this.side.querySelectorAll(".score-cell")) {
      const on = focus && Number(td.dataset.seat) === focus.seat && td.dataset.card === focus.card;
      td.classList.toggle("active", !!on);
    }
  }
}

// the table module of the game (its plugin's web_table: builders.core.plugins)
export { KingdomTable as Table };
