package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// expenseRef is the demo's expense report: assigned to ben, with an inline form (a required
// decision, a masked card number, a total of at least 0 and a note) and one Complete button.
const expenseRef = "EXP-311"

// shotCombo is one way a page is seen: a screen and a language.
type shotCombo struct {
	vp   viewport
	lang string
}

// shotCombos are the four ways issue 26 wants every changed page photographed.
var shotCombos = []shotCombo{{desktop, "en"}, {desktop, "de"}, {phone, "en"}, {phone, "de"}}

func (c shotCombo) String() string { return c.lang + "-" + c.vp.name }

// in picks the English or the German of a text.
func (c shotCombo) in(en, de string) string {
	if c.lang == "de" {
		return de
	}
	return en
}

// secondTab opens another tab in p's browser context — the same person in the same session,
// as one opens a task in a second tab — at the viewport vp.
func (p *page) secondTab(t *testing.T, vp viewport) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx) // inherits p's browser context: same cookies
	t.Cleanup(cancel)
	q := &page{t: t, ctx: ctx, base: p.base, user: p.user, vp: vp, shots: p.shots, errors: &syncBuffer{}}
	var vopts []chromedp.EmulateViewportOption
	if vp.mobile {
		vopts = append(vopts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.width, vp.height, vopts...)); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	go q.collectErrors()
	return q
}

// record checks that the page is in c's language and says each of words in its main column,
// then photographs it (artifacts/screenshots/) and scans it with axe-core. Controls that do
// not fit (overflowScript) are logged for the reviewer of the screenshots.
func (p *page) record(c shotCombo, step string, words ...string) {
	p.t.Helper()
	if got := eval[string](p, `document.documentElement.lang`); got != c.lang {
		p.t.Errorf("%s is in %q, want %q", step, got, c.lang)
	}
	text := eval[string](p, `(document.querySelector("main") || document.body).textContent.replace(/\s+/g, " ")`)
	for _, w := range words {
		if !strings.Contains(text, w) {
			p.t.Errorf("%s (%s) does not say %q; it says %.400q", step, c, w, text)
		}
	}
	if bad := eval[[]string](p, overflowScript); len(bad) > 0 {
		p.t.Logf("%s (%s): %d controls do not fit:\n  %s", step, c, len(bad), strings.Join(bad, "\n  "))
	}
	p.shot(step + "-" + c.String())
	p.axe(step + " (" + c.lang + ")")
}

