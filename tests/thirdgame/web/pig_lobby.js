// Pig in the lobby (its plugin's web_lobby): the line saying what it is, and its setup form: the points to
// bank to win, and the seed. No import: a game packaged on its own needs none of the client's modules.

export const blurb = () => "Roll a die as long as you dare: a 1 loses the turn's points. First to the target wins.";

/** The target (10 to 50 points, as Pig's setup schema) and the lobby's seed field. */
export function setupForm(seed) {
  const input = document.createElement("input");
  Object.assign(input, { type: "number", id: "pig-target", min: "10", max: "50", step: "1", value: "20" });
  const label = document.createElement("label");
  label.append("Points to win ", input);
  const element = document.createElement("div");
  element.className = "form-row";
  element.id = "pig-setup";
  element.append(label, seed);
  return {
    element,
    read(seedValue) {
      const target = Number(input.value);
      if (!Number.isInteger(target) || target < 10 || target > 50) throw new Error("The target of Pig is a whole number from 10 to 50.");
      return seedValue === undefined ? { target } : { target, seed: seedValue };
    },
  };
}
