// What happened to a seat besides its moves (a timeout, a resignation, a seat handed over or taken back):
// its words, and its line in a game's log after the move it followed (the table's log and the replay's).

import { el, t, SEAT_COLOURS, SEAT_NAMES } from "./api.js";

export function eventText(view, event) {
  // the person by their name (or the seat's colour), said the same on every page: the seat may be a bot's now
  const info = (view.seats || []).find((s) => s.seat === event.seat) || {};
  const name = info.name || SEAT_NAMES[event.seat] || t("seat.numbered", { seat: String(event.seat) });
  const level = event.bot ? t(`bot.level.${event.bot}`) : "";
  // a seat that lost by it is marked resigned (a timeout in a rated game); else its bot plays on for it
  const lost = Boolean(info.resigned);
  if (event.kind === "timeout") {
    if (!lost) return t("event.timeout_bot", { name, level });
    return event.bot ? t("event.timeout_lost_bot", { name, level }) : t("event.timeout_lost", { name });
  }
  if (event.kind === "resigned") return event.bot ? t("event.resigned_bot", { name, level }) : t("event.resigned", { name });
  if (event.kind === "handed_over") return t("event.handed_over", { name, level });
  return t("event.took_back", { name });
}

// The view's events by the number of the move each followed (0: before the first; one that followed a
// move since taken back, after the last move ``lastN``), each with its place in the view's events.
export function eventsByMove(view, lastN) {
  const byMove = new Map();
  (view.events || []).forEach((event, i) => {
    const at = Math.min(Math.max(0, event.after), lastN);
    byMove.set(at, [...(byMove.get(at) || []), [event, i]]);
  });
  return byMove;
}

// The log's line of the ``i``th event.
export function eventLine(view, event, i) {
  return el("li", { class: "event-line", "data-event": i, "data-kind": event.kind, "data-seat": event.seat },
    el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[event.seat] || "#999" } }),
    el("span", { text: eventText(view, event) }));
}
