package workers_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workers"
)

// wkDeadlineCounter is a DeadlineObserver.
type wkDeadlineCounter struct{ fired, skipped atomic.Int64 }

func (c *wkDeadlineCounter) DeadlineSettled(outcome string) {
	if outcome == string(models.DeadlineFired) {
		c.fired.Add(1)
	} else {
		c.skipped.Add(1)
	}
}

// wkDeadlineTask projects a task of the group clerks whose start deadline passed a minute ago:
// reassign to leads, priority 90, tell the managers.
func wkDeadlineTask(t *testing.T, s store.Store, now time.Time) models.Task {
	t.Helper()
	return testfactory.Task(context.Background(), t, s, &testfactory.TaskOpts{
		Title: "Approve invoice", Groups: []string{"clerks"},
		Projection: func(p *models.Projection) {
			p.Deadlines = []models.DeadlineDefinition{{Kind: models.DeadlineStart, At: now.Add(-time.Minute).Format(time.RFC3339Nano), Actions: []models.DeadlineAction{
				{Type: models.DeadlineReassign, CandidateGroups: []models.ParticipantRef{{ID: "leads"}}},
				{Type: models.DeadlineSetPriority, Priority: new(90)},
				{Type: models.DeadlineNotify, To: &models.NotifyTarget{Audience: models.NotifyManagers}},
			}}}
		},
	})
}

// Two sweepers racing over the same due deadlines fire each once: reassigned, raised and the
// managers told; a task claimed before its start deadline never escalates.
func TestSweepFiresDeadlinesOnce(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		a, b := &wkNode{Store: db.open(t, nil)}, &wkNode{Store: db.open(t, nil)}
		ctx := t.Context()
		boss := models.Person{Tenant: "t1", User: testfactory.Manager("t1", "boss").Subject, Manager: true}
		if _, err := a.RecordPerson(ctx, boss, 0); err != nil {
			t.Fatal(err)
		}
		now, _ := a.Now(ctx)
		var tasks []models.Task
		for range 7 {
			tasks = append(tasks, wkDeadlineTask(t, a.Store, now))
		}
		claimed := wkDeadlineTask(t, a.Store, now)
		_, err := a.Mutate(ctx, "t1", claimed.ID, "", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			clerk := testfactory.Person("t1", "cy")
			clerk.Groups = []models.ParticipantRef{{Tenant: "t1", Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: "clerks"}}
			return models.Claim(cur, models.Command{ExpectedRevision: cur.Revision, Actor: clerk}, now)
		})
		if err != nil {
			t.Fatalf("claim: %v", err)
		}
		log, _ := wkLogger(t)
		counter := &wkDeadlineCounter{}
		var results [2]workers.SweepResult
		var wg sync.WaitGroup
		for i, n := range []*wkNode{a, b} {
			s := workers.NewDueSweeper(wkNoLease{n}, workers.SweepOptions{PageSize: 3, Logger: log, Deadlines: counter})
			wg.Go(func() {
				res, err := s.RunOnce(ctx)
				if err != nil {
					t.Errorf("sweeper %d: %v", i, err)
				}
				results[i] = res
			})
		}
		wg.Wait()
		if got := results[0].Escalated + results[1].Escalated; got != len(tasks) {
			t.Errorf("the sweepers escalated %d, want %d (each once)", got, len(tasks))
		}
		if got := results[0].DeadlinesSkipped + results[1].DeadlinesSkipped; got != 1 {
			t.Errorf("the sweepers skipped %d deadlines, want the claimed task's one", got)
		}
		if counter.fired.Load() != int64(len(tasks)) || counter.skipped.Load() != 1 {
			t.Errorf("observed %d fired, %d skipped", counter.fired.Load(), counter.skipped.Load())
		}
		for _, task := range tasks {
			got := wkGet(t, a.Store, "t1", task.ID)
			if n := wkEventCount(t, a.Store, "t1", task.ID, models.EventDeadlineFired); n != 1 {
				t.Errorf("task %s: %d deadline-fired events, want 1", task.ID, n)
			}
			if got.Priority != 90 || got.Status != models.StatusAvailable || got.Assignment.Candidates[0].Participant.ID != "leads" {
				t.Errorf("task %s: priority %d status %s candidates %+v", task.ID, got.Priority, got.Status, got.Assignment.Candidates)
			}
		}
		if n := wkEventCount(t, a.Store, "t1", claimed.ID, models.EventDeadlineFired); n != 0 {
			t.Errorf("the claimed task escalated (%d events)", n)
		}
		escalated := 0
		for {
			ns, err := a.ClaimNotifications(ctx, "test", 100, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if len(ns) == 0 {
				break
			}
			for _, n := range ns {
				if n.Trigger == models.TriggerEscalated && n.Recipient.ID == "boss" {
					escalated++
				}
				if err := a.SettleNotification(ctx, n, models.NotificationOutcome{State: models.NotificationDone, Email: models.ChannelOff, Webhook: models.ChannelOff}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if escalated != len(tasks) {
			t.Errorf("boss got %d escalated notifications, want %d", escalated, len(tasks))
		}
	})
}
