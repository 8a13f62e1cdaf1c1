package e2e

import (
	"strings"
	"testing"
	"time"
)

// chartTextScript lists every chart text that leaves its drawing or is shown smaller than
// 12 px (its computed size times the drawing's scale), and every value text cut short (a
// label may end in "…", its tooltip and the table keep it whole; a value may not), and counts
// the drawings.
const chartTextScript = `(() => {
  const bad = [];
  const svgs = [...document.querySelectorAll("svg.chart__svg")];
  for (const svg of svgs) {
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    const name = svg.closest("figure").dataset.testid;
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const r = t.getBoundingClientRect();
      const size = parseFloat(getComputedStyle(t).fontSize);
      const what = name + " “" + t.textContent + "”";
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
        bad.push(what + " leaves the drawing: " + [r.left, r.right, r.top, r.bottom].map(Math.round) + " in " + [box.left, box.right, box.top, box.bottom].map(Math.round));
      }
      if (t.classList.contains("chart__value") && t.textContent.endsWith("…")) {
        bad.push(what + " is a value cut short");
      }
      if (size < 12 || size * scale < 11.95) {
        bad.push(what + " is " + (size * scale).toFixed(1) + " px (" + size + " px at scale " + scale.toFixed(2) + ")");
      }
    }
  }
  return {drawings: svgs.length, rows: document.querySelectorAll('[data-testid="chart-claim"] svg, [data-testid="chart-complete"] svg, [data-testid="chart-sla"] svg').length, bad};
})()`

// TestChartsFit: on the dashboard every chart's text lies inside its drawing and is at least
// 12 px, at 375 and 1366 px, in English and German.
func TestChartsFit(t *testing.T) {
	srv, b, shots := newRig(t)
	// The workflows' charts need a claim and a completion: ben approves the demo invoice.
	ben := b.open(t, srv.URL, "ben", desktop, shots)
	ben.signIn("acme", false)
	ben.openTab("available")
	id := ben.rowID(invoiceRef)
	if id == "" {
		t.Fatalf("%s is not in ben's Available tab", invoiceRef)
	}
	ben.submit("claim "+invoiceRef, rowSel(id)+" "+testid("row-claim"))
	ben.navigate("/tasks/" + id)
	ben.typeInto(`[data-testid="task-form"] [name="iban"]`, validIBAN)
	ben.submit("complete", testid("action-Approve"))
	ben.waitVisible(testid("banner-accepted"))
	ben.waitFor(invoiceRef+" completed", `fetch("/inbox?tab=history").then(r => r.text()).then(t => t.includes(`+"`"+`data-task-id="`+"`"+` + `+"`"+id+"`"+`))`, 30*time.Second)

	for _, vp := range []viewport{phone, desktop} {
		for _, lang := range []string{"en", "de"} {
			t.Run(vp.name+"-"+lang, func(t *testing.T) {
				p := b.open(t, srv.URL, "ava", vp, shots)
				p.setLanguage(lang)
				p.signIn("acme", false)
				p.navigate("/manage")
				p.waitVisible(testid("dash-charts"))
				got := eval[struct {
					Drawings, Rows int
					Bad            []string
				}](p, chartTextScript)
				if got.Drawings < 3 || got.Rows < 1 {
					t.Fatalf("the dashboard draws %d charts (%d of workflows), want the demo's", got.Drawings, got.Rows)
				}
				if len(got.Bad) > 0 {
					t.Errorf("%d chart texts do not fit at %s (%s):\n  %s", len(got.Bad), vp.name, lang, strings.Join(got.Bad, "\n  "))
				}
				p.shot("dashboard-charts-" + vp.name + "-" + lang)
			})
		}
	}
}
