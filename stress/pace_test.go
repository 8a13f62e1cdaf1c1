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
)

// clockedTarget records when each write reached the store.
type clockedTarget struct {
	*stress.StoreTarget
	mu     sync.Mutex
	writes []time.Time
}

func (c *clockedTarget) stamp() {
	c.mu.Lock()
	c.writes = append(c.writes, time.Now())
	c.mu.Unlock()
}

func (c *clockedTarget) Claim(ctx context.Context, a models.Actor, id string, revision int, op string) (stress.Item, stress.Outcome, error) {
	c.stamp()
	return c.StoreTarget.Claim(ctx, a, id, revision, op)
}

func (c *clockedTarget) Complete(ctx context.Context, a models.Actor, id string, revision int, op string) (stress.Item, stress.Outcome, error) {
	c.stamp()
	return c.StoreTarget.Complete(ctx, a, id, revision, op)
}

// TestMixedPace: with --pace N the mixed mode's writes of all writers together never run ahead
// of N a second (the limiter lets n writes span at least (n-1)/N s, however fast the store),
// and the run still holds every invariant. Only that lower bound is asserted: a slow machine
// makes the span longer, never shorter.
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
	slices.SortFunc(w, func(a, b time.Time) int { return a.Compare(b) })
	min := time.Duration(len(w)-1) * time.Second / pace
	if len(w) != 2*tasks || w[len(w)-1].Sub(w[0]) < min*9/10 {
		t.Fatalf("%d writes over %s, want %d spanning at least %s", len(w), w[len(w)-1].Sub(w[0]), 2*tasks, min)
	}
}

func TestNegativePaceRefused(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	_, err := stress.Run(context.Background(), "mixed", stress.Options{Pace: -1, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}})
	if !errors.Is(err, stress.ErrPace) {
		t.Fatalf("err %v, want ErrPace", err)
	}
}
