package models

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func claim(a Actor) func(Task) (Change, error) {
	return func(t Task) (Change, error) { return Claim(t, cmdOf(a, t), now) }
}

func TestClaim(t *testing.T) {
	snapshotTask := func(t *testing.T) Task {
		return newTask(t, &taskOpts{projection: func(p *Projection) {
			p.Mode = MembershipSnapshot
			p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "carol"}, SourceGroup: &ParticipantRef{ID: "approvers"}}}
		}})
	}
	ok := []struct {
		name  string
		task  Task
		actor Actor
	}{
		{"OK_DirectUser", newTask(t, nil), person("alice")},
		{"OK_LiveGroupMember", newTask(t, nil), person("dave", "approvers")},
		{"OK_SnapshotMember", snapshotTask(t), person("carol")},
		{"OK_SnapshotMemberWithoutTheGroupClaim", snapshotTask(t), person("carol", "other")},
		{"OK_ManagerCandidateDespiteBlockingHealth", withHealth(newTask(t, nil), HealthSnapshotResolutionFailed), withManager(person("alice"))},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			ch := mustCommit(t, tt.task, wantChange{status: StatusAssigned, event: EventClaimed, kind: OpClaim, state: OperationCompleted, actor: tt.actor.Ref(), operationID: "op-1"}, claim(tt.actor))
			if got := ch.Task.Assignee; got == nil || !got.Same(tt.actor.Subject) || got.DisplayName != tt.actor.DisplayName {
				t.Errorf("assignee: got %+v, want %+v named %q", got, tt.actor.Subject, tt.actor.DisplayName)
			}
			if ch.Task.AssignedAt == nil || !ch.Task.AssignedAt.Equal(now) {
				t.Errorf("assignedAt: got %v, want %v", ch.Task.AssignedAt, now)
			}
			if ch.AssignmentChanged {
				t.Errorf("assignmentChanged: got true, want false (candidate rows are untouched)")
			}
		})
	}

	available := newTask(t, nil)
	runRefusals(t, []refusal{
		{"ErrNotFound_NotACandidate", available, claim(person("erin")), CodeNotFound},
		{"ErrNotFound_ExcludedEvenThoughInTheGroup", available, claim(person("mallory", "approvers")), CodeNotFound},
		{"ErrNotFound_ExcludedDirectUser", newTask(t, &taskOpts{projection: func(p *Projection) {
			p.CandidateUsers = append(p.CandidateUsers, ParticipantRef{ID: "mallory"})
		}}), claim(person("mallory")), CodeNotFound},
		{"ErrNotFound_SnapshotModeGroupClaimIsNotEnough", snapshotTask(t), claim(person("dave", "approvers")), CodeNotFound},
		{"ErrNotFound_GroupOfAnotherProvider", available, claim(Actor{Tenant: testTenant, Subject: userRef("dave"),
			Groups: []ParticipantRef{{Tenant: testTenant, Provider: "corp-ad", Type: GroupParticipant, ID: "approvers"}}}), CodeNotFound},
		{"ErrNotFound_OtherTenant", available, claim(Actor{Tenant: "globex", Subject: ParticipantRef{Tenant: "globex", Provider: DefaultProvider, Type: UserParticipant, ID: "alice"}}), CodeNotFound},
		{"ErrNotFound_Guest", available, claim(guest(available, "inv-1", "Approve")), CodeNotFound},
		{"ErrNotFound_System", available, claim(SystemActor(testTenant)), CodeNotFound},
		{"ErrNotFound_ManagerNotACandidate", available, claim(manager("boss")), CodeNotFound},
		{"ErrNotFound_BlockingHealth", withHealth(newTask(t, nil), HealthFormResolutionFailed), claim(person("alice")), CodeNotFound},
		{"ErrNotClaimable_Assigned", newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(userRef("bob"))}), claim(person("alice")), CodeNotClaimable},
		{"ErrNotClaimable_AlreadyMine", newTask(t, &taskOpts{status: StatusAssigned}), claim(person("alice")), CodeNotClaimable},
		{"ErrNotClaimable_Unassigned", newTask(t, &taskOpts{status: StatusUnassigned}), claim(person("alice")), CodeNotClaimable},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusCancelling}), claim(person("alice")), CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCancelled}), claim(person("alice")), CodeTerminal},
		{"ErrRevisionConflict", available, func(task Task) (Change, error) {
			cmd := cmdOf(person("alice"), task)
			cmd.ExpectedRevision--
			return Claim(task, cmd, now)
		}, CodeRevisionConflict},
		{"ErrValidation_OperationIDTooLong", available, func(task Task) (Change, error) {
			cmd := cmdOf(person("alice"), task)
			cmd.OperationID = strings.Repeat("o", MaxOperationIDLength+1)
			return Claim(task, cmd, now)
		}, CodeValidationFailed},
	})
}

