// live.js — live updates for the inbox and the task page (SPEC 5.4).
//
// The pages work without it. With it, a page listens to GET /api/v1/user-tasks/stream (the
// session cookie authenticates) and, when a task it shows changes, fetches its own URL again and
// swaps in only the element of that task (the element with the matching data-task-id). It never
// moves focus and never replaces input in progress: an element holding focus or an edited field
// is left alone (marked data-stale); on the task page a "This task changed — Reload" banner
// appears instead.
//
// Hooks it reads (rendered by views/):
//   <tr data-task-row data-task-id="…" data-revision="N">       an inbox row
//   [data-testid="list-area"]                                   the inbox list (rows, or the empty state)
//   [data-testid="total-count"]                                 the inbox count, refreshed with the list
//   [data-testid="inbox-tabs"]                                  the tabs with their counts, likewise
//   <article data-task-page data-task-id="…" data-revision="N"> the task page
//     data-transitional                                          … waiting for the workflow
//                                                                (Completing, Timing out, Cancelling)
// Options on its own <script> tag: data-stream (the stream URL), data-text-changed and
// data-text-reload (the banner's words in the page's language; built-in English and German
// otherwise).
// A page waiting for the workflow reaches the closed state by itself: when the stream opens
// (the first time too) it checks the page once, since the change may have landed between the
// page's render and the subscription; and until the page is closed it polls its own URL, every
// second while the stream is not open (refused, buffered away, reconnecting) and every few
// seconds while it is.
// The header's bell ([data-bell], data-unread, data-label "… %s …") is refreshed when the stream
// says the person's notifications changed (kind "notification", only the person's own streams
// hear it) and after a resync: its count comes from GET /api/v1/me/notifications?unread=true.
// Every page with a bell listens, not only those showing tasks.
// The task page's Activity list ([data-activity-list]) is fetched again when the stream says
// the task's comments or files changed (kinds "comment" and "attachment"; no revision).
// State for tests and styling: <html data-live-state="connecting|open|retrying|off"> and
// data-live-refreshed (a timestamp) after each applied refresh.
(function () {
  "use strict";
  if (!("EventSource" in window) || !("fetch" in window) || !("DOMParser" in window)) {
    return;
  }
  var script = document.currentScript;
  var opts = (script && script.dataset) || {};
  var streamURL = opts.stream || "/api/v1/user-tasks/stream";
  var root = document.documentElement;
  var german = /^de\b/i.test(root.getAttribute("lang") || "");
  var text = {
    changed: opts.textChanged || (german ? "Diese Aufgabe wurde geändert." : "This task changed."),
    reload: opts.textReload || (german ? "Neu laden" : "Reload"),
  };

  var ROW = "[data-task-row]";
  var PAGE = "[data-task-page]";
  var LIST = '[data-testid="list-area"]';
  var ACTIVITY = "[data-activity-list]";
  var SYNC = ['[data-testid="total-count"]', '[data-testid="inbox-tabs"]'];

  function setState(s) {
    root.setAttribute("data-live-state", s);
  }

  // ----- what may not be touched -----

  function holdsFocus(el) {
    var a = document.activeElement;
    return !!a && a !== document.body && el.contains(a);
  }

  function isDirty(field) {
    switch (field.type) {
      case "checkbox":
      case "radio":
        return field.checked !== field.defaultChecked;
      case "select-one":
      case "select-multiple":
        for (var i = 0; i < field.options.length; i++) {
          if (field.options[i].selected !== field.options[i].defaultSelected) {
            return true;
          }
        }
        return false;
      case "file":
        return !!field.files && field.files.length > 0;
      case "hidden":
      case "submit":
      case "button":
      case "reset":
        return false;
      default:
        return field.value !== field.defaultValue;
    }
  }

  function hasDirtyInput(el) {
    if (el.hasAttribute("data-live-dirty")) {
      return true;
    }
    var fields = el.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      if (isDirty(fields[i])) {
        return true;
      }
    }
    return false;
  }

  function untouchable(el) {
    return holdsFocus(el) || hasDirtyInput(el);
  }

  // Typing marks the task element, so a value typed and then typed back still counts as editing.
  document.addEventListener("input", function (e) {
    var host = e.target && e.target.closest && e.target.closest("[data-task-id]");
    if (host) {
      host.setAttribute("data-live-dirty", "");
    }
  });

  // ----- fetching the page again -----

  function byTaskID(scope, sel, id) {
    var all = scope.querySelectorAll(sel);
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute("data-task-id") === id) {
        return all[i];
      }
    }
    return null;
  }

  function revisionOf(el) {
    var r = el ? parseInt(el.getAttribute("data-revision"), 10) : NaN;
    return isNaN(r) ? 0 : r;
  }

  var pending = {}; // task id → true
  var resyncAll = false;
  var probe = false; // a check without a known change (the catch-up on open, a poll)
  var timer = null;
  var busy = false;

  function schedule() {
    if (timer === null && !busy) {
      timer = setTimeout(refresh, 150); // one fetch for a burst of changes
    }
  }

  // pageURL is the address to fetch the page again: the task page's own URL, the inbox with its
  // tab and filters. A page rendered as the answer to a form post (a 422 or 409) has the post's
  // URL in the address bar, so the URL is rebuilt from the page instead.
  function pageURL() {
    var page = document.querySelector(PAGE);
    if (page) {
      var own = "/tasks/" + encodeURIComponent(page.getAttribute("data-task-id"));
      return location.pathname === own ? own + location.search : own;
    }
    if (location.pathname === "/inbox") {
      return location.href;
    }
    var tab = document.querySelector('[data-testid="inbox-tabs"] [aria-current="page"]');
    return tab ? tab.href : "/inbox";
  }

  function refresh() {
    timer = null;
    var ids = pending;
    var all = resyncAll;
    var probing = probe && !all && Object.keys(ids).length === 0;
    pending = {};
    resyncAll = false;
    probe = false;
    var page = document.querySelector(PAGE);
    if (page && untouchable(page) && !probing) {
      // Someone is working in the form: nothing is fetched or replaced, the banner offers it.
      page.setAttribute("data-stale", "true");
      showBanner(page);
      return;
    }
    busy = true;
    fetch(pageURL(), {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
      cache: "no-store",
    })
      .then(function (res) {
        var ct = res.headers.get("Content-Type") || "";
        // Signed out, gone or failing: leave the page as it is; a reload shows the truth.
        if (!res.ok || res.redirected || ct.indexOf("text/html") !== 0) {
          return null;
        }
        return res.text();
      })
      .then(function (html) {
        if (html) {
          apply(new DOMParser().parseFromString(html, "text/html"), ids, all);
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (resyncAll || probe || Object.keys(pending).length > 0) {
          schedule();
        }
      });
  }

  function apply(fresh, ids, all) {
    var page = document.querySelector(PAGE);
    if (page) {
      applyTask(page, fresh);
    } else {
      applyInbox(fresh, ids, all);
    }
    root.setAttribute("data-live-refreshed", String(Date.now()));
  }

  // The task page: swap it unless someone is working in it; then show the banner instead.
  function applyTask(page, fresh) {
    var next = byTaskID(fresh, PAGE, page.getAttribute("data-task-id"));
    if (!next || revisionOf(next) === revisionOf(page)) {
      return;
    }
    if (untouchable(page)) {
      page.setAttribute("data-stale", "true");
      showBanner(page);
      return;
    }
    page.replaceWith(document.importNode(next, true));
  }

  function showBanner(page) {
    if (document.querySelector('[data-testid="live-banner"]')) {
      return;
    }
    var banner = document.createElement("div");
    banner.className = "banner banner--info live-banner";
    banner.setAttribute("role", "status"); // announced politely; focus stays where it is
    banner.setAttribute("data-testid", "live-banner");
    var msg = document.createElement("p");
    msg.textContent = text.changed;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button button--small";
    button.setAttribute("data-testid", "live-reload");
    button.textContent = text.reload;
    button.addEventListener("click", function () {
      location.reload();
    });
    banner.appendChild(msg);
    banner.appendChild(button);
    var head = page.querySelector('[data-testid="task-header"]');
    if (head) {
      head.after(banner);
    } else {
      page.prepend(banner);
    }
  }

  // The inbox: swap, remove or insert the rows of the changed tasks (of all rows on resync).
  function applyInbox(fresh, ids, all) {
    var list = document.querySelector(LIST);
    var freshList = fresh.querySelector(LIST);
    if (!list || !freshList) {
      return;
    }
    var rows = list.querySelectorAll(ROW);
    var freshRows = freshList.querySelectorAll(ROW);
    // Between an empty list and a list with rows the structure differs (empty state, table):
    // swap the list as a whole when nobody is working in it.
    if (rows.length === 0 || freshRows.length === 0) {
      if ((rows.length !== 0 || freshRows.length !== 0 || all) && !untouchable(list)) {
        list.replaceWith(document.importNode(freshList, true));
        syncParts(fresh);
      }
      return;
    }
    var wanted = all ? null : ids;
    var touched = false;

    // Rows shown now: swap with their fresh version, or remove when they left the list.
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var id = row.getAttribute("data-task-id");
      if (wanted && !wanted[id]) {
        continue;
      }
      var next = byTaskID(freshList, ROW, id);
      if (next && revisionOf(next) === revisionOf(row) && !row.hasAttribute("data-stale")) {
        continue; // already current
      }
      if (untouchable(row)) {
        row.setAttribute("data-stale", "true");
        continue;
      }
      if (next) {
        row.replaceWith(document.importNode(next, true));
      } else {
        row.remove();
      }
      touched = true;
    }

    // Rows that arrived: insert them where the fresh list has them.
    for (var j = 0; j < freshRows.length; j++) {
      var fid = freshRows[j].getAttribute("data-task-id");
      if ((wanted && !wanted[fid]) || byTaskID(list, ROW, fid)) {
        continue;
      }
      insertRow(list, freshRows, j);
      touched = true;
    }
    if (touched) {
      syncParts(fresh);
    }
  }

  // insertRow puts the j-th fresh row after the nearest preceding row the page already shows,
  // or before the first row shown when none precedes it.
  function insertRow(list, freshRows, j) {
    var node = document.importNode(freshRows[j], true);
    for (var k = j - 1; k >= 0; k--) {
      var prev = byTaskID(list, ROW, freshRows[k].getAttribute("data-task-id"));
      if (prev) {
        prev.after(node);
        return;
      }
    }
    list.querySelector(ROW).before(node);
  }

  // syncParts refreshes the parts that summarize the list (the counts) unless focused.
  function syncParts(fresh) {
    for (var i = 0; i < SYNC.length; i++) {
      var cur = document.querySelector(SYNC[i]);
      var next = fresh.querySelector(SYNC[i]);
      if (cur && next && !holdsFocus(cur)) {
        cur.replaceWith(document.importNode(next, true));
      } else if (cur && !next && !holdsFocus(cur)) {
        cur.remove();
      }
    }
  }

  // ----- the task page's Activity section -----

  // refreshActivity swaps the Activity list ([data-activity-list]) for the fresh page's when a
  // comment or file of this task changed (kinds "comment" and "attachment": the task's revision
  // does not move). Only the list is swapped, so a comment being typed or a file chosen stays;
  // a list holding focus (a delete button) is left for the next change.
  var activityBusy = false;
  var activityAgain = false;

  function refreshActivity() {
    var list = document.querySelector(ACTIVITY);
    if (!list) {
      return;
    }
    if (activityBusy) {
      activityAgain = true;
      return;
    }
    activityBusy = true;
    fetch(pageURL(), {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
      cache: "no-store",
    })
      .then(function (res) {
        var ct = res.headers.get("Content-Type") || "";
        if (!res.ok || res.redirected || ct.indexOf("text/html") !== 0) {
          return null;
        }
        return res.text();
      })
      .then(function (html) {
        if (!html) {
          return;
        }
        var next = new DOMParser().parseFromString(html, "text/html").querySelector(ACTIVITY);
        var cur = document.querySelector(ACTIVITY);
        if (next && cur && !holdsFocus(cur)) {
          cur.replaceWith(document.importNode(next, true));
          root.setAttribute("data-live-refreshed", String(Date.now()));
        }
      })
      .catch(function () {})
      .then(function () {
        activityBusy = false;
        if (activityAgain) {
          activityAgain = false;
          refreshActivity();
        }
      });
  }

  // ----- a page waiting for the workflow -----

  function waiting() {
    var page = document.querySelector(PAGE);
    return !!page && page.hasAttribute("data-transitional");
  }

  // check fetches the page once although no change was heard of; applyTask swaps it only when
  // its revision moved.
  function check() {
    probe = true;
    schedule();
  }

  var pollTimer = null;
  var pollSince = 0;

  // poll checks a waiting page until it is closed: every second while the stream is not open,
  // every five seconds while it is; after two minutes every fifteen seconds.
  function poll() {
    pollTimer = null;
    if (!waiting()) {
      return;
    }
    if (!document.hidden) {
      check();
    }
    var open = root.getAttribute("data-live-state") === "open";
    var delay = open ? 5000 : 1000;
    if (Date.now() - pollSince > 120000) {
      delay = 15000;
    }
    pollTimer = setTimeout(poll, delay);
  }

  function startPolling() {
    if (pollTimer === null && waiting()) {
      pollSince = Date.now();
      pollTimer = setTimeout(poll, 1000);
    }
  }

  function stopPolling() {
    if (pollTimer !== null) {
      clearTimeout(pollTimer);
      pollTimer = null;
    }
  }

  // ----- the stream -----

  var source = null;
  var failures = 0;
  var retryTimer = null;

  // ----- the bell -----

  var BELL = "[data-bell]";
  var bellBusy = false;
  var bellAgain = false;

  function showBell(n) {
    var bell = document.querySelector(BELL);
    if (!bell) {
      return;
    }
    var text = n > 99 ? "99+" : n > 0 ? String(n) : "";
    bell.setAttribute("data-unread", text);
    var count = bell.querySelector(".bell__count");
    if (count) {
      count.textContent = text;
      count.hidden = text === "";
    }
    var label = bell.getAttribute("data-label");
    if (label) {
      bell.setAttribute("aria-label", label.replace("%s", text || "0"));
    }
  }

  function refreshBell() {
    if (!document.querySelector(BELL)) {
      return;
    }
    if (bellBusy) {
      bellAgain = true; // one more after this one: the count may have moved meanwhile
      return;
    }
    bellBusy = true;
    fetch("/api/v1/me/notifications?unread=true&limit=1", {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      cache: "no-store",
    })
      .then(function (res) {
        return res.ok ? res.json() : null;
      })
      .then(function (body) {
        if (body && typeof body.unreadCount === "number") {
          showBell(body.unreadCount);
        }
      })
      .catch(function () {})
      .then(function () {
        bellBusy = false;
        if (bellAgain) {
          bellAgain = false;
          refreshBell();
        }
      });
  }

  function onMessage(e) {
    var ev;
    try {
      ev = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    if (ev.kind === "notification") {
      refreshBell();
      return;
    }
    if (ev.kind === "comment" || ev.kind === "attachment") {
      var shown = document.querySelector(PAGE);
      if (shown && shown.getAttribute("data-task-id") === ev.taskId) {
        refreshActivity();
      }
      return;
    }
    if (ev.kind === "resync") {
      refreshBell();
      resyncAll = true;
      schedule();
      return;
    }
    if (!ev.taskId) {
      return;
    }
    var page = document.querySelector(PAGE);
    if (page) {
      if (page.getAttribute("data-task-id") !== ev.taskId || revisionOf(page) >= ev.revision) {
        return; // another task, or what this page already shows (often our own post)
      }
    } else {
      var row = byTaskID(document, ROW, ev.taskId);
      if (row && revisionOf(row) >= ev.revision) {
        return;
      }
      if (!row && !document.querySelector(LIST)) {
        return;
      }
    }
    if (window.UserTasks && typeof window.UserTasks.taskChanged === "function") {
      window.UserTasks.taskChanged(ev); // app.js marks it stale and tells its listeners
    }
    pending[ev.taskId] = true;
    schedule();
  }

  function connect() {
    retryTimer = null;
    if (source) {
      return;
    }
    setState("connecting");
    source = new EventSource(streamURL, { withCredentials: true });
    var catchUp = failures > 0;
    source.onopen = function () {
      setState("open");
      if (catchUp) {
        // Changes may have been missed while away: check everything shown.
        refreshBell();
        resyncAll = true;
        schedule();
      } else if (waiting()) {
        // The workflow may have answered between this page's render and now.
        check();
      }
      failures = 0;
      catchUp = true; // EventSource's own reconnects open again: catch up then too
    };
    source.onmessage = onMessage;
    source.onerror = function () {
      failures++;
      setState("retrying");
      if (source && source.readyState === EventSource.CLOSED) {
        // Refused (signed out, too many tabs) or not a stream: try again later, backing off up
        // to a minute. EventSource retries dropped connections by itself.
        source = null;
        var delay = Math.min(60000, 1000 * Math.pow(2, Math.min(failures, 6)));
        retryTimer = setTimeout(connect, delay);
      }
    };
  }

  function disconnect() {
    if (retryTimer !== null) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
    if (source) {
      source.close();
      source = null;
    }
    stopPolling();
    setState("off");
  }

  if (!document.querySelector(PAGE + ", " + ROW + ", " + LIST + ", " + BELL)) {
    return; // nothing on this page shows tasks or the bell
  }
  connect();
  startPolling();
  // Leaving the page frees the stream (the server caps streams per person); coming back from
  // the back/forward cache reconnects and catches up.
  window.addEventListener("pagehide", disconnect);
  window.addEventListener("pageshow", function (e) {
    if (e.persisted) {
      failures = 1;
      connect();
      startPolling();
    }
  });
})();
