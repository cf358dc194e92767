// A player's page (/players/{name}): ratings per game, their history as a plot, games played, win rate,
// mean score, favourite cards and each finished game with its replay.

import { api, el, svg, GAMES, GAME_TITLES, gameColour, t } from "./api.js";
import { formatNumber } from "./i18n.js";

// ratings are whole numbers on the familiar scale (1500 for a new player); "?" marks a provisional one
const one = (x) => formatNumber(Math.round(x), { maximumFractionDigits: 0, useGrouping: false });
import { mountAccount } from "./account.js";

const $ = (id) => document.getElementById(id);

function plot(history) {
  const box = $("rating-plot");
  if (!history.length) {
    box.replaceChildren(el("p", { class: "muted", text: t("lobby.no_rated") }));
    return;
  }
  const W = 460, H = 200, P = 30;
  const values = history.map((h) => h.rating);
  const lo = Math.min(1500, ...values) - 25, hi = Math.max(1500, ...values) + 25;
  const x = (i) => P + (history.length === 1 ? (W - 2 * P) / 2 : (i * (W - 2 * P)) / (history.length - 1));
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo || 1);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": t("profile.chart") },
    svg("line", { x1: P, y1: H - P, x2: W - P, y2: H - P, stroke: "#998" }),
    svg("text", { x: 2, y: y(hi) + 4, "font-size": 10, text: one(hi) }),
    svg("text", { x: 2, y: y(lo) + 4, "font-size": 10, text: one(lo) }));
  // a line for each game, in its own colour
  for (const { name: game } of GAMES) {
    const points = history.map((h, i) => [h, i]).filter(([h]) => h.game === game);
    if (!points.length) continue;
    chart.appendChild(svg("polyline", { points: points.map(([h, i]) => `${x(i)},${y(h.rating)}`).join(" "), fill: "none", stroke: gameColour(game), "stroke-width": 2, "data-game": game }));
    for (const [h, i] of points) {
      chart.appendChild(svg("circle", { cx: x(i), cy: y(h.rating), r: 3.5, fill: gameColour(game), class: "rating-point", "data-game-id": h.game_id },
        svg("title", { text: t("profile.point", { game: GAME_TITLES[game], rating: `${one(h.rating)} (${h.change > 0 ? "+" : h.change < 0 ? "−" : "±"}${one(Math.abs(h.change))})`, rank: h.rank }) })));
    }
  }
  box.replaceChildren(chart);
}

// Each game's way of naming its favourite cards, by game: its lobby module's favouriteName(id)
async function namers() {
  const parts = await Promise.all(GAMES.filter((g) => g.lobby).map(async (g) => [g.name, await import(`./${g.lobby}`).catch(() => null)]));
  return Object.fromEntries(parts.filter(([, part]) => part && part.favouriteName).map(([game, part]) => [game, part.favouriteName]));
}

// The favourite cards under each game's name, in words: by the name its game gives a card, else as it comes.
function favourites(cards, names) {
  const byGame = new Map();
  for (const { game, card } of cards) byGame.set(game, [...(byGame.get(game) || []), (names[game] && names[game](card)) || card]);
  if (!byGame.size) return "–";
  return [...byGame].map(([game, words]) => el("div", { class: "favourite-game", "data-game": game },
    el("b", { text: GAME_TITLES[game] || game }), el("div", { class: "favourite-names", text: words.join(", ") })));
}

async function main() {
  mountAccount();
  const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  let profile;
  try {
    profile = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    $("profile-stats").replaceChildren(el("dt", { class: "error-text", text: err.message }));
    return;
  }
  document.title = t("page.profile.named", { name: profile.username });
  $("player-title").textContent = profile.username;
  const names = await namers();
  const rows = [];
  for (const [game, r] of Object.entries(profile.ratings)) {
    rows.push(el("dt", { text: t("profile.rating", { game: GAME_TITLES[game] || game }) }), el("dd", { "data-game": game, class: "rating", text: t("profile.rating_value", { rating: `${one(r.rating)}${r.provisional ? "?" : ""}`, count: r.games }) }));
  }
  rows.push(el("dt", { text: t("profile.games_played") }), el("dd", { id: "games-played", text: formatNumber(profile.games_played) }));
  rows.push(el("dt", { text: t("profile.win_rate") }), el("dd", { id: "win-rate", text: profile.win_rate === null ? "–" : formatNumber(profile.win_rate, { style: "percent", maximumFractionDigits: 0 }) }));
  rows.push(el("dt", { text: t("profile.mean_score") }), el("dd", { id: "mean-score", text: profile.mean_score === null ? "–" : formatNumber(profile.mean_score) }));
  rows.push(el("dt", { text: t("profile.favourite_cards") }), el("dd", { id: "favourite-cards" }, favourites(profile.favourite_cards, names)));
  $("profile-stats").replaceChildren(...rows);
  plot(profile.history);
  $("profile-games").replaceChildren(...(profile.games.length ? profile.games.map((g) => el("li", { class: "game-row", "data-id": g.id },
    el("div", { class: "game-row-main" }, el("b", { text: g.name || GAME_TITLES[g.game] || g.game }),
      el("div", { class: "small muted", text: `${g.won ? t("profile.won") : t("profile.lost")} · ${t("profile.points", { scores: g.scores.map((s) => formatNumber(s)).join(", ") })}${g.rated ? ` · ${t("profile.rated")}` : ""}` })),
    el("div", { class: "game-row-actions" }, el("a", { class: "btn small", href: g.replay }, t("common.replay")))))
    : [el("li", { class: "muted", text: t("lobby.no_finished") })]));
}

main();