// withHealth sets a blocking finding.
func withHealth(t Task, code string) Task {
	t.Health = Health{Severity: SeverityBlocking, Code: code, Message: "Broken."}
	return t
}

func withManager(a Actor) Actor {
	a.Manager = true
	return a
}

func TestRelease(t *testing.T) {
	release := func(a Actor, reason string) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return Release(t, cmdOf(a, t), reason, now) }
	}
	alice := person("alice")
	tests := []struct {
		name       string
		task       Task
		want       Status
		wantHealth string
	}{
		{"OK_BackToAvailableWithCandidates", newTask(t, &taskOpts{status: StatusAssigned}), StatusAvailable, ""},
		{"OK_BackToAvailableWithInvitationsOnly", newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) {
			p.CandidateUsers, p.CandidateGroups = nil, nil
		}}), StatusAvailable, ""},
		{"OK_UnassignedWhenNobodyRemains", newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) {
			p.CandidateUsers, p.CandidateGroups, p.Invitations = nil, nil, nil
		}}), StatusUnassigned, HealthNoParticipants},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := mustCommit(t, tt.task, wantChange{status: tt.want, event: EventReleased, kind: OpRelease, state: OperationCompleted, actor: alice.Ref(), operationID: "op-1"}, release(alice, " on leave "))
			if ch.Task.Assignee != nil || ch.Task.AssignedAt != nil {
				t.Errorf("assignee: got %v at %v, want none", ch.Task.Assignee, ch.Task.AssignedAt)
			}
			if ch.Event.Reason != "on leave" || ch.Operation.Reason != "on leave" {
				t.Errorf("reason: got %q/%q, want %q", ch.Event.Reason, ch.Operation.Reason, "on leave")
			}
			if ch.Task.Health.Code != tt.wantHealth {
				t.Errorf("health: got %q, want %q", ch.Task.Health.Code, tt.wantHealth)
			}
		})
	}

	assigned := newTask(t, &taskOpts{status: StatusAssigned})
	guestTask := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(GuestRef(testTenant, "inv-1"))})
	runRefusals(t, []refusal{
		{"ErrNotFound_NotTheAssignee", assigned, release(person("dave", "approvers"), ""), CodeNotFound},
		{"ErrNotFound_ManagerNotTheAssignee", assigned, release(manager("boss"), ""), CodeNotFound},
		{"ErrNotFound_GuestAssignee", guestTask, release(guest(guestTask, "inv-1", "Approve"), ""), CodeNotFound},
		{"ErrNotFound_AvailableTask", newTask(t, nil), release(alice, ""), CodeNotFound},
		{"ErrNotFound_BlockingHealth", withHealth(assigned, HealthFormProviderMissing), release(alice, ""), CodeNotFound},
		{"ErrValidation_ReasonTooLong", assigned, release(alice, strings.Repeat("r", MaxReasonLength+1)), CodeValidationFailed},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusCompleting}), release(alice, ""), CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCompleted}), release(alice, ""), CodeTerminal},
		{"ErrRevisionConflict", assigned, func(task Task) (Change, error) {
			cmd := cmdOf(alice, task)
			cmd.ExpectedRevision = 1
			return Release(task, cmd, "", now)
		}, CodeRevisionConflict},
	})
}

