package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/models"
	"usertasks/tasks"
)

// close applies one model transition to a stored task, as the runtime or the sweep would.
func (f *webFixture) close(t *testing.T, id string, step func(models.Task, time.Time) (models.Change, error)) {
	t.Helper()
	_, err := f.store.Mutate(context.Background(), "t1", id, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		return step(cur, now)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestInboxClosedRowsSayHowTheyClosed(t *testing.T) {
	f := newWebFixture(t)
	ann := f.signIn(t, "ann")
	due := webPtr(time.Now().Add(72 * time.Hour))

	approved, p := claimed(t, f, ann, webTaskOpts{title: "Approved one", due: due})
	ann.submit(p, "task-form", map[string][]string{"decision": {"approve"}, "amount": {"5"}}, p.one("action-approve"))
	f.close(t, approved.ID, models.Finalize)

	cancelled := f.seed(t, webTaskOpts{title: "Cancelled one", due: due})
	if _, err := f.svc.Cancel(context.Background(), bossActor(), cancelled.ID, tasks.CancelInput{
		Common: tasks.Common{ExpectedRevision: 1, OperationID: models.NewID()}, Reason: "duplicate"}); err != nil {
		t.Fatal(err)
	}
	f.close(t, cancelled.ID, models.Finalize)

	timedOut := f.seed(t, webTaskOpts{title: "Late one", due: webPtr(time.Now().Add(-time.Hour)), mutate: func(p *models.Projection) { p.TimeoutEnabled = true }})
	f.close(t, timedOut.ID, models.RequestTimeout)
	f.close(t, timedOut.ID, models.Finalize)

	open := f.seed(t, webTaskOpts{title: "Still open", due: due})

	for _, tc := range []struct{ lang, completed, cancelled, timedOut string }{
		{"", "just now by Ann Approver · Approve", "just now by you", "just now"},
		{"de", "gerade eben von Ann Approver · Approve", "gerade eben von Ihnen", "gerade eben"},
	} {
		t.Run(webFirstOr(tc.lang, "en"), func(t *testing.T) {
			boss := f.signIn(t, "boss")
			boss.lang = tc.lang
			list := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
			for id, want := range map[string]string{approved.ID: tc.completed, cancelled.ID: tc.cancelled, timedOut.ID: tc.timedOut} {
				row := rowOf(list, id)
				closed := webWithin(row, "row-closed")
				if len(closed) != 1 || webText(closed[0]) != want {
					t.Errorf("closed row says %q, want %q", webText(row), want)
				}
				if due := webWithin(row, "due"); len(due) != 1 || strings.Contains(webText(due[0]), webText(closed[0])) {
					t.Errorf("a closed row's Due column does not hold its due date: %q", webText(row))
				}
				var tooltip string
				webWalk(closed[0], func(n *html.Node) {
					if n.Data == "time" {
						tooltip = webAttr(n, "title")
					}
				})
				if !strings.Contains(tooltip, "UTC") {
					t.Errorf("the closing time has no absolute tooltip: %q", tooltip)
				}
			}
			if row := rowOf(list, open.ID); len(webWithin(row, "row-closed")) != 0 || len(webWithin(row, "due")) != 1 {
				t.Errorf("an open row lost its due date: %q", webText(row))
			}
		})
	}
	t.Run("PersonalHistory", func(t *testing.T) {
		hist := ann.get("/inbox?tab=history").wantStatus(http.StatusOK)
		row := rowOf(hist, approved.ID)
		if row == nil {
			t.Fatal("the completed task is not in ann's history")
		}
		if got := webText(webWithin(row, "row-closed")[0]); got != "just now by you · Approve" {
			t.Fatalf("history row %q", got)
		}
		var heads []string
		webWalk(hist.one("task-list"), func(n *html.Node) {
			if n.Type == html.ElementNode && n.Data == "th" {
				heads = append(heads, webText(n))
			}
		})
		if !slices.ContainsFunc(heads, func(h string) bool { return strings.HasPrefix(h, "Closed") }) || slices.Contains(heads, "Due") {
			t.Fatalf("history columns %v, want Closed instead of Due", heads)
		}
	})
}
