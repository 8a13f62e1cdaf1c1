package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// wideScreen is the laptop the inbox's density is measured at.
var wideScreen = viewport{name: "1366px", width: 1366, height: 768}

// speak makes the tab ask for pages in lang, as a browser set to that language would.
func (p *page) speak(lang string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, network.Enable, network.EnableParams{}); err != nil {
		p.t.Fatalf("network: %v", err)
	}
	headers := network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": lang}}
	if _, err := chromedp.Call(p.ctx, network.SetExtraHTTPHeaders, headers); err != nil {
		p.t.Fatalf("Accept-Language: %v", err)
	}
}

// problems runs a script that returns a list of findings and fails the test on any.
func (p *page) problems(what, js string) {
	p.t.Helper()
	if found := eval[[]string](p, js); len(found) > 0 {
		p.t.Errorf("%s (%s): %s", what, p.vp.name, strings.Join(found, "; "))
	}
}

// pageOverflow lists a horizontal scroll of the whole page.
const pageOverflow = `(() => {
	const d = document.documentElement;
	return d.scrollWidth > window.innerWidth ? ["the page scrolls sideways: " + d.scrollWidth + " > " + window.innerWidth] : [];
})()`

// TestLayout measures what only a browser can: in German (the longest words), at a laptop's
// and a phone's width, nothing overflows its box, tabs neither scroll nor hide, and the inbox
// shows one line per task on the laptop.
func TestLayout(t *testing.T) {
	chromiumPath(t)
	srv := startServer(t)
	b := newBrowser(t)
	shots := newShotLog(t)
	for _, vp := range []viewport{wideScreen, phone} {
		t.Run(vp.name, func(t *testing.T) {
			ava := b.open(t, srv.URL, "ava", vp, shots)
			ava.speak("de")

			ava.navigate("/login")
			ava.shot("login")
			ava.problems("dev login buttons leave their cards", `Array.from(document.querySelectorAll('[data-testid="dev-login"]')).filter(b => {
				const card = b.closest('[data-testid="dev-user"]').getBoundingClientRect(), r = b.getBoundingClientRect();
				return r.right > card.right + 0.5 || r.left < card.left - 0.5;
			}).map(b => b.textContent.trim())`)
			ava.problems("login page", pageOverflow)

			ava.signIn("acme", false)
			ava.openTab("all")
			ava.shot("inbox-all")
			ava.problems("inbox tabs", `(() => {
				const nav = document.querySelector('[data-testid="inbox-tabs"]'), out = [];
				if (nav.scrollHeight > nav.clientHeight || nav.scrollWidth > nav.clientWidth) {
					out.push("the tab bar scrolls: content " + nav.scrollWidth + "x" + nav.scrollHeight + " in " + nav.clientWidth + "x" + nav.clientHeight);
				}
				for (const a of nav.querySelectorAll("a")) {
					const r = a.getBoundingClientRect();
					if (r.left < 0 || r.right > window.innerWidth) out.push("tab cut off: " + a.textContent.trim());
				}
				return out;
			})()`)
			ava.problems("inbox", pageOverflow)
			ava.problems("inbox rows", `Array.from(document.querySelectorAll('[data-task-row]')).filter(r => r.scrollWidth > r.clientWidth + 0.5).map(r => "row overflows: " + r.textContent.trim().slice(0, 40))`)
			if vp == wideScreen {
				// One line per row: 50 rows take about two screens.
				rows := eval[[]float64](ava, `Array.from(document.querySelectorAll('[data-task-row]')).map(r => r.getBoundingClientRect().height)`)
				if len(rows) < 3 {
					t.Fatalf("only %d rows in the demo's All tab", len(rows))
				}
				top := eval[float64](ava, `document.querySelector('[data-task-row]').getBoundingClientRect().top + window.scrollY`)
				tallest := 0.0
				for _, h := range rows {
					tallest = max(tallest, h)
				}
				fifty := 50 * tallest
				t.Logf("rows up to %.1f px high: 50 rows take %.0f px (%.2f screens of %d), starting %.0f px down",
					tallest, fifty, fifty/float64(vp.height), vp.height, top)
				if tallest > 34 {
					t.Errorf("a row is %.1f px high; one line should take at most 34", tallest)
				}
				if fifty > 2.25*float64(vp.height) {
					t.Errorf("50 rows need %.2f screens", fifty/float64(vp.height))
				}
			}
			ava.checkNoErrors()
		})
	}
}
