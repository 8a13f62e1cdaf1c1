package models

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func complete(a Actor, key string, data string) func(Task) (Change, error) {
	return func(t Task) (Change, error) {
		var raw json.RawMessage
		if data != "" {
			raw = json.RawMessage(data)
		}
		return Complete(t, cmdOf(a, t), key, raw, now)
	}
}

func TestComplete(t *testing.T) {
	alice := person("alice")
	withForm := func(p *Projection) { p.Form = resolvedForm() }
	formTask := newTask(t, &taskOpts{status: StatusAssigned, projection: withForm})
	guestTask := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(GuestRef(testTenant, "inv-1"))})
	bossAssigned := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(userRef("boss"))})
	formData := `{"comment":"` + secretMarker + ` looks fine"}`

	tests := []struct {
		name     string
		task     Task
		actor    Actor
		key      string
		data     string
		wantKey  string
		wantData string
	}{
		{"OK_ActionOnly", newTask(t, &taskOpts{status: StatusAssigned}), alice, "Approve", "", "Approve", ""},
		{"OK_KeyTakesTheDeclaredSpelling", newTask(t, &taskOpts{status: StatusAssigned}), alice, "reject", "", "Reject", ""},
		{"OK_EmptyObjectWithoutForm", newTask(t, &taskOpts{status: StatusAssigned}), alice, "Approve", ` {} `, "Approve", ""},
		{"OK_NullWithoutForm", newTask(t, &taskOpts{status: StatusAssigned}), alice, "Approve", `null`, "Approve", ""},
		{"OK_WithFormData", formTask, alice, "Approve", formData, "Approve", formData},
		{"OK_GuestWithAllowedAction", guestTask, guest(guestTask, "inv-1", "Approve"), "APPROVE", "", "Approve", ""},
		{"OK_ManagerWhoIsTheAssignee", bossAssigned, manager("boss"), "Reject", "", "Reject", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := mustCommit(t, tt.task, wantChange{status: StatusCompleting, event: EventCompletionRequested, kind: OpComplete, state: OperationAccepted, actor: tt.actor.Ref(), operationID: "op-1"}, complete(tt.actor, tt.key, tt.data))
			got := ch.Task
			if got.Outcome.ActionKey != tt.wantKey || !sameRef(got.Outcome.CompletedBy, tt.actor.Ref()) {
				t.Errorf("outcome: got %+v, want %s by %v", got.Outcome, tt.wantKey, tt.actor.Subject)
			}
			if ch.Operation.ActionKey != tt.wantKey {
				t.Errorf("operation action: got %q, want %q", ch.Operation.ActionKey, tt.wantKey)
			}
			if string(got.Protected.CompletionData) != tt.wantData || string(ch.Operation.Payload) != tt.wantData {
				t.Errorf("completion data: got task %q operation %q, want %q", got.Protected.CompletionData, ch.Operation.Payload, tt.wantData)
			}
			if tt.wantData == "" && (got.Protected.CompletionData != nil || ch.Operation.Payload != nil) {
				t.Errorf("completion data: got %q, want nil", got.Protected.CompletionData)
			}
			if !got.IsAssignee(*tt.task.Assignee) {
				t.Errorf("assignee: got %v, want it kept", got.Assignee)
			}
		})
	}

	assigned := newTask(t, &taskOpts{status: StatusAssigned})
	unresolved := newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) {
		p.Form = &PinnedForm{Requested: &FormRef{Provider: "files", Key: "invoice"}}
	}})
	unresolved.Health = Health{} // a retry cleared the finding but the form is still missing
	otherGuestTask := guestTask
	otherGuestTask.ID = NewID()
	big := `{"x":"` + strings.Repeat("x", MaxProtectedPayloadBytes) + `"}`
	runRefusals(t, []refusal{
		{"ErrNotFound_CandidateNotAssignee", assigned, complete(person("dave", "approvers"), "Approve", ""), CodeNotFound},
		{"ErrNotFound_ManagerNeverCompletesOnBehalf", assigned, complete(manager("boss"), "Approve", ""), CodeNotFound},
		{"ErrNotFound_AvailableTask", newTask(t, nil), complete(alice, "Approve", ""), CodeNotFound},
		{"ErrNotFound_System", assigned, complete(SystemActor(testTenant), "Approve", ""), CodeNotFound},
		{"ErrNotFound_BlockingHealth", withHealth(assigned, HealthFormResolutionFailed), complete(alice, "Approve", ""), CodeNotFound},
		{"ErrNotFound_GuestActionNotAllowed", guestTask, complete(guest(guestTask, "inv-1", "Approve"), "Reject", ""), CodeNotFound},
		{"ErrNotFound_GuestOfAnotherTask", otherGuestTask, complete(guest(guestTask, "inv-1", "Approve"), "Approve", ""), CodeNotFound},
		{"ErrNotFound_GuestNotTheAssignee", assigned, complete(guest(assigned, "inv-1", "Approve"), "Approve", ""), CodeNotFound},
		{"ErrNotFound_GuestOfAnotherInvitation", guestTask, complete(guest(guestTask, "inv-2", "Approve"), "Approve", ""), CodeNotFound},
		{"ErrValidation_OperationIDRequired", assigned, func(task Task) (Change, error) {
			cmd := cmdOf(alice, task)
			cmd.OperationID = ""
			return Complete(task, cmd, "Approve", nil, now)
		}, CodeValidationFailed},
		{"ErrReservedAction_Timeout", assigned, complete(alice, "timeout", ""), CodeReservedAction},
		{"ErrReservedAction_Cancelled", assigned, complete(alice, "Cancelled", ""), CodeReservedAction},
		{"ErrInvalidAction", assigned, complete(alice, "Escalate", ""), CodeInvalidAction},
		{"ErrFormRequired", assigned, complete(alice, "Approve", `{"comment":"x"}`), CodeFormRequired},
		{"ErrFormRequired_NotEvenAnObject", assigned, complete(alice, "Approve", `"x"`), CodeFormRequired},
		{"ErrFormUnavailable", unresolved, complete(alice, "Approve", `{"comment":"x"}`), CodeFormUnavailable},
		{"ErrFormUnavailable_WithoutData", unresolved, complete(alice, "Approve", ""), CodeFormUnavailable},
		{"ErrPayloadTooLarge", formTask, complete(alice, "Approve", big), CodePayloadTooLarge},
		{"ErrFormInvalid_NotAnObject", formTask, complete(alice, "Approve", `[1]`), CodeFormInvalid},
		{"ErrFormInvalid_Malformed", formTask, complete(alice, "Approve", `{"comment":`), CodeFormInvalid},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusCompleting}), complete(alice, "Approve", ""), CodeTransitionInProgress},
		{"ErrTerminal_CompleterWithANewOperation", newTask(t, &taskOpts{status: StatusCompleted}), complete(alice, "Approve", ""), CodeTerminal},
		{"ErrRevisionConflict", assigned, func(task Task) (Change, error) {
			cmd := cmdOf(alice, task)
			cmd.ExpectedRevision = 2
			return Complete(task, cmd, "Approve", nil, now)
		}, CodeRevisionConflict},
	})
}