func TestAssign(t *testing.T) {
	boss := manager("boss")
	assign := func(a Actor, to ParticipantRef, reason string) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return Assign(t, cmdOf(a, t), to, reason, now) }
	}
	override := func(p *Projection) { p.AllowExclusionOverride = true }
	tests := []struct {
		name   string
		task   Task
		to     ParticipantRef
		reason string
		want   ParticipantRef
	}{
		{"OK_FromAvailable", newTask(t, nil), ParticipantRef{ID: "erin", DisplayName: "Erin"}, "", ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: "erin", DisplayName: "Erin"}},
		{"OK_FromUnassignedClearsNoParticipants", newTask(t, &taskOpts{status: StatusUnassigned, projection: func(p *Projection) {
			p.CandidateUsers, p.CandidateGroups, p.Invitations = nil, nil, nil
		}}), ParticipantRef{ID: "erin"}, "", userRef("erin")},
		{"OK_Reassign", newTask(t, &taskOpts{status: StatusAssigned}), ParticipantRef{Provider: "corp-ad", Type: UserParticipant, ID: "bob"}, "", ParticipantRef{Tenant: testTenant, Provider: "corp-ad", Type: UserParticipant, ID: "bob"}},
		{"OK_ExcludedWithOverrideAndReason", newTask(t, &taskOpts{projection: override}), ParticipantRef{ID: "mallory"}, "only approver left", userRef("mallory")},
		{"OK_BlockingHealthDoesNotStopManagers", withHealth(newTask(t, nil), HealthSnapshotResolutionFailed), ParticipantRef{ID: "erin"}, "", userRef("erin")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := mustCommit(t, tt.task, wantChange{status: StatusAssigned, event: EventAssigned, kind: OpAssign, state: OperationCompleted, actor: boss.Ref(), operationID: "op-1"}, assign(boss, tt.to, tt.reason))
			if got := ch.Task.Assignee; got == nil || *got != tt.want {
				t.Errorf("assignee: got %+v, want %+v", got, tt.want)
			}
			if ch.Task.AssignedAt == nil || !ch.Task.AssignedAt.Equal(now) {
				t.Errorf("assignedAt: got %v, want %v", ch.Task.AssignedAt, now)
			}
			if ch.Task.Health.Code == HealthNoParticipants {
				t.Errorf("health: got %+v, want no-participants cleared", ch.Task.Health)
			}
			if ch.Event.Reason != tt.reason {
				t.Errorf("reason: got %q, want %q", ch.Event.Reason, tt.reason)
			}
			if !strings.Contains(string(ch.Event.Metadata), `"id":"`+tt.want.ID+`"`) || strings.Contains(string(ch.Event.Metadata), testTenant) {
				t.Errorf("metadata: got %s, want the assignee without its tenant", ch.Event.Metadata)
			}
		})
	}

	available := newTask(t, nil)
	runRefusals(t, []refusal{
		{"ErrNotFound_NotAManager", available, assign(person("alice"), ParticipantRef{ID: "erin"}, ""), CodeNotFound},
		{"ErrNotFound_ManagerOfAnotherTenant", available, assign(Actor{Tenant: "globex", Manager: true, Subject: ParticipantRef{Tenant: "globex", Provider: DefaultProvider, Type: UserParticipant, ID: "boss"}}, ParticipantRef{ID: "erin"}, ""), CodeNotFound},
		{"ErrCrossTenantAssignee", available, assign(boss, ParticipantRef{Tenant: "globex", ID: "erin"}, ""), CodeCrossTenantAssignee},
		{"ErrValidation_GroupAssignee", available, assign(boss, ParticipantRef{Type: GroupParticipant, ID: "approvers"}, ""), CodeValidationFailed},
		{"ErrValidation_GuestAssignee", available, assign(boss, GuestRef(testTenant, "inv-1"), ""), CodeValidationFailed},
		{"ErrValidation_MissingID", available, assign(boss, ParticipantRef{}, ""), CodeValidationFailed},
		{"ErrValidation_ReasonTooLong", available, assign(boss, ParticipantRef{ID: "erin"}, strings.Repeat("r", MaxReasonLength+1)), CodeValidationFailed},
		{"ErrExcludedAssignee", available, assign(boss, ParticipantRef{ID: "mallory"}, "please"), CodeExcludedAssignee},
		{"ErrReasonRequired_OverrideWithoutReason", newTask(t, &taskOpts{projection: override}), assign(boss, ParticipantRef{ID: "mallory"}, "  "), CodeReasonRequired},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusTimingOut}), assign(boss, ParticipantRef{ID: "erin"}, ""), CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusTimedOut}), assign(boss, ParticipantRef{ID: "erin"}, ""), CodeTerminal},
		{"ErrRevisionConflict", available, func(task Task) (Change, error) {
			cmd := cmdOf(boss, task)
			cmd.ExpectedRevision++
			return Assign(task, cmd, ParticipantRef{ID: "erin"}, "", now)
		}, CodeRevisionConflict},
	})
}

