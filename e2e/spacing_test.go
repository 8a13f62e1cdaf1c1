package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// gapScript is the distance in px from the bottom (or, side by side, the right edge) of the first
// element to the top (or left edge) of the second: negative when they overlap.
func gapScript(first, second string) string {
	return fmt.Sprintf(`(() => {
  const a = document.querySelector(%q).getBoundingClientRect(), b = document.querySelector(%q).getBoundingClientRect();
  const sideBySide = a.bottom > b.top && b.bottom > a.top;
  return Math.round(sideBySide ? b.left - a.right : b.top - a.bottom);
})()`, first, second)
}

// TestSpacing: at 1366 px the controls the issue found touching keep at least 8 px apart — the
// bulk result's "Back to the list" and its table, a saved view's Rename and Delete, the guest-link
// form's button and the list heading under it, the run tables and the headings after them — the
// guest-link form's select is as wide as its field with the inputs' border, /manage/runs says its
// note once, and a manager's task page with every Manage form is at most 1,600 px tall.
func TestSpacing(t *testing.T) {
	srv, b, shots := newRig(t)
	ava := b.open(t, srv.URL, "ava", desktop, shots)
	ava.signIn("acme", false)
	wantGap := func(what, first, second string) {
		t.Helper()
		if gap := eval[int](ava, gapScript(first, second)); gap < 8 {
			ava.shot("gap-" + strings.ReplaceAll(what, " ", "-"))
			t.Errorf("%s: %d px apart, want ≥ 8", what, gap)
		}
	}

	// A manager's task page with guest links: the Manage panel's forms fold.
	ava.openTab("all")
	id := ava.rowID(travelRef)
	if id == "" {
		t.Fatalf("%s is not in ava's All tab", travelRef)
	}
	ava.navigate("/tasks/" + id)
	ava.waitVisible(testid("manage-panel"))
	if h := eval[int](ava, `document.documentElement.scrollHeight`); h > 1600 {
		t.Errorf("the task page is %d px tall for a manager, want ≤ 1600", h)
	}
	ava.shot("task-manage-folded")
	ava.openDisclosures(testid("invitation-form"))
	ava.waitVisible(testid("invitation-form"))
	wantGap("guest-link button and the list heading", testid("invitation-submit"), "#invitations-list-heading")
	if got := eval[string](ava, `(() => {
  const s = document.querySelector('[data-testid="invitation-definition"]'), f = s.closest(".field");
  const i = document.querySelector('[data-testid="invitation-recipients"]');
  const cs = getComputedStyle(s), ci = getComputedStyle(i);
  if (s.getBoundingClientRect().width < f.getBoundingClientRect().width - 1) return "narrower than its field";
  if (cs.borderTopColor !== ci.borderTopColor || cs.borderTopWidth !== ci.borderTopWidth || cs.borderRadius !== ci.borderRadius) return "border " + cs.border + " / " + cs.borderRadius + ", inputs " + ci.border + " / " + ci.borderRadius;
  return "";
})()`); got != "" {
		t.Errorf("the guest-link form's select: %s", got)
	}
	ava.shot("task-manage-invitations")
	ava.axe("task page (guest links open)")

	// Bulk result: Back to the list under the table.
	ava.openTab("all")
	ava.do("select "+travelRef, clickSel(rowSel(id)+" "+testid("bulk-select")))
	ava.submit("bulk retry", testid("bulk-submit-retry-resolution"))
	ava.waitVisible(testid("bulk-result"))
	wantGap("bulk result table and Back to the list", testid("bulk-result"), testid("bulk-back"))
	ava.shot("bulk-result")

	// A saved view's Rename and Delete.
	ava.openTab("all")
	ava.openDisclosures(testid("view-name"))
	ava.typeInto(testid("view-name"), "Spacing check")
	ava.submit("save the view", testid("view-save-submit"))
	ava.navigate("/inbox/views")
	ava.waitVisible(testid("view-rename"))
	wantGap("Rename and Delete", testid("view-rename"), testid("view-delete"))
	ava.shot("views")

	// /manage/runs: headings clear of the tables, the note once.
	ava.navigate("/manage/runs")
	ava.waitVisible(testid("dashboard-link"))
	bad := eval[[]string](ava, `[...document.querySelectorAll(".dash h3")].flatMap(h => {
  const prev = h.previousElementSibling, next = h.nextElementSibling, r = h.getBoundingClientRect(), out = [];
  if (prev && prev.tagName !== "H2" && r.top - prev.getBoundingClientRect().bottom < 8) out.push("“" + h.textContent + "” touches what is above it");
  if (next && next.getBoundingClientRect().top - r.bottom < 4) out.push("“" + h.textContent + "” touches its table");
  return out;
})`)
	if len(bad) > 0 {
		t.Errorf("/manage/runs: %s", strings.Join(bad, "; "))
	}
	note := eval[string](ava, `document.querySelector('[data-testid="runs-all-note"]') ? document.querySelector('[data-testid="runs-all-note"]').textContent : ""`)
	if n := eval[int](ava, fmt.Sprintf(`document.body.innerText.split(%q).length - 1`, note)); note == "" || n != 1 {
		t.Errorf("/manage/runs says its all-tenants note %d times, want once", n)
	}
	ava.shot("runs")
}

// clickSel clicks a visible element.
func clickSel(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)
}
