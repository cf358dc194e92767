// Kingdom Builder at the table: the map as SVG, the legal targets of the current decision, the panels.

import { el, svg, SEAT_COLOURS, SEAT_INK, SEAT_NAMES, seatName } from "./api.js";

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
export const TERRAIN_WORD = { grass: "Grass", canyon: "Canyon", desert: "Desert", flower: "Flower field", forest: "Forest" };
const LETTER_WORD = { G: "grass", C: "canyon", D: "desert", F: "flower field", T: "forest", W: "water", M: "mountain", K: "castle" };

export const KIND_COLOUR = {
  oracle: "#7b4fb8", farm: "#9a7a1c", oasis: "#1f9486", tower: "#4f6472",
  tavern: "#b8432f", barn: "#8a3324", harbor: "#1d67a3", paddock: "#a0612a",
};
const KIND_MARK = { oracle: "Or", farm: "Fa", oasis: "Oa", tower: "To", tavern: "Ta", barn: "Ba", harbor: "Ha", paddock: "Pa" };
export const SECTIONS = ["oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"];
export const CARD_NAMES = ["fishermen", "miners", "merchants", "workers", "discoverers", "knights", "hermits", "lords", "citizens", "farmers"];

export const TILE_TEXT = {
  oracle: "Build 1 extra settlement on the terrain of your card (next to yours if possible).",
  farm: "Build 1 extra settlement on a grass hex (next to yours if possible).",
  oasis: "Build 1 extra settlement on a desert hex (next to yours if possible).",
  tower: "Build 1 extra settlement on a hex at the edge of the map (next to yours if possible).",
  tavern: "Build 1 extra settlement at either end of a straight line of 3 or more of yours.",
  barn: "Move 1 settlement to a hex of your card's terrain (next to yours if possible).",
  harbor: "Move 1 settlement onto a water hex (next to yours if possible).",
  paddock: "Move 1 settlement exactly 2 hexes in a straight line, jumping over anything.",
};
const MOVE_TILES = new Set(["barn", "harbor", "paddock"]);

export const CARD_TEXT = {
  castles: "3 gold for each castle with at least one of your settlements next to it.",
  fishermen: "1 gold for each of your settlements next to water.",
  miners: "1 gold for each of your settlements next to a mountain.",
  merchants: "4 gold for each castle or location that your settlements link to another castle or location.",
  workers: "1 gold for each of your settlements next to a castle or a location.",
  discoverers: "1 gold for each horizontal row that holds at least one of your settlements.",
  knights: "2 gold for each of your settlements on the one row where you have the most.",
  hermits: "1 gold for each separate group of your settlements.",
  lords: "In each quarter of the map: 12 gold for the most settlements there, 6 for the second most.",
  citizens: "1 gold for every 2 settlements in your largest group.",
  farmers: "3 gold for each of your settlements in the quarter where you have the fewest.",
};

