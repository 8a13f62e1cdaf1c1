// User Tasks — the browser's time zone for the session. Signed-in pages carry the zone the
// server renders times in (<meta name="time-zone">, UTC until told otherwise); when the
// browser's own IANA zone differs, this script reports it once to POST /session/time-zone with
// the page's CSRF token. Nothing else depends on it: without JavaScript times stay in UTC.
(function () {
  "use strict";

  function meta(name) {
    var m = document.querySelector('meta[name="' + name + '"]');
    return m ? m.getAttribute("content") : null;
  }

  var shown = meta("time-zone");
  var token = meta("csrf-token");
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (shown === null || !token || !zone || zone === shown || zone.length > 64) { return; }

  // Report a refused zone only once per tab, not on every page.
  var key = "usertasks.timeZoneReported";
  try {
    if (window.sessionStorage.getItem(key) === zone) { return; }
    window.sessionStorage.setItem(key, zone);
  } catch (e) { /* storage disabled: report on each page, which is harmless */ }

  var body = new URLSearchParams();
  body.set("timeZone", zone);
  window.fetch("/session/time-zone", {
    method: "POST",
    credentials: "same-origin",
    headers: { "X-CSRF-Token": token },
    body: body
  }).then(function (res) {
    if (res.ok) { // the next page renders in the new zone
      document.dispatchEvent(new CustomEvent("usertasks:timezone", { detail: { timeZone: zone } }));
    }
  }, function () { /* offline: try again on a later page */
    try { window.sessionStorage.removeItem(key); } catch (e) { /* ignore */ }
  });
})();