func TestUpdateSchedule(t *testing.T) {
	boss := manager("boss")
	update := func(a Actor, priority *int, dueAt *time.Time, clearDue bool) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return UpdateSchedule(t, cmdOf(a, t), priority, dueAt, clearDue, now) }
	}
	overdue := func(p *Projection) { p.DueAt = timePtr(now.Add(-time.Hour)) }
	overdueTask := newTask(t, &taskOpts{projection: overdue})
	overdueTask.IsOverdue = true
	future := now.Add(48 * time.Hour)
	past := now.Add(-2 * time.Hour)
	tests := []struct {
		name         string
		task         Task
		priority     *int
		dueAt        *time.Time
		clearDue     bool
		wantPriority int
		wantDue      *time.Time
		wantOverdue  bool
	}{
		{"OK_Priority", newTask(t, nil), intPtr(90), nil, false, 90, nil, false},
		{"OK_PriorityZero", newTask(t, nil), intPtr(0), nil, false, 0, nil, false},
		{"OK_PriorityHundred", newTask(t, &taskOpts{status: StatusAssigned}), intPtr(100), nil, false, 100, nil, false},
		{"OK_DueIntoTheFutureClearsOverdue", overdueTask, nil, &future, false, DefaultPriority, &future, false},
		{"OK_DueStillPastKeepsOverdue", overdueTask, nil, &past, false, DefaultPriority, &past, true},
		{"OK_ClearDueClearsOverdue", overdueTask, intPtr(10), nil, true, 10, nil, false},
		{"OK_DueNormalizedToUTC", newTask(t, &taskOpts{status: StatusUnassigned}), nil, timePtr(future.In(time.FixedZone("X", 7200))), false, DefaultPriority, &future, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := mustCommit(t, tt.task, wantChange{status: tt.task.Status, event: EventScheduleUpdated, kind: OpScheduleUpdate, state: OperationCompleted, actor: boss.Ref(), operationID: "op-1"}, update(boss, tt.priority, tt.dueAt, tt.clearDue))
			got := ch.Task
			if got.Priority != tt.wantPriority {
				t.Errorf("priority: got %d, want %d", got.Priority, tt.wantPriority)
			}
			if (got.DueAt == nil) != (tt.wantDue == nil) || (got.DueAt != nil && (!got.DueAt.Equal(*tt.wantDue) || got.DueAt.Location() != time.UTC)) {
				t.Errorf("dueAt: got %v, want %v in UTC", got.DueAt, tt.wantDue)
			}
			if got.IsOverdue != tt.wantOverdue {
				t.Errorf("isOverdue: got %v, want %v", got.IsOverdue, tt.wantOverdue)
			}
			if !strings.Contains(string(ch.Event.Metadata), `"priority":`) {
				t.Errorf("metadata: got %s, want the new schedule", ch.Event.Metadata)
			}
		})
	}

	available := newTask(t, nil)
	runRefusals(t, []refusal{
		{"ErrNotFound_NotAManager", available, update(person("alice"), intPtr(1), nil, false), CodeNotFound},
		{"ErrNotFound_Assignee", newTask(t, &taskOpts{status: StatusAssigned}), update(person("alice"), intPtr(1), nil, false), CodeNotFound},
		{"ErrInvalidPriority_BelowZero", available, update(boss, intPtr(-1), nil, false), CodeInvalidPriority},
		{"ErrInvalidPriority_AboveHundred", available, update(boss, intPtr(101), nil, false), CodeInvalidPriority},
		{"ErrValidation_SetAndClearDue", available, update(boss, nil, &future, true), CodeValidationFailed},
		{"ErrValidation_ZeroDue", available, update(boss, nil, &time.Time{}, false), CodeValidationFailed},
		{"ErrValidation_NothingToChange", available, update(boss, nil, nil, false), CodeValidationFailed},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusCompleting}), update(boss, intPtr(1), nil, false), CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCompleted}), update(boss, intPtr(1), nil, false), CodeTerminal},
		{"ErrRevisionConflict", available, func(task Task) (Change, error) {
			cmd := cmdOf(boss, task)
			cmd.ExpectedRevision = 3
			return UpdateSchedule(task, cmd, intPtr(1), nil, false, now)
		}, CodeRevisionConflict},
	})
}

