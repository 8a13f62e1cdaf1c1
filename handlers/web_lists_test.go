package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"usertasks/models"
)

// Overdue is an open task's state: once the task is submitted or closed, no page marks it
// overdue, although the due sweep's flag stays on the stored task.
func TestClosedTasksAreNeverOverdue(t *testing.T) {
	f := newWebFixture(t)
	ann := f.signIn(t, "ann")
	past := webPtr(time.Now().Add(-2 * time.Hour))

	late, p := claimed(t, f, ann, webTaskOpts{title: "Late but done", due: past})
	f.close(t, late.ID, models.MarkOverdue)
	open, _ := claimed(t, f, ann, webTaskOpts{title: "Late and open", due: past})
	f.close(t, open.ID, models.MarkOverdue)

	p = ann.get("/tasks/" + late.ID).wantStatus(http.StatusOK)
	if !p.has("overdue") {
		t.Fatal("an open task past its due date is not marked overdue")
	}
	ann.submit(p, "task-form", map[string][]string{"decision": {"approve"}, "amount": {"5"}}, p.one("action-approve"))
	if got := f.current(t, late.ID); got.Status != models.StatusCompleting || !got.IsOverdue {
		t.Fatalf("setup: status %s, overdue flag %v", got.Status, got.IsOverdue)
	}
	check := func(t *testing.T) {
		t.Helper()
		if p := ann.get("/tasks/" + late.ID).wantStatus(http.StatusOK); p.has("overdue") {
			t.Errorf("the task page marks a %s task overdue", f.current(t, late.ID).Status)
		}
		boss := f.signIn(t, "boss")
		for _, path := range []string{"/inbox?tab=all", "/inbox?tab=history", "/inbox"} {
			b := boss
			if path != "/inbox?tab=all" {
				b = ann
			}
			list := b.get(path).wantStatus(http.StatusOK)
			if row := rowOf(list, late.ID); row != nil && len(webWithin(row, "overdue")) != 0 {
				t.Errorf("%s marks a %s task overdue", path, f.current(t, late.ID).Status)
			}
		}
		list := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
		if row := rowOf(list, open.ID); row == nil || len(webWithin(row, "overdue")) != 1 {
			t.Error("the open task past its due date lost its overdue mark")
		}
	}
	t.Run("Completing", check)
	f.close(t, late.ID, models.Finalize)
	t.Run("Completed", check)
}
