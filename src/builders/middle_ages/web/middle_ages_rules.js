// The Builders: Middle Ages on the rules page (its plugin's web_rules): its cards, a turn and every
// action, drawn as on the table. Every part has an id (ma-send, ma-buy, ...): the table's "?" buttons
// open the page there.

import { el, t } from "/static/api.js";
import { cardElement, resourceIcon, coinBadge, resourceWord, legendPanel } from "./middle_ages.js";
import { section, p } from "/static/rules_parts.js";

export const shortTitle = () => t("game.middle_ages_short");

export const guideLabel = () => t("rules.guide_builders");

/** The rules of The Builders: its article of the page (id "middle-ages"). */
export function rules() {
  const res = (name) => el("span", { class: "res" }, resourceIcon(name, 16), ` ${resourceWord(name)}`);
  return el("article", { class: "rules-game", id: "middle-ages" },
    el("h2", { text: t("game.middle_ages") }),
    el("nav", { class: "rules-toc", "aria-label": t("rules.contents", { game: t("game.middle_ages_short") }) },
      ...[["ma-goal", t("rules.toc.ma-goal")], ["ma-cards", t("rules.toc.ma-cards")], ["ma-turn", t("rules.toc.ma-turn")], ["ma-open", t("rules.toc.ma-open")], ["ma-recruit", t("rules.toc.ma-recruit")],
        ["ma-send", t("rules.toc.ma-send")], ["ma-coins", t("rules.toc.ma-coins")], ["ma-buy", t("rules.toc.ma-buy")], ["ma-complete", t("rules.toc.ma-complete")],
        ["ma-machines", t("rules.toc.ma-machines")], ["ma-end", t("rules.toc.ma-end")], ["ma-table", t("rules.toc.ma-table")]]
        .map(([id, label]) => el("a", { href: `#${id}`, text: label }))),
    section("ma-goal", t("rules.title.ma-goal"),
      p(t("rules.ma-goal.1")),
      p(t("rules.ma-goal.2"))),
    section("ma-cards", t("rules.title.ma-cards"),
      el("p", {}, `${t("rules.ma.four")} `, res("stone"), ", ", res("wood"), ", ", res("knowledge"), ` ${t("rules.ma.and")} `, res("tile"), "."),
      el("div", { class: "card-examples" },
        el("figure", {}, cardElement("W19"), el("figcaption", { text: t("rules.ma-cards.1") })),
        el("figure", {}, cardElement("B06"), el("figcaption", { text: t("rules.ma-cards.2") })),
        el("figure", {}, cardElement("M1"), el("figcaption", { text: t("rules.ma-cards.3") }))),
      p(t("rules.ma-cards.4"))),
    section("ma-turn", t("rules.title.ma-turn"),
      p(t("rules.ma-turn.1")),
      el("p", { class: "muted", text: t("rules.ma-turn.2") })),
    section("ma-open", t("rules.title.ma-open"),
      p(t("rules.ma-open.1"))),
    section("ma-recruit", t("rules.title.ma-recruit"),
      p(t("rules.ma-recruit.1"))),
    section("ma-send", t("rules.title.ma-send"),
      p(t("rules.ma-send.1")),
      el("div", { class: "rule-example" }, el("p", {}, el("span", { class: "example-tag", text: t("rules.example") }),
        ` ${t("rules.ma.send_example")}`))),
    section("ma-coins", t("rules.title.ma-coins"),
      el("ul", {},
        el("li", {}, `${t("rules.ma.n_actions", { count: 1 })} `, coinBadge(1)),
        el("li", {}, `${t("rules.ma.n_actions", { count: 2 })} `, coinBadge(3)),
        el("li", {}, `${t("rules.ma.n_actions", { count: 3 })} `, coinBadge(6)))),
    section("ma-buy", t("rules.title.ma-buy"),
      p(t("rules.ma-buy.1"))),
    section("ma-complete", t("rules.title.ma-complete"),
      p(t("rules.ma-complete.1"))),
    section("ma-machines", t("rules.title.ma-machines"),
      p(t("rules.ma-machines.1"))),
    section("ma-end", t("rules.title.ma-end"),
      p(t("rules.ma-end.1")),
      p(t("rules.ma-end.2"))),
    section("ma-table", t("rules.title.ma-table"), legendPanel()));
}
