// User Tasks — progressive enhancement only. Every page works without this file: links and
// forms do all the work. This script adds small comforts and the hooks live updates use.
//
// Hooks for live updates (the SSE stream extends them):
//   rows:       <tr data-task-row data-task-id="…" data-revision="…">
//   task page:  <article data-task-page data-task-id="…" data-revision="…">
//   CSRF token: <meta name="csrf-token" content="…"> for script-made POSTs (X-CSRF-Token header).
// window.UserTasks.taskChanged({taskId, revision}) marks what is out of date without moving
// focus or touching input in progress; listeners may subscribe to the "usertasks:changed" event.
(function () {
  "use strict";

  function csrfToken() {
    var m = document.querySelector('meta[name="csrf-token"]');
    return m ? m.getAttribute("content") : "";
  }

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-task-row]"));
  }

  function row(taskId) {
    return rows().filter(function (r) { return r.getAttribute("data-task-id") === taskId; })[0] || null;
  }

  function taskPage() {
    return document.querySelector("[data-task-page]");
  }

  // taskChanged records that a task moved past the revision the page shows. It only marks
  // elements (data-stale) and fires an event; reloading is left to the listener or the person.
  function taskChanged(change) {
    if (!change || !change.taskId) { return; }
    var targets = [row(change.taskId)];
    var page = taskPage();
    if (page && page.getAttribute("data-task-id") === change.taskId) { targets.push(page); }
    targets.forEach(function (el) {
      if (!el) { return; }
      var shown = parseInt(el.getAttribute("data-revision"), 10) || 0;
      if (!change.revision || change.revision > shown) { el.setAttribute("data-stale", "true"); }
    });
    document.dispatchEvent(new CustomEvent("usertasks:changed", { detail: change }));
  }

  // One submit per form: a second click while the first request runs is ignored. (The server
  // would replay it anyway: each rendered form carries its own operation id.)
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") { return; }
    if (form.getAttribute("data-submitting") === "true") {
      ev.preventDefault();
      return;
    }
    form.setAttribute("data-submitting", "true");
    form.setAttribute("aria-busy", "true");
    // If the browser stays on the page (a download, a refused navigation), allow a retry.
    window.setTimeout(function () {
      form.removeAttribute("data-submitting");
      form.removeAttribute("aria-busy");
    }, 8000);
  });

  // After a refused form (422), put the cursor into the first field that needs fixing.
  document.addEventListener("DOMContentLoaded", function () {
    if (!document.querySelector('[data-testid="form-error"]')) { return; }
    var first = document.querySelector('.task-form [aria-invalid="true"]');
    if (first && typeof first.focus === "function") { first.focus(); }
  });

  // Restore the submit guard when a page is shown again from the back/forward cache.
  window.addEventListener("pageshow", function () {
    Array.prototype.forEach.call(document.querySelectorAll('form[data-submitting="true"]'), function (f) {
      f.removeAttribute("data-submitting");
      f.removeAttribute("aria-busy");
    });
  });

  // Bulk actions: the header checkbox (hidden without this script) checks or clears every row
  // of the page. Rows added later by live updates follow the checkboxes' own state.
  document.addEventListener("change", function (ev) {
    var box = ev.target;
    if (!(box instanceof HTMLInputElement)) { return; }
    var boxes = Array.prototype.slice.call(document.querySelectorAll("input[data-bulk-row]"));
    var toggle = document.querySelector("input[data-bulk-toggle]");
    if (box.hasAttribute("data-bulk-toggle") || box.hasAttribute("data-bulk-row")) {
      // Choosing rows opens the folded bulk bar, so its action is one step away.
      var bar = document.querySelector("details.bulk__details");
      if (bar && box.checked) { bar.open = true; }
    }
    if (box.hasAttribute("data-bulk-toggle")) {
      boxes.forEach(function (b) { b.checked = box.checked; });
    } else if (box.hasAttribute("data-bulk-row") && toggle) {
      toggle.checked = boxes.length > 0 && boxes.every(function (b) { return b.checked; });
    }
  });
  // Enter in a bulk action's field sends that action (a form's implicit submission would use its
  // first submit button, the first action's).
  document.addEventListener("keydown", function (ev) {
    var field = ev.target;
    if (ev.key !== "Enter" || !(field instanceof HTMLInputElement) || !field.form || field.form.id !== "bulk-form") { return; }
    var section = field.closest("details.bulk__action");
    var button = section && section.querySelector('button[name="action"]');
    if (!button) { return; }
    ev.preventDefault();
    field.form.requestSubmit(button);
  });
  // "All tasks on this page" sends the rows as the page shows them now: live updates replace
  // rows (and their checkboxes' revisions) but not the form's copy rendered with the page.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement) || form.id !== "bulk-form") { return; }
    var all = form.querySelector('input[name="all"]');
    if (!all || !all.checked) { return; }
    Array.prototype.forEach.call(form.querySelectorAll('input[type="hidden"][name="page"]'), function (i) { i.remove(); });
    Array.prototype.forEach.call(document.querySelectorAll("input[data-bulk-row]"), function (box) {
      var i = document.createElement("input");
      i.type = "hidden";
      i.name = "page";
      i.value = box.value;
      form.appendChild(i);
    });
  }, true);
  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.querySelector("input[data-bulk-toggle]");
    if (toggle) { toggle.hidden = false; }
    // A chart of days that scrolls sideways (on a phone) opens at the newest day.
    Array.prototype.forEach.call(document.querySelectorAll(".chart--columns"), function (f) {
      f.scrollLeft = f.scrollWidth;
    });
  });

  window.UserTasks = {
    csrfToken: csrfToken,
    rows: rows,
    row: row,
    taskPage: taskPage,
    taskChanged: taskChanged
  };
})();
