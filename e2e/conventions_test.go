package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// setLanguage makes the tab ask for lang in Accept-Language, as a browser set to it would.
func (p *page) setLanguage(lang string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{
		Headers: network.Headers{"Accept-Language": lang},
	}); err != nil {
		p.t.Fatalf("set Accept-Language %s: %v", lang, err)
	}
}

// reload reloads the page as the browser's refresh button does.
func (p *page) reload() {
	p.t.Helper()
	p.do("reload", chromedp.Reload())
}

// taskState reads the task's revision and number of events through the JSON API with the
// page's own session (GETs need no CSRF token).
func (p *page) taskState(id string) (revision, events int) {
	p.t.Helper()
	got := eval[[]int](p, fmt.Sprintf(`Promise.all([
		fetch("/api/v1/user-tasks/%[1]s").then(r => r.json()).then(t => t.revision),
		fetch("/api/v1/user-tasks/%[1]s/events?limit=200").then(r => r.json()).then(e => e.items.length),
	])`, id))
	return got[0], got[1]
}

// refreshChangesNothing reloads the page that a successful POST redirected to and checks that
// the browser did not send the POST again: the page is a GET URL and the task is untouched.
func (p *page) refreshChangesNothing(what, id string) {
	p.t.Helper()
	rev, events := p.taskState(id)
	p.reload()
	p.waitVisible(testid("task-page"))
	if nav := eval[string](p, `performance.getEntriesByType("navigation")[0].type`); nav != "reload" {
		p.t.Fatalf("after %s the refresh was a %q navigation", what, nav)
	}
	if r, e := p.taskState(id); r != rev || e != events {
		p.t.Fatalf("refreshing after %s changed the task: revision %d → %d, events %d → %d", what, rev, r, events, e)
	}
}

// TestRefreshAfterEveryPost walks a task end to end — claim, reveal, release, claim again,
// a refused submit, complete — and refreshes the page after every successful POST: the
// browser lands on a GET each time, so nothing is sent twice.
func TestRefreshAfterEveryPost(t *testing.T) {
	srv, b, shots := newRig(t)
	ben := b.open(t, srv.URL, "ben", desktop, shots)
	ben.signIn("acme", false)

	ben.openTab("available")
	id := ben.rowID(invoiceRef)
	if id == "" {
		t.Fatalf("%s is not in ben's Available tab", invoiceRef)
	}
	ben.navigate("/tasks/" + id)
	ben.submit("claim", testid("task-claim-form")+" button")
	ben.refreshChangesNothing("claim", id)

	ben.submit("reveal the IBAN", testid("reveal-iban"))
	if got := eval[string](ben, `document.querySelector('[data-testid="task-form"] [name="iban"]').value`); got != validIBAN {
		t.Fatalf("the revealed IBAN reads %q", got)
	}
	ben.refreshChangesNothing("reveal", id)
	if got := eval[string](ben, `document.querySelector('[data-testid="task-form"] [name="iban"]').value`); got != "" {
		t.Fatalf("after a refresh the IBAN still shows %q; it must be masked again", got)
	}

	ben.submit("release", testid("task-release-form")+" button")
	ben.refreshChangesNothing("release", id)
	ben.submit("claim again", testid("task-claim-form")+" button")
	ben.refreshChangesNothing("claim again", id)

	ben.typeInto(`[data-testid="task-form"] [name="iban"]`, "NOT-AN-IBAN")
	ben.submit("submit with an invalid IBAN", testid("action-Approve"))
	ben.waitVisible(testid("error-iban"))

	ben.typeInto(`[data-testid="task-form"] [name="iban"]`, validIBAN)
	ben.submit("complete", testid("action-Approve"))
	ben.waitVisible(testid("banner-accepted"))
	if loc := eval[string](ben, `location.pathname + location.search`); loc != "/tasks/"+id {
		t.Errorf("after completing the browser is at %q, want the task's GET URL", loc)
	}
	ben.refreshChangesNothing("complete", id)
	ben.checkNoErrors()
}

// TestUnknownURLShowsTheErrorPage: a browser that opens a URL that does not exist gets the
// HTML error page with a way back, in its language, never problem+json.
func TestUnknownURLShowsTheErrorPage(t *testing.T) {
	srv, b, shots := newRig(t)
	ben := b.open(t, srv.URL, "ben", desktop, shots)
	ben.signIn("acme", false)
	for _, lang := range []string{"en", "de"} {
		ben.setLanguage(lang)
		for _, path := range []string{"/no/such/page", "/tasks"} {
			res, err := chromedp.RunResponse(ben.ctx, chromedp.Navigate(srv.URL+path))
			if err != nil {
				t.Fatalf("open %s: %v", path, err)
			}
			if res.Status != 404 || !strings.HasPrefix(res.MimeType, "text/html") {
				t.Errorf("%s (%s): %d %s, want a 404 HTML page", path, lang, res.Status, res.MimeType)
			}
			ben.waitVisible(testid("error-page"))
			ben.waitVisible(testid("error-inbox"))
			if got := eval[string](ben, `document.documentElement.lang`); got != lang {
				t.Errorf("%s: page language %q, want %q", path, got, lang)
			}
		}
		ben.shot("unknown-url-" + lang)
		ben.axe("error page (unknown URL, " + lang + ")")
	}
	ben.checkNoErrors()
}

