package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testDeadlines checks deadlines and their firing (SPEC 10.4): stored with the task, walked
// when due, fired exactly once however many sweeps race, never after a claim (start) or a
// close (completion), and what a firing changes, records and tells.
func testDeadlines(t *testing.T, h Harness) {
	t.Run("StoredWithTheTask", func(t *testing.T) {
		s, _ := noteStore(t, h)
		hostile := models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Participants: []models.ParticipantRef{User("t1", hostileID), Group("t1", "ops")}}}
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{Kind: models.DeadlineStart, After: time.Hour, Actions: []models.DeadlineAction{hostile, setPriority(90)}},
			DeadlineOpts{Kind: models.DeadlineCompletion, After: 48 * time.Hour, Actions: []models.DeadlineAction{reassignTo("t1", []string{"cy"}, "leads"), flagAction}})
		ds := mustDeadlines(t, s, task)
		if len(ds) != 2 || ds[0].Index != 0 || ds[1].Index != 1 {
			t.Fatalf("got %+v, want deadlines 0 and 1", ds)
		}
		d0, d1 := ds[0], ds[1]
		if d0.Kind != models.DeadlineStart || d1.Kind != models.DeadlineCompletion || d0.State != models.DeadlinePending || d0.FiredAt != nil {
			t.Errorf("got %+v / %+v, want pending start and completion", d0, d1)
		}
		if !near(d0.DueAt, task.CreatedAt.Add(time.Hour)) || !near(d1.DueAt, task.CreatedAt.Add(48*time.Hour)) {
			t.Errorf("due %v and %v, want creation %v + 1h and + 48h", d0.DueAt, d1.DueAt, task.CreatedAt)
		}
		if got := d0.Actions[0].To.Participants; len(got) != 2 || !got[0].Same(User("t1", hostileID)) || !got[1].Same(Group("t1", "ops")) {
			t.Errorf("notify participants came back as %+v", got)
		}
		if got := d1.Actions[0]; len(got.CandidateUsers) != 1 || got.CandidateUsers[0].ID != "cy" || got.CandidateGroups[0].ID != "leads" {
			t.Errorf("reassign came back as %+v", got)
		}
		if p := d0.Actions[1].Priority; p == nil || *p != 90 {
			t.Errorf("set-priority came back as %v", p)
		}
		other := CreateTask(t, s, TaskOpts{})
		if ds := mustDeadlines(t, s, other); len(ds) != 0 {
			t.Errorf("a task without deadlines lists %+v", ds)
		}
		if ds, err := s.TaskDeadlines(ctx(t), "t2", task.ID); err != nil || len(ds) != 0 {
			t.Errorf("another tenant reads %+v, %v, want nothing", ds, err)
		}
	})

	t.Run("DueWalk", func(t *testing.T) {
		s, clock := noteStore(t, h)
		a := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{After: 2 * time.Hour, Actions: []models.DeadlineAction{flagAction}},
			DeadlineOpts{After: -time.Minute, Actions: []models.DeadlineAction{flagAction}},
			DeadlineOpts{After: time.Hour, Actions: []models.DeadlineAction{flagAction}})
		b := createWithDeadlines(t, s, TaskOpts{Tenant: "t2", CandidateUsers: []string{"ann"}},
			DeadlineOpts{After: time.Hour, Actions: []models.DeadlineAction{flagAction}},
			DeadlineOpts{After: time.Hour, Actions: []models.DeadlineAction{flagAction}})
		CreateTask(t, s, TaskOpts{})
		if got := dueOf(dueWalk(t, s, 2), a, b); fmt.Sprint(got) != "[A#1]" {
			t.Fatalf("due now: %v, want [A#1]", got)
		}
		clock.Advance(90 * time.Minute)
		// b's two share a due time: the task id, then the index orders them; pages of one and
		// two give the same walk.
		want := []string{"A#1", "A#2", "B#0", "B#1"}
		if b.ID < a.ID || !near(mustDeadlines(t, s, b)[0].DueAt, mustDeadlines(t, s, a)[2].DueAt) {
			want = nil // the order between a and b follows their due times; checked below
		}
		for _, limit := range []int{1, 2, 50} {
			got := dueOf(dueWalk(t, s, limit), a, b)
			if len(got) != 4 || (want != nil && fmt.Sprint(got) != fmt.Sprint(want)) || got[0] != "A#1" {
				t.Fatalf("limit %d: walk %v, want the 4 due deadlines in due order %v", limit, got, want)
			}
			walk := dueWalk(t, s, limit)
			for i := 1; i < len(walk); i++ {
				p, c := walk[i-1].Key(), walk[i].Key()
				if c.DueAt.Before(p.DueAt) || (c.DueAt.Equal(p.DueAt) && (c.TaskID < p.TaskID || (c.TaskID == p.TaskID && c.Index <= p.Index))) {
					t.Fatalf("limit %d: %+v before %+v", limit, p, c)
				}
			}
		}
		fire(t, s, a, 1)
		if got := dueOf(dueWalk(t, s, 2), a, b); slices.Contains(got, "A#1") || len(got) != 3 {
			t.Fatalf("after firing A#1: %v, want it gone and 3 left", got)
		}
	})

	t.Run("FiresOnceUnderConcurrentSweeps", func(t *testing.T) {
		s, _ := noteStore(t, h)
		var tasks []models.Task
		for range 3 {
			tasks = append(tasks, createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
				DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Minute, Actions: []models.DeadlineAction{notifyManagers, setPriority(70)}},
				DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Second, Actions: []models.DeadlineAction{notifyManagers}}))
		}
		const sweeps = 2
		var wg sync.WaitGroup
		fired := make([]int, sweeps)
		errs := make([]error, sweeps)
		for w := range sweeps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fired[w], errs[w] = sweepAll(ctx(t), s)
			}()
		}
		wg.Wait()
		for w := range sweeps {
			if errs[w] != nil {
				t.Fatalf("sweep %d: %v", w, errs[w])
			}
		}
		if got := fired[0] + fired[1]; got != 6 {
			t.Fatalf("the sweeps fired %d deadlines (%v), want 6, each once", got, fired)
		}
		for _, task := range tasks {
			if evs := firedEvents(t, s, task); len(evs) != 2 {
				t.Fatalf("task %s: %d deadline-fired events, want 2", task.ID, len(evs))
			}
			got := mustGet(t, s, task.Tenant, task.ID)
			if got.Revision != task.Revision+1 || got.Priority != 70 {
				t.Errorf("task %s: revision %d priority %d, want %d and 70 (the notify-only firing keeps the revision)", task.ID, got.Revision, got.Priority, task.Revision+1)
			}
			for _, d := range mustDeadlines(t, s, task) {
				if d.State != models.DeadlineFired || d.FiredAt == nil {
					t.Errorf("deadline %d: %+v, want fired", d.Index, d)
				}
			}
		}
		if got := escalatedOf(drain(t, s)); len(got) != 6 {
			t.Fatalf("escalated rows %q, want 6: one per firing", got)
		}
		// A third sweep finds nothing, and firing again is the settled conflict.
		if n, err := sweepAll(ctx(t), s); err != nil || n != 0 {
			t.Fatalf("a later sweep fired %d, %v", n, err)
		}
		_, err := s.FireDeadline(ctx(t), tasks[0].Tenant, tasks[0].ID, 0, theManagers)
		wantCode(t, err, models.CodeDeadlineSettled)
	})

	t.Run("ManyRacersOneDeadline", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{After: -time.Minute, Actions: []models.DeadlineAction{notifyManagers}})
		const racers = 6
		var wg sync.WaitGroup
		errs := make([]error, racers)
		for r := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[r] = s.FireDeadline(ctx(t), task.Tenant, task.ID, 0, theManagers)
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case models.ErrorCode(err) != models.CodeDeadlineSettled:
				t.Fatalf("a racer failed with %v, want success or deadline-settled", err)
			}
		}
		if won != 1 || len(firedEvents(t, s, task)) != 1 {
			t.Fatalf("%d racers won, %d events, want 1 and 1", won, len(firedEvents(t, s, task)))
		}
	})

	t.Run("NeverAfterAClaim", func(t *testing.T) {
		s, clock := noteStore(t, h)
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{Kind: models.DeadlineStart, After: time.Hour, Actions: []models.DeadlineAction{notifyManagers, flagAction}})
		claimed := mustCommand(t, s, task, queryActor("t1", "ann", false), func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Claim(cur, cmd, now)
		})
		drain(t, s)
		clock.Advance(2 * time.Hour)
		f, err := s.FireDeadline(ctx(t), task.Tenant, task.ID, 0, theManagers)
		if err != nil || f.Change != nil || f.Deadline.State != models.DeadlineSkipped {
			t.Fatalf("got %+v, %v, want the deadline skipped", f, err)
		}
		got := mustGet(t, s, task.Tenant, task.ID)
		if got.Revision != claimed.Revision || got.LastEventSeq != claimed.LastEventSeq || got.Health.Code == models.HealthDeadlineMissed {
			t.Errorf("the skipped deadline wrote: revision %d seq %d health %+v", got.Revision, got.LastEventSeq, got.Health)
		}
		if d := mustDeadlines(t, s, task)[0]; d.State != models.DeadlineSkipped || d.FiredAt == nil {
			t.Errorf("deadline %+v, want skipped with its time", d)
		}
		if got := dueOf(dueWalk(t, s, 10), task); len(got) != 0 {
			t.Errorf("the walk still lists %v", got)
		}
		if rows := escalatedOf(drain(t, s)); len(rows) != 0 {
			t.Errorf("escalated rows %q after a claim", rows)
		}
		// Released again, it stays settled: a deadline is decided once.
		_, err = s.FireDeadline(ctx(t), task.Tenant, task.ID, 0, theManagers)
		wantCode(t, err, models.CodeDeadlineSettled)
	})

	t.Run("NeverAfterClose", func(t *testing.T) {
		s, _ := noteStore(t, h)
		ann := User("t1", "ann")
		closed := createWithDeadlines(t, s, TaskOpts{Status: models.StatusCompleted, CompletedBy: &ann},
			DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Minute, Actions: []models.DeadlineAction{notifyManagers, flagAction}})
		n, err := sweepAll(ctx(t), s)
		if err != nil || n != 0 {
			t.Fatalf("the sweep fired %d, %v, want 0", n, err)
		}
		if d := mustDeadlines(t, s, closed)[0]; d.State != models.DeadlineSkipped {
			t.Errorf("deadline %+v, want skipped", d)
		}
		if evs := firedEvents(t, s, closed); len(evs) != 0 {
			t.Errorf("events %v", evs)
		}
	})

	t.Run("TransitionalStaysPending", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}, Cancellation: true},
			DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Minute, Actions: []models.DeadlineAction{flagAction}})
		if _, err := command(t, s, task, queryActor("t1", "boss", true), "op-cancel", 0, func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Cancel(cur, cmd, "no longer needed", now)
		}); err != nil {
			t.Fatalf("cancel: %v", err)
		}
		_, err := s.FireDeadline(ctx(t), task.Tenant, task.ID, 0, theManagers)
		wantCode(t, err, models.CodeTransitionInProgress)
		if d := mustDeadlines(t, s, task)[0]; d.State != models.DeadlinePending {
			t.Errorf("deadline %+v, want still pending", d)
		}
	})

	t.Run("ReassignKeepsExclusions", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}, CandidateGroups: []string{"clerks"}, Excluded: []string{"mallory"}},
			DeadlineOpts{Kind: models.DeadlineStart, After: -time.Minute, Actions: []models.DeadlineAction{reassignTo("t1", []string{"cy", "mallory"}, "leads")}})
		f := fire(t, s, task, 0)
		got := mustGet(t, s, task.Tenant, task.ID)
		if got.Status != models.StatusAvailable || got.Revision != task.Revision+1 || !f.StateChanged {
			t.Fatalf("got %s revision %d, want Available at %d", got.Status, got.Revision, task.Revision+1)
		}
		var cands []string
		for _, c := range got.Assignment.Candidates {
			cands = append(cands, fmt.Sprintf("%s:%s", c.Participant.Type, c.Participant.ID))
		}
		slices.Sort(cands)
		if fmt.Sprint(cands) != "[group:leads user:cy user:mallory]" {
			t.Errorf("candidates %v, want the reassigned ones only", cands)
		}
		if len(got.Assignment.Exclusions) != 1 || got.Assignment.Exclusions[0].ID != "mallory" || !got.Assignment.Excludes(User("t1", "mallory")) {
			t.Errorf("exclusions %+v, want mallory kept", got.Assignment.Exclusions)
		}
		// The excluded candidate is told nothing; the new candidates are.
		rows := escalatedOf(drain(t, s))
		if fmt.Sprint(rows) != "[escalated group:leads r2 escalated user:cy r2]" {
			t.Errorf("escalated rows %q", rows)
		}
	})

	t.Run("CompletionReassignReleases", func(t *testing.T) {
		s, _ := noteStore(t, h)
		ann := User("t1", "ann")
		task := createWithDeadlines(t, s, TaskOpts{Assignee: &ann, CandidateUsers: []string{"ann"}},
			DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Minute, Actions: []models.DeadlineAction{reassignTo("t1", nil, "leads")}})
		fire(t, s, task, 0)
		got := mustGet(t, s, task.Tenant, task.ID)
		if got.Status != models.StatusAvailable || got.Assignee != nil {
			t.Fatalf("got %s assignee %+v, want Available without one", got.Status, got.Assignee)
		}
	})

	t.Run("ReprojectionKeepsFiredState", func(t *testing.T) {
		s, clock := noteStore(t, h)
		change := NewTask(TaskOpts{CandidateUsers: []string{"ann"}}, time.Time{})
		project := func() (models.Task, bool) {
			task, created, err := s.Create(ctx(t), change.Task.Tenant, change.Task.MaterializationKey, change.Task.Workflow.BookmarkID,
				func(now time.Time) (models.Change, error) {
					c := change
					c.Task.CreatedAt, c.Task.UpdatedAt, c.Event.OccurredAt = now, now, now
					c.Deadlines = deadlinesOf(c.Task, now, []DeadlineOpts{
						{After: -time.Minute, Actions: []models.DeadlineAction{flagAction}},
						{After: time.Hour, Actions: []models.DeadlineAction{flagAction}}})
					return c, nil
				})
			if err != nil {
				t.Fatalf("project: %v", err)
			}
			return task, created
		}
		task, created := project()
		if !created {
			t.Fatal("the first projection created nothing")
		}
		fire(t, s, task, 0)
		clock.Advance(time.Minute)
		again, created := project()
		if created || again.ID != task.ID {
			t.Fatalf("the same bookmark created %v (task %s, want %s)", created, again.ID, task.ID)
		}
		ds := mustDeadlines(t, s, task)
		if ds[0].State != models.DeadlineFired || ds[1].State != models.DeadlinePending || len(ds) != 2 {
			t.Fatalf("after re-projection: %+v, want deadline 0 fired and 1 pending", ds)
		}
		if _, err := s.FireDeadline(ctx(t), task.Tenant, task.ID, 0, theManagers); models.ErrorCode(err) != models.CodeDeadlineSettled {
			t.Fatalf("firing deadline 0 again: %v, want deadline-settled", err)
		}
	})

	t.Run("FlagSetsHealth", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Minute, Actions: []models.DeadlineAction{flagAction}})
		fire(t, s, task, 0)
		got := mustGet(t, s, task.Tenant, task.ID)
		if got.Health.Code != models.HealthDeadlineMissed || got.Health.Severity != models.SeverityAdvisory {
			t.Fatalf("health %+v, want advisory deadline-missed", got.Health)
		}
		page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: models.ScopeNeedsAttention, Actor: queryActor("t1", "boss", true),
			HealthCodes: []string{models.HealthDeadlineMissed}, Limit: 10})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != task.ID {
			t.Fatalf("needs attention filtered by deadline-missed: %v, %v", page.Items, err)
		}
	})

	t.Run("EventAndNotifications", func(t *testing.T) {
		s, _ := noteStore(t, h)
		named := models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Participants: []models.ParticipantRef{User("t1", hostileID), User("t1", "mallory")}}}
		candidates := models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Audience: models.NotifyCandidates}}
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}, Excluded: []string{"mallory"}},
			DeadlineOpts{Kind: models.DeadlineStart, After: -time.Minute, Actions: []models.DeadlineAction{notifyManagers, named, candidates}})
		drain(t, s)
		f := fire(t, s, task, 0)
		if f.StateChanged {
			t.Errorf("a notify-only firing changed the state")
		}
		got := mustGet(t, s, task.Tenant, task.ID)
		if got.Revision != task.Revision || got.LastEventSeq != task.LastEventSeq+1 {
			t.Errorf("revision %d seq %d, want %d and %d", got.Revision, got.LastEventSeq, task.Revision, task.LastEventSeq+1)
		}
		evs := firedEvents(t, s, task)
		if len(evs) != 1 || fmt.Sprint(evs[0]["index"]) != "0" || evs[0]["kind"] != "start" || fmt.Sprint(evs[0]["actions"]) != "[notify notify notify]" {
			t.Fatalf("deadline-fired events %v", evs)
		}
		seq := task.LastEventSeq + 1
		want := []string{
			fmt.Sprintf("escalated user:%s r%d", hostileID, seq),
			fmt.Sprintf("escalated user:ann r%d", seq),
			fmt.Sprintf("escalated user:boss r%d", seq),
		}
		slices.Sort(want)
		if rows := escalatedOf(drain(t, s)); fmt.Sprint(rows) != fmt.Sprint(want) {
			t.Fatalf("escalated rows %q, want %q (never the excluded mallory)", rows, want)
		}
	})

	t.Run("AuditFindsNothing", func(t *testing.T) {
		// A firing is a consistent change: a claimed task released by a completion deadline,
		// an unassigned one reassigned, a notify-only event at the same revision.
		s, _ := noteStore(t, h)
		claimed := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Minute, Actions: []models.DeadlineAction{reassignTo("t1", nil, "leads"), flagAction}})
		mustCommand(t, s, claimed, queryActor("t1", "ann", false), func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Claim(cur, cmd, now)
		})
		unassigned := createWithDeadlines(t, s, TaskOpts{},
			DeadlineOpts{Kind: models.DeadlineStart, After: -time.Minute, Actions: []models.DeadlineAction{reassignTo("t1", []string{"cy"})}})
		notified := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{Kind: models.DeadlineStart, After: -time.Minute, Actions: []models.DeadlineAction{notifyManagers}})
		for _, task := range []models.Task{claimed, unassigned, notified} {
			fire(t, s, task, 0)
		}
		if got := mustGet(t, s, "t1", claimed.ID); got.Status != models.StatusAvailable || got.Assignee != nil {
			t.Fatalf("the claimed task after its completion deadline: %s, %+v", got.Status, got.Assignee)
		}
		if n, findings, _ := AuditAll(t, s, store.AuditFilter{Tenant: "t1"}, 10); n != 3 || len(findings) != 0 {
			t.Fatalf("audited %d tasks, findings %+v", n, findings)
		}
	})

	t.Run("OtherTenantAndUnknownIndex", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}},
			DeadlineOpts{After: -time.Minute, Actions: []models.DeadlineAction{flagAction}})
		_, err := s.FireDeadline(ctx(t), "t2", task.ID, 0, theManagers)
		wantIs(t, err, models.ErrNotFound)
		_, err = s.FireDeadline(ctx(t), task.Tenant, task.ID, 7, theManagers)
		wantIs(t, err, models.ErrNotFound)
		if d := mustDeadlines(t, s, task)[0]; d.State != models.DeadlinePending {
			t.Errorf("deadline %+v, want pending", d)
		}
	})

	t.Run("CountedInTheRollup", func(t *testing.T) { testDeadlineRollup(t, h) })
}

// fire fires one deadline and requires it to fire.
func fire(t *testing.T, s store.Store, task models.Task, index int) models.DeadlineFiring {
	t.Helper()
	f, err := s.FireDeadline(ctx(t), task.Tenant, task.ID, index, theManagers)
	if err != nil || f.Deadline.State != models.DeadlineFired {
		t.Fatalf("fire deadline %d: %+v, %v", index, f.Deadline, err)
	}
	return f
}