func TestCompleteReplayAfterTerminal(t *testing.T) {
	alice := person("alice")
	task := newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) { p.Form = resolvedForm() }})
	data := json.RawMessage(`{"comment":"ok"}`)
	accepted := mustCommit(t, task, wantChange{status: StatusCompleting, event: EventCompletionRequested, kind: OpComplete, state: OperationAccepted, actor: alice.Ref(), operationID: "op-1"},
		func(t Task) (Change, error) { return Complete(t, cmdOf(alice, t), "Approve", data, now) })
	final := mustCommit(t, accepted.Task, wantChange{status: StatusCompleted, event: EventCompleted, kind: OpFinalize, state: OperationCompleted}, func(t Task) (Change, error) { return Finalize(t, now) })
	closed := final.Task
	closed.Assignee = nil // even without the assignee, the completer may replay

	t.Run("OK_CompleterReplaysTheSameRequest", func(t *testing.T) {
		cmd := cmdOf(alice, task)
		cmd.Prior = accepted.Operation
		ch, err := Complete(closed, cmd, "approve", json.RawMessage(` {"comment": "ok"} `), now)
		if err != nil {
			t.Fatalf("got %v, want the stored answer", err)
		}
		if want := (Change{Replay: accepted.Operation}); !reflect.DeepEqual(ch, want) {
			t.Errorf("got %+v, want only the replay", ch)
		}
	})
	t.Run("ErrIdempotencyConflict_OtherData", func(t *testing.T) {
		cmd := cmdOf(alice, task)
		cmd.Prior = accepted.Operation
		_, err := Complete(closed, cmd, "Approve", json.RawMessage(`{"comment":"changed"}`), now)
		wantCode(t, err, CodeIdempotencyConflict)
	})
	t.Run("ErrNotFound_AnotherUserWithTheSameOperationID", func(t *testing.T) {
		cmd := cmdOf(person("dave", "approvers"), task)
		cmd.Prior = accepted.Operation
		_, err := Complete(closed, cmd, "Approve", data, now)
		wantCode(t, err, CodeNotFound)
	})
}

