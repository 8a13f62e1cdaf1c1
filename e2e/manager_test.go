package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The manager's flow runs on these demo tasks: PO-9001 names a form provider the server does not
// have (a blocking health finding retry resolution cannot fix), and VEN-77, REC-10 and INS-4 are
// overdue.
const (
	blockedRef    = "PO-9001"
	blockedCode   = "form-provider-missing"
	overdueRefs   = "VEN-77 REC-10 INS-4"
	changedRef    = "REC-10" // changed by a second session while the list is open
	savedViewName = "Blocked forms"
)

// TestManagerFlow: the manager ava works her queue — Needs attention, filtered by a blocking
// health code; the task; retry resolution; assign through the people picker; back to the list;
// bulk-reschedule three overdue tasks while a second session changes one of them, so the result
// page shows two done and one conflict; save the view; the /manage dashboard with its charts and
// their table alternatives; /manage/runs; and "Check access" on a task for ben. Every page is
// photographed at 1366 px and scanned with axe-core; the dashboard, the bulk result and the task
// page are photographed at 375 px too, in English and German.
func TestManagerFlow(t *testing.T) {
	srv, b, shots := newRig(t)
	ava := b.open(t, srv.URL, "ava", desktop, shots)
	ava.signIn("acme", false)

	// Needs attention, filtered by the blocking health code (a checkbox under "More filters").
	ava.openTab("needs-attention")
	ava.shot("needs-attention")
	ava.axe("needs attention")
	ava.do("open more filters", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="filters-more"]').open = true`))
	ava.do("check "+blockedCode, chromedp.Click(chromedp.CSS(testid("filter-healthCode-"+blockedCode)), chromedp.NodeVisible))
	ava.submit("apply the filters", testid("filters-apply"))
	ava.waitVisible(testid("list-area"))
	if got := eval[string](ava, `location.search`); !strings.Contains(got, "healthCode="+blockedCode) {
		t.Fatalf("the filtered list is at %q, want healthCode=%s in it", got, blockedCode)
	}
	refs := eval[[]string](ava, `[...document.querySelectorAll('[data-task-row] [data-testid="row-reference"]')].map(e => e.lastChild.textContent.trim())`)
	if len(refs) != 1 || refs[0] != blockedRef {
		t.Fatalf("filtered by %s the list shows %q, want only %s", blockedCode, refs, blockedRef)
	}
	listURL := eval[string](ava, `location.pathname + location.search`)
	ava.shot("needs-attention-filtered")
	ava.axe("needs attention (filtered by health code)")

	// The task: its health review offers retry resolution; the provider is still missing, so
	// the task stays blocked and the page says so.
	id := ava.rowID(blockedRef)
	ava.submit("open "+blockedRef, rowSel(id)+" "+testid("row-title"))
	ava.waitVisible(testid("health-review"))
	ava.shot("task-blocked")
	ava.axe("task page (blocking health finding)")
	ava.submit("retry resolution", testid("health-fix-retry")+" "+testid("health-fix-submit"))
	ava.waitVisible(testid("task-page"))
	ava.waitVisible(testid("flash"))
	if !eval[bool](ava, `!!document.querySelector('[data-testid="health-review"]')`) {
		t.Error("after retry resolution the health review is gone, but the form provider is still missing")
	}
	ava.shot("task-retried")
	ava.axe("task page (after retry resolution)")

	// Assign through the people picker: type a name, pick the suggestion.
	ava.typeInto("#people-q", "Cara")
	ava.waitFor("the picker to suggest Cara Cole",
		`[...document.querySelectorAll('#people-suggestions [role="option"]')].some(o => o.textContent.includes("Cara Cole"))`, 10*time.Second)
	ava.shot("people-picker")
	ava.axe("task page (people picker open)")
	ava.do("pick Cara Cole", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#people-suggestions [role="option"]')]
		.find(o => o.textContent.includes("Cara Cole")).dispatchEvent(new MouseEvent("mousedown", {bubbles: true}))`))
	// The page lists Cara Cole as the assign form's choice, chosen; no field shows her id.
	ava.waitVisible(testid("people-choices"))
	if got := eval[string](ava, `(document.querySelector('[data-testid="people-choices"] input:checked') || {}).value || ""`); got != "cara" {
		t.Fatalf("picking Cara Cole chose %q, want cara", got)
	}
	if got := eval[string](ava, `document.getElementById("people-q").value`); got != "Cara Cole" {
		t.Errorf("the search field shows %q after picking, want the name", got)
	}
	if eval[bool](ava, `!!document.getElementById("assign-assignee")`) {
		t.Error("a second field for the id is still shown after picking")
	}
	ava.shot("people-picked")
	ava.submit("assign to Cara", testid("assign-submit"))
	ava.waitVisible(testid("task-assignee"))
	if got := eval[string](ava, `document.querySelector('[data-testid="task-assignee"]').textContent`); !strings.Contains(got, "Cara Cole") {
		t.Errorf("after assigning the task shows the assignee %q, want Cara Cole by name", got)
	}
	ava.shot("task-assigned")
	ava.axe("task page (assigned)")

	// Back to the list: the filter is kept.
	ava.navigate(listURL)
	ava.waitVisible(testid("list-area"))
	if id := ava.rowID(blockedRef); id == "" {
		t.Errorf("%s left the filtered list after assigning; its health finding is unchanged", blockedRef)
	}
	ava.shot("back-to-list")

	// Bulk reschedule: the three overdue tasks of the whole Needs attention list, one of which
	// a second session changes between loading the list and submitting.
	ava.navigate("/inbox?tab=needs-attention")
	ava.waitVisible(testid("list-area"))
	ava.waitLive()
	ids := map[string]string{}
	for _, ref := range strings.Fields(overdueRefs) {
		ids[ref] = ava.rowID(ref)
		if ids[ref] == "" {
			t.Fatalf("overdue %s is not on Needs attention", ref)
		}
		ava.do("select "+ref, chromedp.Click(chromedp.CSS(rowSel(ids[ref])+" "+testid("bulk-select")), chromedp.NodeVisible))
	}
	ava.do("open the bulk form", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="bulk-details"]').open = true`))
	ava.do("choose reschedule", chromedp.Click(chromedp.CSS(testid("bulk-action-reschedule")+" > summary"), chromedp.NodeVisible))
	if shown := eval[[]string](ava, `[...document.querySelectorAll('[data-testid="bulk-form"] input:not([type=hidden]):not([type=checkbox]), [data-testid="bulk-form"] textarea')]
		.filter(e => e.checkVisibility()).map(e => e.name)`); !slices.Equal(shown, []string{"due"}) {
		t.Fatalf("rescheduling shows the fields %v, want only the due date", shown)
	}
	due := time.Now().Add(72 * time.Hour).Format("2006-01-02T15:04")
	ava.do("set the due date", chromedp.SetValue(chromedp.CSS(testid("bulk-due")), due))
	ava.shot("bulk-form")
	ava.axe("needs attention (bulk form)")

	other := b.open(t, srv.URL, "ava", desktop, shots)
	other.signIn("acme", false)
	other.navigate("/tasks/" + ids[changedRef])
	other.typeInto(`[data-testid="manage-schedule"] [name="priority"]`, "90")
	other.submit("change "+changedRef+" meanwhile", testid("schedule-submit"))
	other.waitVisible(testid("task-page"))
	// The changed row is checked, so the live update leaves it alone and marks it stale.
	ava.waitFor(changedRef+"'s row to be marked stale", fmt.Sprintf(`!!document.querySelector(%q + "[data-stale]")`, rowSel(ids[changedRef])), 15*time.Second)

	ava.submit("bulk reschedule", testid("bulk-submit-reschedule"))
	ava.waitVisible(testid("bulk-result"))
	outcomes := eval[map[string]string](ava, `Object.fromEntries([...document.querySelectorAll('[data-testid="bulk-item"]')]
		.map(r => [r.querySelector('[data-testid="bulk-item-title"]').getAttribute("href"), r.getAttribute("data-outcome")]))`)
	done, conflicts := 0, 0
	for href, o := range outcomes {
		switch {
		case o == "done":
			done++
		case o == "conflict" && href == "/tasks/"+ids[changedRef]:
			conflicts++
		case o == "conflict":
			conflicts++
			t.Errorf("conflict on %s, want it on the task changed meanwhile (%s)", href, changedRef)
		}
	}
	if done != 2 || conflicts != 1 || len(outcomes) != 3 {
		t.Errorf("bulk result %v: want two done and one conflict", outcomes)
	}
	if got := eval[string](ava, `document.querySelector('[data-testid="bulk-summary"]').textContent`); got != "2 done, 1 conflict, 0 refused" {
		t.Errorf("the summary reads %q, want two done and one conflict", got)
	}
	bulkURL := eval[string](ava, `location.pathname`)
	ava.shot("bulk-result")
	ava.axe("bulk result")

	// Save the view: Needs attention filtered by the health code.
	ava.navigate(listURL)
	ava.waitVisible(testid("saved-views"))
	ava.do("open save view", chromedp.Click(chromedp.CSS(testid("view-save")+" summary"), chromedp.NodeVisible))
	ava.typeInto(testid("view-name"), savedViewName)
	ava.shot("save-view")
	ava.axe("needs attention (save view)")
	ava.submit("save the view", testid("view-save-submit"))
	ava.waitVisible(testid("view-select"))
	if got := eval[string](ava, `document.querySelector('[data-testid="view-select"]').selectedOptions[0].textContent`); !strings.Contains(got, savedViewName) {
		t.Errorf("after saving the view picker shows %q, want %q", got, savedViewName)
	}
	ava.shot("view-saved")
	ava.axe("needs attention (saved view)")
	// Picked from the unfiltered list, the view brings its filter back.
	ava.navigate("/inbox?tab=needs-attention")
	ava.do("pick the saved view", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.querySelector('[data-testid="view-select"]');
		s.value = [...s.options].find(o => o.textContent.includes(%q)).value;
	})()`, savedViewName)))
	ava.submit("open the saved view", testid("view-open"))
	ava.waitVisible(testid("list-area"))
	if !eval[bool](ava, `document.querySelector('[data-testid="filter-healthCode-`+blockedCode+`"]').checked`) || ava.rowID(blockedRef) == "" {
		t.Errorf("the saved view does not bring back the %s filter", blockedCode)
	}

	// The dashboard: charts as SVG, each with its table alternative.
	ava.submit("open /manage", testid("nav-manage"))
	ava.waitVisible(testid("dash-charts"))
	checkCharts(t, ava)
	ava.shot("dashboard")
	ava.axe("dashboard")
	ava.submit("open the runs", testid("runs-link"))
	ava.waitVisible(testid("dashboard-link"))
	ava.shot("runs")
	ava.axe("runs")

	// Check access: why can ben (not) act on the blocked task?
	ava.navigate("/tasks/" + id)
	// The participant is found by name and chosen from the results, never typed as an id.
	ava.typeInto("#manage-access-people", "Ben")
	ava.submit("search for ben", testid("manage-access-search"))
	ava.waitVisible(testid("access-choices"))
	ava.shot("access-choices")
	ava.axe("access page (people found)")
	ava.do("choose Ben Brooks", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('[data-testid="access-choices"] label')]
		.find(l => l.textContent.includes("Ben Brooks")).click()`))
	ava.submit("check access for ben", testid("access-page-submit"))
	ava.waitVisible(testid("access-result"))
	if got := eval[string](ava, `document.querySelector('[data-testid="access-result"] h2').textContent`); !strings.Contains(got, "Ben Brooks") {
		t.Errorf("the access result is headed %q, want ben by name", got)
	}
	if n := eval[int](ava, `document.querySelectorAll('[data-testid="access-verdict"]').length`); n < 3 {
		t.Errorf("the access page gives %d verdicts, want view, claim and complete", n)
	}
	ava.shot("access-ben")
	ava.axe("access explanation")
	other.checkNoErrors()

	// The dashboard, the bulk result and the task page on a phone, in English and German. The
	// bulk result is kept in ava's session, so her own tab narrows to a phone.
	ava.resize(phone)
	for _, lang := range []string{"en", "de"} {
		ava.setLanguage(lang)
		for _, pg := range []struct{ name, path, wait string }{
			{"dashboard", "/manage", testid("dash-charts")},
			{"bulk-result", bulkURL, testid("bulk-result")},
			{"task", "/tasks/" + id, testid("task-page")},
		} {
			ava.navigate(pg.path)
			ava.waitVisible(pg.wait)
			if got := eval[string](ava, `document.documentElement.lang`); got != lang {
				t.Errorf("%s is in %q, want %q", pg.name, got, lang)
			}
			if pg.name == "dashboard" {
				// A chart of days too wide for the phone scrolls, opened at the newest day.
				if !eval[bool](ava, `[...document.querySelectorAll(".chart--columns")].every(f => f.scrollWidth <= f.clientWidth || f.scrollLeft + f.clientWidth >= f.scrollWidth - 1)`) {
					t.Errorf("a chart of days (%s) does not open at the newest day", lang)
				}
			}
			if bad := eval[[]string](ava, overflowScript); len(bad) > 0 {
				t.Errorf("%s at 375 px (%s): %d controls do not fit:\n  %s", pg.name, lang, len(bad), strings.Join(bad, "\n  "))
			}
			ava.shot(pg.name + "-375px-" + lang)
			ava.axe(pg.name + " (" + lang + ")")
		}
	}
	ava.checkNoErrors()
}

