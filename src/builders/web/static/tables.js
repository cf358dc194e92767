// The table of each game is a module of its own, named by the game's plugin: the views carry its name
// (view.table) and the module exports its class as Table. A module is loaded once, the first time a
// game of it is shown.

const loaded = new Map();

// The Table class of the view's game, or null while its module loads (``then`` is called once it has).
export function loadTable(view, then) {
  const name = view.table;
  const found = loaded.get(name);
  if (found && found.Table) return found.Table;
  if (!found) {
    const entry = { Table: null };
    loaded.set(name, entry);
    import(`./${name}`).then((module) => {
      entry.Table = module.Table;
      then();
    });
  }
  return null;
}
