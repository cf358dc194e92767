// The Builders: Middle Ages at the table: rows of cards, crews, sites and their progress, prices of actions.

import { el, svg, SEAT_COLOURS, SEAT_INK, SEAT_NAMES, seatName, t, touchScreen } from "/static/api.js";
import { CARDS, RESOURCES } from "./ma_cards.js";

const RES_COLOUR = { stone: "#8d8a84", wood: "#9a6232", knowledge: "#2f6fb0", tile: "#c4502c" };
/** A resource in words ("stone"), a kind of card ("Apprentice"), a building's or machine's printed name. */
export const resourceWord = (res) => t(`ma.res.${res}`);
const kindWord = (kind) => t(`ma.kind.${kind}`);
export const cardName = (id) => (CARDS[id] && CARDS[id].name ? t(`ma.card.${id}`) : "");

export function resourceIcon(res, size = 14) {
  const s = svg("svg", { viewBox: "-8 -8 16 16", width: size, height: size, class: `res-icon res-${res}`, "aria-hidden": "true" });
  const c = RES_COLOUR[res];
  if (res === "stone") {
    s.appendChild(svg("path", { d: "M-6,3 L-4,-4 L2,-6 L6,-1 L4,5 L-3,6 Z", fill: c, stroke: "#4f4c47", "stroke-width": 1 }));
  } else if (res === "wood") {
    s.appendChild(svg("rect", { x: -7, y: -4, width: 12, height: 8, rx: 2, fill: c, stroke: "#5a3512", "stroke-width": 1 }));
    s.appendChild(svg("ellipse", { cx: 5, cy: 0, rx: 2.4, ry: 4, fill: "#d7a56c", stroke: "#5a3512", "stroke-width": 1 }));
  } else if (res === "knowledge") {
    s.appendChild(svg("path", { d: "M-7,-5 Q-3,-7 0,-4 Q3,-7 7,-5 V6 Q3,4 0,6 Q-3,4 -7,6 Z", fill: c, stroke: "#1c446e", "stroke-width": 1 }));
    s.appendChild(svg("path", { d: "M0,-4 V6", stroke: "#dbe8f7", "stroke-width": 1 }));
  } else {
    s.appendChild(svg("path", { d: "M-7,5 L-5,-5 H5 L7,5 Z", fill: c, stroke: "#7c2a12", "stroke-width": 1 }));
    s.appendChild(svg("path", { d: "M-3,-5 L-4,5 M3,-5 L4,5", stroke: "#f2b199", "stroke-width": 1 }));
  }
  return s;
}

function resList(amounts, cls = "res-list") {
  const box = el("div", { class: cls });
  RESOURCES.forEach((res, i) => {
    if (!amounts || !amounts[i]) return;
    box.appendChild(el("span", { class: "res", title: t("ma.amount", { n: amounts[i], res: resourceWord(res) }) }, resourceIcon(res), el("b", { text: String(amounts[i]) })));
  });
  return box;
}

export function coinBadge(n, cls = "coin") {
  return el("span", { class: cls, title: t("ma.coins", { count: n }) }, el("span", { class: "coin-disc" }), String(n));
}

function vpBadge(n) {
  return el("span", { class: "vp", title: t("ma.vp_title", { count: n }) }, t("ma.vp", { n }));
}

// A "?" that opens the rules page at the part that explains something (in a new tab: the game stays).
export function helpLink(part, what) {
  return el("a", {
    class: "help-link", href: `/static/rules.html#${part}`, target: "_blank", rel: "noopener",
    "aria-label": t("help.label", { what }), title: t("help.title", { what }), "data-part": part,
  }, "?");
}

