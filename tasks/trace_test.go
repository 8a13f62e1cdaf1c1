package tasks_test

import (
	"context"
	"testing"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

type commandKey struct{}

// spanRecorder stands in for the tracer: a command's context carries its kind, and each store
// transaction records the command it ran inside.
type spanRecorder struct {
	ended []recordedCommand
	txIn  []any
}

func (r *spanRecorder) StartCommand(ctx context.Context, kind models.OperationKind) (context.Context, func(bool, error)) {
	return context.WithValue(ctx, commandKey{}, kind), func(replayed bool, err error) {
		r.ended = append(r.ended, recordedCommand{kind, replayed, models.ErrorCode(err)})
	}
}

func (r *spanRecorder) StartTx(ctx context.Context, _, _ string, _ bool) (context.Context, func(error)) {
	r.txIn = append(r.txIn, ctx.Value(commandKey{}))
	return ctx, func(error) {}
}

// A command's span is started before the permission check and ended with its outcome, and
// the store's transaction runs in the command's context (its span's child).
func TestCommandsAreTraced(t *testing.T) {
	rec := &spanRecorder{}
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	f := fixture{store: s, svc: tasks.New(s, tasks.Options{Tracer: rec})}
	ctx := context.Background()
	task := f.project(t, nil)
	s.TraceWith(rec)
	noClaim := person("cid")
	noClaim.Permissions = []string{models.PermView}

	if _, err := f.svc.Claim(ctx, person("ann"), task.ID, tasks.Common{ExpectedRevision: task.Revision}); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.Claim(ctx, noClaim, task.ID, tasks.Common{})
	wantCode(t, err, models.CodeForbidden)

	want := []recordedCommand{{models.OpClaim, false, ""}, {models.OpClaim, false, models.CodeForbidden}}
	if len(rec.ended) != len(want) || rec.ended[0] != want[0] || rec.ended[1] != want[1] {
		t.Fatalf("ended %+v, want %+v", rec.ended, want)
	}
	if len(rec.txIn) != 1 || rec.txIn[0] != models.OpClaim {
		t.Fatalf("transactions ran in commands %v, want one in claim (none for the 403)", rec.txIn)
	}
}