// overflowScript lists the controls that do not fit: the page scrolling sideways, a button,
// link button, tab strip or field whose content is wider than its box, or a control sticking
// out of the card, panel, form or list row around it. It compares element boxes, so it finds
// what a glance at a screenshot can miss (a 1 px scrollbar).
const overflowScript = `(() => {
  const out = [];
  const name = el => (el.getAttribute("data-testid") || el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "")) +
    " «" + (el.innerText || el.value || "").trim().slice(0, 40) + "»";
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push("the page scrolls sideways: " + root.scrollWidth + " > " + root.clientWidth);
  const controls = document.querySelectorAll('button, a.button, input:not([type=hidden]), select, textarea, .tabs, [role=tablist], nav');
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (r.width <= 1 || r.height <= 1 || cs.visibility === "hidden" || cs.display === "none") continue;
    if (el.scrollWidth > el.clientWidth && el.tagName !== "SELECT" && el.tagName !== "INPUT" && el.tagName !== "TEXTAREA") {
      out.push(name(el) + ": content " + el.scrollWidth + " px in a " + el.clientWidth + " px box");
    }
    if (/(auto|scroll)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight && el.tagName !== "TEXTAREA" && el.tagName !== "SELECT") {
      out.push(name(el) + ": content " + el.scrollHeight + " px high in a " + el.clientHeight + " px box (a stray scrollbar)");
    }
    const box = el.parentElement && el.parentElement.closest(".card, .panel, form, li, [data-task-row], .manage, .error-page, main");
    if (box) {
      const b = box.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) {
        out.push(name(el) + " sticks out of " + name(box) + ": [" + Math.round(r.left) + ", " + Math.round(r.right) + "] outside [" + Math.round(b.left) + ", " + Math.round(b.right) + "]");
      }
    }
  }
  return out;
})()`

// TestGermanPagesFit opens every page kind in German at 1366 px and 375 px, as a candidate
// and as the manager, and fails on any control that does not fit its box.
func TestGermanPagesFit(t *testing.T) {
	srv, b, shots := newRig(t)
	for _, vp := range []viewport{desktop, phone} {
		t.Run(vp.name, func(t *testing.T) {
			for _, user := range []string{"ava", "ben"} {
				p := b.open(t, srv.URL, user, vp, shots)
				p.setLanguage("de")
				check := func(what string) {
					t.Helper()
					if got := eval[string](p, `document.documentElement.lang`); got != "de" {
						t.Fatalf("%s is in %q, want German", what, got)
					}
					if bad := eval[[]string](p, overflowScript); len(bad) > 0 {
						p.shot("overflow-" + what)
						t.Errorf("%s as %s at %s: %d controls do not fit:\n  %s", what, user, vp.name, len(bad), strings.Join(bad, "\n  "))
					}
				}
				p.navigate("/login")
				p.waitVisible(testid("login-page"))
				check("login")
				if user == "ava" {
					p.shot("de-login")
				}
				p.signIn("acme", false)
				tabs := []string{"assigned", "available", "history"}
				if user == "ava" {
					tabs = append(tabs, "all", "needs-attention")
				}
				for _, tab := range tabs {
					p.navigate("/inbox?tab=" + tab)
					p.waitVisible(testid("list-area"))
					check("inbox-" + tab)
				}
				p.shot("de-inbox")
				p.navigate("/inbox?tab=" + map[string]string{"ava": "all", "ben": "available"}[user])
				id := p.rowID(invoiceRef)
				if id == "" {
					t.Fatalf("%s is not listed for %s", invoiceRef, user)
				}
				p.navigate("/tasks/" + id)
				p.waitVisible(testid("task-page"))
				check("task")
				p.shot("de-task")
				for _, tab := range []string{"workflow", "history"} {
					p.navigate("/tasks/" + id + "?tab=" + tab)
					p.waitVisible(testid("task-page"))
					check("task-" + tab)
				}
				p.navigate("/no/such/page")
				p.waitVisible(testid("error-page"))
				check("error")
				p.checkNoErrors()
			}
		})
	}
}