// What the marks of the table mean (also on the rules page).
export function legendPanel() {
  const touch = touchScreen();  // "tap", and no keys to tell of
  const row = (pic, text) => el("li", { class: "legend-row" }, pic, el("span", { text }));
  const bar = (done, need) => el("div", { class: "progress legend-bar" }, el("div", { class: `bar-row${done >= need ? " met" : ""}` },
    resourceIcon("wood", 12), el("div", { class: "bar" }, el("div", { class: "fill", style: { width: `${(100 * Math.min(done, need)) / need}%`, background: RES_COLOUR.wood } })),
    el("span", { class: "bar-num", text: `${done}/${need}` })));
  return el("div", { class: "legend-panel" }, el("ul", { class: "legend" },
    row(el("span", { class: "legend-res" }, RESOURCES.map((r) => el("span", { class: "res" }, resourceIcon(r, 16), ` ${resourceWord(r)}`))), t("ma.legend.resources")),
    row(bar(1, 3), t("ma.legend.bar")),
    row(el("span", { class: "legend-cards" }, el("span", { class: "ma-card sample sendable", text: "W07" })), t(touch ? "ma.legend.worker_touch" : "ma.legend.worker")),
    row(el("span", { class: "legend-cards" }, coinBadge(3), " ", el("span", { class: "vp", text: t("ma.vp", { n: 1 }) })), t("ma.legend.coins")),
    row(el("span", { class: "price", text: describeCost({ actions: 2, coins: 3 }) }), t(touch ? "ma.legend.price_touch" : "ma.legend.price"))),
  touch ? null : el("p", { class: "muted small" }, t("ma.legend.keys")));
}

export function describeCost(cost) {
  if (!cost) return "";
  const parts = [];
  if (cost.actions !== undefined && cost.actions >= 0) parts.push(t("ma.actions", { count: cost.actions }));
  if (cost.coins > 0) parts.push(t("ma.coins", { count: cost.coins }));
  return parts.join(" · ");
}

// A card as printed: buildings and machines show their requirement, coins and VP; workers their cost and production.
export function cardElement(id, { small = false, extra = null, cls = "" } = {}) {
  const card = CARDS[id] || { kind: "unknown" };
  const box = el("div", { class: `ma-card kind-${card.kind}${small ? " small" : ""} ${cls}`, "data-card": id, title: cardTitle(id) });
  if (card.kind === "building" || card.kind === "machine") {
    box.append(
      el("div", { class: "ma-head" }, el("span", { class: "ma-id", text: id }), el("span", { class: "ma-name", text: cardName(id) })),
      el("div", { class: "ma-body" }, el("span", { class: "ma-label", text: t("ma.needs") }), resList(card.req)),
      el("div", { class: "ma-foot" },
        card.coins ? coinBadge(card.coins) : null,
        card.kind === "machine" ? el("span", { class: "makes" }, `${t("ma.then_works")} `, resList(card.prod, "res-list inline")) : null,
        vpBadge(card.vp || 0)),
    );
  } else {
    box.append(
      el("div", { class: "ma-head" }, el("span", { class: "ma-id", text: id }), el("span", { class: "ma-name", text: kindWord(card.kind) })),
      el("div", { class: "ma-body" }, resList(card.prod)),
      el("div", { class: "ma-foot" }, coinBadge(card.cost || 0, "coin cost")),
    );
  }
  if (extra) box.appendChild(extra);
  return box;
}

function cardTitle(id) {
  const card = CARDS[id];
  if (!card) return id;
  const amounts = (a) => RESOURCES.map((r, i) => (a && a[i] ? t("ma.amount", { n: a[i], res: resourceWord(r) }) : null)).filter(Boolean).join(", ");
  if (card.kind === "building") return t("ma.title.building", { id, name: cardName(id), needs: amounts(card.req), coins: card.coins, vp: card.vp });
  if (card.kind === "machine") return t("ma.title.machine", { id, name: cardName(id), needs: amounts(card.req), vp: card.vp, works: amounts(card.prod) });
  return t("ma.title.worker", { id, kind: kindWord(card.kind), makes: amounts(card.prod), cost: card.cost });
}

// A site: the card plus a bar per resource showing the progress toward its requirement.
function siteElement(site, { small = false, sendButton = null } = {}) {
  const req = site.requirement || (CARDS[site.card] || {}).req || [0, 0, 0, 0];
  const prog = site.progress || [0, 0, 0, 0];
  const bars = el("div", { class: "progress" });
  RESOURCES.forEach((res, i) => {
    if (!req[i]) return;
    const done = Math.min(prog[i], req[i]);
    const row = el("div", { class: `bar-row${prog[i] >= req[i] ? " met" : ""}`, title: t("ma.progress", { res: resourceWord(res), done: prog[i], need: req[i] }) },
      resourceIcon(res, 12),
      el("div", { class: "bar" }, el("div", { class: "fill", style: { width: `${(100 * done) / req[i]}%`, background: RES_COLOUR[res] } })),
      el("span", { class: "bar-num", text: `${prog[i]}/${req[i]}` }));
    bars.appendChild(row);
  });
  const workers = el("div", { class: "site-workers" });
  for (const w of site.workers || []) workers.appendChild(el("span", { class: "worker-tag", title: cardTitle(w), text: w }));
  const extra = el("div", { class: "site-extra" }, bars, (site.workers || []).length ? workers : null, sendButton);
  const box = cardElement(site.card, { small, extra, cls: "site" });
  box.dataset.site = site.card;
  return box;
}

