// The account page (/account): sign up (a guest keeps its games), sign in and out, change the
// password, personal API tokens for programs.

import { api, currentSession, el, setSession, toast, t } from "./api.js";
import { formatDate } from "./i18n.js";
import { mountAccount } from "./account.js";

const $ = (id) => document.getElementById(id);

function showError(id, message) {
  const box = $(id);
  box.textContent = message || "";
  box.hidden = !message;
}

async function render() {
  const info = await currentSession();
  const account = info.account;
  const named = account && !account.guest;
  $("status-text").textContent = !account ? t("account.status.none")
    : account.guest ? t("account.status.guest")
      : t("account.status.named", { name: account.username });
  $("signed-in-tools").hidden = !account;
  $("signup-panel").hidden = Boolean(named);
  $("signin-panel").hidden = Boolean(named);
  $("password-panel").hidden = !named;
  $("tokens-panel").hidden = !named;
  if (named) await loadTokens();
}

async function loadTokens() {
  const tokens = await api("/api/account/tokens");
  $("token-list").replaceChildren(...(tokens.length ? tokens.map((token) => el("li", { class: "game-row", "data-id": token.id },
    el("div", { class: "game-row-main" }, el("b", { text: token.name }), el("span", { class: "muted small", text: ` ${t("account.token_made", { when: formatDate(new Date(token.created * 1000)) })}` })),
    el("div", { class: "game-row-actions" }, el("button", { class: "btn small", onclick: () => revoke(token.id) }, t("account.revoke")))))
    : [el("li", { class: "muted", text: t("account.no_token") })]));
}

async function revoke(id) {
  try {
    await api(`/api/account/tokens/${id}`, { method: "DELETE" });
    await loadTokens();
  } catch (err) {
    toast(err.message);
  }
}

function form(id, errorId, handler) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(errorId, "");
    try {
      await handler();
    } catch (err) {
      showError(errorId, err.message);
    }
  });
}

// ?next=/play/... : where to go back to once signed up or in (a page of this site only)
function goNext() {
  const next = new URLSearchParams(location.search).get("next");
  if (next && /^\/(?!\/)[^\\]*$/.test(next)) {
    location.href = next;
    return true;
  }
  return false;
}

function init() {
  mountAccount();
  // the forms' buttons work once their handlers are on (before, a click would post the form to the page)
  for (const id of ["signup-btn", "signin-btn", "password-btn", "token-btn"]) $(id).disabled = false;
  form("signup-form", "signup-error", async () => {
    await currentSession();
    const made = await api("/api/accounts", { method: "POST", body: { username: $("signup-name").value, password: $("signup-password").value } });
    setSession(made);
    if (goNext()) return;
    toast(t("account.welcome", { name: made.account.username }), "info");
    await render();
  });
  form("signin-form", "signin-error", async () => {
    const made = await api("/api/session", { method: "POST", body: { username: $("signin-name").value, password: $("signin-password").value } });
    const otherLanguage = setSession(made);
    if (goNext()) return;
    if (otherLanguage) {
      location.reload();  // in the account's language
      return;
    }
    await render();
  });
  form("password-form", "password-error", async () => {
    await api("/api/account/password", { method: "POST", body: { old: $("old-password").value, new: $("new-password").value } });
    $("password-form").reset();
    toast(t("account.password_changed"), "info");
  });
  form("token-form", "token-error", async () => {
    const made = await api("/api/account/tokens", { method: "POST", body: { name: $("token-name").value } });
    const box = $("new-token");
    box.replaceChildren(`${t("account.new_token")} `, el("code", { id: "new-token-value", text: made.token }));
    box.hidden = false;
    await loadTokens();
  });
  $("sign-out").addEventListener("click", async () => {
    try {
      await api("/api/session", { method: "DELETE" });
    } catch (err) {
      toast(err.message);
    }
    setSession({ account: null, csrf: null });
    await render();
  });
  render();
}

init();
