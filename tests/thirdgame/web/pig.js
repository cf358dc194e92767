// Pig's table (its plugin's web_table): the banks and the pot as text, a button for each legal action.

export class Table {
  constructor(root, opts) {
    this.root = root;
    this.opts = opts;
    this.shownSeat = null;
    this.box = document.createElement("section");
    this.box.className = "panel pig-table";
    this.box.id = "pig-table";
    root.appendChild(this.box);
  }

  update(view) {
    this.view = view;
    const v = view.view;
    const lines = v.banked.map((b, seat) => `seat ${seat}: ${b}${seat === view.to_move && !view.result ? ` + ${v.pot}` : ""}`);
    const text = document.createElement("p");
    text.id = "pig-state";
    text.textContent = `${lines.join(" | ")} (target ${v.target})`;
    const buttons = document.createElement("div");
    for (const action of view.legal || []) {
      const b = document.createElement("button");
      b.className = "btn pig-action";
      b.dataset.action = action;
      b.textContent = action;
      b.onclick = () => this.opts.onAction && this.opts.onAction(action);
      buttons.appendChild(b);
    }
    const parts = [text, buttons];
    if (view.result && this.opts.winnersText) {
      const done = document.createElement("p");
      done.id = "pig-result";
      done.textContent = this.opts.winnersText(view);
      parts.push(done);
    }
    this.box.replaceChildren(...parts);
  }

  destroy() {
    this.box.remove();
  }
}
