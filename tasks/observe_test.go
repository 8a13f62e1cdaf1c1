package tasks_test

import (
	"context"
	"sync"
	"testing"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// recordedCommand is one outcome the observer heard.
type recordedCommand struct {
	kind     models.OperationKind
	replayed bool
	code     models.Code
}

type commandRecorder struct {
	mu  sync.Mutex
	got []recordedCommand
}

func (r *commandRecorder) Command(kind models.OperationKind, replayed bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, recordedCommand{kind, replayed, models.ErrorCode(err)})
}

func TestCommandsAreObserved(t *testing.T) {
	rec := &commandRecorder{}
	s := testfactory.OpenStore(t, testfactory.SQLite, nil)
	f := fixture{store: s, svc: tasks.New(s, tasks.Options{Commands: rec})}
	ctx := context.Background()
	task := f.project(t, nil)
	ann, bob := person("ann"), person("bob")
	noClaim := person("cid")
	noClaim.Permissions = []string{models.PermView}

	if _, err := f.svc.Claim(ctx, ann, task.ID, tasks.Common{OperationID: "op-1", ExpectedRevision: task.Revision}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Claim(ctx, ann, task.ID, tasks.Common{OperationID: "op-1", ExpectedRevision: task.Revision}); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.Claim(ctx, ann, task.ID, tasks.Common{OperationID: "op-2", ExpectedRevision: task.Revision})
	wantCode(t, err, models.CodeRevisionConflict)
	_, err = f.svc.Claim(ctx, noClaim, task.ID, tasks.Common{})
	wantCode(t, err, models.CodeForbidden)
	_, err = f.svc.Cancel(ctx, bob, "no such task", tasks.CancelInput{Reason: "x"})
	wantCode(t, err, models.CodeNotFound)
	_, err = f.svc.Complete(ctx, ann, task.ID, tasks.CompleteInput{ActionKey: "approve", Data: []byte(`{"decision":"maybe"}`)})
	if models.ErrorCode(err) == "" {
		t.Fatalf("complete with a value the form refuses: %v", err)
	}

	want := []recordedCommand{
		{models.OpClaim, false, ""},
		{models.OpClaim, true, ""},
		{models.OpClaim, false, models.CodeRevisionConflict},
		{models.OpClaim, false, models.CodeForbidden},
		{models.OpCancel, false, models.CodeNotFound},
		{models.OpComplete, false, models.ErrorCode(err)},
	}
	if len(rec.got) != len(want) {
		t.Fatalf("heard %+v, want %+v", rec.got, want)
	}
	for i := range want {
		if rec.got[i] != want[i] {
			t.Errorf("command %d: heard %+v, want %+v", i, rec.got[i], want[i])
		}
	}
}