export function capital(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : "";
}

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
  // a settlement: a small house, coloured per seat where it is used
  add("kb-house",
    svg("path", { d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", "stroke-width": 1.6, stroke: "#1b1b1b", "stroke-linejoin": "round" }),
    svg("rect", { x: -2, y: 2, width: 4, height: 6, fill: "#3a2a1c" }));
  return d;
}

// A settlement drawn in a seat colour
export function houseIcon(seat, size = 22) {
  const s = svg("svg", { viewBox: "-10 -11 20 21", width: size, height: size, class: "house-icon", "aria-hidden": "true" });
  s.appendChild(svg("path", { d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", fill: SEAT_COLOURS[seat], stroke: "#1b1b1b", "stroke-width": 1.6, "stroke-linejoin": "round" }));
  s.appendChild(svg("rect", { x: -2, y: 2, width: 4, height: 6, fill: seat === 3 ? "#6b6b6b" : "#3a2a1c" }));
  return s;
}

export function terrainSwatch(terrain, size = 34) {
  const letter = TERRAIN_LETTER[terrain];
  const s = svg("svg", { viewBox: "-20 -20 40 40", width: size, height: size, class: "terrain-swatch", "aria-hidden": "true" });
  s.appendChild(defs());
  s.appendChild(svg("polygon", { points: corners(0, 0, 19), fill: TERRAIN_FILL[letter] || "#ddd", stroke: "#6f6252", "stroke-width": 1 }));
  if (letter) s.appendChild(svg("use", { href: `#kb-${letter}` }));
  return s;
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

function actionWords(action) {
  const [word, rest] = action.split(" ");
  if (word === "end") return "End the turn";
  if (word === "build") return `Build on ${rest}`;
  if (rest && rest.includes(">")) {
    const [a, b] = rest.split(">");
    return `${capital(word)}: move ${a} to ${b}`;
  }
  return `${capital(word)}: build on ${rest}`;
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
    this.onKey = (event) => {
      if (event.key === "Escape") this.clearSelection();
    };
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  build() {
    this.root.replaceChildren();
    this.root.classList.add("kingdom-table");
    this.banner = el("div", { class: "turn-banner", id: "turn-banner", "aria-live": "polite" });
    this.mapBox = el("div", { class: "map-box" });
    this.svg = svg("svg", { class: "kb-map", id: "kb-map", viewBox: `0 0 ${MAP_W.toFixed(1)} ${MAP_H.toFixed(1)}`, role: "img", "aria-label": "Kingdom Builder map" });
    this.mapBox.appendChild(this.svg);
    this.actionBar = el("div", { class: "action-bar", id: "action-bar" });
    this.hint = el("div", { class: "hint", id: "hint" });
    const boardCol = el("section", { class: "board-col" }, this.banner, this.mapBox, this.actionBar, this.hint);
    this.side = el("aside", { class: "side-col" });
    this.root.append(boardCol, this.side);
    this.svg.addEventListener("click", (event) => this.onMapClick(event));
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
    if (legalKey !== this.legalKey) {
      this.legalKey = legalKey;
      const parsed = parseLegal(view.legal);
      // keep a tile choice only while it still has targets
      const t = this.selection.tile && parsed.tiles.get(this.selection.tile);
      if (!t) this.selection = { tile: null, from: null };
      else if (this.selection.from && !(t.move && t.from.has(this.selection.from))) this.selection.from = null;
    }
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
    s.appendChild(defs());
    const shadow = svg("g", { fill: "#d6c8aa" });
    const hexes = svg("g", { class: "hexes" });
    const symbols = svg("g", { class: "symbols", "pointer-events": "none" });
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const [x, y] = centre(r, c);
        shadow.appendChild(svg("polygon", { points: corners(x + 2, y + 3, R + 0.5) }));
        const letter = (rows[r] || "")[c] || "G";
        const kind = letter === "L" ? locations.get(key(r, c)) || "location" : LETTER_WORD[letter];
        const hex = svg("polygon", {
          class: "hex", "data-r": r, "data-c": c, "data-terrain": letter,
          points: corners(x, y), fill: TERRAIN_FILL[letter] || "#eee",
          stroke: "#6f6252", "stroke-opacity": 0.45, "stroke-width": 1,
        });
        hex.appendChild(svg("title", { text: `${r},${c} · ${kind}` }));
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
    s.append(shadow, hexes, symbols, borders, this.layerScoring, this.layerDynamic, this.layerTargets, labels);
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
    // terrain symbols under settlements are hidden
    for (const use of this.layerSymbols.children) {
      const [, r, c] = use.getAttribute("class").split(" ")[1].split("-");
      use.style.display = occupied.has(key(r, c)) ? "none" : "";
    }
    // locations with the tiles left
    const left = new Map((obs.tiles_left || []).map((t) => [key(t.at[0], t.at[1]), t.count]));
    for (const [k, kind] of this.locations) {
      const [r, c] = k.split(",").map(Number);
      const [x, y] = centre(r, c);
      const count = left.has(k) ? left.get(k) : 0;
      const g = svg("g", { class: "location", "data-r": r, "data-c": c, "data-kind": kind, "data-count": count });
      g.appendChild(svg("circle", { cx: x, cy: y + 1, r: 12.5, fill: KIND_COLOUR[kind] || "#777", stroke: "#fff", "stroke-width": 1.5 }));
      g.appendChild(svg("text", { x, y: y + 5, "text-anchor": "middle", class: "loc-mark", text: KIND_MARK[kind] || "?" }));
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
        dyn.appendChild(svg("circle", { cx: x, cy: y, r: R - 5, class: "recent-ring", fill: "none", stroke: "#fff8d0", "stroke-width": 3, opacity: 0.9 }));
      }
      const g = svg("g", { class: "house", "data-seat": seat, "data-r": r, "data-c": c, transform: `translate(${x.toFixed(2)},${(y + 1).toFixed(2)}) scale(1.3)` });
      g.appendChild(svg("path", { d: "M-8,8 H8 V-1 L0,-9 L-8,-1 Z", fill: SEAT_COLOURS[seat], stroke: "#1b1b1b", "stroke-width": 1.4, "stroke-linejoin": "round" }));
      g.appendChild(svg("rect", { x: -2, y: 2, width: 4, height: 6, fill: seat === 3 ? "#6b6b6b" : "#3a2a1c" }));
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
    layer.replaceChildren();
    if (this.opts.replay) return;
    const colour = this.selection.tile ? KIND_COLOUR[this.selection.tile] : "#e3007d";
    if (this.selection.from) {
      const [r, c] = this.selection.from.split(",").map(Number);
      const [x, y] = centre(r, c);
      layer.appendChild(svg("polygon", { class: "selected-from", points: corners(x, y, R - 2.5), fill: "none", stroke: "#111", "stroke-width": 3.4, "stroke-dasharray": "5 3", "pointer-events": "none" }));
    }
    const targets = this.targets();
    this.svg.classList.toggle("choosing", targets.length > 0);
    for (const t of targets) {
      const [r, c] = t.hex.split(",").map(Number);
      const [x, y] = centre(r, c);
      const poly = svg("polygon", {
        class: `target target-${t.kind}`, "data-r": r, "data-c": c, "data-hex": t.hex,
        "data-action": t.action || "", points: corners(x, y, R - 2.6),
        fill: "#ffffff", "fill-opacity": 0.3, stroke: t.kind === "from" ? "#111" : colour, "stroke-width": 3.4, "stroke-linejoin": "round",
      });
      poly.appendChild(svg("title", { text: t.action ? actionWords(t.action) : `Move the settlement on ${t.hex}` }));
      layer.appendChild(poly);
    }
  }

  drawScoring() {
    const layer = this.layerScoring;
    layer.replaceChildren();
    const focus = this.pinned || this.hovered;
    const hexes = this.view.scoring_hexes;
    if (!focus || !hexes) return;
    const list = (hexes[String(focus.seat)] || {})[focus.card] || [];
    for (const [r, c] of list) {
      const [x, y] = centre(r, c);
      layer.appendChild(svg("polygon", { class: "scoring-hex", "data-r": r, "data-c": c, points: corners(x, y, R - 1), fill: "#fff45c", "fill-opacity": 0.55, stroke: "#d19a00", "stroke-width": 3 }));
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
      b.append(el("strong", { text: "Game over. " }), this.opts.winnersText ? this.opts.winnersText(view) : "");
      return;
    }
    const mover = view.to_move;
    if (mover === null || mover === undefined) {
      b.textContent = "Waiting.";
      return;
    }
    const p = obs.players[mover];
    const chip = el("span", { class: "seat-chip", style: { background: SEAT_COLOURS[mover], color: SEAT_INK[mover] } }, SEAT_NAMES[mover]);
    if (me === mover && !this.opts.replay) {
      b.classList.add("yours");
      const terrain = p.terrain;
      const built = obs.built_this_turn || 0;
      const need = Math.min(3, built + (p.supply || 0));
      const text = this.parsed.builds.size
        ? `Your turn: build on ${TERRAIN_WORD[terrain] || terrain} (${built} of ${need} built).`
        : this.parsed.end
          ? "Your mandatory build is done: use a tile or end your turn."
          : "Your turn: use a tile.";
      b.append(chip, " ", text);
      if (terrain) b.prepend(terrainSwatch(terrain, 26));
    } else {
      const name = seatName(view.seats, mover, me);
      const terrain = p && p.terrain;
      b.append(chip, ` ${name} ${this.opts.replay ? "to move" : "is playing"}${terrain ? ` on ${TERRAIN_WORD[terrain] || terrain}` : ""}.`);
    }
    if (obs.final_round) b.append(el("span", { class: "final-round", text: " Final round!" }));
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
    bar.hidden = view.seat === null || view.seat === undefined;
    const undo = el("button", { class: "btn", id: "undo-btn", disabled: !view.can_undo, title: "Take back your last action of this turn (Z)", onclick: () => this.opts.onUndo && this.opts.onUndo() }, "↶ Undo");
    const end = el("button", { class: "btn btn-primary", id: "end-btn", disabled: !(mine && this.parsed.end), onclick: () => this.act("end") }, "End turn");
    bar.append(undo);
    if (this.selection.tile) {
      const kind = this.selection.tile;
      bar.append(el("span", { class: "tile-chip selected", style: { background: KIND_COLOUR[kind] } }, capital(kind)),
        el("button", { class: "btn", id: "cancel-tile", onclick: () => this.clearSelection() }, "Cancel"));
    }
    bar.append(end);
    bar.append(el("button", {
      class: "btn small zoom-btn", id: "zoom-btn", "aria-pressed": String(this.mapBox.classList.contains("zoomed")),
      title: "Show the map larger (scroll to move around)",
      onclick: () => { this.mapBox.classList.toggle("zoomed"); this.drawActionBar(); },
    }, this.mapBox.classList.contains("zoomed") ? "Fit map" : "Zoom map"));
    // what the highlights mean
    let hint = "";
    if (mine) {
      if (this.selection.tile) {
        const kind = this.selection.tile;
        const t = this.parsed.tiles.get(kind);
        hint = t && t.move && !this.selection.from
          ? `${capital(kind)}: choose the settlement to move (outlined in black).`
          : `${capital(kind)}: choose a highlighted hex. ${TILE_TEXT[kind] || ""}`;
      } else if (this.parsed.builds.size) {
        hint = `Click a highlighted hex to build (${this.parsed.builds.size} possible).`;
        if (this.parsed.tiles.size) hint += " Or click a glowing tile to use it.";
      } else if (this.parsed.tiles.size) {
        hint = "Click a glowing tile to use it, or end your turn.";
      } else if (this.parsed.end) {
        hint = "No tile can be used now: end your turn.";
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
        el("h3", { text: "Your terrain card" }),
        terrain
          ? el("div", { class: "terrain-card", "data-terrain": terrain, style: { background: TERRAIN_FILL[TERRAIN_LETTER[terrain]] } }, terrainSwatch(terrain, 40), el("span", { text: TERRAIN_WORD[terrain] || terrain }))
          : el("div", { class: "muted", text: "none" })));
    }

    // players
    const players = el("div", { class: "panel players" }, el("h3", { text: "Players" }));
    const running = new Map(((view.scores && view.scores.players) || []).map((p) => [p.seat, p]));
    obs.players.forEach((p, seat) => {
      const moving = seat === view.to_move && !view.result;
      const card = el("div", { class: `player${moving ? " moving" : ""}`, "data-seat": seat, id: `player-${seat}` });
      const head = el("div", { class: "player-head" }, houseIcon(seat, 22),
        el("span", { class: "player-name", text: seatName(view.seats, seat, me) }),
        moving ? el("span", { class: "to-move", text: "to move" }) : null,
        el("span", { class: "gold", title: "Gold if the game ended now", text: `${(running.get(seat) || {}).total ?? 0} gold` }));
      const facts = el("div", { class: "player-facts" },
        el("span", { class: "supply", title: "Settlements left in the supply" }, el("b", { text: String(p.supply) }), " in supply"),
        p.terrain && seat !== me
          ? el("span", { class: "their-terrain" }, terrainSwatch(p.terrain, 18), " ", TERRAIN_WORD[p.terrain] || p.terrain)
          : seat !== me ? el("span", { class: "muted", text: "card hidden" }) : null);
      const tiles = el("div", { class: "tiles" });
      (p.tiles || []).forEach((t) => {
        const usable = !this.opts.replay && seat === me && moving && this.parsed.tiles.has(t.kind) && t.state === "ready";
        const selected = usable && this.selection.tile === t.kind;
        const chip = el("button", {
          class: `tile-chip state-${t.state}${usable ? " usable" : ""}${selected ? " selected" : ""}`,
          "data-kind": t.kind, "data-state": t.state, disabled: !usable,
          title: `${capital(t.kind)} (${t.state === "new" ? "new: usable from your next turn" : t.state === "used" ? "used this turn" : "ready"}): ${TILE_TEXT[t.kind]}`,
          style: { background: KIND_COLOUR[t.kind] },
          onclick: () => this.selectTile(t.kind),
        }, capital(t.kind), el("small", { text: t.state === "ready" ? "" : ` · ${t.state}` }));
        tiles.appendChild(chip);
      });
      if (!(p.tiles || []).length) tiles.appendChild(el("span", { class: "muted", text: "no tiles" }));
      card.append(head, facts, tiles);
      players.appendChild(card);
    });
    side.appendChild(players);

    // cards with their text and running gold
    if (!view.result) side.appendChild(this.scoreTable(false));

    // deck
    side.appendChild(el("div", { class: "panel deck muted" },
      `Terrain deck: ${obs.deck_count ?? (obs.deck ? obs.deck.length : "?")} cards`,
      obs.discard && obs.discard.length ? ` · discard: ${obs.discard.map((t) => TERRAIN_WORD[t] || t).join(", ")}` : ""));
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
    panel.appendChild(el("h3", { text: final ? "Final score" : "Cards and gold so far" }));
    if (final && this.opts.winnersText) panel.appendChild(el("p", { class: "winners", text: this.opts.winnersText(view) }));
    const table = el("table", { class: "score-table" });
    const head = el("tr", {}, el("th", { text: "Card" }));
    obs.players.forEach((_, seat) => head.appendChild(el("th", { class: "seat-col" }, houseIcon(seat, 16), el("span", { class: "sr-only", text: seatName(view.seats, seat, me) }))));
    table.appendChild(el("thead", {}, head));
    const body = el("tbody");
    const hasHexes = !!view.scoring_hexes;
    for (const card of rows) {
      const tr = el("tr", { "data-card": card });
      tr.appendChild(el("th", { class: "card-name" }, el("b", { text: capital(card) }), el("span", { class: "card-text", text: CARD_TEXT[card] || "" })));
      obs.players.forEach((_, seat) => {
        const p = bySeat.get(seat);
        const parts = p ? p.cards || p.breakdown || {} : {};
        const value = parts[card] ?? 0;
        const focus = this.pinned || this.hovered;
        const active = focus && focus.seat === seat && focus.card === card;
        const td = el("td", { class: `score-cell${hasHexes ? " has-hexes" : ""}${active ? " active" : ""}`, "data-seat": seat, "data-card": card, text: String(value), tabindex: hasHexes ? 0 : null });
        if (hasHexes) {
          td.title = "Hover or tap to see the hexes that scored this";
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
    const total = el("tr", { class: "total-row" }, el("th", { text: "Total" }));
    obs.players.forEach((_, seat) => {
      const p = bySeat.get(seat);
      const win = final && view.result.winners && view.result.winners.includes(seat);
      total.appendChild(el("td", { class: `total${win ? " winner" : ""}`, "data-seat": seat, text: String(p ? p.total : 0) }));
    });
    body.appendChild(total);
    table.appendChild(body);
    panel.appendChild(table);
    if (final && hasHexes) panel.appendChild(el("p", { class: "muted small", text: "Hover or tap a number to light up the hexes that scored it." }));
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
