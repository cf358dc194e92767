// The games this server plays (GET /api/game-types, in the registry's order), asked once per page: each
// game's name, title, web modules (table, guide, rules, lobby: files of /static/, "" for none), its
// stylesheet (style), colour and player counts. No script outside a game's own modules names a game:
// they learn the games here.
// (No import: the list is asked for while the language's catalogue loads.)

async function load() {
  try {
    const response = await fetch("/api/game-types", { credentials: "same-origin" });
    if (response.ok) return await response.json();
  } catch (err) {
    /* the server is out of reach: no game is known, and the page says so where it asks for more */
  }
  return [];
}

export const GAMES = await load();

// Each game's stylesheet (its plugin's web_style), linked once after the shared style.css on every page
// (a game's table, lobby part, rules and replay use it); the page waits for them, so that nothing is
// drawn without its game's styles (a sheet that fails to load is waited for no longer).
await Promise.all(GAMES.filter((game) => game.style).map((game) => new Promise((done) => {
  const href = `/static/${game.style}`;
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return done();
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
  link.addEventListener("load", done);
  link.addEventListener("error", done);
  document.head.appendChild(link);
})));