func TestRequestTimeout(t *testing.T) {
	due := func(p *Projection) {
		p.TimeoutEnabled = true
		p.DueAt = timePtr(now.Add(-time.Minute))
	}
	for _, status := range OpenStatuses {
		t.Run("OK_From"+string(status), func(t *testing.T) {
			task := newTask(t, &taskOpts{status: status, projection: due})
			ch := mustCommit(t, task, wantChange{status: StatusTimingOut, event: EventTimeoutRequested, kind: OpTimeout, state: OperationAccepted}, func(t Task) (Change, error) { return RequestTimeout(t, now) })
			if want := (Outcome{ActionKey: ActionTimeout}); !reflect.DeepEqual(ch.Task.Outcome, want) {
				t.Errorf("outcome: got %+v, want %+v", ch.Task.Outcome, want)
			}
			if ch.Operation.ActionKey != ActionTimeout || ch.Operation.Actor != nil {
				t.Errorf("operation: got action %q actor %v, want Timeout by the system", ch.Operation.ActionKey, ch.Operation.Actor)
			}
		})
	}
	t.Run("OK_DueExactlyNow", func(t *testing.T) {
		task := newTask(t, &taskOpts{projection: func(p *Projection) { p.TimeoutEnabled, p.DueAt = true, timePtr(now) }})
		mustCommit(t, task, wantChange{status: StatusTimingOut, event: EventTimeoutRequested, kind: OpTimeout, state: OperationAccepted}, func(t Task) (Change, error) { return RequestTimeout(t, now) })
	})

	timeout := func(t Task) (Change, error) { return RequestTimeout(t, now) }
	runRefusals(t, []refusal{
		{"ErrNotDue_Future", newTask(t, &taskOpts{projection: func(p *Projection) { p.TimeoutEnabled, p.DueAt = true, timePtr(now.Add(time.Second)) }}), timeout, CodeNotDue},
		{"ErrNotDue_NoDueDate", newTask(t, &taskOpts{projection: func(p *Projection) { p.TimeoutEnabled = true }}), timeout, CodeNotDue},
		{"ErrValidation_TimeoutDisabled", newTask(t, &taskOpts{projection: func(p *Projection) { p.DueAt = timePtr(now.Add(-time.Hour)) }}), timeout, CodeValidationFailed},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusCompleting, projection: due}), timeout, CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCompleted, projection: due}), timeout, CodeTerminal},
	})
}

