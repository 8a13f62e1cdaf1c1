package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

func testCapacity(t *testing.T, h Harness) {
	const limit = 5
	// full opens a store whose tenant "cap" holds limit open tasks.
	full := func(t *testing.T) (store.Store, []models.Task) {
		s := h.open(t, Options{OpenTasksPerTenant: limit})
		var open []models.Task
		for i := 0; i < limit; i++ {
			open = append(open, CreateTask(t, s, TaskOpts{Tenant: "cap"}))
		}
		return s, open
	}

	t.Run("ExactUnderConcurrentCreation", func(t *testing.T) {
		s := h.open(t, Options{OpenTasksPerTenant: limit})
		const n = 12
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
		created, refused := 0, 0
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
		if created != limit || refused != n-limit {
			t.Fatalf("created %d refused %d, want %d and %d", created, refused, limit, n-limit)
		}
	})
	t.Run("OtherTenantsUnaffected", func(t *testing.T) {
		s, _ := full(t)
		CreateTask(t, s, TaskOpts{Tenant: "other"})
	})
	t.Run("TerminalTaskFreesItsPlace", func(t *testing.T) {
		s, open := full(t)
		c := NewTask(TaskOpts{Tenant: "cap"}, time.Time{})
		_, _, err := s.Create(ctx(t), "cap", c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, stamp(c))
		wantIs(t, err, models.ErrCapacity)
		wantCode(t, err, models.CodeCapacityExceeded)

		// Finish one open task of the tenant; its place is free again.
		if _, err := s.Mutate(ctx(t), "cap", open[0].ID, "", transition(models.StatusCancelled, "")); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Create(ctx(t), "cap", c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, stamp(c)); err != nil {
			t.Fatalf("create after a task ended: %v", err)
		}
	})
}
