package storetest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// DeadlineOpts is one deadline of a fixture task: due After the task's creation (negative:
// already due when created).
type DeadlineOpts struct {
	Kind    models.DeadlineKind
	After   time.Duration
	Actions []models.DeadlineAction
}

// createWithDeadlines stores a fixture task with deadlines, as a projection writes them.
func createWithDeadlines(t *testing.T, s store.Store, o TaskOpts, ds ...DeadlineOpts) models.Task {
	t.Helper()
	change := NewTask(o, time.Time{})
	task, created, err := s.Create(ctx(t), change.Task.Tenant, change.Task.MaterializationKey, change.Task.Workflow.BookmarkID,
		func(now time.Time) (models.Change, error) {
			c := change
			c.Task.CreatedAt, c.Task.UpdatedAt, c.Event.OccurredAt = now, now, now
			if c.Task.AssignedAt != nil {
				c.Task.AssignedAt = &now
			}
			if c.Task.CompletedAt != nil {
				c.Task.CompletedAt = &now
			}
			c.Deadlines = deadlinesOf(c.Task, now, ds)
			return c, nil
		})
	if err != nil || !created {
		t.Fatalf("create fixture task with deadlines: created %v, %v", created, err)
	}
	return task
}

func deadlinesOf(task models.Task, now time.Time, ds []DeadlineOpts) []models.Deadline {
	out := make([]models.Deadline, len(ds))
	for i, d := range ds {
		kind := d.Kind
		if kind == "" {
			kind = models.DeadlineStart
		}
		out[i] = models.Deadline{Tenant: task.Tenant, TaskID: task.ID, Index: i, Kind: kind, DueAt: now.Add(d.After),
			Actions: d.Actions, State: models.DeadlinePending}
	}
	return out
}

// The actions the cases use.
var (
	flagAction     = models.DeadlineAction{Type: models.DeadlineFlag}
	notifyManagers = models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Audience: models.NotifyManagers}}
)

func reassignTo(tenant string, users []string, groups ...string) models.DeadlineAction {
	a := models.DeadlineAction{Type: models.DeadlineReassign}
	for _, u := range users {
		a.CandidateUsers = append(a.CandidateUsers, User(tenant, u))
	}
	for _, g := range groups {
		a.CandidateGroups = append(a.CandidateGroups, Group(tenant, g))
	}
	return a
}

func setPriority(p int) models.DeadlineAction {
	return models.DeadlineAction{Type: models.DeadlineSetPriority, Priority: &p}
}

// theManagers are who notify-managers tells in the cases.
var theManagers = []models.ParticipantRef{User("t1", "boss")}

// mustDeadlines lists the task's deadlines.
func mustDeadlines(t *testing.T, s store.Store, task models.Task) []models.Deadline {
	t.Helper()
	ds, err := s.TaskDeadlines(ctx(t), task.Tenant, task.ID)
	if err != nil {
		t.Fatalf("task deadlines: %v", err)
	}
	return ds
}

// dueWalk follows DueDeadlines page by page and returns every due deadline.
func dueWalk(t *testing.T, s store.Store, limit int) []models.Deadline {
	t.Helper()
	var out []models.Deadline
	var after *models.DeadlineKey
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("due walk: more than 1000 pages")
		}
		page, err := s.DueDeadlines(ctx(t), limit, after)
		if err != nil {
			t.Fatalf("due deadlines: %v", err)
		}
		out = append(out, page...)
		if len(page) < limit {
			return out
		}
		k := page[len(page)-1].Key()
		after = &k
	}
}

// dueOf keeps the walk's deadlines of the given tasks (a case's own), as "<task>#<index>".
func dueOf(ds []models.Deadline, tasks ...models.Task) []string {
	var out []string
	for _, d := range ds {
		for i, task := range tasks {
			if d.TaskID == task.ID {
				out = append(out, string(rune('A'+i))+"#"+string(rune('0'+d.Index)))
			}
		}
	}
	return out
}

// escalatedOf keeps the escalated rows of notifications, as noteKey renders them, sorted.
func escalatedOf(ns []models.Notification) []string {
	var out []string
	for _, n := range ns {
		if n.Trigger == models.TriggerEscalated {
			out = append(out, noteKey(n))
		}
	}
	slices.Sort(out)
	return out
}

// firedEvents are the task's deadline-fired events' metadata.
func firedEvents(t *testing.T, s store.Store, task models.Task) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range mustEvents(t, s, task.Tenant, task.ID) {
		if ev.Type != models.EventDeadlineFired {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(ev.Metadata, &m); err != nil {
			t.Fatalf("event metadata %s: %v", ev.Metadata, err)
		}
		out = append(out, m)
	}
	return out
}

// near reports whether two stored times agree within the coarsest store precision (BSON's
// milliseconds).
func near(a, b time.Time) bool {
	d := a.Sub(b)
	return d > -2*time.Millisecond && d < 2*time.Millisecond
}

// sweepAll is one node's due sweep: it walks the due deadlines and fires each, counting those
// it fired. A deadline another sweep settled first, or whose task waits for the runtime, is
// passed over, as the worker does.
func sweepAll(c context.Context, s store.Store) (int, error) {
	fired := 0
	var after *models.DeadlineKey
	for {
		page, err := s.DueDeadlines(c, 2, after)
		if err != nil {
			return fired, err
		}
		for _, d := range page {
			f, err := s.FireDeadline(c, d.Tenant, d.TaskID, d.Index, theManagers)
			switch code := models.ErrorCode(err); {
			case err == nil:
				if f.Deadline.State == models.DeadlineFired {
					fired++
				}
			case code == models.CodeDeadlineSettled, code == models.CodeTransitionInProgress:
			default:
				return fired, err
			}
		}
		if len(page) < 2 {
			return fired, nil
		}
		k := page[len(page)-1].Key()
		after = &k
	}
}
