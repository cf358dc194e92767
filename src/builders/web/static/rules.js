// The rules page (/static/rules.html): both games explained with the table's own drawings. Every part has
// an id (kb-tile-oracle, kb-card-lords, ma-send, ...): the "?" buttons of the table open the page there.

import { el, svg, toast, SEAT_COLOURS } from "./api.js";
import { startGuidedGame } from "./tutorial.js";
import {
  TERRAIN_FILL, TERRAIN_WORD, KIND_COLOUR, TILE_TEXT, CARD_TEXT, SECTIONS, locationIcon, ensureSprite, capital,
  legendPanel,
} from "./kingdom.js";
import { cardElement, resourceIcon, coinBadge, legendPanel as buildersLegend } from "./middle_ages.js";

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

const TILE_MORE = {
  oracle: "The terrain is the one on the card you play this turn.",
  farm: "Grass, whatever card you play this turn.",
  oasis: "Desert, whatever card you play this turn.",
  tower: "Any of the five building terrains, as long as the hex touches the edge of the whole map. Among those edge hexes, the ones next to your settlements come first.",
  tavern: "Look along the three straight directions of the grid: where 3 or more of your settlements stand in an unbroken line, you may build on the free hex at either end. Adjacency does not apply.",
  barn: "Lift one of your settlements and put it on a free hex of the terrain of your card. It may even go back where it was. The usual adjacency applies, judged without the lifted settlement.",
  harbor: "The only way onto water: lift one of your settlements and put it on a free water hex, next to your others if you can.",
  paddock: "Jump one settlement exactly two hexes in a straight line, over anything (water, mountains, castles, other settlements). It must land on a free hex of one of the five building terrains. Adjacency does not apply.",
};

const CARD_EXAMPLES = {
  castles: {
    text: "Two of your settlements touch the castle: the castle counts once, 3 gold.",
    rows: ["G G+ G", "G K G+", "G G G"],
  },
  fishermen: {
    text: "Three settlements; two of them touch water: 2 gold. A settlement standing on water scores nothing here.",
    rows: ["W W G", "G+ W G+", "G G G G+"],
  },
  miners: {
    text: "The two settlements beside the mountains give 1 gold each: 2 gold.",
    rows: ["M G+ G", "G M G+", "C+ C C"],
  },
  merchants: {
    text: "One chain of your settlements joins the castle and the oasis: both are linked, 2 × 4 = 8 gold.",
    rows: ["K G+ G+ L:oasis", "G G G G"],
  },
  workers: {
    text: "One settlement touches the castle, another the tavern: 2 gold. The third touches neither.",
    rows: ["K G+ G G+ L:tavern", "G G G+ G G"],
  },
  discoverers: {
    text: "Your settlements stand on 3 different horizontal rows: 3 gold, however many there are on each row.",
    rows: ["G+ G+ G", "G G G+", "G G+ G"],
  },
  knights: {
    text: "Your best row holds 3 settlements: 2 × 3 = 6 gold. The other rows do not count.",
    rows: ["G+ G+ G+ G", "G G G+ G", "G G G G"],
  },
  hermits: {
    text: "Three separate groups (a lone settlement is a group): 3 gold. Spread out to score.",
    rows: ["G+ G G G+", "G G G G", "G+ G+ G G"],
  },
  lords: {
    text: "In one quarter of the map you have 6 settlements, Blue 4 and White 4: you take 12 gold, Blue and White 6 each. Every quarter is scored this way.",
  },
  citizens: {
    text: "Your largest group holds 7 settlements: 3 gold (1 per 2, rounded down). Smaller groups add nothing.",
  },
  farmers: {
    text: "Your quarters hold 9, 5, 4 and 2 settlements: the poorest holds 2, so 3 × 2 = 6 gold. A quarter with none gives 0.",
  },
};

const TERRAINS_SHOWN = [
  ["grass", "G", "Build here when you play a grass card."],
  ["canyon", "C", "Build here when you play a canyon card."],
  ["desert", "D", "Build here when you play a desert card."],
  ["flower", "F", "Build here when you play a flower field card."],
  ["forest", "T", "Build here when you play a forest card."],
  ["water", "W", "Nobody builds here; only the Harbor moves a settlement onto water."],
  ["mountain", "M", "Nobody ever builds here."],
  ["castle", "K", "Nobody builds here; settlements next to a castle score 3 gold at the end."],
];

function terrainTile(letter, size = 40) {
  ensureSprite();
  const s = svg("svg", { viewBox: "-20 -20 40 40", width: size, height: size, "aria-hidden": "true", class: "terrain-swatch" });
  s.appendChild(svg("polygon", { points: hexPoints(0, 0, 19), fill: TERRAIN_FILL[letter], stroke: "#6f6252" }));
  s.appendChild(svg("use", { href: `#kb-${letter}` }));
  return s;
}