func TestMarkOverdue(t *testing.T) {
	past := func(p *Projection) { p.DueAt = timePtr(now.Add(-time.Hour)) }
	for _, status := range OpenStatuses {
		t.Run("OK_"+string(status)+"StaysOpen", func(t *testing.T) {
			task := newTask(t, &taskOpts{status: status, projection: past})
			ch := mustCommit(t, task, wantChange{status: status, event: EventOverdue, kind: OpMarkOverdue, state: OperationCompleted}, func(t Task) (Change, error) { return MarkOverdue(t, now) })
			if !ch.Task.IsOverdue {
				t.Errorf("isOverdue: got false, want true")
			}
		})
	}
	overdue := newTask(t, &taskOpts{projection: past})
	overdue.IsOverdue = true
	mark := func(t Task) (Change, error) { return MarkOverdue(t, now) }
	runRefusals(t, []refusal{
		{"ErrAlreadyOverdue", overdue, mark, CodeAlreadyOverdue},
		{"ErrNotDue_Future", newTask(t, &taskOpts{projection: func(p *Projection) { p.DueAt = timePtr(now.Add(time.Hour)) }}), mark, CodeNotDue},
		{"ErrNotDue_NoDueDate", newTask(t, nil), mark, CodeNotDue},
		{"ErrValidation_TimeoutEnabled", newTask(t, &taskOpts{projection: func(p *Projection) { past(p); p.TimeoutEnabled = true }}), mark, CodeValidationFailed},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusTimingOut, projection: past}), mark, CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCancelled, projection: past}), mark, CodeTerminal},
	})
}

func TestCancel(t *testing.T) {
	boss := manager("boss")
	cancel := func(a Actor, reason string) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return Cancel(t, cmdOf(a, t), reason, now) }
	}
	for _, status := range OpenStatuses {
		t.Run("OK_From"+string(status), func(t *testing.T) {
			task := newTask(t, &taskOpts{status: status})
			ch := mustCommit(t, task, wantChange{status: StatusCancelling, event: EventCancellationRequested, kind: OpCancel, state: OperationAccepted, actor: boss.Ref(), operationID: "op-1"}, cancel(boss, " duplicate request "))
			if want := (Outcome{ActionKey: ActionCancelled, CompletedBy: boss.Ref()}); !reflect.DeepEqual(ch.Task.Outcome, want) {
				t.Errorf("outcome: got %+v, want %+v", ch.Task.Outcome, want)
			}
			if ch.Operation.Reason != "duplicate request" || ch.Event.Reason != "duplicate request" || ch.Operation.ActionKey != ActionCancelled {
				t.Errorf("operation: got reason %q action %q, event reason %q", ch.Operation.Reason, ch.Operation.ActionKey, ch.Event.Reason)
			}
		})
	}
	available := newTask(t, nil)
	runRefusals(t, []refusal{
		{"ErrNotFound_Assignee", newTask(t, &taskOpts{status: StatusAssigned}), cancel(person("alice"), "no"), CodeNotFound},
		{"ErrNotFound_Guest", available, cancel(guest(available, "inv-1", "Approve"), "no"), CodeNotFound},
		{"ErrCancellationDisabled", newTask(t, &taskOpts{projection: func(p *Projection) { p.CancellationEnabled = false }}), cancel(boss, "no longer needed"), CodeCancellationDisabled},
		{"ErrReasonRequired", available, cancel(boss, ""), CodeReasonRequired},
		{"ErrReasonRequired_Blank", available, cancel(boss, " \t "), CodeReasonRequired},
		{"ErrValidation_ReasonTooLong", available, cancel(boss, strings.Repeat("r", MaxReasonLength+1)), CodeValidationFailed},
		{"ErrValidation_OperationIDRequired", available, func(task Task) (Change, error) {
			cmd := cmdOf(boss, task)
			cmd.OperationID = ""
			return Cancel(task, cmd, "no longer needed", now)
		}, CodeValidationFailed},
		{"ErrTransitionInProgress_CompletionWon", newTask(t, &taskOpts{status: StatusCompleting}), cancel(boss, "too late"), CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCompleted}), cancel(boss, "too late"), CodeTerminal},
		{"ErrRevisionConflict", available, func(task Task) (Change, error) {
			cmd := cmdOf(boss, task)
			cmd.ExpectedRevision = 99
			return Cancel(task, cmd, "stale", now)
		}, CodeRevisionConflict},
	})
}

