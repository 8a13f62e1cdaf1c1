package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/models"
)

// TestTaskPageKeepsMaskedValues covers SPEC 3.7 on the pages: a masked field's value, prefilled
// from taskData or submitted with the completion, is in no tab of the task page — not as text,
// input value, hidden input or data attribute — for the assignee or a manager, before and after
// the completion. The raw HTML is searched.
func TestTaskPageKeepsMaskedValues(t *testing.T) {
	const prefilled, submitted = "DE89PREFILLED0532013000", "DE44SUBMITTED0532013111"
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{assignee: "ann", mutate: func(p *models.Projection) {
		p.Data = json.RawMessage(`{"iban":"` + prefilled + `","decision":"approve","amount":1200}`)
	}})
	ann, boss := f.signIn(t, "ann"), f.signIn(t, "boss")
	check := func(t *testing.T, when string) {
		t.Helper()
		for who, b := range map[string]*webBrowser{"ann": ann, "boss": boss} {
			for _, tab := range []string{"", "?tab=workflow", "?tab=history"} {
				p := b.get("/tasks/" + task.ID + tab).wantStatus(http.StatusOK)
				for _, secret := range []string{prefilled, submitted} {
					if strings.Contains(p.body, secret) {
						t.Errorf("%s: the page /tasks/…%s for %s carries the masked value %s", when, tab, who, secret)
					}
				}
			}
		}
	}

	check(t, "open")
	page := ann.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	if got := webAttr(fieldInput(t, page, "amount"), "value"); got != "1200" {
		t.Fatalf("amount prefill %q, want 1200: unmasked values stay prefilled", got)
	}
	res := ann.submit(page, "task-form", url.Values{"iban": {submitted}}, page.one("action-approve"))
	if res.status != http.StatusSeeOther {
		t.Fatalf("complete: %d\n%s", res.status, res.body)
	}
	if f.current(t, task.ID).Status != models.StatusCompleting {
		t.Fatal("the completion was not accepted")
	}
	check(t, "completing")
}