export class BuildersTable {
  constructor(root, opts = {}) {
    this.root = root;
    this.opts = opts;
    this.view = null;
    this.selected = null; // a worker id in my crew
    this.legalKey = "";
    this.notice = null; // {text, confirm: the send action a second click makes} under the action bar
    this.onKey = (event) => {
      if (event.key === "Escape" && (this.selected || this.notice)) {
        this.selected = null;
        this.notice = null;
        this.render();
        return;
      }
      const typing = event.target && ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName);
      if (typing || event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]") || this.opts.replay) return;
      const id = { e: "end", E: "end", r: "restart", R: "restart" }[event.key];
      const button = id === "end" ? this.root.querySelector('#action-bar [data-action="end"]:not([disabled])')
        : id === "restart" ? this.root.querySelector("#restart-btn:not([disabled])") : null;
      if (button) {
        event.preventDefault();
        button.click();
      }
    };
    document.addEventListener("keydown", this.onKey);
    root.replaceChildren();
    root.classList.add("builders-table");
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  update(view) {
    if (this.view && view.version !== this.view.version) this.notice = null;
    this.view = view;
    const legalKey = (view.legal || []).join("|");
    if (legalKey !== this.legalKey) {
      this.legalKey = legalKey;
      if (this.selected && !(view.legal || []).some((a) => a.startsWith(`send ${this.selected} `))) this.selected = null;
    }
    this.render();
  }

  legal(action) {
    return !this.opts.replay && (this.view.legal || []).includes(action);
  }

  cost(action) {
    const costs = this.view.legal_costs || {};
    if (costs[action]) return costs[action];
    return null;
  }

  actionButton(action, label, { cls = "btn", fallbackCost = null, name = label, onclick = null } = {}) {
    const ok = this.legal(action);
    const cost = this.cost(action) || fallbackCost;
    const price = cost && ok ? describeCost(cost) : "";
    const b = el("button", { class: `${cls} act`, "data-action": action, disabled: !ok, onclick: onclick || (() => this.act(action)), "aria-label": price ? `${name}: ${price}` : name },
      el("span", { class: "act-label", text: label }),
      price ? el("span", { class: "price", text: price }) : null);
    return b;
  }

  // A move to make, in words (the hint): "send labourer W07 to The Wash House (B06)".
  advise(action) {
    const [word, a, b] = (action || "").split(" ");
    const GAINS = { 1: 1, 2: 3, 3: 6 };
    let text;
    if (word === "open") text = t("ma.advise.open", { card: a });
    else if (word === "recruit") text = t("ma.advise.recruit", { card: a });
    else if (word === "send") text = t("ma.advise.send", { worker: a, site: b });
    else if (word === "coins" && GAINS[a]) text = t("ma.advise.coins", { coins: t("ma.coins", { count: GAINS[a] }), actions: t("ma.actions", { count: Number(a) }) });
    else if (word === "buy") text = t("ma.advise.buy");
    else if (word === "end") text = t("kb.advise.end");
    else text = action;
    return this.named(text);
  }

  // A move made, in words (the analysis board): "sent labourer W07 to The Wash House (B06)".
  narrate(action) {
    const [word, a, b] = (action || "").split(" ");
    const GAINS = { 1: 1, 2: 3, 3: 6 };
    if (word === "open") return t("ma.log.opened", { card: a });
    if (word === "recruit") return t("ma.log.recruited", { card: a });
    if (word === "send") return t("ma.log.sent", { worker: a, site: b });
    if (word === "coins" && GAINS[a]) return t("ma.log.took", { coins: t("ma.coins", { count: GAINS[a] }), actions: t("ma.actions", { count: Number(a) }) });
    if (word === "buy") return t("ma.log.bought");
    if (word === "end") return t("kb.log.ended");
    return action;
  }

