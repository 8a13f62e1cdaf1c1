package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestOutOfOfficeAndDelegation is issue 31's browser test on the `web` binary in dev mode, with
// the demo users and the demo directory: ben sets an out-of-office with cara as substitute
// (found with the people picker); a task the runtime projects for ben as a direct candidate
// shows in cara's Available list "on behalf of" him, and she claims and completes it. Then ben,
// back, delegates a task he holds to cara, who returns it. Every page photographed and scanned
// with axe-core at 1366 and 375 px, in English and German.
func TestOutOfOfficeAndDelegation(t *testing.T) {
	chromiumPath(t)
	b, shots := newBrowser(t), newShotLog(t)
	for _, c := range []struct {
		vp   viewport
		lang string
	}{{desktop, "en"}, {phone, "de"}, {desktop, "de"}, {phone, "en"}} {
		t.Run(c.vp.name+"-"+c.lang, func(t *testing.T) { delegationFlow(t, b, shots, c.vp, c.lang) })
	}
}

// words are the flow's expected texts by language.
var delegationWords = map[string]struct{ onBehalf, you, leave, invoice string }{
	"en": {"on behalf of Ben Brooks", "You", "Approve the leave request", "Check the invoice"},
	"de": {"in Vertretung für Ben Brooks", "Sie", "Urlaubsantrag genehmigen", "Rechnung prüfen"},
}

func delegationFlow(t *testing.T, b *browser, shots *shotLog, vp viewport, lang string) {
	w := delegationWords[lang]
	srv := startServerEnv(t, "USERTASKS_JWT_HS256_SECRET="+string(notifyFlowSecret))
	ben := b.open(t, srv.URL, "ben", vp, shots)
	ben.setLanguage(lang)
	ben.signIn("acme", false)

	// Out of office from now for a week (the form's proposal), cara found by name.
	ben.navigate("/settings/absence")
	ben.waitVisible(testid("absence-none"))
	ben.typeInto("#substitute-people-q", "Cara")
	ben.submit("search the substitute", testid("substitute-people-search-submit"))
	ben.waitVisible(testid("substitute-people-choices"))
	ben.do("choose cara", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="substitute-people-choices"] input[value="cara"]').click()`))
	ben.submit("save the absence", testid("absence-save"))
	ben.waitVisible(testid("flash"))
	if got := eval[string](ben, `document.querySelector('[data-testid="absence-current"]').getAttribute("data-state")`); got != "active" {
		t.Fatalf("the saved absence is %q, want active", got)
	}
	ben.shot("absence-" + lang)
	ben.axe("out of office page")
	ben.navigate("/inbox")
	ben.waitVisible(testid("away-banner"))
	if got := eval[string](ben, `document.querySelector('[data-testid="away-banner"]').textContent`); !strings.Contains(got, "Cara Cole") {
		t.Fatalf("the away banner says %q, want the substitute's name", got)
	}
	ben.shot("inbox-away-" + lang)
	ben.axe("inbox with the away banner")

	// A task for ben as a direct candidate: cara sees it on his behalf, claims and completes it.
	leave := project(t, srv.URL, "leave-"+vp.name+"-"+lang, w.leave, map[string]any{"candidateUsers": []map[string]string{{"id": "ben"}}})
	cara := b.open(t, srv.URL, "cara", vp, shots)
	cara.setLanguage(lang)
	cara.signIn("acme", false)
	cara.navigate("/inbox?tab=available")
	row := fmt.Sprintf(`[data-task-id=%q]`, leave)
	cara.waitVisible(row + " " + testid("row-on-behalf"))
	if got := strings.TrimSpace(eval[string](cara, fmt.Sprintf(`document.querySelector('%s [data-testid="row-on-behalf"]').textContent`, row))); got != w.onBehalf {
		t.Fatalf("the row says %q, want %q", got, w.onBehalf)
	}
	cara.shot("available-on-behalf-" + lang)
	cara.axe("available list with a stand-in row")
	cara.submit("claim standing in", row+" "+testid("row-claim"))
	cara.navigate("/tasks/" + leave)
	cara.waitVisible(testid("form-actions"))
	cara.submit("complete", testid("form-actions")+" button")
	cara.waitVisible(testid("banner-accepted"))
	if got := eval[string](cara, fmt.Sprintf(`fetch("/api/v1/user-tasks/%s").then(r => r.json()).then(t => t.status + " " + (t.assignee ? t.assignee.id : ""))`, leave)); got != "Completing cara" && got != "Completed cara" {
		t.Fatalf("after the completion the task is %q, want completed by cara", got)
	}
	cara.navigate("/tasks/" + leave + "?tab=history")
	cara.waitFor("the claim's history line", `[...document.querySelectorAll('[data-testid="event-summary"]')].some(e => e.textContent.includes("Ben Brooks"))`, 5*time.Second)
	cara.shot("history-standing-in-" + lang)
	cara.axe("history of a task claimed standing in")

	// Back: ben removes the absence and delegates a task he holds to cara, who returns it.
	ben.navigate("/settings/absence")
	ben.submit("remove the absence", testid("absence-remove"))
	ben.waitVisible(testid("absence-none"))
	invoice := project(t, srv.URL, "invoice-"+vp.name+"-"+lang, w.invoice, map[string]any{"assignee": map[string]string{"id": "ben"}})
	ben.navigate("/tasks/" + invoice)
	ben.waitVisible(testid("delegate-section"))
	ben.typeInto("#delegate-people-q", "Cara")
	ben.submit("search the delegate", testid("delegate-people-search-submit"))
	ben.waitVisible(testid("delegate-people-choices"))
	ben.do("choose cara", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="delegate-people-choices"] input[value="cara"]').click()`))
	ben.shot("delegate-" + lang)
	ben.axe("task page with Delegate open")
	ben.submit("delegate to cara", testid("delegate-submit"))
	ben.waitVisible(testid("flash"))
	if got := strings.TrimSpace(eval[string](ben, `document.querySelector('[data-testid="task-delegated-by"]').textContent`)); got != w.you {
		t.Errorf("delegated by %q, want %q", got, w.you)
	}

	cara.navigate("/tasks/" + invoice)
	cara.waitVisible(testid("task-return"))
	if got := eval[string](cara, `document.querySelector('[data-testid="task-return"]').textContent`); !strings.Contains(got, "Ben Brooks") {
		t.Fatalf("the return button says %q", got)
	}
	cara.shot("delegated-to-cara-" + lang)
	cara.axe("task page of the delegate")
	cara.submit("return to ben", testid("task-return"))
	cara.waitVisible(testid("flash"))
	if got := eval[string](cara, fmt.Sprintf(`fetch("/api/v1/user-tasks/%s").then(r => r.json()).then(t => t.assignee ? t.assignee.id : "")`, invoice)); got != "ben" {
		t.Fatalf("after the return the assignee is %q, want ben", got)
	}
	ben.navigate("/tasks/" + invoice + "?tab=history")
	ben.waitFor("the delegation's history lines", `[...document.querySelectorAll('[data-testid="event-summary"]')].filter(e => e.textContent.includes("Cara Cole")).length >= 2`, 5*time.Second)
	ben.shot("history-delegated-" + lang)
	ben.axe("history of a delegated task")

	for _, p := range []*page{ben, cara} {
		p.checkNoErrors()
		if overflow := eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
			t.Errorf("%s's page scrolls sideways by %d px at %s", p.user, overflow, vp.name)
		}
	}
}
