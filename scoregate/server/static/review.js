// Keyboard shortcuts on a job page: "a" approves, "r" rejects (not while typing a note).
document.addEventListener("keydown", function (event) {
  var target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
  var button = null;
  if (event.key === "a") button = document.getElementById("approve");
  if (event.key === "r") button = document.getElementById("reject");
  if (button) {
    event.preventDefault();
    button.click();
  }
});
