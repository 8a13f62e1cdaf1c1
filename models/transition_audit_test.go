package models

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestRetryResolution(t *testing.T) {
	boss := manager("boss")
	snapshotMode := func(p *Projection) {
		p.Mode = MembershipSnapshot
		p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "carol"}, SourceGroup: &ParticipantRef{ID: "approvers"}}}
	}
	failed := Health{Severity: SeverityBlocking, Code: HealthSnapshotResolutionFailed, Message: "Directory timed out."}
	retry := func(a Actor, form *PinnedForm, snapshot []Candidate, health Health) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return RetryResolution(t, cmdOf(a, t), form, snapshot, health, now) }
	}
	want := func(status Status) wantChange {
		return wantChange{status: status, event: EventResolutionRetried, kind: OpRetryResolution, state: OperationCompleted, actor: boss.Ref(), operationID: "op-1"}
	}

	t.Run("OK_FormReplacedAndHealthCleared", func(t *testing.T) {
		task := withHealth(newTask(t, &taskOpts{projection: func(p *Projection) {
			p.Form = &PinnedForm{Requested: &FormRef{Provider: "files", Key: "invoice"}}
		}}), HealthFormResolutionFailed)
		form := resolvedForm()
		form.Requested = &FormRef{Provider: "files", Key: "invoice"}
		ch := mustCommit(t, task, want(StatusAvailable), retry(boss, form, nil, Health{}))
		if !reflect.DeepEqual(ch.Task.Protected.Form, form) {
			t.Errorf("form: got %+v, want %+v", ch.Task.Protected.Form, form)
		}
		if ch.Task.Health != (Health{}) || ch.AssignmentChanged {
			t.Errorf("got health %+v assignmentChanged %v, want cleared and false", ch.Task.Health, ch.AssignmentChanged)
		}
		if !reflect.DeepEqual(ch.Task.Assignment, task.Assignment) {
			t.Errorf("assignment: got %+v, want it untouched", ch.Task.Assignment)
		}
	})
	t.Run("OK_SnapshotReplaced", func(t *testing.T) {
		task := withHealth(newTask(t, &taskOpts{projection: snapshotMode}), HealthSnapshotResolutionFailed)
		members := []Candidate{
			{Participant: ParticipantRef{ID: "dave"}, SourceGroup: &ParticipantRef{ID: "approvers"}},
			{Participant: ParticipantRef{ID: "erin"}, SourceGroup: &ParticipantRef{ID: "approvers"}},
		}
		ch := mustCommit(t, task, want(StatusAvailable), retry(boss, nil, members, Health{}))
		wantRows := []Candidate{
			{Participant: userRef("alice"), Source: SourceDirectUser},
			{Participant: groupRef("approvers"), Source: SourceDirectGroup},
			{Participant: userRef("dave"), Source: SourceSnapshotMember, SourceGroup: refPtr(groupRef("approvers"))},
			{Participant: userRef("erin"), Source: SourceSnapshotMember, SourceGroup: refPtr(groupRef("approvers"))},
		}
		if !reflect.DeepEqual(ch.Task.Assignment.Candidates, wantRows) {
			t.Errorf("candidates: got %+v, want %+v", ch.Task.Assignment.Candidates, wantRows)
		}
		if want := (CandidateSummary{Users: 3, Groups: 1}); ch.Task.CandidateSummary != want || !ch.AssignmentChanged {
			t.Errorf("got summary %+v assignmentChanged %v, want %+v and true", ch.Task.CandidateSummary, ch.AssignmentChanged, want)
		}
		if !reflect.DeepEqual(ch.Task.Protected.Form, task.Protected.Form) {
			t.Errorf("form: got %+v, want it kept", ch.Task.Protected.Form)
		}
	})
	t.Run("OK_SnapshotEmptiedStillFailing", func(t *testing.T) {
		task := withHealth(newTask(t, &taskOpts{projection: snapshotMode}), HealthSnapshotResolutionFailed)
		ch := mustCommit(t, task, want(StatusAvailable), retry(boss, nil, []Candidate{}, failed))
		if ch.Task.Health != failed {
			t.Errorf("health: got %+v, want %+v", ch.Task.Health, failed)
		}
		if want := (CandidateSummary{Users: 1, Groups: 1}); ch.Task.CandidateSummary != want {
			t.Errorf("summary: got %+v, want %+v (snapshot members removed)", ch.Task.CandidateSummary, want)
		}
	})
	t.Run("OK_TransitionalKeepsItsStatus", func(t *testing.T) {
		task := withHealth(newTask(t, &taskOpts{status: StatusCancelling}), HealthFormResolutionFailed)
		mustCommit(t, task, want(StatusCancelling), retry(boss, resolvedForm(), nil, Health{}))
	})
	t.Run("OK_UnassignedGetsNoParticipantsBack", func(t *testing.T) {
		task := withHealth(newTask(t, &taskOpts{status: StatusUnassigned, projection: func(p *Projection) {
			p.CandidateUsers, p.CandidateGroups, p.Invitations = nil, nil, nil
		}}), HealthFormProviderMissing)
		ch := mustCommit(t, task, want(StatusUnassigned), retry(boss, resolvedForm(), nil, Health{}))
		if ch.Task.Health.Code != HealthNoParticipants {
			t.Errorf("health: got %+v, want no-participants", ch.Task.Health)
		}
	})

	available := newTask(t, nil)
	runRefusals(t, []refusal{
		{"ErrNotFound_NotAManager", available, retry(person("alice"), resolvedForm(), nil, Health{}), CodeNotFound},
		{"ErrValidation_SnapshotInLiveMode", available, retry(boss, nil, []Candidate{{Participant: ParticipantRef{ID: "dave"}, SourceGroup: &ParticipantRef{ID: "approvers"}}}, Health{}), CodeValidationFailed},
		{"ErrValidation_SnapshotMemberOfAnotherTenant", newTask(t, &taskOpts{projection: snapshotMode}), retry(boss, nil, []Candidate{{Participant: ParticipantRef{Tenant: "globex", ID: "dave"}, SourceGroup: &ParticipantRef{ID: "approvers"}}}, Health{}), CodeValidationFailed},
		{"ErrValidation_Health", available, retry(boss, nil, nil, Health{Severity: "odd", Code: "x"}), CodeValidationFailed},
		{"ErrValidation_FormNotAnObject", available, retry(boss, &PinnedForm{Schema: json.RawMessage(`[]`)}, nil, Health{}), CodeValidationFailed},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCompleted}), retry(boss, resolvedForm(), nil, Health{}), CodeTerminal},
		{"ErrRevisionConflict", available, func(task Task) (Change, error) {
			cmd := cmdOf(boss, task)
			cmd.ExpectedRevision = 1
			return RetryResolution(task, cmd, nil, nil, Health{}, now)
		}, CodeRevisionConflict},
	})
}

