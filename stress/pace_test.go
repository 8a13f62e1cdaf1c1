package stress_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/stress"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// clockedTarget records when each write and each page read reached the store.
type clockedTarget struct {
	*stress.StoreTarget
	mu            sync.Mutex
	writes, reads []time.Time
}

func (c *clockedTarget) stamp() {
	c.mu.Lock()
	c.writes = append(c.writes, time.Now())
	c.mu.Unlock()
}

func (c *clockedTarget) Project(ctx context.Context, tenant string, req workflow.ProjectionRequest) (stress.Item, stress.Outcome, error) {
	c.stamp()
	return c.StoreTarget.Project(ctx, tenant, req)
}

func (c *clockedTarget) List(ctx context.Context, a models.Actor, q stress.ListQuery) (stress.Page, error) {
	c.mu.Lock()
	c.reads = append(c.reads, time.Now())
	c.mu.Unlock()
	return c.StoreTarget.List(ctx, a, q)
}

func (c *clockedTarget) Claim(ctx context.Context, a models.Actor, id string, revision int, op string) (stress.Item, stress.Outcome, error) {
	c.stamp()
	return c.StoreTarget.Claim(ctx, a, id, revision, op)
}

func (c *clockedTarget) Complete(ctx context.Context, a models.Actor, id string, revision int, op string) (stress.Item, stress.Outcome, error) {
	c.stamp()
	return c.StoreTarget.Complete(ctx, a, id, revision, op)
}

// TestMixedPace: with --pace N the mixed mode's writes of all writers together (projections,
// claims, completions) never run ahead of N a second (the limiter lets n writes span at least
// (n-1)/N s, however fast the store), nor do its readers' pages, and the run still holds every
// invariant. Only those bounds are asserted: a slow machine makes the spans longer, never
// shorter. Unpaced, the readers of the same store read far more than N a second.
func TestMixedPace(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	const tasks, pace = 12, 20
	target := &clockedTarget{StoreTarget: stress.NewStoreTarget(s)}
	reports, err := stress.Run(context.Background(), "mixed", stress.Options{Tasks: tasks, Writers: 4, Pace: pace,
		Target: target, Inspector: stress.StoreInspector{Store: s}, Store: s})
	if err != nil {
		t.Fatal(err)
	}
	r := reports[0]
	if !r.OK || r.Pace != pace || !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "paced at 20 a second") }) {
		t.Fatalf("paced report: ok %v, pace %d, notes %q", r.OK, r.Pace, r.Notes)
	}
	w := target.writes
	if len(w) != 3*tasks || span(w) < minSpan(len(w), pace) {
		t.Fatalf("%d writes over %s, want %d spanning at least %s", len(w), span(w), 3*tasks, minSpan(len(w), pace))
	}
	if rd := target.reads; len(rd) < 2 || span(rd) < minSpan(len(rd), pace) {
		t.Fatalf("%d page reads over %s, want them paced at %d a second (at least %s)", len(rd), span(rd), pace, minSpan(len(rd), pace))
	}
}

// span is the time from the first to the last of ts.
func span(ts []time.Time) time.Duration {
	ts = slices.SortedFunc(slices.Values(ts), func(a, b time.Time) int { return a.Compare(b) })
	if len(ts) == 0 {
		return 0
	}
	return ts[len(ts)-1].Sub(ts[0])
}

// minSpan is the least time n requests paced at pace a second take, less a tenth for the
// limiter's start.
func minSpan(n, pace int) time.Duration {
	return time.Duration(n-1) * time.Second / time.Duration(pace) * 9 / 10
}

// TestMixedUnpacedReadersReadFreely is the control of TestMixedPace's reads: without a pace
// the readers read more pages over the writes than a pace of 20 would let through.
func TestMixedUnpacedReadersReadFreely(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	target := &clockedTarget{StoreTarget: stress.NewStoreTarget(s)}
	reports, err := stress.Run(context.Background(), "mixed", stress.Options{Tasks: 12, Writers: 4,
		Target: target, Inspector: stress.StoreInspector{Store: s}, Store: s})
	if err != nil || !reports[0].OK {
		t.Fatalf("err %v, report %+v", err, reports)
	}
	if rd := target.reads; span(rd) >= minSpan(len(rd), 20) {
		t.Fatalf("%d unpaced page reads over %s: as slow as a pace of 20 a second", len(rd), span(rd))
	}
}

func TestNegativePaceRefused(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	_, err := stress.Run(context.Background(), "mixed", stress.Options{Pace: -1, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}})
	if !errors.Is(err, stress.ErrPace) {
		t.Fatalf("err %v, want ErrPace", err)
	}
}