// resize gives the tab another viewport, as turning a laptop into a phone would.
func (p *page) resize(vp viewport) {
	p.t.Helper()
	var opts []chromedp.EmulateViewportOption
	if vp.mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	p.do("resize to "+vp.name, chromedp.EmulateViewport(vp.width, vp.height, opts...))
	p.vp = vp
}

// checkCharts checks that the dashboard draws its charts as SVG with a text alternative, and
// offers each chart's numbers as a table.
func checkCharts(t *testing.T, p *page) {
	t.Helper()
	charts := eval[[]map[string]any](p, `[...document.querySelectorAll('[data-testid="dash-charts"] figure.chart')].map(f => ({
		id: f.getAttribute("data-testid"),
		svg: !!f.querySelector("svg"),
		label: (f.querySelector("svg") && (f.querySelector("svg").getAttribute("aria-label") || f.querySelector("svg").getAttribute("aria-labelledby"))) || "",
		table: !!f.querySelector('details table th[scope]'),
		empty: !!f.querySelector('.chart__empty'),
	}))`)
	if len(charts) < 4 {
		t.Fatalf("the dashboard shows %d charts, want four", len(charts))
	}
	drawn := 0
	for _, c := range charts {
		if c["empty"] == true {
			continue
		}
		drawn++
		if c["svg"] != true || c["label"] == "" {
			t.Errorf("chart %v: want an SVG with an accessible name", c)
		}
		if c["table"] != true {
			t.Errorf("chart %v: want a table alternative with header cells", c)
		}
	}
	if drawn == 0 {
		t.Error("the demo's dashboard draws no chart at all")
	}
}
