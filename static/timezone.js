// User Tasks — the browser's time zone. Every page carries the zone the server rendered its times
// in (<meta name="time-zone">). On every page this script
//   - keeps the browser's own IANA zone in the ut_tz cookie, which pages fall back to where the
//     session knows no zone yet (the first page after a sign-in, guest pages);
//   - fills the sign-in forms' hidden field (input[data-time-zone]), so a new session starts in
//     the person's zone;
//   - on signed-in pages (<meta name="time-zone-report">), reports the zone with the page's CSRF
//     token whenever the page was rendered in another one: a new session (after signing out
//     and in, after a server restart, a session started elsewhere) is told again, as often as
//     it needs. Only a zone the server refused is not sent again from this tab.
// Nothing else depends on it: without JavaScript times stay in UTC.
(function () {
  "use strict";

  function meta(name) {
    var m = document.querySelector('meta[name="' + name + '"]');
    return m ? m.getAttribute("content") : null;
  }

  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone || zone.length > 64 || !/^[A-Za-z0-9_+\-\/]+$/.test(zone)) { return; }

  // The browser's zone for the pages' fallback: a year, the whole site, never cross-site.
  var cookie = "ut_tz=" + zone;
  if (document.cookie.split("; ").indexOf(cookie) < 0) {
    document.cookie = cookie + "; Path=/; Max-Age=31536000; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  }

  function fill() {
    var fields = document.querySelectorAll("input[data-time-zone]");
    for (var i = 0; i < fields.length; i++) { fields[i].value = zone; }
  }
  fill();
  document.addEventListener("DOMContentLoaded", fill);

  var shown = meta("time-zone");
  var report = meta("time-zone-report");
  var token = meta("csrf-token");
  if (!report || !token || shown === null || zone === shown) { return; }

  var refusedKey = "usertasks.timeZoneRefused";
  try {
    if (window.sessionStorage.getItem(refusedKey) === zone) { return; }
  } catch (e) { /* storage disabled: report on each page, which is harmless */ }

  var body = new URLSearchParams();
  body.set("timeZone", zone);
  window.fetch(report, {
    method: "POST",
    credentials: "same-origin",
    headers: { "X-CSRF-Token": token },
    body: body
  }).then(function (res) {
    if (res.ok) { // the next page renders in the new zone
      document.dispatchEvent(new CustomEvent("usertasks:timezone", { detail: { timeZone: zone } }));
    } else if (res.status === 422) { // a zone this server does not know: do not insist
      try { window.sessionStorage.setItem(refusedKey, zone); } catch (e) { /* ignore */ }
    }
  }, function () { /* offline: a later page reports */ });
})();
