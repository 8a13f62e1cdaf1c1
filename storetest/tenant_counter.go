package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testTenantCounter checks the striped open-task counter (migration 00008): the sum of a
// tenant's stripes always equals its open and transitional tasks, the limit holds while
// creations and finalizations race, and a count that sits on one stripe (as the migration
// leaves it) is spread without letting the limit slip.
func testTenantCounter(t *testing.T, h Harness) {
	const limit = 6
	openCount := func(t *testing.T, s store.Store) int {
		return h.openCounted(t, s, "cap")
	}
	auditClean := func(t *testing.T, s store.Store) {
		t.Helper()
		findings, err := s.AuditTenantCounters(ctx(t), "")
		if err != nil {
			t.Fatal(err)
		}
		if len(findings) != 0 {
			t.Fatalf("tenant counter findings: %+v", findings)
		}
	}
	// createMany tries n creations at once and returns how many were created and refused.
	createMany := func(t *testing.T, s store.Store, n int) (created, refused int) {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				c := NewTask(TaskOpts{Tenant: "cap"}, time.Time{})
				_, _, errs[i] = s.Create(ctx(t), "cap", c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, stamp(c))
			}(i)
		}
		wg.Wait()
		for _, err := range errs {
			var ce *models.CapacityError
			switch {
			case err == nil:
				created++
			case errors.As(err, &ce) && ce.Limit == limit:
				refused++
			default:
				t.Fatalf("unexpected error: %v", err)
			}
		}
		return created, refused
	}

	t.Run("ExactWhileCreationsAndFinalizationsRace", func(t *testing.T) {
		s := h.open(t, Options{OpenTasksPerTenant: limit})
		var open []models.Task
		for i := 0; i < limit; i++ {
			open = append(open, CreateTask(t, s, TaskOpts{Tenant: "cap"}))
		}
		var wg sync.WaitGroup
		for _, task := range open[:3] {
			wg.Add(1)
			go func(id string) {
				defer wg.Done()
				if _, err := s.Mutate(ctx(t), "cap", id, "", transition(models.StatusCancelled, "")); err != nil {
					t.Error(err)
				}
			}(task.ID)
		}
		created, _ := createMany(t, s, 8)
		wg.Wait()
		if n := openCount(t, s); n > limit || n != limit-3+created {
			t.Fatalf("counted %d open tasks after %d creations and 3 finalizations from %d (limit %d)", n, created, limit, limit)
		}
		auditClean(t, s)
	})

	t.Run("CountOnOneStripeIsSpread", func(t *testing.T) {
		// Migration 00008 moves a tenant's whole count to stripe 0.
		s := h.open(t, Options{OpenTasksPerTenant: limit})
		var open []models.Task
		for i := 0; i < 4; i++ {
			open = append(open, CreateTask(t, s, TaskOpts{Tenant: "cap"}))
		}
		h.tamper(t, s, CounterOnStripeZero, "cap")
		s = h.reopen(t, s, Options{OpenTasksPerTenant: limit})
		created, refused := createMany(t, s, 5)
		if created != limit-4 || refused != 5-(limit-4) {
			t.Fatalf("created %d refused %d, want %d and %d", created, refused, limit-4, 5-(limit-4))
		}
		auditClean(t, s)
		// Finalizations lower whichever stripe counts something, never one below zero.
		for _, task := range open {
			if _, err := s.Mutate(ctx(t), "cap", task.ID, "", transition(models.StatusCancelled, "")); err != nil {
				t.Fatal(err)
			}
		}
		for i, n := range h.counterStripes(t, s, "cap") {
			if n < 0 {
				t.Fatalf("stripe %d counts %d, below zero", i, n)
			}
		}
		if n := openCount(t, s); n != limit-4 {
			t.Fatalf("counted %d open tasks, want %d", n, limit-4)
		}
		auditClean(t, s)
	})

	t.Run("LimitLoweredBelowTheCount", func(t *testing.T) {
		s := h.open(t, Options{OpenTasksPerTenant: 100})
		for i := 0; i < limit+2; i++ {
			CreateTask(t, s, TaskOpts{Tenant: "cap"})
		}
		s = h.reopen(t, s, Options{OpenTasksPerTenant: limit})
		if created, _ := createMany(t, s, 3); created != 0 {
			t.Fatalf("created %d tasks over a limit the tenant already passed", created)
		}
		if n := openCount(t, s); n != limit+2 {
			t.Fatalf("counted %d open tasks, want %d", n, limit+2)
		}
		auditClean(t, s)
	})
}
