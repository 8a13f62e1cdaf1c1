package tasks_test

import (
	"context"
	"testing"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// RecipientSees decides, for a person who is not signed in, what Detail would decide for
// them: the task's own relations, their live groups through the directory, the manager flag
// as recorded, and past actions.
func TestRecipientSees(t *testing.T) {
	ctx := context.Background()
	odd := "ä b/?#1"
	dir := directory.Static{Tenants: map[string]directory.StaticTenant{
		"t1": {Users: []directory.StaticUser{{ID: "gina", Groups: []string{"finance"}}, {ID: "otto", Groups: []string{"finance"}}, {ID: "sam", Groups: []string{"sales"}}}},
		"t2": {Users: []directory.StaticUser{{ID: "sam", Groups: []string{"finance"}}}},
	}}
	task := func(mode models.MembershipMode) models.Task {
		return models.Task{ID: "task-1", Tenant: "t1", Status: models.StatusAvailable, Assignment: models.Assignment{
			Mode: mode,
			Candidates: []models.Candidate{
				{Participant: testfactory.Group("t1", "finance"), Source: models.SourceDirectGroup},
				{Participant: testfactory.User("t1", odd), Source: models.SourceDirectUser},
			},
			Exclusions: []models.ParticipantRef{testfactory.User("t1", "otto")},
		}}
	}
	never := func(context.Context) (bool, error) { return false, nil }
	acted := func(context.Context) (bool, error) { return true, nil }
	sees := func(t *testing.T, tk models.Task, who models.ParticipantRef, manager bool, d directory.Directory, past func(context.Context) (bool, error)) bool {
		t.Helper()
		ok, err := tasks.RecipientSees(ctx, tk, who, manager, d, past)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	live, snapshot := task(models.MembershipLive), task(models.MembershipSnapshot)
	user := func(id string) models.ParticipantRef { return testfactory.User("t1", id) }

	cases := []struct {
		name    string
		task    models.Task
		who     models.ParticipantRef
		manager bool
		dir     directory.Directory
		past    func(context.Context) (bool, error)
		want    bool
	}{
		{"LiveGroupMember", live, user("gina"), false, dir, never, true},
		{"LiveGroupWithoutDirectory", live, user("gina"), false, nil, never, false},
		{"SnapshotIgnoresLiveGroups", snapshot, user("gina"), false, dir, never, false},
		{"ExcludedGroupMember", live, user("otto"), false, dir, never, false},
		{"OtherGroup", live, user("sam"), false, dir, never, false},
		{"DirectUserWithOddID", live, user(odd), false, nil, never, true},
		{"SimilarIDIsNotTheUser", live, user("ä b/?"), false, nil, never, false},
		{"RecordedManager", live, user("sam"), true, nil, never, true},
		{"PastActor", live, user("sam"), false, nil, acted, true},
		{"Guest", live, models.ParticipantRef{Provider: models.GuestProvider, Type: models.UserParticipant, ID: odd}, true, dir, acted, false},
		{"GroupIsNoRecipient", live, testfactory.Group("t1", "finance"), true, dir, acted, false},
		// The recipient is always taken in the task's tenant: a reference naming another tenant
		// gains nothing from that tenant's directory entries.
		{"AnotherTenantsMembership", live, testfactory.User("t2", "sam"), false, dir, never, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := sees(t, c.task, c.who, c.manager, c.dir, c.past); got != c.want {
				t.Fatalf("sees = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("BlockingHealthHidesFromCandidatesNotManagers", func(t *testing.T) {
		hidden := live
		hidden.Health = models.Health{Severity: models.SeverityBlocking, Code: models.HealthNoParticipants}
		if sees(t, hidden, user("gina"), false, dir, acted) {
			t.Fatal("a candidate sees a task blocking health hides")
		}
		if !sees(t, hidden, user("gina"), true, dir, never) {
			t.Fatal("a manager does not see a task with blocking health")
		}
	})
	t.Run("DirectoryOutageIsAnError", func(t *testing.T) {
		if _, err := tasks.RecipientSees(ctx, live, user("gina"), false, failingDirectory{}, never); err == nil {
			t.Fatal("an outage was taken for an answer")
		}
	})
}
