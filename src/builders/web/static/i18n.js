// The languages of the web client: the catalogue of the chosen language, t(key, params), numbers and
// dates in the person's locale, the page's fixed text (data-i18n attributes) and the switcher of the top bar.
//
// The language comes from "?lang=xx" (kept in the "lang" cookie), then the "lang" cookie, then the
// browser's languages (navigator.languages), then English; a signed-in account's language, once the
// session is known, becomes the cookie's (followAccount). Catalogues are flat JSON files under
// /static/i18n/: key -> text with {named} placeholders, or for plurals an object of Intl.PluralRules
// categories ({"one": ..., "other": ...}) chosen by the parameter "count". A key missing in a language
// falls back to English.

export const LANGUAGES = { en: "English", de: "Deutsch", fr: "Français" };
const COOKIE = "lang";
const YEAR = 365 * 24 * 3600;

function cookieLanguage() {
  const found = document.cookie.split(";").map((c) => c.trim().split("=")).find(([name]) => name === COOKIE);
  return found && LANGUAGES[found[1]] ? found[1] : null;
}

/** Keeps ``code`` as this browser's language (a year; guests and accounts alike). */
export function keepLanguage(code) {
  document.cookie = `${COOKIE}=${code}; Max-Age=${YEAR}; Path=/; SameSite=Lax`;
}

function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGUAGES[asked]) {
    keepLanguage(asked);
    return asked;
  }
  const kept = cookieLanguage();
  if (kept) return kept;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

export const lang = chooseLanguage();

async function load(code) {
  try {
    const response = await fetch(`/static/i18n/${code}.json`);
    if (response.ok) return await response.json();
  } catch (err) {
    /* no catalogue: the keys themselves show */
  }
  return {};
}

const english = await load("en");
const strings = lang === "en" ? english : { ...english, ...(await load(lang)) };
const plural = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** The text of ``key`` in the page's language, its {placeholders} filled from ``params`` (numbers in
 *  the locale's digits); a plural entry is chosen by ``params.count``. */
export function t(key, params = {}) {
  let value = strings[key];
  if (value === undefined) return key;
  if (typeof value === "object") value = value[plural.select(Number(params.count ?? 0))] ?? value.other;
  return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? shown(params[name]) : whole));
}

/** Whether the catalogue has ``key`` (for texts built from data: a card or a terrain). */
export function has(key) {
  return key in strings;
}

function shown(value) {
  return typeof value === "number" ? numbers.format(value) : String(value);
}

/** A number in the page's locale (``options``: Intl.NumberFormat's). */
export function formatNumber(value, options = undefined) {
  return options ? new Intl.NumberFormat(lang, options).format(value) : numbers.format(value);
}

/** A date and time in the page's locale. */
export function formatDate(date, options = { dateStyle: "short", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(lang, options).format(date);
}

/** The fixed text of a page: data-i18n (text), data-i18n-title, data-i18n-aria-label, data-i18n-placeholder. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const attr of ["title", "aria-label", "placeholder"]) {
    const data = `data-i18n-${attr}`;
    for (const node of root.querySelectorAll(`[${data}]`)) node.setAttribute(attr, t(node.getAttribute(data)));
  }
}

/** A signed-in person's language is the account's (chosen with the switcher on any browser): unless
 * the address asks for another (?lang=), the cookie keeps it from now on. True when this page is
 * in another language and should be shown again (never when the cookie could not be kept). */
export function followAccount(account) {
  const code = account && account.language;
  if (!code || !LANGUAGES[code] || new URLSearchParams(location.search).has("lang")) return false;
  if (cookieLanguage() !== code) keepLanguage(code);
  return code !== lang && cookieLanguage() === code;
}

/** A signed-in person (or a guest) keeps the choice in the account too: the server speaks it to them
 * on every browser (its refusals and the game log). Without an account the cookie alone keeps it. */
async function keepInAccount(code) {
  try {
    const session = await (await fetch("/api/session", { credentials: "same-origin" })).json();
    if (!session.account || !session.csrf) return;
    await fetch("/api/account/language", {
      method: "PUT", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
      body: JSON.stringify({ language: code }),
    });
  } catch {
    // the cookie keeps the choice all the same
  }
}

/** The language switcher at the end of the top bar (once per page). */
export function mountSwitcher() {
  const bar = document.querySelector(".topbar");
  if (!bar || document.getElementById("lang-select")) return;
  const select = document.createElement("select");
  select.id = "lang-select";
  select.className = "lang-select";
  select.setAttribute("aria-label", t("lang.choose"));
  select.title = t("lang.choose");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === lang;
    select.appendChild(option);
  }
  select.addEventListener("change", async () => {
    keepLanguage(select.value);
    await keepInAccount(select.value);
    const url = new URL(location.href);
    if (!url.searchParams.has("lang")) {
      location.reload();
      return;
    }
    url.searchParams.delete("lang");
    location.replace(url.toString());
  });
  bar.appendChild(select);
}

document.documentElement.lang = lang;
translatePage();
mountSwitcher();
