// Kingdom Builder in the lobby (its plugin's web_lobby): the line saying what it is, its picture in the
// game choice, and the form of its setup (the first game's map and cards, random ones, or chosen ones).

import { el, t } from "/static/api.js";
import { SECTIONS, CARD_NAMES, CARD_TEXT, tileName, cardName } from "./kingdom.js";

const FIRST_SECTIONS = ["tavern", "paddock", "oasis", "farm"];
const FIRST_CARDS = ["fishermen", "merchants", "knights"];
const MODES = ["first", "random", "custom"];

export const blurb = () => t("lobby.kingdom_blurb");

export const art = () => el("span", { class: "game-art kingdom-art", "aria-hidden": "true" });

// A favourite card of a player's profile in words (its plugin's profile names the game's cards by id): ""
// when the id is not one of the game's cards.
export const favouriteName = (id) => (CARD_NAMES.includes(id) ? cardName(id) : "");

function radio(mode, checked, onchange) {
  return el("label", {}, el("input", { type: "radio", name: "mode", value: mode, checked, onchange }), " ",
    el("span", { text: t(`lobby.mode_${mode}`) }));
}

function sectionsChoice() {
  const grid = el("div", { class: "section-grid" });
  for (let slot = 0; slot < 4; slot++) {
    const select = el("select", { id: `section-${slot}`, "aria-label": t("lobby.section_slot", { slot: String(slot) }) });
    for (const name of SECTIONS) select.appendChild(el("option", { value: name, selected: name === FIRST_SECTIONS[slot], text: tileName(name) }));
    grid.appendChild(el("div", { class: "section-slot" }, select,
      el("label", { class: "small" }, el("input", { type: "checkbox", id: `turned-${slot}` }), ` ${t("lobby.turned")}`)));
  }
  return el("div", { class: "sections", id: "sections" }, el("div", { class: "label", text: t("lobby.sections") }), grid);
}

function cardsChoice() {
  const row = el("div", { class: "card-selects" });
  for (let i = 0; i < 3; i++) {
    const select = el("select", { id: `card-${i}`, "aria-label": t("lobby.card_n", { n: i + 1 }) });
    for (const name of CARD_NAMES) select.appendChild(el("option", { value: name, selected: name === FIRST_CARDS[i], text: cardName(name), title: CARD_TEXT[name] }));
    row.appendChild(select);
  }
  return el("div", { class: "cards-choice", id: "cards-choice" }, el("div", { class: "label", text: t("lobby.kb_cards") }), row);
}

/** The map and cards of a new game: the mode (first, random, custom) and the seed, and for a custom game the
 *  four sections (each maybe turned) and the three cards. ``seed``: the lobby's seed field, shown here. */
export function setupForm(seed) {
  const custom = el("div", { class: "custom", id: "custom", hidden: true }, sectionsChoice(), cardsChoice());
  const summary = el("span", { id: "setup-summary", text: t("lobby.summary.random") });
  const mode = () => (form.querySelector('input[name="mode"]:checked') || {}).value || "random";
  const changed = () => {
    custom.hidden = mode() !== "custom";
    summary.textContent = t(`lobby.summary.${mode()}`);
  };
  const form = el("details", { class: "kb-setup", id: "kb-setup" },
    el("summary", {}, el("span", { text: t("lobby.map_and_cards") }), " ", summary),
    el("div", { class: "form-row" }, ...MODES.map((m) => radio(m, m === "random", changed)), seed),
    custom);
  return {
    element: form,
    read(seedValue) {
      const setup = { mode: mode() };
      if (seedValue !== undefined) setup.seed = seedValue;
      if (setup.mode === "custom") {
        setup.sections = [0, 1, 2, 3].map((slot) => [form.querySelector(`#section-${slot}`).value, form.querySelector(`#turned-${slot}`).checked]);
        setup.cards = [0, 1, 2].map((i) => form.querySelector(`#card-${i}`).value);
        if (new Set(setup.sections.map((s) => s[0])).size !== 4) throw new Error(t("lobby.four_sections"));
        if (new Set(setup.cards).size !== 3) throw new Error(t("lobby.three_cards"));
      }
      return setup;
    },
  };
}