// TestIdempotency covers SPEC 3.4: the lookup happens after relationship and validation and
// before the revision check; same id and hash replays, another hash conflicts.
func TestIdempotency(t *testing.T) {
	alice := person("alice")
	task := newTask(t, nil)
	first := mustCommit(t, task, wantChange{status: StatusAssigned, event: EventClaimed, kind: OpClaim, state: OperationCompleted, actor: alice.Ref(), operationID: "op-1"}, claim(alice))
	prior := first.Operation
	moved := first.Task
	moved.Revision += 3 // others changed the task since
	moved.LastEventSeq += 3

	t.Run("OK_ReplaySameHashAfterTheRevisionMoved", func(t *testing.T) {
		cmd := cmdOf(alice, task) // the original expected revision
		cmd.Prior = prior
		ch, err := Claim(moved, cmd, now)
		if err != nil {
			t.Fatalf("got %v, want a replay", err)
		}
		if want := (Change{Replay: prior}); !reflect.DeepEqual(ch, want) {
			t.Errorf("got %+v, want only the replay", ch)
		}
	})
	t.Run("ErrIdempotencyConflict_DifferentHash", func(t *testing.T) {
		cmd := cmdOf(alice, moved) // another expected revision → another hash
		cmd.Prior = prior
		_, err := Claim(moved, cmd, now)
		wantCode(t, err, CodeIdempotencyConflict)
	})
	t.Run("ErrIdempotencyConflict_OtherKind", func(t *testing.T) {
		cmd := cmdOf(alice, moved)
		cmd.Prior = prior
		_, err := Release(moved, cmd, "", now)
		wantCode(t, err, CodeIdempotencyConflict)
	})
	t.Run("ErrIdempotencyConflict_CallerHash", func(t *testing.T) {
		cmd := cmdOf(alice, task)
		cmd.Prior = prior
		cmd.RequestHash = "not-the-same"
		_, err := Claim(moved, cmd, now)
		wantCode(t, err, CodeIdempotencyConflict)
	})
	t.Run("ErrNotFound_ReplayByAnotherActor", func(t *testing.T) {
		cmd := cmdOf(person("erin"), task)
		cmd.Prior = prior
		_, err := Claim(moved, cmd, now)
		wantCode(t, err, CodeNotFound)
	})
	t.Run("OK_ReleaserReplaysAfterLosingTheTask", func(t *testing.T) {
		released := mustCommit(t, first.Task, wantChange{status: StatusAvailable, event: EventReleased, kind: OpRelease, state: OperationCompleted, actor: alice.Ref(), operationID: "op-1"},
			func(t Task) (Change, error) { return Release(t, cmdOf(alice, t), "", now) })
		cmd := cmdOf(alice, first.Task)
		cmd.Prior = released.Operation
		ch, err := Release(released.Task, cmd, "", now)
		if err != nil || ch.Replay != released.Operation || ch.Event != nil {
			t.Fatalf("got %+v, %v; want the stored release replayed", ch, err)
		}
	})
	t.Run("ErrValidationBeforeReplay", func(t *testing.T) {
		cmd := cmdOf(alice, task)
		cmd.Prior = prior
		cmd.OperationID = strings.Repeat("o", MaxOperationIDLength+1)
		_, err := Claim(moved, cmd, now)
		wantCode(t, err, CodeValidationFailed)
	})
	t.Run("HashComputedWhenOmitted", func(t *testing.T) {
		if want := RequestHash(OpClaim, task.Revision, nil); prior.RequestHash != want {
			t.Errorf("request hash: got %s, want %s", prior.RequestHash, want)
		}
	})
	t.Run("CallerHashKept", func(t *testing.T) {
		cmd := cmdOf(alice, task)
		cmd.RequestHash = "caller-hash"
		ch, err := Claim(task, cmd, now)
		if err != nil || ch.Operation.RequestHash != "caller-hash" {
			t.Fatalf("got %v, %v; want the caller's hash stored", ch.Operation, err)
		}
	})
	t.Run("MintedOperationIDWhenOmitted", func(t *testing.T) {
		cmd := cmdOf(alice, task)
		cmd.OperationID = ""
		ch, err := Claim(task, cmd, now)
		if err != nil || ch.Operation.OperationID == "" || ch.Event.OperationID != ch.Operation.OperationID {
			t.Fatalf("got %+v, %v; want a minted operation id on the operation and event", ch.Operation, err)
		}
	})
	t.Run("ErrKindMismatchIsInternal", func(t *testing.T) {
		cmd := cmdOf(alice, task)
		cmd.Kind = OpComplete
		_, err := Claim(task, cmd, now)
		if err == nil || ErrorCode(err) != "" {
			t.Fatalf("got %v, want an internal error", err)
		}
	})
}

