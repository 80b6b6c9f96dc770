// The appeal form fills in what the player was awarded for the part he disputes (the
// page gives it from the protocol for each player and subject); a value typed by hand is
// kept.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-awarded]");
  if (!form) return;
  const table = JSON.parse(form.dataset.awarded);
  const field = form.querySelector("input[name=awarded]");
  if (!field) return;
  let typed = false;
  field.addEventListener("input", () => { typed = true; });
  form.addEventListener("change", (e) => {
    if (typed || (e.target.name !== "subject" && e.target.name !== "player")) return;
    const who = form.querySelector("select[name=player]");
    const player = who ? who.value : form.dataset.player;
    const subject = form.querySelector("select[name=subject]").value;
    const value = (table[player] || {})[subject];
    field.value = value === undefined ? "" : value;
  });
});
