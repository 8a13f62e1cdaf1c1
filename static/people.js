// User Tasks — the people picker's suggestions. The picker works without this file: the search
// is a GET of the task page and its results are the assign form's choices. With it, typing in
// the search (<input data-people-endpoint data-people-target>) lists matching users from the
// participants endpoint under the field (an ARIA combobox); choosing one searches for that person
// by name and the page lists them as the form's choice, already chosen (the bulk form, whose
// field is the assignee itself, takes the id; a picker's data-people-pick names the parameter
// the id goes back in).
// A page may hold more than one picker (Assign and Delegate), each loading this file: every
// picker is enhanced once.
(function () {
  "use strict";

  if (!window.fetch) { return; }
  var inputs = document.querySelectorAll("input[data-people-endpoint]:not([data-people-ready])");
  Array.prototype.forEach.call(inputs, enhance);

function enhance(input) {
  input.setAttribute("data-people-ready", "");
  var endpoint = input.getAttribute("data-people-endpoint");
  if (!endpoint) { return; }
  var pickName = input.getAttribute("data-people-pick") || "pick";

  var list = document.createElement("ul");
  // people-q → people-suggestions, delegate-people-q → delegate-people-suggestions
  list.id = /people-q$/.test(input.id) ? input.id.replace(/people-q$/, "people-suggestions") : input.id + "-suggestions";
  list.className = "people-suggestions";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", input.labels && input.labels[0] ? input.labels[0].textContent : "");
  list.hidden = true;
  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  var row = input.parentNode;
  row.parentNode.insertBefore(list, row.nextSibling);
  row.parentNode.insertBefore(status, list.nextSibling);

  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", list.id);

  var timer = null;
  var seq = 0;
  var active = -1;
  var items = [];

  function close() {
    list.hidden = true;
    list.textContent = "";
    items = [];
    active = -1;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function highlight(i) {
    items.forEach(function (li, j) { li.setAttribute("aria-selected", j === i ? "true" : "false"); });
    active = i;
    if (i >= 0) {
      input.setAttribute("aria-activedescendant", items[i].id);
      items[i].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function choose(p) {
    close();
    var target = document.getElementById(input.getAttribute("data-people-target"));
    if (target === input) { // the field is the assignee itself (bulk form)
      target.value = p.id;
      status.textContent = p.displayName;
      return;
    }
    // The search is a form of its own: search for the person by name and have the page list
    // them as the assign form's choice, already chosen. The id never lands in a second field.
    if (!input.form) { return; }
    input.value = p.displayName || p.id;
    var pick = input.form.querySelector('input[name="' + pickName + '"]');
    if (!pick) {
      pick = document.createElement("input");
      pick.type = "hidden";
      pick.name = pickName;
      input.form.appendChild(pick);
    }
    pick.value = p.id;
    input.form.submit();
  }

  function show(people) {
    list.textContent = "";
    items = people.map(function (p, i) {
      var li = document.createElement("li");
      li.id = list.id + "-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      var name = document.createElement("span");
      name.textContent = p.displayName;
      li.appendChild(name);
      if (p.displayName !== p.id) {
        var id = document.createElement("span");
        id.className = "muted people-choices__id";
        id.textContent = p.id;
        li.appendChild(id);
      }
      li.addEventListener("mousedown", function (ev) { ev.preventDefault(); choose(p); });
      list.appendChild(li);
      return li;
    });
    list.hidden = items.length === 0;
    input.setAttribute("aria-expanded", items.length ? "true" : "false");
    status.textContent = String(items.length);
    active = -1;
  }

  function search() {
    var q = input.value.trim();
    var mine = ++seq;
    if (q === "") { close(); return; }
    var url = endpoint + "?type=user&limit=8&search=" + encodeURIComponent(q);
    window.fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (page) {
        if (mine !== seq || !page || !page.items) { return; }
        show(page.items);
      })
      .catch(function () { /* the plain search still works */ });
  }

  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(search, 200);
  });
  input.addEventListener("keydown", function (ev) {
    if (list.hidden) { return; }
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      var n = items.length;
      highlight(ev.key === "ArrowDown" ? (active + 1) % n : (active - 1 + n) % n);
    } else if (ev.key === "Enter" && active >= 0) {
      ev.preventDefault();
      items[active].dispatchEvent(new MouseEvent("mousedown"));
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      close();
    }
  });
  input.addEventListener("blur", function () { window.setTimeout(close, 150); });
}
})();
