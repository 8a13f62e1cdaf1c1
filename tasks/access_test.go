package tasks_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// failingDirectory answers every expansion with an outage.
type failingDirectory struct{ directory.Static }

func (failingDirectory) Expand(context.Context, string, models.ParticipantRef) ([]models.ParticipantRef, error) {
	return nil, errors.New("directory down")
}

// premises lists the rules of an explanation's premises.
func premises(a models.Access) []models.Rule {
	out := []models.Rule{}
	for _, r := range a.Premises {
		out = append(out, r.Rule)
	}
	return out
}

// ruled reports whether a decision shows rule with effect.
func ruled(d models.AccessDecision, rule models.Rule, effect models.Effect) bool {
	return slices.ContainsFunc(d.Because, func(r models.Reason) bool { return r.Rule == rule && r.Effect == effect })
}

func TestAccess(t *testing.T) {
	ctx := context.Background()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	dir := directory.Static{Tenants: map[string]directory.StaticTenant{"t1": {
		Users:  []directory.StaticUser{{ID: "gina", DisplayName: "Gina", Groups: []string{"finance"}}, {ID: "otto", Groups: []string{"sales"}}},
		Groups: []directory.StaticGroup{{ID: "finance", DisplayName: "Finance"}},
	}}}
	withDir := tasks.New(store, tasks.Options{Directory: dir})
	noDir := tasks.New(store, tasks.Options{})
	f := fixture{store: store, svc: withDir}
	task := f.project(t, nil)
	explain := func(t *testing.T, svc *tasks.Service, participant string) models.Access {
		t.Helper()
		got, err := svc.Access(ctx, boss(), task.ID, tasks.AccessInput{Participant: participant})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	t.Run("LiveGroupFromDirectory", func(t *testing.T) {
		got := explain(t, withDir, "user:gina")
		if !got.View.Allowed || !got.Claim.Allowed || got.Complete.Allowed {
			t.Fatalf("view %v claim %v complete %v, want true true false", got.View.Allowed, got.Claim.Allowed, got.Complete.Allowed)
		}
		if !ruled(got.Claim, models.RuleCandidateGroup, models.EffectAllow) || !ruled(got.Claim, models.RulePermissionAssumed, models.EffectNote) {
			t.Errorf("claim steps %+v", got.Claim.Because)
		}
		if want := []models.Rule{models.RuleManagerAssumedNot, models.RuleGroupsFromDir}; !slices.Equal(premises(got), want) {
			t.Errorf("premises %v, want %v", premises(got), want)
		}
		if got.Premises[1].Args[0] != "finance" {
			t.Errorf("groups premise args %v", got.Premises[1].Args)
		}
		if got.Participant.DisplayName != "Gina" {
			t.Errorf("participant %+v: want the directory's name for a user the task does not name", got.Participant)
		}
	})
	t.Run("NotInAnyCandidateGroup", func(t *testing.T) {
		got := explain(t, withDir, "user:otto")
		if got.View.Allowed || got.Claim.Allowed || !ruled(got.View, models.RuleNoRelationship, models.EffectDeny) {
			t.Fatalf("otto: %+v", got)
		}
		if want := []models.Rule{models.RuleManagerAssumedNot, models.RuleGroupsNone}; !slices.Equal(premises(got), want) {
			t.Errorf("premises %v, want %v", premises(got), want)
		}
		if got.Participant.Label() != "otto" {
			t.Errorf("participant %+v: a user the directory lists without a name keeps the id", got.Participant)
		}
	})
	t.Run("GroupsUnknownWithoutDirectory", func(t *testing.T) {
		got := explain(t, noDir, "user:gina")
		if got.Claim.Allowed || !slices.Contains(premises(got), models.RuleGroupsUnknown) {
			t.Fatalf("without a directory: claim %v, premises %v", got.Claim.Allowed, premises(got))
		}
	})
	t.Run("DirectoryFailure", func(t *testing.T) {
		svc := tasks.New(store, tasks.Options{Directory: failingDirectory{}})
		got, err := svc.Access(ctx, boss(), task.ID, tasks.AccessInput{Participant: "user:gina"})
		if err != nil || got.Claim.Allowed || !slices.Contains(premises(got), models.RuleGroupLookupFailed) {
			t.Fatalf("failing directory: %v, claim %v, premises %v", err, got.Claim.Allowed, premises(got))
		}
	})
	t.Run("DirectCandidateAndExcluded", func(t *testing.T) {
		if got := explain(t, noDir, "user:ann"); !got.Claim.Allowed || !ruled(got.Claim, models.RuleCandidateUser, models.EffectAllow) {
			t.Errorf("ann: %+v", got.Claim)
		}
		if got := explain(t, noDir, "user:eve"); got.View.Allowed || !ruled(got.View, models.RuleExcluded, models.EffectDeny) {
			t.Errorf("eve: %+v", got.View)
		}
	})
	t.Run("Group", func(t *testing.T) {
		got := explain(t, noDir, "group:finance")
		if !got.Claim.Allowed || !ruled(got.Claim, models.RuleCandidateGroup, models.EffectAllow) || got.Participant.Type != models.GroupParticipant {
			t.Fatalf("group: %+v", got)
		}
		if want := []models.Rule{models.RuleGroupMember}; !slices.Equal(premises(got), want) {
			t.Errorf("premises %v, want %v", premises(got), want)
		}
	})
	t.Run("OwnToken", func(t *testing.T) {
		got := explain(t, noDir, "user:boss")
		if !got.View.Allowed || !ruled(got.View, models.RuleManager, models.EffectAllow) || !ruled(got.View, models.RulePermission, models.EffectAllow) {
			t.Fatalf("self: %+v", got.View)
		}
		if want := []models.Rule{models.RuleOwnToken}; !slices.Equal(premises(got), want) {
			t.Errorf("premises %v, want %v", premises(got), want)
		}
	})
	t.Run("Audited", func(t *testing.T) {
		before, err := store.Get(ctx, "t1", task.ID)
		if err != nil {
			t.Fatal(err)
		}
		explain(t, noDir, "user:ann")
		after, err := store.Get(ctx, "t1", task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Revision != before.Revision || after.LastEventSeq != before.LastEventSeq+1 {
			t.Fatalf("revision %d→%d, seq %d→%d; want the same revision and one more event", before.Revision, after.Revision, before.LastEventSeq, after.LastEventSeq)
		}
		evs, err := store.Events(ctx, "t1", task.ID, before.LastEventSeq, 10)
		if err != nil || len(evs) != 1 {
			t.Fatalf("events %v, %v", evs, err)
		}
		if e := evs[0]; e.Type != models.EventAccessExplained || e.Actor.ID != "boss" ||
			string(e.Metadata) != `{"participant":{"provider":"default","type":"user","id":"ann"}}` {
			t.Errorf("event %+v metadata %s", e, e.Metadata)
		}
	})
	t.Run("ErrForbiddenBeforeLoading", func(t *testing.T) {
		noSupervise := boss()
		noSupervise.Permissions = []string{models.PermView, models.PermAssign}
		for name, a := range map[string]models.Actor{"Worker": person("ann"), "ManagerWithoutSupervise": noSupervise, "Guest": testfactory.Guest("t1", "inv", task.ID, "Approve")} {
			if _, err := withDir.Access(ctx, a, "missing", tasks.AccessInput{Participant: "bad"}); !errors.Is(err, models.ErrForbidden) {
				t.Errorf("%s: %v, want forbidden", name, err)
			}
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		other := testfactory.Manager("t2", "max")
		for name, c := range map[string]struct {
			a  models.Actor
			id string
		}{"Missing": {boss(), "0190aaaa-0000-7000-8000-000000000000"}, "OtherTenant": {other, task.ID}, "HostileID": {boss(), "a\x00b"}} {
			if _, err := withDir.Access(ctx, c.a, c.id, tasks.AccessInput{Participant: "bad"}); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s: %v, want not found (before the participant is read)", name, err)
			}
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		for _, p := range []string{"", "ann", "robot:ann", "user:", "user:a\x00b"} {
			_, err := withDir.Access(ctx, boss(), task.ID, tasks.AccessInput{Participant: p})
			wantCode(t, err, models.CodeValidationFailed)
		}
	})
}
