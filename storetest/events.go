package storetest

import (
	"sync"
	"testing"
	"time"

	"usertasks/models"
)

func testEvents(t *testing.T, h Harness) {
	s := h.open(t, Options{})

	t.Run("SequenceMonotonicUnderConcurrentAppends", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		const appends, bumps = 8, 4
		var wg sync.WaitGroup
		errs := make(chan error, appends+bumps)
		for i := 0; i < appends; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.AppendEvent(ctx(t), "t1", task.ID, func(now time.Time, cur models.Task) (models.Event, error) {
					return models.Event{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, Seq: cur.LastEventSeq + 1,
						Revision: cur.Revision, Type: models.EventFieldRevealed, OccurredAt: now, Metadata: []byte(`{"fieldKey":"iban"}`)}, nil
				})
				errs <- err
			}()
		}
		for i := 0; i < bumps; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					cur, err := s.Get(ctx(t), "t1", task.ID)
					if err != nil {
						errs <- err
						return
					}
					_, err = s.Mutate(ctx(t), "t1", task.ID, "", BumpAt(cur.Revision, "", ""))
					if models.ErrorCode(err) == models.CodeRevisionConflict {
						continue
					}
					errs <- err
					return
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		evs := mustEvents(t, s, "t1", task.ID)
		if len(evs) != 1+appends+bumps {
			t.Fatalf("%d events, want %d", len(evs), 1+appends+bumps)
		}
		lastRev := 0
		for i, e := range evs {
			if e.Seq != i+1 {
				t.Fatalf("event %d has sequence %d, want %d (gapless, ordered)", i, e.Seq, i+1)
			}
			if e.Revision < lastRev {
				t.Fatalf("event %d revision %d went backwards from %d", i, e.Revision, lastRev)
			}
			lastRev = e.Revision
		}
		got := mustGet(t, s, "t1", task.ID)
		if got.Revision != 1+bumps || got.LastEventSeq != len(evs) {
			t.Fatalf("revision %d seq %d, want %d and %d (appends do not bump the revision)", got.Revision, got.LastEventSeq, 1+bumps, len(evs))
		}
	})

	t.Run("PagesInOrder", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		for i := 0; i < 5; i++ {
			if _, err := s.Mutate(ctx(t), "t1", task.ID, "", BumpAt(task.Revision+i, "", "")); err != nil {
				t.Fatal(err)
			}
		}
		page1, err := s.Events(ctx(t), "t1", task.ID, 0, 4)
		if err != nil || len(page1) != 4 {
			t.Fatalf("page 1: %d events, %v", len(page1), err)
		}
		page2, err := s.Events(ctx(t), "t1", task.ID, page1[3].Seq, 4)
		if err != nil || len(page2) != 2 || page2[0].Seq != 5 {
			t.Fatalf("page 2: %+v, %v", page2, err)
		}
		other, err := s.Events(ctx(t), "t2", task.ID, 0, 10)
		if err != nil || len(other) != 0 {
			t.Fatalf("another tenant read %d events (%v)", len(other), err)
		}
	})
}
