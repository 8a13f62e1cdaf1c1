package storetest

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// The retention purge (SPEC 7; persistence contract: terminal-only retention cleanup).

const purgeAge = 90 * 24 * time.Hour

// taskChildTables are the tables holding rows that belong to a task, by task_id.
var taskChildTables = []string{"user_task_tags", "user_task_candidates", "user_task_exclusions", "user_task_events",
	"user_task_operations", "user_task_resumptions", "user_task_invitations", "user_task_deliveries", "user_task_guest_sessions"}

// childRows counts the rows of every child table that belong to taskID.
func childRows(t *testing.T, h Harness, s store.Store, taskID string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range taskChildTables {
		out[table] = h.records(t, s, table, map[string]any{"task_id": taskID})
	}
	return out
}

// insertGuestSession stores a guest session for inv expiring at expires.
func insertGuestSession(t *testing.T, h Harness, s store.Store, inv models.Invitation, issued, expires time.Time) string {
	t.Helper()
	id := models.NewID()
	h.tamper(t, s, InsertGuestSession, id, inv.Tenant, inv.TaskID, inv.ID, strings.Repeat("a", 48)+id[:16], "guest",
		"invitation:"+inv.ID, "[]", issued.UTC(), expires.UTC())
	return id
}

func testPurge(t *testing.T, h Harness) {
	t.Run("TerminalOnly", func(t *testing.T) { testPurgeTerminal(t, h) })
	t.Run("ShorterPolicies", func(t *testing.T) { testPurgePolicies(t, h) })
}

