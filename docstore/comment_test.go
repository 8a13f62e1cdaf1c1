package docstore_test

import (
	"errors"
	"testing"
	"time"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// TestCommentsWhileRelayIsDown: comments whose relay has not run (a crash right after their
// write) are read from the aggregate — listed in order, deleted in place, counted for the limit,
// resealed by a rotation and opened by the audit — and the next pass moves them, erased or not,
// exactly once. A deletion of a moved comment waits as an effect and is shown at once.
func TestCommentsWhileRelayIsDown(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	ann := testfactory.Worker("t1", "ann")
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	add := func(text string) models.Comment {
		t.Helper()
		id := models.NewID()
		c, err := s.AddComment(ctx, "t1", task.ID, id, func(now time.Time, tk models.Task, count int) (models.Comment, models.Event, error) {
			return models.AddComment(tk, ann, id, text, count, now)
		})
		if err != nil {
			t.Fatalf("add %q: %v", text, err)
		}
		return c
	}
	del := func(id string) {
		t.Helper()
		_, err := s.DeleteComment(ctx, "t1", task.ID, id, func(now time.Time, tk models.Task, c models.Comment) (models.Event, error) {
			return models.DeleteComment(tk, ann, c, now)
		})
		if err != nil {
			t.Fatalf("delete %s: %v", id, err)
		}
	}
	list := func() []models.Comment {
		t.Helper()
		p, err := s.Comments(ctx, models.CommentQuery{Tenant: "t1", TaskID: task.ID, Limit: models.MaxPageSize})
		if err != nil {
			t.Fatal(err)
		}
		return p.Items
	}
	texts := func(cs []models.Comment) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.Text
		}
		return out
	}

	moved := add("moved before the crash")
	_, heal := docstore.CrashAt(s, docstore.BeforeRelay)
	first, second := add("pending one"), add("pending two")
	del(second.ID)
	del(moved.ID) // stored already: an effect
	if n := countIn(t, s, "user_task_comments", task.ID); n != 1 {
		t.Fatalf("%d comments stored while the relay is down, want the one moved before", n)
	}
	got := list()
	if len(got) != 3 || got[0].ID != moved.ID || got[1].ID != first.ID || got[2].ID != second.ID {
		t.Fatalf("listed %q", texts(got))
	}
	if got[0].DeletedAt == nil || got[0].Text != "" || got[1].Text != "pending one" || got[2].DeletedAt == nil || got[2].Text != "" {
		t.Fatalf("listed %+v", got)
	}
	if n, findings, _ := auditAll(t, s, store.AuditFilter{}, 100); n != 1 || len(findings) != 0 {
		t.Fatalf("audit with pending comments: %d tasks, %+v", n, findings)
	}
	sealedIn := func(table string) int {
		t.Helper()
		p, err := s.RekeyPage(ctx, table, "", 500, true)
		if err != nil || p.Resealed != 0 || len(p.Unreadable) != 0 {
			t.Fatalf("rekey dry run of %s: %+v, %v", table, p, err)
		}
		n := 0
		for _, v := range p.ByKey {
			n += v
		}
		return n
	}
	pendingSealed := sealedIn("user_tasks")

	heal()
	if _, err := s.RelayPass(ctx, 10); err != nil {
		t.Fatal(err)
	}
	requireRelayed(t, s, task.ID)
	if n := countIn(t, s, "user_task_comments", task.ID); n != 3 {
		t.Fatalf("%d comments stored after the pass, want 3", n)
	}
	// The rotation walked the pending body with the aggregate; now it is the comments' walk's.
	if got, want := sealedIn("user_tasks"), pendingSealed-1; got != want {
		t.Fatalf("the aggregate walk counts %d sealed values after the pass, want %d", got, want)
	}
	if n := sealedIn("user_task_comments"); n != 1 {
		t.Fatalf("the comments walk counts %d sealed bodies, want 1", n)
	}
	after := list()
	if len(after) != 3 || after[0].Text != "" || after[1].Text != "pending one" || after[2].Text != "" || after[2].DeletedAt == nil ||
		!after[2].DeletedAt.Equal(*got[2].DeletedAt) || !after[0].DeletedAt.Equal(*got[0].DeletedAt) {
		t.Fatalf("after the pass %+v", after)
	}
	if _, err := s.DeleteComment(ctx, "t2", task.ID, first.ID, func(time.Time, models.Task, models.Comment) (models.Event, error) {
		return models.Event{}, errors.New("decided for another tenant")
	}); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("another tenant's delete: %v", err)
	}
}
