// The Builders: Middle Ages in the lobby (its plugin's web_lobby): the line saying what it is and its
// picture in the game choice (a seed is its only setup choice, and the lobby offers none); the name of
// one of its cards on a profile.

import { el, t } from "/static/api.js";

export const blurb = () => t("lobby.builders_blurb");

export const art = () => el("span", { class: "game-art builders-art", "aria-hidden": "true" });

// A favourite card of a player's profile in words (its plugin's profile names the buildings and machines
// by id): "" when the id is not one of them.
export { cardName as favouriteName } from "./middle_ages.js";
