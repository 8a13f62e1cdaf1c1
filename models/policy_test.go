package models

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// The policy table: every relationship × status × health, the read decisions and the actions
// offered, and a cross-check that every offered action really succeeds and every withheld one
// is refused by its transition.

var allPerms = []string{"user-tasks:*"}

type relCase struct {
	name  string
	actor func(t Task) Actor
	past  bool
	mode  MembershipMode
	// what SPEC 4 says this relationship is, before status and health are considered
	manager, assignee, guest, candidate, pastActor bool
}

func withPerms(a Actor) Actor { a.Permissions = allPerms; return a }

func relationships() []relCase {
	return []relCase{
		{name: "Manager", actor: func(Task) Actor { return withPerms(manager("boss")) }, manager: true},
		{name: "Assignee", actor: func(Task) Actor { return withPerms(person("alice")) }, assignee: true, candidate: true},
		{name: "DirectCandidate", actor: func(Task) Actor { return withPerms(person("alice")) }, candidate: true},
		{name: "LiveGroupMember", actor: func(Task) Actor { return withPerms(person("gina", "approvers")) }, candidate: true},
		{name: "SnapshotMember", mode: MembershipSnapshot, actor: func(Task) Actor { return withPerms(person("sam")) }, candidate: true},
		{name: "GroupClaimInSnapshotMode", mode: MembershipSnapshot, actor: func(Task) Actor { return withPerms(person("gina", "approvers")) }},
		{name: "ExcludedGroupMember", actor: func(Task) Actor { return withPerms(person("mallory", "approvers")) }},
		{name: "PastActor", past: true, actor: func(Task) Actor { return withPerms(person("olga")) }, pastActor: true},
		{name: "Stranger", actor: func(Task) Actor { return withPerms(person("nobody")) }},
		{name: "OtherTenant", actor: func(Task) Actor {
			a := withPerms(person("alice", "approvers"))
			a.Tenant = "other"
			a.Subject.Tenant = "other"
			return a
		}},
		{name: "Guest", actor: func(t Task) Actor { return guest(t, "inv-1", "Approve") }, guest: true},
	}
}

// fixture builds the task a relationship case needs in a status.
func fixture(t *testing.T, rc relCase, status Status, blocking bool) Task {
	t.Helper()
	opts := &taskOpts{status: status}
	if rc.mode == MembershipSnapshot {
		opts.projection = func(p *Projection) {
			p.Mode = MembershipSnapshot
			g := groupRef("approvers")
			p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "sam"}, Source: SourceSnapshotMember, SourceGroup: &g}}
		}
	}
	switch {
	case rc.guest:
		ref := GuestRef(testTenant, "inv-1")
		opts.assignee = &ref
	case rc.assignee:
		ref := userRef("alice")
		opts.assignee = &ref
	default:
		ref := userRef("carl") // someone else holds assigned and later tasks
		opts.assignee = &ref
	}
	task := newTask(t, opts)
	if rc.name == "DirectCandidate" && status == StatusAssigned {
		// alice is a candidate of a task somebody else holds
		task.Assignee = refPtr(userRef("carl"))
	}
	if blocking {
		task.Health = Health{Severity: SeverityBlocking, Code: HealthFormResolutionFailed, Message: "x"}
	}
	return task
}

func TestPolicyTable(t *testing.T) {
	for _, rc := range relationships() {
		for _, status := range AllStatuses {
			for _, blocking := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/blocking=%v", rc.name, status, blocking)
				t.Run(name, func(t *testing.T) {
					task := fixture(t, rc, status, blocking)
					a := rc.actor(task)
					r := Relate(task, a, rc.past)

					holds := status == StatusAssigned || status.IsTransitional() || status.IsTerminal()
					assignee := rc.assignee && holds && task.Assignee != nil && task.Assignee.Same(userRef("alice"))
					completer := (rc.assignee || rc.guest) && (status == StatusCompleting || status == StatusCompleted) && task.Outcome.CompletedBy != nil
					candidate := rc.candidate && rc.name != "OtherTenant"

					guestOwns := rc.guest && task.Assignee != nil && task.Assignee.IsGuest() && !status.IsTerminal()
					completer = completer && !rc.guest // a guest's access ends when the task closes
					wantSummary := rc.manager || (!blocking && (assignee || guestOwns || candidate || completer || rc.pastActor))
					if got := CanReadSummary(task, a, r); got != wantSummary {
						t.Fatalf("read summary = %v, want %v (relation %+v)", got, wantSummary, r)
					}
					wantProtected := wantSummary && (rc.manager || ((assignee || guestOwns) && !status.IsTerminal()) || (completer && status.IsTerminal()))
					if got := CanReadProtected(task, a, r); got != wantProtected {
						t.Fatalf("read protected = %v, want %v (relation %+v)", got, wantProtected, r)
					}
					d := Disclose(task, a, r)
					if d.CanViewHistory && !d.CanViewProtected {
						t.Fatalf("history without protected access")
					}

					open := status.IsOpen()
					want := []string{}
					if wantSummary {
						add := func(ok bool, act string) {
							if ok {
								want = append(want, act)
							}
						}
						add(candidate && status == StatusAvailable, ActClaim)
						add(assignee && open, ActRelease)
						add(rc.manager && open, ActAssign)
						add(rc.manager && open, ActUpdateScheduling)
						add((assignee || guestOwns) && status == StatusAssigned, ActComplete)
						add(rc.manager && open && task.CancellationEnabled, ActCancel)
						add(rc.manager && open && len(task.Protected.InvitationDefinitions) > 0, ActInvite)
						add(rc.manager && !status.IsTerminal(), ActRetryResolution)
					}
					got := AllowedActions(task, a, r)
					if !slices.Equal(got, want) {
						t.Fatalf("allowed actions = %v, want %v (relation %+v)", got, want, r)
					}
					crossCheck(t, task, a, got)
				})
			}
		}
	}
}

