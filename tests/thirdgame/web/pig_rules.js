// Pig on the rules page (its plugin's web_rules): its article, whose id is the game's name.

function part(id, title, text) {
  const section = document.createElement("section");
  section.className = "rules-part";
  section.id = id;
  section.tabIndex = -1;
  const heading = document.createElement("h3");
  heading.textContent = title;
  const p = document.createElement("p");
  p.textContent = text;
  section.append(heading, p);
  return section;
}

export function rules() {
  const article = document.createElement("article");
  article.className = "rules-game";
  article.id = "pig";
  const title = document.createElement("h2");
  title.textContent = "Pig";
  article.append(title,
    part("pig-turn", "A turn", "Roll the die as often as you like: each roll adds its pips to the turn's total, but a 1 loses it and ends the turn. Hold to bank the total."),
    part("pig-end", "The end", "The first to bank the target (20 points unless chosen otherwise) wins at once."));
  return article;
}
