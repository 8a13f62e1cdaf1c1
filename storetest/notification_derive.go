package storetest

import (
	"testing"
	"time"

	"usertasks/models"
)

// testNotificationDerive drives the store with the lifecycle's real commands and reads the rows
// each change wrote in its transaction (storekit.NotificationsFor) back through the worker's
// claim: who is told, at which revision, and that a replayed or failed change writes none.
func testNotificationDerive(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	ann := queryActor("t1", "ann", false)
	cy := queryActor("t1", "cy", false)
	boss := queryActor("t1", "boss", true)
	assignTo := func(id string) lifecycle {
		return func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Assign(cur, cmd, User("t1", id), "", now)
		}
	}
	release := func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
		return models.Release(cur, cmd, "", now)
	}
	// A snapshot task: candidate users ann and bob (excluded), group sales expanded to dan, and
	// a guest's invitation candidate.
	pool := func(p *models.Projection) {
		p.Mode = models.MembershipSnapshot
		p.CandidateUsers = []models.ParticipantRef{User("t1", "ann"), User("t1", "bob")}
		p.CandidateGroups = []models.ParticipantRef{Group("t1", "sales")}
		p.SnapshotMembers = []models.Candidate{{Participant: User("t1", "dan"), Source: models.SourceSnapshotMember, SourceGroup: ptr(Group("t1", "sales"))}}
		p.ExcludedUsers = []models.ParticipantRef{User("t1", "bob")}
	}
	var task models.Task

	t.Run("ProjectionAvailableToUsersMembersAndGroups", func(t *testing.T) {
		p := models.Projection{Tenant: "t1", Title: "Review the offer",
			Workflow: models.WorkflowLink{DefinitionID: "notify", InstanceID: models.NewID(), ActivityInstanceID: "review", BookmarkID: "bm-" + models.NewID()}}
		pool(&p)
		key := models.MaterializationKey("t1", p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
		created, _, err := s.Create(ctx(t), "t1", key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
			c, err := models.Project(p, now)
			guest := models.GuestRef("t1", "inv-1")
			c.Task.Assignment.Candidates = append(c.Task.Assignment.Candidates, models.Candidate{Participant: guest, Source: models.SourceInvitation})
			c.Task.CandidateSummary = c.Task.Assignment.Summarize()
			return c, err
		})
		if err != nil {
			t.Fatal(err)
		}
		task = created
		rows := drain(t, s)
		wantKeys(t, "projection", rows, "task-available user:ann r1", "task-available user:dan r1", "task-available group:sales r1")
		for _, n := range rows {
			if n.Tenant != "t1" || n.TaskID != task.ID || n.Title != "Review the offer" || n.State != models.NotificationPending ||
				n.Attempts != 0 || n.Email != models.ChannelUndecided || n.Webhook != models.ChannelUndecided || n.ID == "" || n.OccurredAt.IsZero() {
				t.Fatalf("row %+v", n)
			}
		}
	})
	t.Run("ProjectionWithAssignee", func(t *testing.T) {
		projectNote(t, s, "t1", func(p *models.Projection) {
			p.Assignee = ptr(User("t1", "ann"))
			p.CandidateUsers = []models.ParticipantRef{User("t1", "cy")}
		})
		wantKeys(t, "projection assigned to ann", drain(t, s), "task-assigned user:ann r1")
	})
	t.Run("OwnClaimNone", func(t *testing.T) {
		task = mustCommand(t, s, task, ann, models.Claim)
		wantKeys(t, "ann's claim", drain(t, s))
	})
	t.Run("ReleaseAvailableAgainNotToTheReleaser", func(t *testing.T) {
		task = mustCommand(t, s, task, ann, release)
		wantKeys(t, "ann's release", drain(t, s), "task-available user:dan r3", "task-available group:sales r3")
	})
	t.Run("AssignedByManager", func(t *testing.T) {
		task = mustCommand(t, s, task, boss, assignTo("cy"))
		rows := drain(t, s)
		wantKeys(t, "assigned to cy", rows, "task-assigned user:cy r4")
		if a := rows[0].Actor; a == nil || a.ID != "boss" || a.Type != models.UserParticipant {
			t.Fatalf("actor %+v, want boss", a)
		}
		if rows[0].Revision != int64(task.Revision) {
			t.Fatalf("revision %d, want the task's %d", rows[0].Revision, task.Revision)
		}
	})
	t.Run("ManagerAssigningThemselvesNone", func(t *testing.T) {
		task = mustCommand(t, s, task, boss, assignTo("boss"))
		wantKeys(t, "boss assigned to boss", drain(t, s))
	})
	t.Run("ReplayedCommandNone", func(t *testing.T) {
		expected := task.Revision
		first, err := command(t, s, task, boss, "op-assign-ann", expected, assignTo("ann"))
		if err != nil || first.Replay != nil {
			t.Fatalf("assign: %+v, %v", first.Replay, err)
		}
		wantKeys(t, "assigned to ann", drain(t, s), "task-assigned user:ann r6")
		again, err := command(t, s, task, boss, "op-assign-ann", expected, assignTo("ann"))
		if err != nil || again.Replay == nil {
			t.Fatalf("replay: %+v, %v", again, err)
		}
		wantKeys(t, "the replay", drain(t, s))
		task = first.Task
	})
	t.Run("FailedUnitNone", func(t *testing.T) {
		h.differs(t)
		held := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "eve"))})
		taken, err := s.Mutate(ctx(t), "t1", held.ID, "", transition(models.StatusCompleting, ""))
		if err != nil {
			t.Fatal(err)
		}
		drain(t, s)
		open := projectNote(t, s, "t1", pool)
		drain(t, s)
		// The assignment to cy would notify cy; its last insert (an outbox row reusing a taken
		// key) fails, so the whole unit, its notification included, must roll back.
		_, err = s.Mutate(ctx(t), "t1", open.ID, "", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			c, err := models.Assign(cur, models.Command{ExpectedRevision: cur.Revision, Actor: boss}, User("t1", "cy"), "", now)
			c.Resumption = &models.Resumption{ID: taken.Resumption.ID, Tenant: "t1", TaskID: cur.ID, OperationID: "op-dup",
				Kind: models.OpComplete, State: models.DeliveryPending, AvailableAt: now, CreatedAt: now, UpdatedAt: now}
			return c, err
		})
		if err == nil {
			t.Fatal("a unit with a duplicate outbox key committed")
		}
		wantKeys(t, "the failed unit", drain(t, s))
		if got := mustGet(t, s, "t1", open.ID); got.Revision != open.Revision {
			t.Fatalf("the failed unit moved the task to revision %d", got.Revision)
		}
	})
	t.Run("DecisionErrorNone", func(t *testing.T) {
		open := projectNote(t, s, "t1", pool)
		drain(t, s)
		_, err := command(t, s, open, ann, "", 0, assignTo("cy")) // ann is no manager
		wantIs(t, err, models.ErrNotFound)
		wantKeys(t, "the refused assignment", drain(t, s))
	})
	t.Run("GuestNeverNotified", func(t *testing.T) {
		open := projectNote(t, s, "t1", pool)
		drain(t, s)
		mustCommand(t, s, open, boss, func(cur models.Task, _ models.Command, now time.Time) (models.Change, error) {
			return models.VerifyGuest(cur, "inv-2", now)
		})
		wantKeys(t, "assigned to a guest", drain(t, s))
	})
	t.Run("TerminalChangesNone", func(t *testing.T) {
		open := projectNote(t, s, "t1", pool)
		held := projectNote(t, s, "t1", func(p *models.Projection) { p.Assignee = ptr(User("t1", "cy")) })
		drain(t, s)
		mustCommand(t, s, open, boss, func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Cancel(cur, cmd, "no longer needed", now)
		})
		for _, to := range []models.Status{models.StatusCompleting, models.StatusCompleted} {
			if _, err := s.Mutate(ctx(t), "t1", held.ID, "", transition(to, "")); err != nil {
				t.Fatal(err)
			}
		}
		wantKeys(t, "cancel and completion", drain(t, s))
	})
	t.Run("OverdueToAssigneeElseCandidateUsers", func(t *testing.T) {
		due := storeNow(t, s).Add(time.Hour)
		pooled := projectNote(t, s, "t1", func(p *models.Projection) {
			p.DueAt = &due
			p.CandidateUsers = []models.ParticipantRef{User("t1", "ann"), User("t1", "cy"), User("t1", "bob")}
			p.CandidateGroups = []models.ParticipantRef{Group("t1", "sales")}
			p.ExcludedUsers = []models.ParticipantRef{User("t1", "bob")}
		})
		held := projectNote(t, s, "t1", func(p *models.Projection) {
			p.DueAt = &due
			p.Assignee = ptr(User("t1", "dan"))
			p.CandidateUsers = []models.ParticipantRef{User("t1", "ann")}
		})
		drain(t, s)
		clock.Advance(2 * time.Hour)
		overdue := func(cur models.Task, _ models.Command, now time.Time) (models.Change, error) {
			return models.MarkOverdue(cur, now)
		}
		mustCommand(t, s, pooled, boss, overdue)
		wantKeys(t, "overdue without an assignee", drain(t, s), "overdue user:ann r2", "overdue user:cy r2")
		mustCommand(t, s, held, boss, overdue)
		wantKeys(t, "overdue with an assignee", drain(t, s), "overdue user:dan r2")
		// Claimed afterwards: an assignment that is no news about the due time.
		mustCommand(t, s, pooled, cy, models.Claim)
		wantKeys(t, "a claim of an overdue task", drain(t, s))
	})
}