func testPurgeTerminal(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	var cancelOnDelete atomic.Pointer[context.CancelFunc]
	o := Options{Clock: clock.Now}
	if h.SQL != nil {
		// Only CancelledMidPageRollsTheWholePageBack reads the statements; without them the
		// other cases run and that one is not applicable.
		o.OnSQL = func(q string) {
			if strings.Contains(q, "DELETE FROM user_tasks WHERE") {
				if c := cancelOnDelete.Swap(nil); c != nil {
					(*c)()
				}
			}
		}
	}
	s := h.open(t, o)
	mustMutate := func(task models.Task, to models.Status) {
		t.Helper()
		if _, err := s.Mutate(ctx(t), task.Tenant, task.ID, "", transition(to, "")); err != nil {
			t.Fatalf("%s → %s: %v", task.ID, to, err)
		}
	}
	start, err := s.Now(ctx(t))
	if err != nil {
		t.Fatal(err)
	}

	// A terminal task with a row in every child table.
	full := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann")), CandidateUsers: []string{"ann", "cy"},
		CandidateGroups: []string{"g"}, Excluded: []string{"bob"}, Tags: []string{"a", "b"}, Instructions: "secret"})
	inv := issue(t, s, full, "raw-purge-token-1")
	insertGuestSession(t, h, s, inv, start, start.Add(time.Hour))
	mustMutate(full, models.StatusCompleting)
	mustMutate(full, models.StatusCompleted)
	for table, n := range childRows(t, h, s, full.ID) {
		if n == 0 {
			t.Fatalf("fixture: %s holds no row of the full task", table)
		}
	}
	// Plain aged terminal tasks, enough for several pages of two.
	var plain []models.Task
	for i := 0; i < 5; i++ {
		plain = append(plain, CreateTask(t, s, TaskOpts{Status: models.StatusCompleted, CandidateUsers: []string{"ann"}, Tags: []string{"x"}}))
	}
	// Aged survivors.
	open := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	transitional := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
	mustMutate(transitional, models.StatusCompleting)
	// Terminal with its accepted operation and pending resumption left behind.
	pendingOp := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
	mustMutate(pendingOp, models.StatusCompleting)
	h.tamper(t, s, ForceCompleted, pendingOp.ID)
	// Terminal with a pending resumption only (its operation completed).
	pendingResume := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
	mustMutate(pendingResume, models.StatusCompleting)
	h.tamper(t, s, ForceCompleted, pendingResume.ID)
	h.tamper(t, s, CompleteOperations, pendingResume.ID)
	unhealthy := CreateTask(t, s, TaskOpts{Status: models.StatusCancelled,
		Health: models.Health{Severity: models.SeverityAdvisory, Code: models.HealthStaleTransition, Message: "check"}})
	other := CreateTask(t, s, TaskOpts{Tenant: "t2", Status: models.StatusCompleted, CandidateUsers: []string{"ann"}})

	clock.Advance(purgeAge + 24*time.Hour)
	young := CreateTask(t, s, TaskOpts{Status: models.StatusCompleted})
	survivors := []models.Task{open, transitional, pendingOp, pendingResume, unhealthy, young}
	gone := append([]models.Task{full}, plain...)

	rollup := rollupTotals(t, s, "t1")
	openCount := h.openCounted(t, s, "t1")
	policy := models.RetentionPolicy{TerminalAge: purgeAge, PageSize: 2}

	t.Run("DryRunCountsAndKeeps", func(t *testing.T) {
		dry := policy
		dry.DryRun = true
		got, err := s.Purge(ctx(t), "t1", dry, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Tasks != len(gone) || got.Invitations != 1 || got.Deliveries != 1 || got.GuestSessions != 1 ||
			got.Exclusions != 1 || got.Tags != 2+len(plain) || got.Resumptions != 1 || got.Operations < 1 || got.Events < len(gone) {
			t.Fatalf("dry run counts %+v", got)
		}
		mustGet(t, s, "t1", full.ID)
	})
	t.Run("CancelledMidPageRollsTheWholePageBack", func(t *testing.T) {
		h.needSQL(t, "the case cancels the purge at its DELETE statement (Options.OnSQL)")
		before := h.records(t, s, "user_task_events", map[string]any{"tenant_id": "t1"})
		c, cancel := context.WithCancel(ctx(t))
		defer cancel()
		cancelOnDelete.Store(&cancel)
		_, err := s.Purge(c, "t1", policy, nil)
		if err == nil {
			t.Fatal("purge with a context cancelled mid-page succeeded")
		}
		if after := h.records(t, s, "user_task_events", map[string]any{"tenant_id": "t1"}); after != before {
			t.Fatalf("events %d → %d: part of a page was committed", before, after)
		}
		for _, task := range gone {
			mustGet(t, s, "t1", task.ID)
		}
	})
	t.Run("CancelledBetweenPagesThenRerun", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx(t))
		defer cancel()
		var pages int
		first, err := s.Purge(c, "t1", policy, func(models.PurgeCounts) { pages++; cancel() })
		if !errors.Is(err, context.Canceled) || pages != 1 || first.Tasks != 2 {
			t.Fatalf("first run: %+v after %d pages, %v", first, pages, err)
		}
		pages = 0
		rest, err := s.Purge(ctx(t), "t1", policy, func(models.PurgeCounts) { pages++ })
		if err != nil {
			t.Fatalf("rerun: %v", err)
		}
		if first.Tasks+rest.Tasks != len(gone) || pages < 2 {
			t.Fatalf("purged %d + %d tasks in %d more pages, want %d in all", first.Tasks, rest.Tasks, pages, len(gone))
		}
		again, err := s.Purge(ctx(t), "t1", policy, nil)
		if err != nil || again.Total() != 0 {
			t.Fatalf("third run: %+v, %v", again, err)
		}
	})
	t.Run("ChildrenGone", func(t *testing.T) {
		for _, task := range gone {
			_, err := s.Get(ctx(t), "t1", task.ID)
			wantIs(t, err, models.ErrNotFound)
			for table, n := range childRows(t, h, s, task.ID) {
				if n != 0 {
					t.Fatalf("%s still holds %d rows of purged task %s", table, n, task.ID)
				}
			}
		}
	})
	t.Run("AgedOpenTransitionalPendingUnhealthySurvive", func(t *testing.T) {
		for _, task := range survivors {
			got := mustGet(t, s, "t1", task.ID)
			if n := childRows(t, h, s, task.ID)["user_task_events"]; n == 0 {
				t.Fatalf("task %s (%s) lost its events", task.ID, got.Status)
			}
		}
		mustGet(t, s, "t2", other.ID)
	})
	t.Run("OtherTenantUntouched", func(t *testing.T) {
		got, err := s.Purge(ctx(t), "t2", models.RetentionPolicy{TerminalAge: 100 * purgeAge}, nil)
		if err != nil || got.Total() != 0 {
			t.Fatalf("%+v, %v", got, err)
		}
		mustGet(t, s, "t2", other.ID)
		if n := childRows(t, h, s, other.ID)["user_task_candidates"]; n != 1 {
			t.Fatalf("other tenant's task has %d candidates", n)
		}
	})
	t.Run("RollupAndCounterKept", func(t *testing.T) {
		if got := rollupTotals(t, s, "t1"); len(got) != len(rollup) || !sameTotals(got, rollup) {
			t.Fatalf("rollup %v, was %v", got, rollup)
		}
		if n := h.openCounted(t, s, "t1"); n != openCount {
			t.Fatalf("open-task counter %d, was %d", n, openCount)
		}
	})
	t.Run("RefusesBadPolicy", func(t *testing.T) {
		_, err := s.Purge(ctx(t), "t1", models.RetentionPolicy{TerminalAge: -time.Hour}, nil)
		wantCode(t, err, models.CodeValidationFailed)
		_, err = s.Purge(ctx(t), "t1", models.RetentionPolicy{TerminalAge: time.Hour, PageSize: models.MaxPurgePageSize + 1}, nil)
		wantCode(t, err, models.CodeValidationFailed)
	})
}