// crossCheck runs every command's transition: an offered action must succeed, a withheld one
// must be refused. The policy never offers what the lifecycle would refuse.
func crossCheck(t *testing.T, task Task, a Actor, offered []string) {
	t.Helper()
	cmd := Command{OperationID: "op-x", ExpectedRevision: task.Revision, Actor: a}
	try := map[string]func() error{
		ActClaim:   func() error { _, err := Claim(task, cmd, now); return err },
		ActRelease: func() error { _, err := Release(task, cmd, "", now); return err },
		ActAssign: func() error {
			_, err := Assign(task, cmd, userRef("alice"), "", now)
			return err
		},
		ActUpdateScheduling: func() error { _, err := UpdateSchedule(task, cmd, intPtr(70), nil, false, now); return err },
		ActComplete: func() error {
			_, err := Complete(task, cmd, "Approve", json.RawMessage(nil), now)
			return err
		},
		ActCancel:          func() error { _, err := Cancel(task, cmd, "no longer needed", now); return err },
		ActRetryResolution: func() error { _, err := RetryResolution(task, cmd, nil, nil, Health{}, now); return err },
	}
	for action, run := range try {
		err := run()
		if slices.Contains(offered, action) && err != nil {
			t.Errorf("%s is offered but its transition refuses: %v", action, err)
		}
		if !slices.Contains(offered, action) && err == nil {
			t.Errorf("%s is withheld but its transition succeeds", action)
		}
	}
}

func TestPolicyNeedsPermissions(t *testing.T) {
	task := newTask(t, &taskOpts{})
	a := person("alice") // a candidate without any grant
	r := Relate(task, a, false)
	if CanReadSummary(task, a, r) || len(AllowedActions(task, a, r)) != 0 {
		t.Fatalf("an actor without user-tasks:view reads or acts")
	}
	a.Permissions = []string{PermView}
	if !CanReadSummary(task, a, Relate(task, a, false)) {
		t.Fatalf("a candidate with view cannot read")
	}
	if got := AllowedActions(task, a, Relate(task, a, false)); len(got) != 0 {
		t.Fatalf("view alone offers %v", got)
	}
	a.Permissions = []string{PermView, PermClaim}
	if got := AllowedActions(task, a, Relate(task, a, false)); !slices.Equal(got, []string{ActClaim}) {
		t.Fatalf("view+claim offers %v, want [claim]", got)
	}
}

func TestTerminalCompleterReplayReadsOwnOutcome(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusCompleted})
	a := withPerms(person("alice"))
	r := Relate(task, a, false)
	if !r.Completer || !CanReadProtected(task, a, r) || len(AllowedActions(task, a, r)) != 0 {
		t.Fatalf("completer relation %+v, protected %v, actions %v", r, CanReadProtected(task, a, r), AllowedActions(task, a, r))
	}
	// The completer may replay its own completion after the task ended.
	ch, err := Complete(task, Command{Kind: OpComplete, OperationID: "op-1", ExpectedRevision: 3, Actor: a,
		RequestHash: "h", Prior: &Operation{OperationID: "op-1", Kind: OpComplete, RequestHash: "h", Actor: refPtr(userRef("alice")), Result: json.RawMessage(`{}`)}},
		"Approve", nil, now)
	if err != nil || ch.Replay == nil {
		t.Fatalf("completer replay: %+v, %v", ch.Replay, err)
	}
}
