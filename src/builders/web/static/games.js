// The games this server plays (GET /api/game-types, in the registry's order), asked once per page: each
// game's name, title, web modules (table, guide, rules, lobby: files of /static/, "" for none), colour
// and player counts. No script outside a game's own modules names a game: they learn the games here.
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
