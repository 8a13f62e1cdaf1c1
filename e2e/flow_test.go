package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The flows run on the dev-mode demo (demo.Seed): tenant acme, the invoice INV-1042
// (candidates: group finance, so ben and cara; eve excluded; form invoice-approval v2 with a
// masked IBAN whose pattern only the server checks), the vendor task VEN-77 (candidates ben
// and cara) and the manager ava.
const (
	invoiceRef = "INV-1042"
	vendorRef  = "VEN-77"
	validIBAN  = "DE89370400440532013000"
)

// signIn signs p's user in through the dev login and lands on the inbox.
func (p *page) signIn(tenant string, scan bool) {
	p.t.Helper()
	p.navigate("/login")
	if !eval[bool](p, `!!document.querySelector('[data-testid="login-page"]')`) {
		p.t.Fatalf("/login shows no login page (are the web pages and the dev login wired into cmd/web?): %.300q",
			eval[string](p, `document.body ? document.body.innerText : ""`))
	}
	if scan {
		p.shot("login")
		p.axe("login")
	}
	p.submit("dev login as "+p.user,
		fmt.Sprintf(`%s[data-user-id=%q][data-tenant=%q] %s`, testid("dev-user"), p.user, tenant, testid("dev-login")))
	// On a phone the name is in the folded site menu: there, but not shown.
	p.do("wait for the user menu", chromedp.WaitReady(chromedp.CSS(testid("user-name"))))
}

// openTab goes to an inbox tab by its link, as a person would.
func (p *page) openTab(key string) {
	p.t.Helper()
	if !eval[bool](p, `!!document.querySelector('[data-testid="inbox-tabs"]')`) {
		p.navigate("/inbox")
	}
	p.submit("open tab "+key, testid("tab-"+key))
	p.waitVisible(testid("list-area"))
}

// rowID returns the task id of the inbox row whose title contains ref ("" when none).
func (p *page) rowID(ref string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(() => {
		for (const r of document.querySelectorAll('[data-task-row]')) {
			if (r.textContent.includes(%q)) return r.getAttribute('data-task-id');
		}
		return "";
	})()`, ref))
}

func rowSel(id string) string { return fmt.Sprintf(`[data-task-row][data-task-id=%q]`, id) }

// waitLive waits until live.js holds the stream open.
func (p *page) waitLive() {
	p.t.Helper()
	p.waitFor("the live stream to open", `document.documentElement.getAttribute("data-live-state") === "open"`, 15*time.Second)
}

// typeInto replaces a field's value by typing, as a person would.
func (p *page) typeInto(sel, value string) {
	p.t.Helper()
	p.openDisclosures(sel)
	p.do("type into "+sel,
		chromedp.WaitVisible(chromedp.CSS(sel)),
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).select && document.querySelector(%q).select()`, sel, sel)),
		chromedp.SendKeys(chromedp.CSS(sel), value),
	)
}

// TestCandidateFlow: a candidate signs in, claims an available task, submits the form with a
// mistake, fixes it, completes, sees the accepted banner and then the task in History — at a
// desktop size and at 375 px wide. Every page is scanned with axe-core and photographed.
func TestCandidateFlow(t *testing.T) {
	for _, vp := range []viewport{desktop, phone} {
		t.Run(vp.name, func(t *testing.T) { candidateFlow(t, vp) })
	}
}

func candidateFlow(t *testing.T, vp viewport) {
	srv, b, shots := newRig(t)
	ben := b.open(t, srv.URL, "ben", vp, shots)

	ben.signIn("acme", true)
	ben.shot("inbox-assigned")
	ben.axe("inbox assigned")

	ben.openTab("available")
	id := ben.rowID(invoiceRef)
	if id == "" {
		t.Fatalf("%s is not in ben's Available tab", invoiceRef)
	}
	ben.shot("inbox-available")
	ben.axe("inbox available")

	// Claim from the row, then open the task.
	ben.submit("claim "+invoiceRef, rowSel(id)+" "+testid("row-claim"))
	if loc := eval[string](ben, `location.pathname`); !strings.HasPrefix(loc, "/tasks/") {
		ben.navigate("/tasks/" + id)
	}
	ben.waitVisible(testid("task-form"))
	ben.shot("task-claimed")
	ben.axe("task page (assignee)")

	// A mistake only the server can see: the IBAN does not match the form's pattern.
	ben.typeInto(`[data-testid="task-form"] [name="iban"]`, "NOT-AN-IBAN")
	ben.submit("submit with an invalid IBAN", testid("action-Approve"))
	ben.waitVisible(testid("error-iban"))
	ben.waitVisible(testid("form-error"))
	if got := eval[string](ben, `document.querySelector('[data-testid="task-form"] [name="iban"]').getAttribute("aria-invalid") || ""`); got != "true" {
		t.Errorf("the invalid field is not marked aria-invalid (got %q)", got)
	}
	ben.shot("task-validation-error")
	ben.axe("task page (validation error)")

	// Fix it and complete.
	ben.typeInto(`[data-testid="task-form"] [name="iban"]`, validIBAN)
	ben.submit("complete", testid("action-Approve"))
	ben.waitVisible(testid("banner-accepted"))
	ben.shot("task-accepted")
	ben.axe("task page (accepted)")

	// The loopback runtime finishes the task within seconds; then History lists it.
	ben.openTab("history")
	deadline := time.Now().Add(30 * time.Second)
	for ben.rowID(invoiceRef) != id {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear in History within 30 s", invoiceRef)
		}
		time.Sleep(500 * time.Millisecond)
		ben.navigate("/inbox?tab=history")
	}
	ben.shot("inbox-history")
	ben.axe("inbox history")

	// The task's own history section, and an error page.
	ben.navigate("/tasks/" + id + "?tab=history")
	ben.waitVisible(testid("task-page"))
	types := eval[[]string](ben, `[...document.querySelectorAll('[data-testid="event"]')].map(e => e.getAttribute("data-event-type"))`)
	for _, want := range []string{"created", "claimed", "completion-requested", "completed"} {
		if !slices.Contains(types, want) {
			t.Errorf("the History section lists %v, want %q among them", types, want)
		}
	}
	ben.shot("task-history")
	ben.axe("task page (history)")

	ben.navigate("/tasks/0190f0e2-7c1a-7000-8000-000000000000")
	ben.waitVisible(testid("error-page"))
	ben.shot("error-not-found")
	ben.axe("error page (not found)")
	ben.checkNoErrors()
}

