// What the games' guides share (each game's guide is a module of its own, named by its plugin's
// web_guide: it exports FIRST_STEPS, GAME_STEPS and FIRST_SETUP). A step: title, text(view, ctx),
// done(view, ctx) -> true once the player did it (or next: a "Next" button), and the selector of
// what to point at.

import { joinNames, seatName, t } from "./api.js";

// how many turns this seat has ended so far
export function ends(view) {
  return (view.log || []).filter((e) => e.seat === view.seat && e.action === "end").length;
}

export function others(view) {
  const seats = (view.view.players || []).map((p, i) => p.seat ?? i).filter((s) => s !== view.seat);
  return joinNames(seats.map((s) => seatName(view.seats, s, view.seat)));
}

export function myTurn(view) {
  return view.to_move === view.seat && !view.result;
}

export function waitText(view) {
  return t("guide.now.wait", { name: seatName(view.seats, view.to_move, view.seat) });
}

// the last step of every guide: how to read the score (its text under ``key``)
export function scoreStep(key) {
  return { title: () => t("guide.score.title"), text: () => t(key), point: "#running-scores", next: true, last: true };
}
