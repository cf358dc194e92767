// The guide of Kingdom Builder: the walkthrough of a first game (the recommended first map against an
// easy bot) and the guide of any other game.

import { joinNames, t, touchScreen, SEAT_NAMES } from "/static/api.js";
import { ends, myTurn, others, scoreStep, waitText } from "/static/guide_steps.js";
import { cardName, terrainIn, tileName } from "./kingdom.js";

// a first game is played on the recommended first map
export const FIRST_SETUP = { mode: "first" };

function kbMe(view) {
  return view.view && view.view.players ? view.view.players[view.seat] || {} : {};
}

export const FIRST_STEPS = [
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
    text: () => t(touchScreen() ? "guide.kb.build_touch" : "guide.kb.build"),
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
    text: () => t(touchScreen() ? "guide.kb.end_touch" : "guide.kb.end"),
    point: "#end-btn",
    done: (view) => ends(view) > 0,
  },
  {
    title: () => t("guide.kb.use.title"),
    text: (view) => {
      const ready = (kbMe(view).tiles || []).filter((tile) => tile.state === "ready");
      if (!ready.length) return t("guide.kb.use.none");
      return t(touchScreen() ? "guide.kb.use.ready_touch" : "guide.kb.use.ready", { tile: tileName(ready[0].kind) });
    },
    point: "#player-0 .tiles",
    done: (view) => ends(view) > 1 || (view.to_move === view.seat && ends(view) === 1
      && ((kbMe(view).tiles || []).some((tile) => tile.state === "used") || (view.legal || []).includes("end"))),
  },
  scoreStep("guide.kb.score"),
];

// the guide of any other game: this game's parts, what to do now, the score
export const GAME_STEPS = [
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
      return t(touchScreen() ? "guide.kb.now.end_touch" : "guide.kb.now.end");
    },
    point: "#kb-map",
    next: true,
  },
  { ...FIRST_STEPS[FIRST_STEPS.length - 1] },
];
