package models

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// dueDeadline is a pending deadline of task, due a minute ago.
func dueDeadline(task Task, kind DeadlineKind, actions ...DeadlineAction) Deadline {
	return Deadline{Tenant: task.Tenant, TaskID: task.ID, Index: 1, Kind: kind, DueAt: now.Add(-time.Minute), Actions: actions, State: DeadlinePending}
}

func TestFireDeadline(t *testing.T) {
	managers := []ParticipantRef{userRef("boss")}

	t.Run("StartReassignsRaisesPriorityAndNotifies", func(t *testing.T) {
		task := newTask(t, nil) // Available, candidates alice + approvers, mallory excluded
		d := dueDeadline(task, DeadlineStart,
			DeadlineAction{Type: DeadlineReassign, CandidateGroups: []ParticipantRef{groupRef("leads")}},
			DeadlineAction{Type: DeadlineSetPriority, Priority: intPtr(90)},
			notifyManagers(),
			DeadlineAction{Type: DeadlineFlag})
		snapshot := cloneTask(task)
		f, err := FireDeadline(task, d, managers, now)
		if err != nil {
			t.Fatalf("got %v, want a firing", err)
		}
		if !reflect.DeepEqual(task, snapshot) {
			t.Fatalf("the firing mutated its input task")
		}
		if !f.StateChanged || f.Change == nil {
			t.Fatalf("got %+v, want a state change", f)
		}
		checkChange(t, task, *f.Change, wantChange{status: StatusAvailable, event: EventDeadlineFired, kind: OpFireDeadline, state: OperationCompleted})
		got := f.Change.Task
		if got.Priority != 90 {
			t.Errorf("priority: got %d, want 90", got.Priority)
		}
		if got.Health.Code != HealthDeadlineMissed || got.Health.Severity != SeverityAdvisory {
			t.Errorf("health: got %+v, want advisory deadline-missed", got.Health)
		}
		var direct []string
		for _, c := range got.Assignment.Candidates {
			if c.Source == SourceDirectUser || c.Source == SourceDirectGroup {
				direct = append(direct, c.Participant.ID)
			}
		}
		if !reflect.DeepEqual(direct, []string{"leads"}) {
			t.Errorf("candidates: got %v, want [leads]", direct)
		}
		if !got.Assignment.Excludes(userRef("mallory")) {
			t.Errorf("exclusions: mallory is no longer excluded")
		}
		if !f.Change.AssignmentChanged {
			t.Errorf("AssignmentChanged: got false, want true")
		}
		if f.Deadline.State != DeadlineFired || f.Deadline.FiredAt == nil || !f.Deadline.FiredAt.Equal(now) {
			t.Errorf("deadline: got %+v, want fired at now", f.Deadline)
		}
		if len(f.Escalated) != 2 || f.Escalated[0].ID != "leads" || f.Escalated[1].ID != "boss" {
			t.Errorf("escalated: got %+v, want leads and boss", f.Escalated)
		}
		var meta struct {
			Index   int      `json:"index"`
			Kind    string   `json:"kind"`
			Actions []string `json:"actions"`
		}
		if err := json.Unmarshal(f.Change.Event.Metadata, &meta); err != nil || meta.Index != 1 || meta.Kind != "start" || len(meta.Actions) != 4 {
			t.Errorf("metadata: got %s (%v)", f.Change.Event.Metadata, err)
		}
	})

	t.Run("CompletionReleasesTheAssignee", func(t *testing.T) {
		task := newTask(t, &taskOpts{status: StatusAssigned})
		d := dueDeadline(task, DeadlineCompletion,
			DeadlineAction{Type: DeadlineNotify, To: &NotifyTarget{Audience: NotifyAssignee}},
			DeadlineAction{Type: DeadlineReassign, CandidateUsers: []ParticipantRef{userRef("carol")}})
		f, err := FireDeadline(task, d, managers, now)
		if err != nil {
			t.Fatalf("got %v", err)
		}
		checkChange(t, task, *f.Change, wantChange{status: StatusAvailable, event: EventDeadlineFired, kind: OpFireDeadline, state: OperationCompleted})
		if f.Change.Task.Assignee != nil || f.Change.Task.AssignedAt != nil {
			t.Errorf("assignee: got %+v, want released", f.Change.Task.Assignee)
		}
		if len(f.Escalated) != 2 || f.Escalated[0].ID != "alice" || f.Escalated[1].ID != "carol" {
			t.Errorf("escalated: got %+v, want the old assignee then carol", f.Escalated)
		}
	})

	t.Run("StartReassignOfAnAssignedTaskIsSkipped", func(t *testing.T) {
		task := newTask(t, &taskOpts{status: StatusAssigned})
		f, err := FireDeadline(task, dueDeadline(task, DeadlineStart, DeadlineAction{Type: DeadlineFlag}), managers, now)
		if err != nil || f.Change != nil || f.Deadline.State != DeadlineSkipped || f.Deadline.FiredAt == nil {
			t.Fatalf("got %+v, %v, want a skipped, settled deadline", f, err)
		}
	})

	t.Run("CompletionOfAClosedTaskIsSkipped", func(t *testing.T) {
		for _, s := range TerminalStatuses {
			task := newTask(t, &taskOpts{status: s})
			f, err := FireDeadline(task, dueDeadline(task, DeadlineCompletion, DeadlineAction{Type: DeadlineFlag}), managers, now)
			if err != nil || f.Change != nil || f.Deadline.State != DeadlineSkipped {
				t.Errorf("%s: got %+v, %v, want skipped", s, f, err)
			}
		}
	})

	t.Run("NotifyOnlyKeepsTheRevision", func(t *testing.T) {
		task := newTask(t, nil)
		f, err := FireDeadline(task, dueDeadline(task, DeadlineStart, notifyManagers(), DeadlineAction{Type: DeadlineNotify, To: &NotifyTarget{Audience: NotifyCandidates}}), managers, now)
		if err != nil {
			t.Fatalf("got %v", err)
		}
		ch := f.Change
		if f.StateChanged || ch.Operation != nil || ch.Task.Revision != task.Revision || ch.ExpectedRevision != task.Revision {
			t.Errorf("got revision %d (state changed %v), want %d unchanged", ch.Task.Revision, f.StateChanged, task.Revision)
		}
		if ch.Event == nil || ch.Event.Seq != task.LastEventSeq+1 || ch.Task.LastEventSeq != ch.Event.Seq || ch.Event.Revision != task.Revision || ch.Event.Actor != nil {
			t.Errorf("event: got %+v, want the next sequence at the same revision by the system", ch.Event)
		}
		if len(f.Escalated) != 3 { // boss, alice, approvers
			t.Errorf("escalated: got %+v", f.Escalated)
		}
	})

	t.Run("SamePriorityChangesNothing", func(t *testing.T) {
		task := newTask(t, nil)
		f, err := FireDeadline(task, dueDeadline(task, DeadlineCompletion, DeadlineAction{Type: DeadlineSetPriority, Priority: intPtr(task.Priority)}), managers, now)
		if err != nil || f.StateChanged {
			t.Fatalf("got %+v, %v, want no state change", f, err)
		}
	})

	t.Run("FlagKeepsABlockingFinding", func(t *testing.T) {
		task := newTask(t, nil)
		task.Health = Health{Severity: SeverityBlocking, Code: HealthFormResolutionFailed}
		f, err := FireDeadline(task, dueDeadline(task, DeadlineStart, DeadlineAction{Type: DeadlineFlag}), managers, now)
		if err != nil || f.Change.Task.Health.Code != HealthFormResolutionFailed {
			t.Fatalf("got %+v, %v, want the blocking finding kept", f.Change, err)
		}
	})

	t.Run("FlagReplacesNoParticipantsAfterAReassign", func(t *testing.T) {
		task := newTask(t, &taskOpts{status: StatusUnassigned, projection: func(p *Projection) {
			p.CandidateUsers, p.CandidateGroups, p.Invitations = nil, nil, nil
		}})
		f, err := FireDeadline(task, dueDeadline(task, DeadlineStart,
			DeadlineAction{Type: DeadlineReassign, CandidateUsers: []ParticipantRef{userRef("carol")}},
			DeadlineAction{Type: DeadlineFlag}), managers, now)
		if err != nil || f.Change.Task.Status != StatusAvailable || f.Change.Task.Health.Code != HealthDeadlineMissed {
			t.Fatalf("got %+v, %v, want Available with deadline-missed", f.Change.Task, err)
		}
	})

	refusals := []struct {
		name string
		mut  func(*Task, *Deadline)
		want Code
	}{
		{"AlreadyFired", func(_ *Task, d *Deadline) { d.State = DeadlineFired }, CodeDeadlineSettled},
		{"AlreadySkipped", func(_ *Task, d *Deadline) { d.State = DeadlineSkipped }, CodeDeadlineSettled},
		{"NotDue", func(_ *Task, d *Deadline) { d.DueAt = now.Add(time.Second) }, CodeNotDue},
		{"OtherTask", func(_ *Task, d *Deadline) { d.TaskID = "other" }, CodeNotFound},
		{"OtherTenant", func(_ *Task, d *Deadline) { d.Tenant = "evil" }, CodeNotFound},
		{"Transitional", func(tk *Task, _ *Deadline) {
			*tk = newTask(t, &taskOpts{status: StatusCompleting})
		}, CodeTransitionInProgress},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			task := newTask(t, nil)
			d := dueDeadline(task, DeadlineCompletion, DeadlineAction{Type: DeadlineFlag})
			r.mut(&task, &d)
			if r.name != "OtherTask" {
				d.TaskID = task.ID // the transitional row replaced the task
			}
			_, err := FireDeadline(task, d, managers, now)
			wantCode(t, err, r.want)
		})
	}
	t.Run("DueNowFires", func(t *testing.T) {
		task := newTask(t, nil)
		d := dueDeadline(task, DeadlineCompletion, DeadlineAction{Type: DeadlineFlag})
		d.DueAt = now
		if _, err := FireDeadline(task, d, managers, now); err != nil {
			t.Fatalf("got %v, want a firing at its due time", err)
		}
	})
}