func TestVerifyGuest(t *testing.T) {
	verify := func(id string) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return VerifyGuest(t, id, now) }
	}
	for _, status := range []Status{StatusAvailable, StatusUnassigned} {
		t.Run("OK_From"+string(status), func(t *testing.T) {
			task := newTask(t, &taskOpts{status: status})
			if status == StatusUnassigned {
				task.Health = Health{Severity: SeverityAdvisory, Code: HealthNoParticipants}
			}
			g := GuestRef(testTenant, "inv-7")
			ch := mustCommit(t, task, wantChange{status: StatusAssigned, event: EventInvitationVerified, kind: OpVerifyGuest, state: OperationCompleted, actor: &g}, verify("inv-7"))
			if ch.Task.Assignee == nil || *ch.Task.Assignee != g || ch.Task.AssignedAt == nil || !ch.Task.AssignedAt.Equal(now) {
				t.Errorf("assignee: got %+v at %v, want %+v at %v", ch.Task.Assignee, ch.Task.AssignedAt, g, now)
			}
			if ch.Task.Health.Code == HealthNoParticipants {
				t.Errorf("health: got %+v, want no-participants cleared", ch.Task.Health)
			}
			if got := string(ch.Event.Metadata); got != `{"invitationId":"inv-7"}` {
				t.Errorf("metadata: got %s", got)
			}
		})
	}
	excluding := newTask(t, &taskOpts{projection: func(p *Projection) {
		p.ExcludedUsers = append(p.ExcludedUsers, ParticipantRef{ID: "mallory"})
	}})
	excluding.Assignment.Exclusions = append(excluding.Assignment.Exclusions, GuestRef(testTenant, "inv-7"))
	runRefusals(t, []refusal{
		{"ErrNotClaimable_NeverOverwritesAnAssignee", newTask(t, &taskOpts{status: StatusAssigned}), verify("inv-7"), CodeNotClaimable},
		{"ErrNotClaimable_AnotherGuestWasFirst", newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(GuestRef(testTenant, "inv-6"))}), verify("inv-7"), CodeNotClaimable},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusCompleting}), verify("inv-7"), CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCancelled}), verify("inv-7"), CodeTerminal},
		{"ErrNotFound_BlockingHealth", withHealth(newTask(t, nil), HealthFormResolutionFailed), verify("inv-7"), CodeNotFound},
		{"ErrNotFound_ExcludedGuest", excluding, verify("inv-7"), CodeNotFound},
		{"ErrValidation_EmptyInvitationID", newTask(t, nil), verify(""), CodeValidationFailed},
		{"ErrValidation_InvitationIDTooLong", newTask(t, nil), verify(strings.Repeat("i", maxInvitationIDLength+1)), CodeValidationFailed},
	})
}