function section(id, title, ...children) {
  return el("section", { class: "rules-part", id, tabindex: -1 }, el("h3", {}, title, el("a", { class: "anchor", href: `#${id}`, "aria-label": `Link to ${title}` }, "#")), ...children);
}

function p(text) {
  return el("p", { text });
}

function kingdomRules() {
  const tiles = SECTIONS.map((kind) => section(`kb-tile-${kind}`, capital(kind),
    el("div", { class: "rule-with-picture" }, locationIcon(kind, 48),
      el("div", {}, el("p", {}, el("b", { text: TILE_TEXT[kind] })), p(TILE_MORE[kind])))));
  const cards = ["castles", "fishermen", "miners", "merchants", "workers", "discoverers", "knights", "hermits", "lords", "citizens", "farmers"]
    .map((card) => {
      const ex = CARD_EXAMPLES[card];
      return section(`kb-card-${card}`, capital(card),
        el("p", {}, el("b", { text: CARD_TEXT[card] })),
        el("div", { class: "rule-example" },
          ex.rows ? miniMap(ex.rows, `Example for ${capital(card)}: ${ex.text}`) : null,
          el("p", {}, el("span", { class: "example-tag", text: "Example" }), " ", ex.text)));
    });
  return el("article", { class: "rules-game", id: "kingdom" },
    el("h2", { text: "Kingdom Builder" }),
    el("nav", { class: "rules-toc", "aria-label": "Kingdom Builder contents" },
      ...[["kb-goal", "Goal"], ["kb-turn", "A turn"], ["kb-terrains", "Terrains"], ["kb-building", "Where to build"],
        ["kb-tiles", "Location tiles"], ["kb-cards", "Scoring cards"], ["kb-end", "The end"], ["kb-table", "Reading the table"]]
        .map(([id, t]) => el("a", { href: `#${id}`, text: t }))),
    section("kb-goal", "Goal",
      p("Each player builds a kingdom of small houses (settlements) on a map of hexes. Three scoring cards, different in every game, say what earns gold at the end; castles always do. Whoever has the most gold when the game ends wins."),
      p("Everyone starts with 40 settlements in their supply and one hidden terrain card.")),
    section("kb-turn", "A turn",
      el("ol", {},
        el("li", { text: "Show your terrain card: it is the terrain you play all turn." }),
        el("li", { text: "Build 3 settlements, one after the other, on free hexes of that terrain (fewer only if your supply runs out). The three builds come together: no tile in between." }),
        el("li", { text: "Before or after those three builds, use each tile you hold once, if you like." }),
        el("li", { text: "End the turn: your card is discarded and you draw the next one, which stays hidden until your next turn." })),
      p("If no hex of your terrain is free, that card leaves the game and you draw another at once.")),
    section("kb-terrains", "Terrains",
      el("div", { class: "terrain-list" }, TERRAINS_SHOWN.map(([word, letter, text]) =>
        el("div", { class: "terrain-item", "data-terrain": letter }, terrainTile(letter),
          el("div", {}, el("b", { text: capital(TERRAIN_WORD[word] || word) }), el("br"), el("span", { class: "muted", text })))))),
    section("kb-building", "Where to build: next to your own",
      el("div", { class: "rule-example" },
        miniMap(["C C+ C", "C C G", "G C C"], "Red owns one settlement on canyon; the two canyon hexes next to it must be used first."),
        p("Every new settlement must go next to one of yours if a suitable free hex next to yours exists. Only when none does may you start somewhere new on that terrain. Here Red plays canyon: the canyon hexes touching the red house must be filled first.")),
      p("One settlement per hex. Nobody builds on water, mountains, castles or locations.")),
    section("kb-tiles", "Location tiles",
      p("Each location hex starts with 2 tiles. When you build (or move) a settlement next to a location, take one of its tiles, if one is left and you never took one from that hex before."),
      p("A tile taken this turn can be used from your next turn. Each tile you hold gives one extra action per turn, before or after your three builds."),
      p("You keep a tile only while one of your settlements stands next to the location it came from: move the last one away and the tile is lost."),
      el("div", { class: "tile-grid" }, tiles)),
    section("kb-cards", "Scoring cards",
      p("Three cards are dealt for each game; castles always score too. Nothing is scored during the game: the table shows what each card would give if the game ended now."),
      el("div", { class: "card-grid" }, cards)),
    section("kb-end", "The end",
      p("As soon as someone's supply is empty, the round is played out: the game ends after the last player in turn order has had their turn, so everyone gets the same number of turns."),
      p("Then every card is scored for every player. The most gold wins; equal top scores share the win.")),
    section("kb-table", "Reading the table", legendPanel()));
}

// ------------------------------------------------------------------------------------------------
// The Builders: Middle Ages

