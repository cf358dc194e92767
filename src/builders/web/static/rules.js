// The rules page (/static/rules.html): each game's rules, drawn by its own rules module (its plugin's
// web_rules: rules(), and optionally shortTitle() and guideLabel()), in the order of the server's list of
// games, with a link to each in the top bar and a button to start a first game with a guide for each game
// that has a guide. A game without a rules module is named, with a line saying its rules are not here.

import { el, toast, t, GAMES, GAME_TITLES } from "./api.js";
import { startGuidedGame } from "./tutorial.js";
import { p } from "./rules_parts.js";

async function guided(event, game) {
  event.target.disabled = true;
  try {
    await startGuidedGame(game);
  } catch (err) {
    toast(err.message);
    event.target.disabled = false;
  }
}

/** The rules module of ``game`` (null: none, or it failed to load). */
async function rulesOf(game) {
  if (!game.rules) return null;
  try {
    return await import(`./${game.rules}`);
  } catch (err) {
    return null;
  }
}

/** The game's article: its module's, else its title and a line saying its rules are not on the page. */
function article(game, part) {
  if (part && part.rules) return part.rules();
  return el("article", { class: "rules-game", id: game.name },
    el("h2", { text: GAME_TITLES[game.name] }), p(t("rules.none")));
}

async function main() {
  const parts = await Promise.all(GAMES.map(rulesOf));
  const short = (game, i) => (parts[i] && parts[i].shortTitle ? parts[i].shortTitle() : GAME_TITLES[game.name]);
  // the top bar links each game's rules, before the link to the lobby
  const nav = document.getElementById("rules-nav");
  nav.prepend(...GAMES.map((game, i) => el("a", { class: "btn small", href: `#${game.name}`, "data-game": game.name, text: short(game, i) })));
  const guides = GAMES.map((game, i) => [game, i]).filter(([game]) => game.guide);
  const root = document.getElementById("rules");
  root.replaceChildren(
    el("div", { class: "rules-intro panel" },
      el("p", { text: t("rules.intro") }),
      guides.length ? el("div", { class: "dialog-buttons start-guides" }, ...guides.map(([game, i], n) => el("button", {
        type: "button", class: n === 0 ? "btn btn-primary" : "btn", id: `guide-${game.name}`, onclick: (e) => guided(e, game.name),
      }, parts[i] && parts[i].guideLabel ? parts[i].guideLabel() : t("rules.guide_game", { game: short(game, i) })))) : null),
    ...GAMES.map((game, i) => article(game, parts[i])));
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