  // One log line in words, with the names of the cards: "sent labourer W07 to The Wash House (B06)";
  // a bare move (its text the notation) is told as made.
  describe(entry) {
    // told from the action itself; the server's message adds only the cards that came into a row
    // (its parameter cards: a recruit's into the worker row, any other's into the building row)
    const text = entry.action ? this.narrate(entry.action) : (entry.text || "");
    const cards = entry.params && Array.isArray(entry.params.cards) ? entry.params.cards : null;
    const row = (entry.action || "").startsWith("recruit") ? "worker" : "building";
    return this.named(text) + (cards ? t(`ma.log.came_${row}`, { cards: this.named(cards.join(", ")) }) : "");
  }

  // Card ids in words, with their names: "W07" -> "labourer W07", "B06" -> "The Wash House (B06)".
  named(text) {
    return text.replace(/\b([BWM]\d{1,2})\b/g, (id) => {
      const card = CARDS[id];
      if (!card) return id;
      if (card.name) return t("ma.named_card", { name: cardName(id), id });
      return t("ma.named_worker", { kind: t(`ma.kind_in.${card.kind}`), id });
    });
  }

  // The cards a log line names light up (null: none).
  showEntry(entry, cls = "lit-card") {
    for (const old of this.root.querySelectorAll(`.${cls}`)) old.classList.remove(cls);
    if (!entry) return [];
    const ids = ((entry.action || "").match(/\b[BWM]\d{1,2}\b/g) || []);
    const found = [];
    for (const id of ids) for (const card of this.root.querySelectorAll(`.ma-card[data-card="${id}"], .crew-chip[data-card="${id}"]`)) {
      card.classList.add(cls);
      found.push(card);
    }
    return found;
  }

  flash(entry) {
    const cards = this.showEntry(entry, "flash-card");
    setTimeout(() => cards.forEach((c) => c.classList.remove("flash-card")), 1400);
  }

  act(action) {
    this.selected = null;
    this.notice = null;
    if (this.opts.onAction) this.opts.onAction(action);
  }

  // Why a worker of this player's crew cannot be sent now, in words (rules.md, "A turn": a send costs
  // the worker's coins and one action per worker already sent to that site this turn, plus one).
  whyNotSent(worker) {
    const view = this.view;
    const obs = view.view;
    const me = view.seat;
    if (view.result || obs.over) return t("ma.why.over");
    if (view.to_move !== me) return t("ma.why.not_turn", { name: seatName(view.seats, view.to_move, me) });
    const p = obs.players[me];
    const sites = p.sites || [];
    if (!sites.length) return t("ma.why.no_site");
    const left = obs.actions_left;
    if (left < 1) return p.coins >= 5 ? t("ma.why.no_action_buy") : t("ma.why.no_action");
    const cost = (CARDS[worker] || {}).cost || 0;
    if (cost > p.coins) return t("ma.why.coins", { cost: t("ma.coins", { count: cost }), coins: t("ma.coins", { count: p.coins }) });
    const need = Math.min(...sites.map((s) => (s.sent_this_turn || 0) + 1));
    return t("ma.why.actions", { need: t("ma.actions", { count: need }), left: t("ma.actions", { count: left }) });
  }

  // The resources a site still lacks that ``worker`` brings (none: sending it there is legal, but
  // helps nothing).
  helps(worker, site) {
    const prod = (CARDS[worker] || {}).prod || [0, 0, 0, 0];
    const req = site.requirement || (CARDS[site.card] || {}).req || [0, 0, 0, 0];
    const prog = site.progress || [0, 0, 0, 0];
    return RESOURCES.filter((res, i) => prod[i] > 0 && req[i] > prog[i]);
  }

