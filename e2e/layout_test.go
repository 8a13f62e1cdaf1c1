package e2e

import "testing"

// wideScreen is the laptop the inbox's density is measured at.
var wideScreen = viewport{name: "1366px", width: 1366, height: 768}

// TestInboxDensity measures the inbox in German (the longest words): on a 1366×768 laptop a row
// is one line, so 50 tasks take about two screens; on a phone rows wrap inside their cards.
// (TestGermanPagesFit checks that nothing sticks out anywhere.)
func TestInboxDensity(t *testing.T) {
	srv, b, shots := newRig(t)
	for _, vp := range []viewport{wideScreen, phone} {
		t.Run(vp.name, func(t *testing.T) {
			ava := b.open(t, srv.URL, "ava", vp, shots)
			ava.setLanguage("de")
			ava.signIn("acme", false)
			ava.openTab("all")
			ava.shot("inbox-all")
			if wide := eval[[]string](ava, `Array.from(document.querySelectorAll('[data-task-row]'))
				.filter(r => r.scrollWidth > r.clientWidth + 0.5).map(r => r.textContent.trim().slice(0, 40))`); len(wide) > 0 {
				t.Errorf("rows wider than the list: %q", wide)
			}
			if vp != wideScreen {
				return
			}
			rows := eval[[]float64](ava, `Array.from(document.querySelectorAll('[data-task-row]')).map(r => r.getBoundingClientRect().height)`)
			if len(rows) < 3 {
				t.Fatalf("only %d rows in the demo's All tab", len(rows))
			}
			tallest := 0.0
			for _, h := range rows {
				tallest = max(tallest, h)
			}
			fifty := 50 * tallest
			t.Logf("rows up to %.1f px high: 50 rows take %.0f px, %.2f screens of %d", tallest, fifty, fifty/float64(vp.height), vp.height)
			if tallest > 34 {
				t.Errorf("a row is %.1f px high; one line should take at most 34", tallest)
			}
			if fifty > 2.25*float64(vp.height) {
				t.Errorf("50 rows need %.2f screens", fifty/float64(vp.height))
			}
			ava.checkNoErrors()
		})
	}
}
