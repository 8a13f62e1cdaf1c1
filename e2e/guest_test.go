package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The guest flow runs on the demo task TRV-88 (actions Approve and Reject; one invitation
// definition with the code verifier allowing both).
const (
	travelRef  = "TRV-88"
	guestEmail = "travel-desk@partner.example"
)

// TestGuestFlow: the manager ava invites a guest to TRV-88 from the task's Manage panel, allowing
// Approve only; the delivery worker puts the link and code into the dev mailbox; the guest opens
// the link in a browser of their own, enters the code, sees the task with the one allowed
// action, forgets the "submitting is final" box (the server refuses and the focus lands on the
// box), ticks it and approves; the done page; the loopback runtime completes the task. The
// guest's pages are photographed at 1366 and 375 px in English and German and scanned with
// axe-core; the token never appears in a URL after the first.
func TestGuestFlow(t *testing.T) {
	srv, b, shots := newRig(t)
	ava := b.open(t, srv.URL, "ava", desktop, shots)
	ava.signIn("acme", false)

	// Invite from the Manage panel.
	ava.openTab("all")
	id := ava.rowID(travelRef)
	if id == "" {
		t.Fatalf("%s is not in ava's All tab", travelRef)
	}
	ava.navigate("/tasks/" + id)
	ava.openDisclosures(testid("invitation-form"))
	ava.waitVisible(testid("invitation-form"))
	ava.do("allow Approve only", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('[data-testid="invitation-form"] input[name="allowedActions"]')
		.forEach(b => { b.checked = b.value === "Approve"; })`))
	ava.typeInto(testid("invitation-recipients"), guestEmail)
	ava.submit("invite a guest", testid("invitation-submit"))
	ava.waitVisible(testid("invitation"))

	// The delivery worker hands the invitation to the dev mailbox within seconds.
	link, code := ava.mailboxLetter(guestEmail, 30*time.Second)
	u, err := url.Parse(link)
	if err != nil || u.Path != "/guest" || u.Query().Get("t") == "" {
		t.Fatalf("the mailbox link %q is not a guest link", link)
	}
	token := u.Query().Get("t")
	if len(code) != 6 {
		t.Fatalf("the mailbox code %q has not 6 digits", code)
	}
	// The code on one line, the expiry rounded (issue 26, item 24).
	ava.photographAll("dev-mailbox", func() { ava.waitVisible(testid("dev-mail-code")) })

	guest := b.open(t, srv.URL, "guest", desktop, shots)
	guest.navigate(u.RequestURI())
	guest.waitVisible(testid("guest-verify"))
	if eval[bool](guest, fmt.Sprintf(`document.body.innerText.includes(%q)`, "Lisbon")) {
		t.Fatal("the verification screen tells about the task")
	}
	guest.photographAll("verify", func() { guest.waitVisible(testid("guest-code")) })

	guest.typeInto(testid("guest-code"), code)
	guest.submit("verify the code", testid("guest-continue"))
	if !eval[bool](guest, `!!document.querySelector('[data-testid="guest-task"]')`) {
		t.Fatalf("the code %s did not open the task: %q", code, eval[string](guest, `document.body.innerText`))
	}
	guest.wantNoToken(token)
	if got := eval[string](guest, `location.pathname + location.search`); got != "/guest/task" {
		t.Fatalf("after verification the guest is at %q, want /guest/task", got)
	}
	if !eval[bool](guest, `document.body.innerText.includes("Lisbon")`) {
		t.Fatal("the guest's task page does not show the task")
	}
	if eval[bool](guest, `!!document.querySelector('[data-testid="action-Reject"], .site-nav, a[href^="/inbox"], a[href^="/login"]')`) {
		t.Fatal("the guest page offers Reject, navigation or a sign-in link")
	}
	guest.photographAll("task", func() { guest.waitVisible(testid("guest-form")) })

	// Without the confirmation the server refuses (the browser would stop a person first; the
	// check is the server's too) and puts the focus on the box.
	guest.do("drop the browser's own check", chromedp.Evaluate[chromedp.Void](`document.getElementById("guest-confirm").required = false`))
	guest.submit("approve without confirming", testid("action-Approve"))
	guest.waitVisible(testid("error-confirm"))
	guest.waitFor("the focus on the confirmation box", `document.activeElement && document.activeElement.id === "guest-confirm"`, 5*time.Second)
	guest.shot("task-confirm-missing")
	guest.axe("guest task (confirmation missing)")

	guest.do("confirm", chromedp.Click(chromedp.CSS(testid("guest-confirm")), chromedp.NodeVisible))
	guest.submit("approve", testid("action-Approve"))
	guest.waitVisible(testid("guest-done"))
	guest.wantNoToken(token)
	if got := eval[string](guest, `document.querySelector('[data-testid="guest-done-answer"]').textContent.trim()`); got != "Approve" {
		t.Fatalf("the done page names the answer %q, want Approve", got)
	}
	guest.photographAll("done", func() { guest.waitVisible(testid("guest-done")) })

	// The loopback runtime finishes the task.
	ava.waitFor("the task to end Completed", fmt.Sprintf(`fetch("/api/v1/user-tasks/%s").then(r => r.json()).then(t => t.status === "Completed")`, id), 30*time.Second)

	// The manager's task page names the guest by the recipient (issue 26, item 15).
	ava.navigate("/tasks/" + id)
	ava.waitVisible(testid("task-outcome"))
	if got := eval[string](ava, `document.querySelector('[data-testid="task-outcome"]').textContent`); !strings.Contains(got, guestEmail+" (guest)") {
		t.Fatalf("the outcome %q does not name the guest %s", got, guestEmail)
	}
	ava.shot("task-completed-by-guest")

	// The session ended with the completion: the task page is the one generic page now.
	guest.setLanguage("en")
	guest.navigate("/guest/task")
	guest.waitVisible(testid("guest-invalid"))
	guest.shot("link-no-longer-valid")
	guest.axe("guest page (no longer valid)")

	// The link again, with its right code: it says the link was used (issue 26, item 6).
	guest.navigate(u.RequestURI())
	guest.waitVisible(testid("guest-code"))
	guest.typeInto(testid("guest-code"), code)
	guest.submit("verify the used link", testid("guest-continue"))
	guest.waitVisible(testid("guest-used"))
	guest.shot("link-used")
	guest.axe("guest page (link used)")
	guest.checkNoErrors()
	ava.checkNoErrors()
}

// mailboxLetter waits in the dev mailbox for the invitation to recipient and returns its link
// and code.
func (p *page) mailboxLetter(recipient string, timeout time.Duration) (link, code string) {
	p.t.Helper()
	find := fmt.Sprintf(`[...document.querySelectorAll('[data-testid="dev-mail"]')].find(r => r.querySelector('[data-testid="dev-mail-recipient"]').textContent.trim() === %q)`, recipient)
	deadline := time.Now().Add(timeout)
	for {
		p.navigate("/dev/mailbox")
		if eval[bool](p, "!!"+find) {
			break
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("no invitation to %s in the dev mailbox within %s", recipient, timeout)
		}
		time.Sleep(500 * time.Millisecond)
	}
	got := eval[[]string](p, `(r => [r.querySelector('[data-testid="dev-mail-link"]').getAttribute("href"), r.querySelector('[data-testid="dev-mail-code"]').textContent.trim()])(`+find+`)`)
	return got[0], got[1]
}

// photographAll photographs the current guest page at 1366 and 375 px in English and German and
// scans each with axe-core; ready waits for the page after each reload. The tab ends at 1366 px
// in English.
func (p *page) photographAll(step string, ready func()) {
	p.t.Helper()
	for _, lang := range []string{"de", "en"} {
		p.setLanguage(lang)
		for _, vp := range []viewport{phone, desktop} {
			p.resize(vp)
			p.reload()
			ready()
			if got := eval[string](p, `document.documentElement.lang`); got != lang {
				p.t.Fatalf("the %s page is in %q, want %s", step, got, lang)
			}
			if overflow := eval[bool](p, `document.documentElement.scrollWidth > window.innerWidth + 1`); overflow {
				p.t.Errorf("the %s page (%s, %s) is wider than the screen", step, lang, vp.name)
			}
			p.shot(step + "-" + lang + "-" + vp.name)
			p.axe("guest " + step + " (" + lang + ")")
		}
	}
}

// wantNoToken fails when the invitation token is in the tab's URL or any link of the page.
func (p *page) wantNoToken(token string) {
	p.t.Helper()
	if eval[bool](p, fmt.Sprintf(`location.href.includes(%q) || [...document.querySelectorAll("a[href], form[action]")].some(e => (e.getAttribute("href") || e.getAttribute("action")).includes(%q))`, token, token)) {
		p.t.Fatalf("the token is in the URL or a link at %s", strings.TrimSpace(eval[string](p, `location.pathname`)))
	}
}