func sameTotals(a, b map[string]int64) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func testPurgePolicies(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})
	start, err := s.Now(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	revoked := issue(t, s, task, "raw-purge-revoked")
	h.tamper(t, s, RevokeInvitationRecord, revoked.ID)
	lapsed := issue(t, s, task, "raw-purge-lapsed") // pending, expires a day after issue
	leased := issue(t, s, task, "raw-purge-leased")
	h.tamper(t, s, SetInvitationStatus, string(models.InvitationExpired), leased.ID)
	h.tamper(t, s, LeaseDelivery, start.Add(10*purgeAge).UTC(), leased.ID)
	oldSession := insertGuestSession(t, h, s, lapsed, start, start.Add(time.Hour))
	// A task a guest holds keeps its invitations, even revoked ones, while it is open.
	guestTask := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	guestInv := issue(t, s, guestTask, "raw-purge-guest")
	h.tamper(t, s, SetInvitationStatus, string(models.InvitationRevoked), guestInv.ID)
	h.tamper(t, s, AssignToGuest, "invitation:"+guestInv.ID, guestTask.ID)
	delivered := issue(t, s, CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}}), "raw-purge-delivered")
	h.tamper(t, s, SetInvitationStatus, string(models.InvitationConsumed), delivered.ID)
	h.tamper(t, s, DeliverDelivery, delivered.ID)
	closed := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
	for _, to := range []models.Status{models.StatusCompleting, models.StatusCompleted} {
		if _, err := s.Mutate(ctx(t), "t1", closed.ID, "", transition(to, "")); err != nil {
			t.Fatal(err)
		}
	}
	h.tamper(t, s, DeliverResumptions, closed.ID)
	stillTransitional := transitionalTasks(t, s, 1)[0]
	h.tamper(t, s, DeliverResumptions, stillTransitional)

	clock.Advance(purgeAge)
	fresh := issue(t, s, task, "raw-purge-fresh")
	now, _ := s.Now(ctx(t))
	liveSession := insertGuestSession(t, h, s, fresh, now, now.Add(4*time.Hour))

	policy := models.DefaultRetentionPolicy()
	got, err := s.Purge(ctx(t), "t1", policy, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := func(unit, field, value string) int { return h.records(t, s, unit, map[string]any{field: value}) }
	t.Run("RevokedAndLapsedInvitationsGoWithTheirRows", func(t *testing.T) {
		for _, inv := range []models.Invitation{revoked, lapsed} {
			if n := count("user_task_invitations", "id", inv.ID) +
				count("user_task_deliveries", "invitation_id", inv.ID); n != 0 {
				t.Fatalf("invitation %s: %d rows left", inv.ID, n)
			}
		}
		if n := count("user_task_guest_sessions", "id", oldSession); n != 0 {
			t.Fatal("the lapsed invitation's guest session is left")
		}
		if got.Invitations != 2 || got.Tasks != 0 {
			t.Fatalf("counts %+v", got)
		}
	})
	t.Run("InFlightFreshAndConsumedInvitationsStay", func(t *testing.T) {
		for _, inv := range []models.Invitation{leased, fresh, delivered, guestInv} {
			if n := count("user_task_invitations", "id", inv.ID); n != 1 {
				t.Fatalf("invitation %s was purged", inv.ID)
			}
		}
		if n := count("user_task_deliveries", "invitation_id", leased.ID); n != 1 {
			t.Fatal("a leased delivery was purged")
		}
		if n := count("user_task_guest_sessions", "id", liveSession); n != 1 {
			t.Fatal("a live guest session was purged")
		}
	})
	t.Run("DeliveredOutboxRowsGo", func(t *testing.T) {
		if n := count("user_task_deliveries", "invitation_id", delivered.ID); n != 0 {
			t.Fatal("a delivered delivery row is left")
		}
		if n := count("user_task_resumptions", "task_id", closed.ID); n != 0 {
			t.Fatal("a terminal task's delivered resumption row is left")
		}
		if n := count("user_task_resumptions", "task_id", stillTransitional); n != 1 {
			t.Fatal("a transitional task's resumption row was purged")
		}
		mustGet(t, s, "t1", closed.ID)
		mustGet(t, s, "t1", task.ID)
	})
	t.Run("OtherTenantUntouched", func(t *testing.T) {
		got, err := s.Purge(ctx(t), "t2", policy, nil)
		if err != nil || got.Total() != 0 {
			t.Fatalf("%+v, %v", got, err)
		}
	})
}