func TestFinalize(t *testing.T) {
	tests := []struct {
		from        Status
		want        Status
		event       EventType
		wantOutcome Outcome
	}{
		{StatusCompleting, StatusCompleted, EventCompleted, Outcome{ActionKey: "Approve", CompletedBy: refPtr(userRef("alice"))}},
		{StatusTimingOut, StatusTimedOut, EventTimedOut, Outcome{ActionKey: ActionTimeout}},
		{StatusCancelling, StatusCancelled, EventCancelled, Outcome{ActionKey: ActionCancelled, CompletedBy: refPtr(userRef("boss"))}},
		{StatusUnassigned, StatusCancelled, EventCancelled, Outcome{ActionKey: ActionCancelled}},
		{StatusAvailable, StatusCancelled, EventCancelled, Outcome{ActionKey: ActionCancelled}},
		{StatusAssigned, StatusCancelled, EventCancelled, Outcome{ActionKey: ActionCancelled}},
	}
	for _, tt := range tests {
		t.Run("OK_"+string(tt.from)+"To"+string(tt.want), func(t *testing.T) {
			task := newTask(t, &taskOpts{status: tt.from})
			task.Health = Health{Severity: SeverityAdvisory, Code: HealthStaleTransition}
			ch := mustCommit(t, task, wantChange{status: tt.want, event: tt.event, kind: OpFinalize, state: OperationCompleted}, func(t Task) (Change, error) { return Finalize(t, now) })
			got := ch.Task
			if !reflect.DeepEqual(got.Outcome, tt.wantOutcome) {
				t.Errorf("outcome: got %+v, want %+v", got.Outcome, tt.wantOutcome)
			}
			if got.CompletedAt == nil || !got.CompletedAt.Equal(now) {
				t.Errorf("completedAt: got %v, want %v", got.CompletedAt, now)
			}
			if !ch.Finalize || ch.Resumption != nil || ch.AssignmentChanged {
				t.Errorf("flags: got finalize %v resumption %v assignmentChanged %v, want finalize only", ch.Finalize, ch.Resumption, ch.AssignmentChanged)
			}
			if got.Health != (Health{}) {
				t.Errorf("health: got %+v, want cleared", got.Health)
			}
			if !sameRef(got.Assignee, task.Assignee) {
				t.Errorf("assignee: got %v, want %v kept", got.Assignee, task.Assignee)
			}
		})
	}
	var rows []refusal
	for _, status := range TerminalStatuses {
		rows = append(rows, refusal{"ErrTerminal_" + string(status), newTask(t, &taskOpts{status: status}), func(t Task) (Change, error) { return Finalize(t, now) }, CodeTerminal})
	}
	runRefusals(t, rows)
}

