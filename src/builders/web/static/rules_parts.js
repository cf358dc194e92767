// The parts of the rules page that every game's rules module (its plugin's web_rules) builds with: a
// part of the rules with its id (the table's "?" links open the page there) and a paragraph.

import { el, t } from "./api.js";

/** A part of a game's rules: a heading with a link to itself, then ``children``. */
export function section(id, title, ...children) {
  return el("section", { class: "rules-part", id, tabindex: -1 }, el("h3", {}, title, el("a", { class: "anchor", href: `#${id}`, "aria-label": t("rules.link_to", { title }) }, "#")), ...children);
}

export function p(text) {
  return el("p", { text });
}