// TestLiveUpdates: two people of one tenant, each in their own browser context. What one does
// arrives at the other's open page without a reload, and never takes their focus or their
// typing.
func TestLiveUpdates(t *testing.T) {
	srv, b, shots := newRig(t)
	ben := b.open(t, srv.URL, "ben", desktop, shots)
	cara := b.open(t, srv.URL, "cara", desktop, shots)
	ben.signIn("acme", false)
	cara.signIn("acme", false)

	t.Run("ClaimLeavesTheOtherCandidatesAvailableList", func(t *testing.T) {
		ben.t, cara.t = t, t
		cara.openTab("available")
		id := cara.rowID(invoiceRef)
		if id == "" {
			t.Fatalf("%s is not in cara's Available tab", invoiceRef)
		}
		cara.waitLive()
		// Cara is typing a search when the change arrives; a reload would lose it.
		eval[bool](cara, `window.__e2eNoReload = true`)
		cara.typeInto(testid("filter-q"), "half-typed")
		cara.shot("available-before")

		ben.openTab("available")
		ben.submit("claim "+invoiceRef, rowSel(id)+" "+testid("row-claim"))

		cara.waitFor("the claimed row to leave cara's Available list", fmt.Sprintf(`!document.querySelector(%q)`, rowSel(id)), 15*time.Second)
		if !eval[bool](cara, `window.__e2eNoReload === true`) {
			t.Fatal("cara's page was reloaded; the row should have changed in place")
		}
		if got := eval[string](cara, `document.activeElement && document.activeElement.getAttribute("data-testid") || ""`); got != "filter-q" {
			t.Errorf("focus moved to %q, want it to stay in the search field", got)
		}
		if got := eval[string](cara, `document.querySelector('[data-testid="filter-q"]').value`); got != "half-typed" {
			t.Errorf("the search field holds %q, want the typing kept", got)
		}
		cara.shot("available-after-claim")
	})

	t.Run("EditedTaskPageGetsABannerNotANewForm", func(t *testing.T) {
		ben.t, cara.t = t, t
		cara.openTab("available")
		id := cara.rowID(vendorRef)
		if id == "" {
			t.Fatalf("%s is not in cara's Available tab", vendorRef)
		}
		cara.submit("claim "+vendorRef, rowSel(id)+" "+testid("row-claim"))
		if loc := eval[string](cara, `location.pathname`); !strings.HasPrefix(loc, "/tasks/") {
			cara.navigate("/tasks/" + id)
		}
		cara.waitVisible(testid("task-form"))
		cara.waitLive()
		eval[bool](cara, `window.__e2eNoReload = true`)
		email := `[data-testid="task-form"] [name="contactEmail"]`
		cara.typeInto(email, "cara@blueharbor.example")

		// The manager reschedules the task while cara is editing.
		ava := b.open(t, srv.URL, "ava", desktop, shots)
		ava.signIn("acme", false)
		ava.navigate("/tasks/" + id)
		ava.typeInto(`[data-testid="manage-schedule"] [name="priority"]`, "99")
		ava.submit("reschedule", testid("schedule-submit"))
		ava.waitVisible(testid("task-page"))
		ava.shot("manager-rescheduled")

		cara.waitVisible(testid("live-banner"))
		if !eval[bool](cara, `window.__e2eNoReload === true`) {
			t.Fatal("cara's task page was reloaded under her typing")
		}
		if got := eval[string](cara, fmt.Sprintf(`document.querySelector(%q).value`, email)); got != "cara@blueharbor.example" {
			t.Errorf("the e-mail field holds %q, want cara's typing kept", got)
		}
		if got := eval[string](cara, `document.activeElement && document.activeElement.name || ""`); got != "contactEmail" {
			t.Errorf("focus moved to %q, want it to stay in the e-mail field", got)
		}
		cara.shot("task-changed-banner")
		cara.axe("task page (live banner)")

		// Reload shows the new revision.
		cara.submit("reload from the banner", testid("live-reload"))
		cara.waitVisible(testid("task-page"))
		if got := eval[string](cara, `document.querySelector('[data-testid="priority"]').getAttribute("data-priority")`); got != "99" {
			t.Errorf("after reload the priority is %q, want 99", got)
		}
	})
	ben.t, cara.t = t, t
	ben.checkNoErrors()
	cara.checkNoErrors()
}