// TestFirstTransitionWins: complete, timeout and cancel race on one revision; whichever commits
// first wins and the others see the transitional state (SPEC 3.3 rules).
func TestFirstTransitionWins(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) {
		p.TimeoutEnabled, p.DueAt = true, timePtr(now.Add(-time.Minute))
	}})
	completed, err := Complete(task, cmdOf(person("alice"), task), "Approve", nil, now)
	if err != nil {
		t.Fatal(err)
	}
	after := completed.Task
	t.Run("ErrTransitionInProgress_Timeout", func(t *testing.T) {
		_, err := RequestTimeout(after, now)
		wantCode(t, err, CodeTransitionInProgress)
	})
	t.Run("ErrTransitionInProgress_Cancel", func(t *testing.T) {
		_, err := Cancel(after, cmdOf(manager("boss"), after), "late", now)
		wantCode(t, err, CodeTransitionInProgress)
	})
	t.Run("ErrRevisionConflict_CancelOnTheOldRevision", func(t *testing.T) {
		_, err := Cancel(after, cmdOf(manager("boss"), task), "late", now)
		wantCode(t, err, CodeRevisionConflict)
	})
}

// TestLifecycle walks projection → claim → complete → finalize and checks the timeline.
func TestLifecycle(t *testing.T) {
	alice := person("alice")
	p := baseProjection()
	var changes []Change
	step := func(ch Change, err error) Task {
		t.Helper()
		if err != nil {
			t.Fatalf("step %d: %v", len(changes)+1, err)
		}
		changes = append(changes, ch)
		return ch.Task
	}
	task := step(Project(p, now))
	task = step(Claim(task, cmdOf(alice, task), now))
	task = step(Complete(task, cmdOf(alice, task), "Approve", nil, now))
	task = step(Finalize(task, now))
	if task.Status != StatusCompleted || task.Revision != 4 || task.LastEventSeq != 4 {
		t.Fatalf("got %s at revision %d seq %d, want Completed at 4/4", task.Status, task.Revision, task.LastEventSeq)
	}
	wantTypes := []EventType{EventCreated, EventClaimed, EventCompletionRequested, EventCompleted}
	for i, ch := range changes {
		if ch.Event.Type != wantTypes[i] || ch.Event.Seq != i+1 || ch.Event.Revision != i+1 || ch.Event.TaskID != task.ID {
			t.Errorf("event %d: got %s seq %d revision %d, want %s %d/%d", i, ch.Event.Type, ch.Event.Seq, ch.Event.Revision, wantTypes[i], i+1, i+1)
		}
	}
	if changes[2].Resumption == nil || changes[2].Resumption.OperationID != changes[2].Operation.OperationID {
		t.Errorf("resumption: got %+v, want one for the completion", changes[2].Resumption)
	}
}

// TestCompleteWith: the caller's data check runs only once the relationship admits the caller
// (404 before 422), its refusal is the answer, and its data is what the transition records.
func TestCompleteWith(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) { p.Form = resolvedForm() }})
	checked := 0
	check := func(data string, err error) func() (json.RawMessage, error) {
		return func() (json.RawMessage, error) { checked++; return json.RawMessage(data), err }
	}
	t.Run("ErrNotFoundBeforeTheCheck", func(t *testing.T) {
		checked = 0
		_, err := CompleteWith(task, cmdOf(person("mallory"), task), "Approve", now, check(`{}`, nil))
		if err != ErrNotFound || checked != 0 {
			t.Fatalf("got %v after %d checks, want not found before the check", err, checked)
		}
	})
	t.Run("ErrFromTheCheck", func(t *testing.T) {
		checked = 0
		refused := Invalid(CodeFormInvalid, FieldError{Field: "decision", Message: "is required"})
		_, err := CompleteWith(task, cmdOf(person("alice"), task), "Approve", now, check("", refused))
		if err != refused || checked != 1 {
			t.Fatalf("got %v after %d checks, want the check's refusal", err, checked)
		}
	})
	t.Run("OK_RecordsTheCheckedData", func(t *testing.T) {
		checked = 0
		ch, err := CompleteWith(task, cmdOf(person("alice"), task), "Approve", now, check(`{"decision":"approve"}`, nil))
		if err != nil || checked != 1 || string(ch.Task.Protected.CompletionData) != `{"decision":"approve"}` {
			t.Fatalf("got %v after %d checks, data %s", err, checked, ch.Task.Protected.CompletionData)
		}
	})
}