func TestFieldRevealed(t *testing.T) {
	assigned := newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) { p.Form = resolvedForm() }})
	guestTask := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(GuestRef(testTenant, "inv-1"))})
	completed := newTask(t, &taskOpts{status: StatusCompleted})
	cancelled := newTask(t, &taskOpts{status: StatusCancelled}) // assigned to alice, cancelled by boss

	ok := []struct {
		name  string
		task  Task
		actor Actor
	}{
		{"OK_Assignee", assigned, person("alice")},
		{"OK_AssigneeWhileTransitional", newTask(t, &taskOpts{status: StatusCompleting}), person("alice")},
		{"OK_GuestAssignee", guestTask, guest(guestTask, "inv-1", "Approve")},
		{"OK_Manager", newTask(t, nil), manager("boss")},
		{"OK_ManagerAfterTerminal", cancelled, manager("boss")},
		{"OK_ManagerDespiteBlockingHealth", withHealth(assigned, HealthFormResolutionFailed), manager("boss")},
		{"OK_CompleterAfterTerminal", completed, person("alice")},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			snapshot := cloneTask(tt.task)
			ev, err := FieldRevealed(tt.task, tt.actor, "iban", now)
			if err != nil {
				t.Fatalf("got %v, want an event", err)
			}
			if !reflect.DeepEqual(tt.task, snapshot) {
				t.Fatalf("reveal mutated its input")
			}
			if ev.ID == "" || ev.Type != EventFieldRevealed || ev.Revision != tt.task.Revision || ev.Seq != tt.task.LastEventSeq+1 ||
				ev.TaskID != tt.task.ID || ev.Tenant != testTenant || !ev.OccurredAt.Equal(now) || !sameRef(ev.Actor, tt.actor.Ref()) {
				t.Errorf("event: got %+v, want field-revealed at revision %d seq %d", ev, tt.task.Revision, tt.task.LastEventSeq+1)
			}
			if got := string(ev.Metadata); got != `{"field":"iban"}` {
				t.Errorf("metadata: got %s, want the field key only", got)
			}
		})
	}

	for _, c := range []struct {
		name string
		task Task
		a    Actor
		key  string
		code Code
	}{
		{"ErrNotFound_Candidate", assigned, person("dave", "approvers"), "iban", CodeNotFound},
		{"ErrNotFound_AssigneeOfACancelledTask", cancelled, person("alice"), "iban", CodeNotFound},
		{"ErrNotFound_AssigneeHiddenByHealth", withHealth(assigned, HealthFormResolutionFailed), person("alice"), "iban", CodeNotFound},
		{"ErrNotFound_GuestOfAnotherInvitation", guestTask, guest(guestTask, "inv-2", "Approve"), "iban", CodeNotFound},
		{"ErrNotFound_GuestAfterTerminal", withStatus(guestTask, StatusCompleted), guest(guestTask, "inv-1", "Approve"), "iban", CodeNotFound},
		{"ErrNotFound_ManagerOfAnotherTenant", assigned, Actor{Tenant: "globex", Manager: true, Subject: ParticipantRef{Tenant: "globex", Provider: DefaultProvider, Type: UserParticipant, ID: "boss"}}, "iban", CodeNotFound},
		{"ErrNotFound_System", assigned, SystemActor(testTenant), "iban", CodeNotFound},
		{"ErrValidation_FieldKeyMissing", assigned, person("alice"), "", CodeValidationFailed},
		{"ErrValidation_FieldKeyTooLong", assigned, person("alice"), strings.Repeat("k", maxFieldKeyLength+1), CodeValidationFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev, err := FieldRevealed(c.task, c.a, c.key, now)
			wantCode(t, err, c.code)
			if !reflect.DeepEqual(ev, Event{}) {
				t.Errorf("got event %+v with the refusal", ev)
			}
		})
	}
}