  // "Send here" on a site the worker brings nothing to: a warning and a second click, not a refusal.
  sendOrWarn(action, site) {
    const worker = action.split(" ")[1];
    if (this.helps(worker, site).length || (this.notice && this.notice.confirm === action)) {
      this.act(action);
      return;
    }
    const req = site.requirement || (CARDS[site.card] || {}).req || [0, 0, 0, 0];
    const prog = site.progress || [0, 0, 0, 0];
    const lacking = RESOURCES.filter((res, i) => req[i] > prog[i]).map(resourceWord);
    const needs = lacking.length < 2 ? lacking.join("") : t("ma.or_list", { first: lacking.slice(0, -1).join(", "), last: lacking[lacking.length - 1] });
    this.notice = { text: t("ma.warn.useless", { worker: this.named(worker), needs, site: this.named(site.card) }), confirm: action };
    this.render();
    const again = this.root.querySelector("#send-anyway");
    if (again) again.focus();
  }

  // The status line under the action bar: why a click did nothing, or a warning to confirm. It stays
  // in the page across redraws (a live region read out when its text changes).
  statusLine() {
    if (!this.status) this.status = el("div", { class: "ma-status", id: "ma-status", role: "status", "aria-live": "polite" });
    const notice = this.notice;
    const key = notice ? `${notice.text}|${notice.confirm || ""}` : "";
    if (this.status.dataset.key !== key) {
      this.status.dataset.key = key;
      this.status.replaceChildren();
      if (notice) {
        this.status.append(el("span", { class: "ma-status-text", text: notice.text }));
        if (notice.confirm) {
          this.status.append(" ",
            el("button", { type: "button", class: "btn small btn-primary", id: "send-anyway", onclick: () => this.act(notice.confirm) }, t("ma.warn.send_anyway")),
            " ",
            el("button", { type: "button", class: "btn small", id: "send-cancel", onclick: () => { this.notice = null; this.render(); } }, t("common.cancel")));
        }
      }
    }
    this.status.classList.toggle("warning", Boolean(notice && notice.confirm));
    this.status.hidden = !notice;
    return this.status;
  }

