// The guide of The Builders: Middle Ages: the walkthrough of a first game against an easy bot and the
// guide of any other game. On a touch screen it says "tap", and tells of no keys.

import { t, touchScreen, SEAT_NAMES } from "/static/api.js";
import { ends, myTurn, others, scoreStep, waitText } from "/static/guide_steps.js";

// a first game is dealt at random, as any other
export const FIRST_SETUP = null;

export const FIRST_STEPS = [
  {
    title: () => t("guide.ma.welcome.title"),
    text: () => t(touchScreen() ? "guide.ma.welcome_touch" : "guide.ma.welcome"),
    next: true,
  },
  {
    title: () => t("guide.ma.open.title"),
    text: () => t(touchScreen() ? "guide.ma.open_touch" : "guide.ma.open"),
    point: "#building-row",
    done: (view) => ((view.view.players[view.seat] || {}).sites || []).length > 0,
  },
  {
    title: () => t("guide.ma.send.title"),
    text: () => t(touchScreen() ? "guide.ma.send_touch" : "guide.ma.send"),
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
  scoreStep("guide.ma.score"),
];

// the guide of any other game: this game's parts, what to do now, the score
export const GAME_STEPS = [
  {
    title: () => t("guide.game.title"),
    text: (view) => {
      const me = view.view.players[view.seat] || {};
      return t("guide.ma.game", { colour: SEAT_NAMES[view.seat], others: others(view), vp: me.vp ?? 0, coins: t("ma.coins", { count: me.coins ?? 0 }) });
    },
    point: "#building-row",
    next: true,
  },
  {
    title: () => t("guide.now.title"),
    text: (view) => {
      if (!myTurn(view)) return waitText(view);
      const left = view.view.actions_left;
      const me = view.view.players[view.seat] || {};
      const actions = t("ma.actions", { count: left });
      if (!left) return t(touchScreen() ? "guide.ma.now.end_touch" : "guide.ma.now.end");
      if (!(me.sites || []).length) return t("guide.ma.now.open", { actions });
      if ((view.legal || []).some((a) => a.startsWith("send "))) return t("guide.ma.now.send", { actions });
      return t("guide.ma.now.other", { actions });
    },
    point: "#action-bar",
    next: true,
  },
  { ...FIRST_STEPS[FIRST_STEPS.length - 1] },
];
