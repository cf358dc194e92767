// The Builders: Middle Ages in the lobby (its plugin's web_lobby): the line saying what it is and its
// picture in the game choice (a seed is its only setup choice, and the lobby offers none).

import { el, t } from "/static/api.js";

export const blurb = () => t("lobby.builders_blurb");

export const art = () => el("span", { class: "game-art builders-art", "aria-hidden": "true" });