  render() {
    const view = this.view;
    if (!view) return;
    const obs = view.view;
    const me = view.seat;
    const root = this.root;
    // keep the keyboard focus on the same control across redraws
    const active = document.activeElement;
    const focusKey = active && this.root.contains(active)
      ? active.dataset.action ? `[data-action="${active.dataset.action}"]` : active.dataset.worker ? `[data-worker="${active.dataset.worker}"]` : active.id ? `#${active.id}` : null
      : null;
    root.replaceChildren();
    const mine = !this.opts.replay && me !== null && me !== undefined && me === view.to_move && !view.result;

    // banner
    const banner = el("div", { class: "turn-banner", id: "turn-banner", "aria-live": "polite" });
    if (view.result || obs.over) {
      banner.classList.add("over");
      banner.append(el("strong", { text: `${t("common.game_over")} ` }), this.opts.winnersText ? this.opts.winnersText(view) : "");
    } else if (view.to_move !== null && view.to_move !== undefined) {
      const mover = view.to_move;
      const chip = el("span", { class: "seat-chip", "data-seat": mover, style: { background: SEAT_COLOURS[mover], color: SEAT_INK[mover] } }, SEAT_NAMES[mover]);
      const left = obs.actions_left;
      if (mine) {
        banner.classList.add("yours");
        const coins = obs.players[me].coins;
        banner.append(chip, ` ${t("ma.banner.yours", { actions: t("ma.actions_left", { count: left }), coins: t("ma.coins", { count: coins }) })}`);
      } else {
        banner.append(chip, ` ${t(this.opts.replay ? "ma.banner.to_move" : "ma.banner.playing", { name: seatName(view.seats, mover, me), actions: t("ma.actions_left", { count: left }) })}`);
      }
      if (obs.final_round) banner.append(el("span", { class: "final-round", text: ` ${t("common.final_round")}` }));
    }
    root.appendChild(banner);

    // actions bar
    if (!this.opts.replay && me !== null && me !== undefined && !view.result) {
      const bar = el("div", { class: "action-bar ma-actions", id: "action-bar" });
      const p = obs.players[me];
      bar.append(
        el("span", { class: "pill actions-left", title: t("ma.actions_left_title") }, el("b", { text: String(view.to_move === me ? obs.actions_left : 0) }), ` ${t("ma.actions_word", { count: view.to_move === me ? obs.actions_left : 0 })}`),
        el("span", { class: "pill coins-left", title: t("ma.your_coins") }, el("span", { class: "coin-disc" }), el("b", { text: String(p.coins) }), ` ${t("ma.coins_word", { count: p.coins })}`),
        this.actionButton("coins 1", t("ma.plus_coins", { count: 1 }), { fallbackCost: { actions: 1 } }),
        this.actionButton("coins 2", t("ma.plus_coins", { count: 3 }), { fallbackCost: { actions: 2 } }),
        this.actionButton("coins 3", t("ma.plus_coins", { count: 6 }), { fallbackCost: { actions: 3 } }),
        helpLink("ma-coins", t("help.taking_coins")),
        this.actionButton("buy", t("ma.buy"), { fallbackCost: { coins: 5 } }),
        helpLink("ma-buy", t("help.buying")),
        // on a phone only their signs show (style.css): their names stay for screen readers
        el("button", { class: "btn", id: "undo-btn", disabled: !view.can_undo, title: t("turn.undo_title"), "aria-label": t("turn.undo"), onclick: () => this.opts.onUndo && this.opts.onUndo() },
          el("span", { "aria-hidden": "true", text: "↶" }), el("span", { class: "btn-text", text: ` ${t("turn.undo")}` })),
        el("button", { class: "btn", id: "restart-btn", disabled: !view.can_undo || !this.opts.onRestart, title: t("ma.restart_title"), "aria-label": t("turn.restart"), onclick: () => this.opts.onRestart && this.opts.onRestart() },
          el("span", { "aria-hidden": "true", text: "⟲" }), el("span", { class: "btn-text", text: ` ${t("turn.restart")}` })),
        this.actionButton("end", t("turn.end"), { cls: "btn btn-primary" }),
        helpLink("ma-turn", t("help.a_turn")),
      );
      root.appendChild(bar);
      const hint = el("div", { class: "hint", id: "hint" });
      if (mine) {
        if (this.selected) hint.textContent = t(touchScreen() ? "ma.hint.send_touch" : "ma.hint.send", { worker: this.selected });
        else if (obs.actions_left > 0) hint.textContent = t("ma.hint.actions");
        else if (this.legal("end")) hint.textContent = t("ma.hint.none_left");
      }
      hint.hidden = !hint.textContent;
      root.appendChild(hint);
      root.appendChild(this.statusLine());
    }

    const grid = el("div", { class: "ma-grid" });
    root.appendChild(grid);
    const main = el("div", { class: "ma-main" });
    const side = el("aside", { class: "ma-side" });
    grid.append(main, side);

    if (view.result) main.appendChild(this.scoreTable(true));
    const mySeatFirst = !this.opts.replay && me !== null && me !== undefined ? me : null;
    if (mySeatFirst !== null) main.appendChild(this.tableau(obs.players[mySeatFirst], true));

    // building row
    const brow = el("div", { class: "card-row", id: "building-row" });
    for (const id of obs.building_row || []) {
      brow.appendChild(cardElement(id, { extra: this.opts.replay ? null : this.actionButton(`open ${id}`, t("ma.open"), { cls: "btn small", fallbackCost: { actions: 1 }, name: t("ma.open_card", { card: this.named(id) }) }) }));
    }
    // the live views give the deck sizes; a replay has the whole position, decks included
    const bsize = obs.building_deck_size ?? (Array.isArray(obs.building_deck) ? obs.building_deck.length : null);
    const btop = obs.building_deck_top ?? (Array.isArray(obs.building_deck) ? obs.building_deck[0] : null);
    const deckInfo = el("div", { class: "deck-info", id: "building-deck" },
      el("span", { class: "deck-count", text: bsize === null || bsize === undefined ? t("ma.deck_unknown") : t("ma.deck", { count: bsize }) }),
      btop ? el("div", { class: "deck-top" }, el("span", { class: "muted small", text: t("ma.next") }), cardElement(btop, { small: true, cls: "faded" })) : null);
    brow.appendChild(deckInfo);
    main.appendChild(el("section", { class: "panel", id: "building-panel" }, el("h3", {}, `${t("ma.buildings_row", { n: (obs.building_row || []).length })} `, helpLink("ma-open", t("help.opening"))), brow));

    // worker row
    const wrow = el("div", { class: "card-row", id: "worker-row" });
    for (const id of obs.worker_row || []) {
      wrow.appendChild(cardElement(id, { extra: this.opts.replay ? null : this.actionButton(`recruit ${id}`, t("ma.recruit"), { cls: "btn small", fallbackCost: { actions: 1 }, name: t("ma.recruit_card", { card: this.named(id) }) }) }));
    }
    const wsize = obs.worker_deck_size ?? (Array.isArray(obs.worker_deck) ? obs.worker_deck.length : null);
    wrow.appendChild(el("div", { class: "deck-info", id: "worker-deck" }, el("span", { class: "deck-count", text: wsize === null || wsize === undefined ? t("ma.deck_unknown") : t("ma.deck", { count: wsize }) })));
    main.appendChild(el("section", { class: "panel", id: "worker-panel" }, el("h3", {}, `${t("ma.workers_row", { n: (obs.worker_row || []).length })} `, helpLink("ma-recruit", t("help.recruiting"))), wrow));

    // tableaux: mine first and large, then the others
    const order = obs.players.map((p) => p.seat ?? obs.players.indexOf(p));
    const mySeat = !this.opts.replay && me !== null && me !== undefined ? me : null;
    const others = el("div", { class: "others" });
    for (const seat of order) if (seat !== mySeat) others.appendChild(this.tableau(obs.players[seat], false));
    (mySeat !== null ? side : main).appendChild(others);

    if (!view.result) side.appendChild(this.scoreTable(false));
    side.appendChild(el("details", { class: "panel legend-box", id: "legend", open: this.legendOpen || null,
      ontoggle: (e) => { this.legendOpen = e.target.open; } },
    el("summary", { text: t("legend.title") }), legendPanel()));
    if (this.opts.extraSide) side.appendChild(this.opts.extraSide);
    if (focusKey) {
      const again = root.querySelector(`${focusKey}:not([disabled])`)
        || root.querySelector("#my-sites button.send:not([disabled])")
        || root.querySelector("#action-bar button:not([disabled])");
      if (again) again.focus();
    }
    // the page's marks (a hint) go with the redrawn table: the page puts them back
    if (this.opts.afterRender) this.opts.afterRender();
  }

