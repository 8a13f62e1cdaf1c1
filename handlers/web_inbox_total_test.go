package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers"
	"usertasks/models"
	"usertasks/tasks"
)

// cappedList reports every list as holding more tasks than the cap, as the store does past
// models.TotalCap.
type cappedList struct{ handlers.TaskService }

func (c cappedList) List(ctx context.Context, a models.Actor, f models.TaskFilter) (tasks.Page, error) {
	p, err := c.TaskService.List(ctx, a, f)
	if err == nil && p.Total != nil {
		n := models.TotalCap
		p.Total, p.TotalCapped = &n, true
	}
	return p, err
}

// TestInboxCappedTotal: a capped total reads "1,000+" on the page head and the current tab,
// grouped as the language groups digits; an exact one reads as before.
func TestInboxCappedTotal(t *testing.T) {
	f := newWebFixtureWith(t, func(s handlers.TaskService) handlers.TaskService { return cappedList{s} })
	f.seed(t, webTaskOpts{title: "For finance"})
	for _, tc := range []struct{ lang, total, tab, hidden string }{
		{"en", "1,000+ tasks", "1,000+", "(1,000+ tasks)"},
		{"de", "1.000+ Aufgaben", "1.000+", "(1.000+ Aufgaben)"},
	} {
		b := f.signIn(t, "boss")
		b.lang = tc.lang
		p := b.get("/inbox?tab=all").wantStatus(http.StatusOK)
		if got := p.text("total-count"); got != tc.total {
			t.Errorf("%s: total %q, want %q", tc.lang, got, tc.total)
		}
		if got := tabCounts(t, p); got["all"] != tc.tab || len(got) != 1 {
			t.Errorf("%s: tab counts %v, want all %q", tc.lang, got, tc.tab)
		}
		if !strings.Contains(p.body, tc.hidden) {
			t.Errorf("%s: the tab's spoken count %q is missing", tc.lang, tc.hidden)
		}
	}
}
