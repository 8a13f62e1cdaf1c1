package repository_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
)

// txRecorder is a repository.TxTracer that keeps what it was told.
type txRecorder struct {
	mu  sync.Mutex
	txs []string
}

func (r *txRecorder) StartTx(ctx context.Context, dialect, op string, write bool) (context.Context, func(error)) {
	kind := "read"
	if write {
		kind = "write"
	}
	return ctx, func(err error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		outcome := "ok"
		if err != nil {
			outcome = string(models.ErrorCode(err))
		}
		r.txs = append(r.txs, dialect+" "+kind+" "+op+" "+outcome)
	}
}

// Every transaction is told to the tracer, named by the exported Store method that ran it,
// with its outcome; without a tracer nothing is.
func TestTraceWithNamesTheOperation(t *testing.T) {
	ctx := context.Background()
	for _, d := range testfactory.SQLProviders {
		t.Run(d.Name(), func(t *testing.T) {
			s := testfactory.OpenSQL(t, testfactory.Database(t, d), nil)
			testfactory.Task(ctx, t, s, nil) // before TraceWith: not traced
			rec := &txRecorder{}
			s.TraceWith(rec)
			task := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Tenant: "t1", Candidates: []string{"ann"}})
			if _, err := s.Get(ctx, "t1", task.ID); err != nil {
				t.Fatal(err)
			}
			s.Get(ctx, "t1", "no-such-task")
			_, err := s.Mutate(ctx, "t1", task.ID, "", func(time.Time, models.Task, *models.Operation) (models.Change, error) {
				return models.Change{}, models.Conflict(models.CodeRevisionConflict)
			})
			if err == nil {
				t.Fatal("the refused mutation succeeded")
			}
			system := string(d)
			want := []string{
				system + " write Create ok",
				system + " read Get ok",
				system + " read Get not-found",
				system + " write Mutate revision-conflict",
			}
			if !slices.Equal(rec.txs, want) {
				t.Fatalf("traced %q, want %q", rec.txs, want)
			}
		})
	}
}