  tableau(p, isMe) {
    const view = this.view;
    const seat = p.seat ?? this.view.view.players.indexOf(p);
    const moving = seat === view.to_move && !view.result;
    const box = el("section", { class: `panel tableau${isMe ? " mine" : " theirs"}${moving ? " moving" : ""}`, id: `tableau-${seat}`, "data-seat": seat });
    box.appendChild(el("h3", { class: "tableau-head" },
      el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[seat] } }),
      isMe ? t("ma.your_workshop") : seatName(view.seats, seat, view.seat),
      el("span", { class: "spacer" }),
      coinBadge(p.coins, "coin big"),
      el("span", { class: "vp big", text: t("ma.vp", { n: p.vp ?? 0 }) })));

    // crew
    const crew = el("div", { class: "card-row crew", id: isMe ? "my-crew" : null });
    for (const w of p.crew || []) {
      if (isMe && !this.opts.replay) {
        const sendable = (view.legal || []).some((a) => a.startsWith(`send ${w} `));
        const cardEl = cardElement(w, { small: !isMe, cls: `${sendable ? "sendable" : ""}${this.selected === w ? " selected" : ""}` });
        cardEl.setAttribute("role", "button");
        cardEl.setAttribute("aria-label", t(sendable ? "ma.choose_worker" : "ma.choose_worker_why", { title: cardTitle(w) }));
        cardEl.tabIndex = 0;
        cardEl.dataset.worker = w;
        // one that cannot be sent now still answers (with the reason): not disabled, only not pressable
        if (sendable) cardEl.setAttribute("aria-pressed", String(this.selected === w));
        const choose = () => {
          if (sendable) {
            this.selected = this.selected === w ? null : w;
            this.notice = null;
          } else {
            this.selected = null;
            this.notice = { text: this.whyNotSent(w) };
          }
          this.render();
        };
        cardEl.addEventListener("click", choose);
        cardEl.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); } });
        crew.appendChild(cardEl);
      } else {
        const card = CARDS[w] || {};
        crew.appendChild(el("span", { class: `crew-chip kind-${card.kind}`, "data-card": w, title: cardTitle(w) },
          el("b", { text: w }), resList(card.prod, "res-list inline"), el("span", { class: "chip-cost", text: `${card.cost || 0}¢` })));
      }
    }
    if (!(p.crew || []).length) crew.appendChild(el("span", { class: "muted", text: t("ma.no_worker") }));
    box.append(el("h4", {}, `${isMe ? t(touchScreen() ? "ma.crew_mine_touch" : "ma.crew_mine") : t("ma.crew")} `, isMe ? helpLink("ma-send", t("help.sending")) : null), crew);

    // sites
    const sites = el("div", { class: "card-row sites", id: isMe ? "my-sites" : null });
    for (const site of p.sites || []) {
      let sendButton = null;
      if (isMe && this.selected) {
        const action = `send ${this.selected} ${site.card}`;
        if (this.legal(action)) {
          const useless = !this.helps(this.selected, site).length;
          sendButton = this.actionButton(action, t("ma.send_here", { worker: this.selected }), {
            cls: `btn small btn-primary send${useless ? " useless" : ""}`, onclick: () => this.sendOrWarn(action, site),
            name: useless ? `${t("ma.send_here", { worker: this.selected })} (${t("ma.warn.short")})` : t("ma.send_here", { worker: this.selected }),
          });
          if (useless) sendButton = el("div", { class: "send-box" }, sendButton, el("span", { class: "send-warn", text: t("ma.warn.short") }));
        }
      }
      sites.appendChild(siteElement(site, { small: !isMe, sendButton }));
    }
    if (!(p.sites || []).length) sites.appendChild(el("span", { class: "muted", text: t("ma.no_site") }));
    box.append(el("h4", { text: t("ma.open_sites") }), sites);

    // completed
    if ((p.completed || []).length) {
      const done = el("div", { class: "card-row completed" });
      for (const c of p.completed) {
        const id = typeof c === "string" ? c : c.card;
        done.appendChild(cardElement(id, { small: true, cls: "done" }));
      }
      box.append(el("h4", { text: t("ma.completed") }), done);
    }
    return box;
  }

  scoreTable(final) {
    const view = this.view;
    const obs = view.view;
    const source = final ? view.result : view.scores;
    const bySeat = new Map(((source && source.players) || []).map((p) => [p.seat, p]));
    const rows = [["buildings", t("ma.score.buildings")], ["machines", t("ma.score.machines")], ["coins", t("ma.score.coins")]];
    const panel = el("div", { class: `panel score-panel${final ? " final" : ""}`, id: final ? "final-scores" : "running-scores" });
    panel.appendChild(el("h3", { text: final ? t("score.final") : t("ma.score.so_far") }));
    if (final && this.opts.winnersText) panel.appendChild(el("p", { class: "winners", text: this.opts.winnersText(view) }));
    const table = el("table", { class: "score-table" });
    const head = el("tr", {}, el("th", { text: "" }));
    obs.players.forEach((p, i) => {
      const seat = p.seat ?? i;
      head.appendChild(el("th", { class: "seat-col" }, el("span", { class: "seat-dot", style: { background: SEAT_COLOURS[seat] } }), " ", seatName(view.seats, seat, view.seat)));
    });
    table.appendChild(el("thead", {}, head));
    const body = el("tbody");
    for (const [k, label] of rows) {
      const tr = el("tr", { "data-row": k }, el("th", { text: label }));
      obs.players.forEach((p, i) => {
        const seat = p.seat ?? i;
        const parts = (bySeat.get(seat) || {}).breakdown || {};
        tr.appendChild(el("td", { class: "score-cell", "data-seat": seat, "data-card": k, text: String(parts[k] ?? 0) }));
      });
      body.appendChild(tr);
    }
    const total = el("tr", { class: "total-row" }, el("th", { text: t("score.total") }));
    obs.players.forEach((p, i) => {
      const seat = p.seat ?? i;
      const win = final && view.result.winners && view.result.winners.includes(seat);
      total.appendChild(el("td", { class: `total${win ? " winner" : ""}`, "data-seat": seat, text: String((bySeat.get(seat) || {}).total ?? 0) }));
    });
    body.appendChild(total);
    table.appendChild(body);
    panel.appendChild(table);
    return panel;
  }
}

// the table module of the game (its plugin's web_table: builders.core.plugins)
export { BuildersTable as Table };