func TestCorruptTaskRefused(t *testing.T) {
	noAssignee := newTask(t, &taskOpts{status: StatusAssigned})
	noAssignee.Assignee = nil
	strayAssignee := newTask(t, nil)
	strayAssignee.Assignee = refPtr(userRef("alice"))
	unknown := newTask(t, nil)
	unknown.Status = "Paused"
	zeroRevision := newTask(t, nil)
	zeroRevision.Revision = 0
	for name, task := range map[string]Task{
		"AssignedWithoutAssignee": noAssignee,
		"AvailableWithAnAssignee": strayAssignee,
		"UnknownStatus":           unknown,
		"RevisionBelowOne":        zeroRevision,
	} {
		t.Run("ErrCorrupt_"+name, func(t *testing.T) {
			_, err := Claim(task, cmdOf(person("alice"), task), now)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
		})
	}
}

// TestEveryTransitionRefusesCorruptTasks and internal misuse: a task with an unknown status is
// reported as corrupt by every function, and a command of another kind is an internal error.
func TestEveryTransitionRefusesCorruptTasks(t *testing.T) {
	boss, alice := manager("boss"), person("alice")
	fns := map[string]func(Task, Command) error{
		"Claim":           func(t Task, c Command) error { _, err := Claim(t, c, now); return err },
		"Release":         func(t Task, c Command) error { _, err := Release(t, c, "", now); return err },
		"Assign":          func(t Task, c Command) error { _, err := Assign(t, c, ParticipantRef{ID: "erin"}, "", now); return err },
		"UpdateSchedule":  func(t Task, c Command) error { _, err := UpdateSchedule(t, c, intPtr(1), nil, false, now); return err },
		"Complete":        func(t Task, c Command) error { _, err := Complete(t, c, "Approve", nil, now); return err },
		"Cancel":          func(t Task, c Command) error { _, err := Cancel(t, c, "why", now); return err },
		"RetryResolution": func(t Task, c Command) error { _, err := RetryResolution(t, c, nil, nil, Health{}, now); return err },
		"Delegate": func(t Task, c Command) error {
			_, err := Delegate(t, c, ParticipantRef{ID: "erin"}, "", now)
			return err
		},
		"Return": func(t Task, c Command) error { _, err := Return(t, c, "", now); return err },
	}
	system := map[string]func(Task) error{
		"RequestTimeout": func(t Task) error { _, err := RequestTimeout(t, now); return err },
		"MarkOverdue":    func(t Task) error { _, err := MarkOverdue(t, now); return err },
		"VerifyGuest":    func(t Task) error { _, err := VerifyGuest(t, "inv-1", now); return err },
		"Finalize":       func(t Task) error { _, err := Finalize(t, now); return err },
		"FieldRevealed":  func(t Task) error { _, err := FieldRevealed(t, boss, "iban", now); return err },
		"InvitationEvent": func(t Task) error {
			_, err := InvitationEvent(t, boss, EventInvitationIssued, "inv-1", now)
			return err
		},
	}
	corrupt := newTask(t, nil)
	corrupt.Status = "Paused"
	for name, fn := range fns {
		t.Run("ErrCorrupt_"+name, func(t *testing.T) {
			if err := fn(corrupt, cmdOf(boss, corrupt)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
		})
		t.Run("ErrInternal_WrongKind_"+name, func(t *testing.T) {
			task := newTask(t, &taskOpts{status: StatusAssigned})
			cmd := cmdOf(alice, task)
			cmd.Kind = "something-else"
			if err := fn(task, cmd); err == nil || ErrorCode(err) != "" {
				t.Fatalf("got %v, want an internal error", err)
			}
		})
	}
	for name, fn := range system {
		t.Run("ErrCorrupt_"+name, func(t *testing.T) {
			if err := fn(corrupt); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
		})
	}
}