// TestChangedPagesInBothLanguages photographs the pages issue 26 changed, each at 1366 px and
// 375 px in English and German, and scans each with axe-core (issue 26, "Done when"): the task
// page after a refused completion (kept values and the field's message, after the 303), the
// stale-form banner that says who completed the task, the manager's task page with the Manage
// panel folded and its Guest links open, Check access for a person chosen by name, the dashboard
// and /manage/runs, and a candidate's History. Each page must say a few words only the changed
// page says. (The manager's All tasks is photographed the same ways by TestListsFitAtEveryWidth.)
func TestChangedPagesInBothLanguages(t *testing.T) {
	start := time.Now()
	srv, b, shots := newRig(t)
	ben := b.open(t, srv.URL, "ben", desktop, shots)
	ben.signIn("acme", false)
	ben.openTab("assigned")
	expID := ben.rowID(expenseRef)
	if expID == "" {
		t.Fatalf("%s is not in ben's Assigned tab", expenseRef)
	}
	form := testid("task-form")
	decide := form + ` input[name="decision"][value="approve"]`
	send := form + " " + testid("form-actions") + " button"

	// 1. A refused completion: a negative total, which only the server checks here. The answer
	// is a 303 to the task page, which keeps the values and shows the field's message.
	for _, c := range shotCombos {
		ben.resize(c.vp)
		ben.setLanguage(c.lang)
		ben.navigate("/tasks/" + expID)
		ben.waitVisible(form)
		ben.do("leave the checks to the server", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="task-form"]').noValidate = true`))
		ben.do("choose approve", clickSel(decide))
		ben.do("enter a negative total", chromedp.SetValue(chromedp.CSS(form+` [name="total"]`), "-5"))
		ben.typeInto(form+` [name="note"]`, "Taxi to the airport")
		ben.submit("submit a negative total", send)
		ben.waitVisible(testid("error-total"))
		ben.waitVisible(testid("form-error"))
		if got := eval[string](ben, `location.pathname + location.search`); got != "/tasks/"+expID {
			t.Errorf("the refused form answered at %q, want the task page", got)
		}
		kept := eval[[]string](ben, `["total", "note"].map(n => document.querySelector('[data-testid="task-form"] [name="' + n + '"]').value)`)
		if kept[0] != "-5" || kept[1] != "Taxi to the airport" {
			t.Errorf("the refused form (%s) kept total %q and note %q, want what was typed", c, kept[0], kept[1])
		}
		if !eval[bool](ben, fmt.Sprintf(`document.querySelector(%q).checked`, decide)) {
			t.Errorf("the refused form (%s) lost the chosen decision", c)
		}
		if got := eval[string](ben, `document.querySelector('[data-testid="task-form"] [name="total"]').getAttribute("aria-invalid") || ""`); got != "true" {
			t.Errorf("the refused total (%s) is not marked aria-invalid", c)
		}
		ben.record(c, "refused-completion", expenseRef,
			c.in("The form has errors.", "Das Formular enthält Fehler."))
	}

	// 2. The stale form: ben has the task open in a tab per screen and language, and has
	// started to fill each in (so the live update leaves the form alone and offers a reload);
	// he completes it in another session; then each tab submits.
	tabs := make([]*page, len(shotCombos))
	for i, c := range shotCombos {
		tab := ben.secondTab(t, c.vp)
		tab.setLanguage(c.lang)
		tab.navigate("/tasks/" + expID)
		tab.waitVisible(form)
		tab.do("choose approve", clickSel(decide))
		tab.typeInto(form+` [name="note"]`, "Hotel receipt checked")
		tabs[i] = tab
	}
	other := b.open(t, srv.URL, "ben", desktop, shots)
	other.signIn("acme", false)
	other.navigate("/tasks/" + expID)
	other.waitVisible(form)
	other.do("choose approve", clickSel(decide))
	other.submit("complete in another session", send)
	other.waitVisible(testid("banner-accepted"))
	for i, c := range shotCombos {
		tab := tabs[i]
		tab.submit("submit the stale form", send)
		tab.waitVisible(testid("banner-conflict"))
		banner := eval[string](tab, `document.querySelector('[data-testid="banner-conflict"]').textContent.replace(/\s+/g, " ")`)
		for _, w := range []string{
			c.in("This task was completed by you on", "Diese Aufgabe wurde von Ihnen am"),
			c.in("Nothing you sent was saved.", "Nichts von dem, was Sie gesendet haben, wurde gespeichert."),
		} {
			if !strings.Contains(banner, w) {
				t.Errorf("the stale-form banner (%s) reads %q, want %q in it", c, banner, w)
			}
		}
		if strings.Contains(banner, c.in("kept below", "unten erhalten")) || eval[bool](tab, `!!document.querySelector('[data-testid="form-error"], [data-testid="task-form"]')`) {
			t.Errorf("the stale-form page (%s) promises kept input or shows a form: %q", c, banner)
		}
		tab.record(c, "stale-form", expenseRef)
		tab.checkNoErrors()
	}
	other.checkNoErrors()

	// 3–5. The manager's pages.
	ava := b.open(t, srv.URL, "ava", desktop, shots)
	ava.signIn("acme", false)
	ava.openTab("all")
	trvID := ava.rowID(travelRef)
	if trvID == "" {
		t.Fatalf("%s is not in ava's All tab", travelRef)
	}
	for _, c := range shotCombos {
		ava.resize(c.vp)
		ava.setLanguage(c.lang)

		// The task page: the Manage panel's sections fold; Guest links open.
		ava.navigate("/tasks/" + trvID)
		ava.waitVisible(testid("manage-panel"))
		if n := eval[int](ava, `document.querySelectorAll('[data-testid="manage-panel"] details').length`); n < 2 {
			t.Errorf("the Manage panel (%s) has %d folded sections, want its forms in disclosures", c, n)
		}
		ava.openDisclosures(testid("invitation-form"))
		ava.waitVisible(testid("invitation-form"))
		ava.record(c, "manager-task-guest-links", travelRef,
			c.in("Manage", "Verwalten"), c.in("Guest links", "Gastlinks"))

		// Check access for ben, found by name and chosen from the results.
		ava.typeInto("#manage-access-people", "Ben")
		ava.submit("search for ben", testid("manage-access-search"))
		ava.waitVisible(testid("access-choices"))
		ava.do("choose Ben Brooks", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('[data-testid="access-choices"] label')]
			.find(l => l.textContent.includes("Ben Brooks")).click()`))
		ava.submit("check access for ben", testid("access-page-submit"))
		ava.waitVisible(testid("access-result"))
		if n := eval[int](ava, `document.querySelectorAll('[data-testid="access-verdict"]').length`); n < 3 {
			t.Errorf("the access page (%s) gives %d verdicts, want view, claim and complete", c, n)
		}
		ava.record(c, "check-access-ben", c.in("Check access", "Zugriff prüfen"), "Ben Brooks")

		ava.navigate("/manage")
		ava.waitVisible(testid("dash-charts"))
		ava.record(c, "dashboard", c.in("Dashboard", "Übersicht"))

		ava.navigate("/manage/runs")
		ava.waitVisible(testid("dashboard-link"))
		ava.record(c, "runs", c.in("Background runs", "Hintergrundläufe"))
	}
	ava.checkNoErrors()

	// 6. ben's History, with the expense report he completed (once the loopback runtime has
	// finished it).
	for i, c := range shotCombos {
		ben.resize(c.vp)
		ben.setLanguage(c.lang)
		ben.navigate("/inbox?tab=history")
		ben.waitVisible(testid("list-area"))
		if i == 0 {
			for deadline := time.Now().Add(30 * time.Second); ben.rowID(expenseRef) != expID; {
				if time.Now().After(deadline) {
					t.Fatalf("%s did not appear in ben's History within 30 s", expenseRef)
				}
				time.Sleep(300 * time.Millisecond)
				ben.navigate("/inbox?tab=history")
				ben.waitVisible(testid("list-area"))
			}
		}
		ben.record(c, "history", expenseRef, c.in("History", "Verlauf"))
	}
	ben.checkNoErrors()
	t.Logf("%d screenshots in %s", len(shots.paths), time.Since(start).Round(time.Second))
}
