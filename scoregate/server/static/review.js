// Keyboard shortcuts on a job page: "a" picks Approve, "r" picks Reject, Enter confirms.
// A lone key never records a verdict: a reviewer who types a note with the focus outside
// the Note box would otherwise approve or reject by accident. Any other key cancels the
// pick, nothing fires while the focus is in a field, and once the form is sent the
// buttons and the shortcuts do nothing more (no second verdict from a double press).
(function () {
  // Back to a page the browser kept whole (its back-forward cache): load the job as it is
  // now, or a form already answered would look live.
  if (window.addEventListener) {
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) window.location.reload();
    });
  }
  var form = document.getElementById("verdict-form");
  if (!form) return;
  var keys = { "a": "approve", "r": "reject" };
  var hint = document.getElementById("shortcut-hint");
  var armed = null;
  var sent = false;

  function arm(button) {
    if (armed) armed.classList.remove("armed");
    armed = button;
    if (button) button.classList.add("armed");
    if (hint) {
      hint.textContent = button
        ? "Press Enter to " + button.value + " this job, or any other key to cancel."
        : "";
    }
  }

  function typing(target) {
    if (!target) return false;
    var tag = target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "BUTTON") return true;
    return Boolean(target.isContentEditable);
  }

  function selecting() {
    return Boolean(window.getSelection && String(window.getSelection()));
  }

  form.addEventListener("submit", function (event) {
    if (sent) {
      event.preventDefault();
      return;
    }
    sent = true;
    arm(null);
    // Disabled after this turn: a button disabled now would drop its verdict from the form.
    setTimeout(function () {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }, 0);
  });

  document.addEventListener("keydown", function (event) {
    if (sent || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    if (typing(event.target)) {
      arm(null);
      return;
    }
    if (armed && event.key === "Enter") {
      event.preventDefault();
      var button = armed;
      arm(null);
      button.click();
      return;
    }
    var id = keys[event.key];
    arm(id && !selecting() ? document.getElementById(id) : null);
    if (id) event.preventDefault();
  });
})();