function buildersRules() {
  const res = (name) => el("span", { class: "res" }, resourceIcon(name, 16), ` ${name}`);
  return el("article", { class: "rules-game", id: "middle-ages" },
    el("h2", { text: "The Builders: Middle Ages" }),
    el("nav", { class: "rules-toc", "aria-label": "The Builders contents" },
      ...[["ma-goal", "Goal"], ["ma-cards", "The cards"], ["ma-turn", "A turn"], ["ma-open", "Open"], ["ma-recruit", "Recruit"],
        ["ma-send", "Send"], ["ma-coins", "Take coins"], ["ma-buy", "Buy actions"], ["ma-complete", "Completing"],
        ["ma-machines", "Machines"], ["ma-end", "The end"], ["ma-table", "Reading the table"]]
        .map(([id, t]) => el("a", { href: `#${id}`, text: t }))),
    section("ma-goal", "Goal",
      p("You run a building firm. Hire workers, open building sites and send workers to them; each finished building pays coins and victory points (VP). The game ends once someone reaches 17 VP; the most VP wins, and every full 10 coins adds 1 VP."),
      p("Everyone starts with 10 coins and one apprentice.")),
    section("ma-cards", "The cards",
      el("p", {}, "Four resources: ", res("stone"), ", ", res("wood"), ", ", res("knowledge"), " and ", res("tile"), "."),
      el("div", { class: "card-examples" },
        el("figure", {}, cardElement("W19"), el("figcaption", { text: "A worker: what it brings to a site (here 1 of each), and the coins you pay each time you send it." })),
        el("figure", {}, cardElement("B06"), el("figcaption", { text: "A building: what it needs, then the coins and VP it gives when complete." })),
        el("figure", {}, cardElement("M1"), el("figcaption", { text: "A machine: built like a building, then it works for you for free." }))),
      p("Workers come as apprentices (cost 2), labourers (3), craftsmen (4) and masters (5): the cost is always the total they produce.")),
    section("ma-turn", "A turn",
      p("You have 3 actions and must use them all (you may buy more). Do any of the actions below, in any order, as often as your actions allow. The turn ends when no action is left."),
      el("p", { class: "muted", text: "The table shows the price of every action on its button before you click." })),
    section("ma-open", "Open a site (1 action)",
      p("Take a building or a machine from the row and put it in front of you as a site. The row is refilled from the deck at once. You may have several sites open.")),
    section("ma-recruit", "Recruit a worker (1 action)",
      p("Take a worker from the row into your crew. Taking it is free; you pay each time you send it. The row is refilled at once.")),
    section("ma-send", "Send a worker",
      p("Send a worker of your crew to one of your open sites and pay its cost in coins. The first worker sent to a site this turn costs 1 action, the second to the same site this turn 2 actions, the third 3, and so on; sending to different sites costs 1 action each. The worker stays there until the site is complete."),
      el("div", { class: "rule-example" }, el("p", {}, el("span", { class: "example-tag", text: "Example" }),
        " Two workers to the same site in one turn: 1 + 2 = 3 actions. The same two workers to two different sites: 1 + 1 = 2 actions."))),
    section("ma-coins", "Take coins",
      el("ul", {},
        el("li", {}, "1 action: ", coinBadge(1)),
        el("li", {}, "2 actions: ", coinBadge(3)),
        el("li", {}, "3 actions: ", coinBadge(6)))),
    section("ma-buy", "Buy an action (5 coins)",
      p("At any moment of your turn, pay 5 coins for one more action, as often as you can pay.")),
    section("ma-complete", "Completing a building",
      p("As soon as the workers on a site together bring at least what it needs in every resource, it is complete (this costs no action). Its workers come back to your crew at once and may be sent again this turn; you take the building's coins, and its VP count for you.")),
    section("ma-machines", "Machines",
      p("A machine is opened and completed like a building. It gives VP but no coins, and once complete it joins your crew as a worker that costs nothing to send.")),
    section("ma-end", "The end",
      p("When a player ends a turn with 17 VP or more from completed buildings and machines, the round is played out so that everyone has had the same number of turns. The game also ends after a round when no site can be completed any more."),
      p("Score: VP of your completed cards, plus 1 VP for every full 10 coins. Unfinished sites give nothing. Ties go to the most VP from cards, then the most coins.")),
    section("ma-table", "Reading the table", buildersLegend()));
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
      el("p", { text: "Two games, explained with the pictures of the table. New to them? Play a first game with a guide: an easy bot as the opponent, and a hint at each step of your first turns." }),
      el("div", { class: "dialog-buttons start-guides" },
        el("button", { type: "button", class: "btn btn-primary", id: "guide-kingdom", onclick: (e) => guided(e, "kingdom") }, "First game of Kingdom Builder, with a guide"),
        el("button", { type: "button", class: "btn", id: "guide-middle-ages", onclick: (e) => guided(e, "middle-ages") }, "First game of The Builders, with a guide"))),
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