// withStatus closes a guest task without touching its assignee or outcome.
func withStatus(t Task, s Status) Task {
	t = cloneTask(t)
	t.Status = s
	t.Outcome = Outcome{ActionKey: "Approve", CompletedBy: clonePtr(t.Assignee)}
	return t
}

func TestInvitationEvent(t *testing.T) {
	boss := manager("boss")
	for _, c := range []struct {
		name string
		task Task
		typ  EventType
	}{
		{"OK_IssuedOnAnOpenTask", newTask(t, nil), EventInvitationIssued},
		{"OK_RevokedOnAnOpenTask", newTask(t, nil), EventInvitationRevoked},
		{"OK_RevokedAfterTerminal", newTask(t, &taskOpts{status: StatusCompleted}), EventInvitationRevoked},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev, err := InvitationEvent(c.task, boss, c.typ, "inv-3", now)
			if err != nil {
				t.Fatalf("got %v, want an event", err)
			}
			if ev.Type != c.typ || ev.Revision != c.task.Revision || ev.Seq != c.task.LastEventSeq+1 || !sameRef(ev.Actor, boss.Ref()) {
				t.Errorf("event: got %+v", ev)
			}
			if got := string(ev.Metadata); got != `{"invitationId":"inv-3"}` {
				t.Errorf("metadata: got %s", got)
			}
		})
	}
	for _, c := range []struct {
		name string
		task Task
		a    Actor
		typ  EventType
		id   string
		code Code
	}{
		{"ErrNotFound_NotAManager", newTask(t, nil), person("alice"), EventInvitationIssued, "inv-3", CodeNotFound},
		{"ErrValidation_OtherEventType", newTask(t, nil), boss, EventClaimed, "inv-3", CodeValidationFailed},
		{"ErrValidation_InvitationIDMissing", newTask(t, nil), boss, EventInvitationIssued, "", CodeValidationFailed},
		{"ErrTerminal_IssueOnAClosedTask", newTask(t, &taskOpts{status: StatusCancelled}), boss, EventInvitationIssued, "inv-3", CodeTerminal},
		{"ErrTransitionInProgress_IssueWhileCompleting", newTask(t, &taskOpts{status: StatusCompleting}), boss, EventInvitationIssued, "inv-3", CodeTransitionInProgress},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev, err := InvitationEvent(c.task, c.a, c.typ, c.id, now)
			wantCode(t, err, c.code)
			if !reflect.DeepEqual(ev, Event{}) {
				t.Errorf("got event %+v with the refusal", ev)
			}
		})
	}
}
