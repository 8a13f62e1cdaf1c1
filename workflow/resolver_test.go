package workflow_test

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"usertasks/directory"
	"usertasks/formsource"
	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// resolverManager is a manager of t1 who may retry resolution.
func resolverManager() models.Actor {
	return models.Actor{Tenant: "t1", Subject: models.ParticipantRef{Tenant: "t1", Provider: "default", Type: models.UserParticipant, ID: "boss"},
		DisplayName: "Boss", Permissions: []string{"user-tasks:*"}, Manager: true}
}

// retryResolution runs the manager's retry-resolution through the lifecycle service with r and
// answers the stored task.
func retryResolution(t *testing.T, store store.Store, r *workflow.Resolver, task models.Task) models.Task {
	t.Helper()
	ctx := context.Background()
	current, err := store.Get(ctx, "t1", task.ID)
	if err != nil {
		t.Fatal(err)
	}
	svc := tasks.New(store, tasks.Options{Resolver: r})
	if _, err := svc.RetryResolution(ctx, resolverManager(), task.ID, tasks.Common{ExpectedRevision: current.Revision}); err != nil {
		t.Fatalf("RetryResolution: %v", err)
	}
	after, err := store.Get(ctx, "t1", task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Revision != current.Revision+1 {
		t.Errorf("revision = %d, want %d", after.Revision, current.Revision+1)
	}
	return after
}

func snapshotMembers(task models.Task) []string {
	var out []string
	for _, c := range task.Assignment.Candidates {
		if c.Source == models.SourceSnapshotMember {
			out = append(out, c.Participant.ID)
		}
	}
	return out
}

func TestResolver(t *testing.T) {
	ctx := context.Background()
	snapshot := func(r *workflow.ProjectionRequest) {
		r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
		r.Task.MembershipMode = "snapshot"
	}
	formRef := func(r *workflow.ProjectionRequest) {
		r.Task.CandidateUsers = []workflow.Participant{{ID: "ann"}}
		r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval", Version: "latest"}
	}
	withForms := func(fsys fstest.MapFS) map[string]formsource.Provider {
		return map[string]formsource.Provider{"files": formsource.NewFileProvider(fsys)}
	}

	t.Run("SnapshotExpandedOnRetry", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		task, _, err := workflow.NewProjector(store, nil).Project(ctx, "t1", sampleBookmark(snapshot))
		if err != nil || task.Health.Code != models.HealthSnapshotDirectoryMissing {
			t.Fatalf("projection health %+v, %v; want snapshot-directory-missing", task.Health, err)
		}
		after := retryResolution(t, store, workflow.NewResolver(workflow.ResolverOptions{Directory: testDirectory}), task)
		if after.Health.Severity != models.SeverityNone {
			t.Errorf("health = %+v, want cleared", after.Health)
		}
		if got := snapshotMembers(after); len(got) != 2 {
			t.Errorf("snapshot members = %v, want ann and bob", got)
		}
		if after.CandidateSummary != (models.CandidateSummary{Users: 2, Groups: 1}) {
			t.Errorf("summary = %+v", after.CandidateSummary)
		}
	})

	t.Run("SnapshotStillFailing", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		task, _, err := workflow.NewProjector(store, nil).Project(ctx, "t1", sampleBookmark(snapshot))
		if err != nil {
			t.Fatal(err)
		}
		failing := &countingDirectory{inner: testDirectory, fail: errors.New("down")}
		after := retryResolution(t, store, workflow.NewResolver(workflow.ResolverOptions{Directory: failing}), task)
		if after.Health.Code != models.HealthSnapshotResolutionFailed || !after.Health.Blocking() {
			t.Errorf("health = %+v, want blocking snapshot-resolution-failed", after.Health)
		}
		if len(snapshotMembers(after)) != 0 {
			t.Error("a failed retry stored members")
		}
	})

	t.Run("FormPinnedOnRetry", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		task, _, err := workflow.NewProjector(store, nil).Project(ctx, "t1", sampleBookmark(formRef))
		if err != nil || task.Health.Code != models.HealthFormProviderMissing {
			t.Fatalf("projection health %+v, %v; want form-provider-missing", task.Health, err)
		}
		after := retryResolution(t, store, workflow.NewResolver(workflow.ResolverOptions{Forms: withForms(testForms())}), task)
		f := after.Protected.Form
		if after.Health.Severity != models.SeverityNone || !f.Resolved() || f.Version != "2" || f.Provider != "files" {
			t.Fatalf("health %+v form %+v, want cleared and pinned to version 2", after.Health, f)
		}
		if f.Requested == nil || f.Requested.Version != "latest" {
			t.Errorf("requested = %+v, want the original reference", f.Requested)
		}
	})

	t.Run("FormStillMissing", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		task, _, err := workflow.NewProjector(store, nil).Project(ctx, "t1", sampleBookmark(formRef))
		if err != nil {
			t.Fatal(err)
		}
		after := retryResolution(t, store, workflow.NewResolver(workflow.ResolverOptions{Forms: withForms(fstest.MapFS{})}), task)
		if after.Health.Code != models.HealthFormResolutionFailed || after.Protected.Form.Resolved() {
			t.Errorf("health %+v, want form-resolution-failed and no schema", after.Health)
		}
		if after.Protected.Form.Requested == nil {
			t.Error("the requested reference was lost")
		}
	})

	t.Run("BothFailedThenOneFixed", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		task, _, err := workflow.NewProjector(store, nil).Project(ctx, "t1", sampleBookmark(func(r *workflow.ProjectionRequest) {
			snapshot(r)
			r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval"}
		}))
		if err != nil || task.Health.Code != models.HealthSnapshotDirectoryMissing {
			t.Fatalf("projection health %+v, %v; want the snapshot finding first", task.Health, err)
		}
		after := retryResolution(t, store, workflow.NewResolver(workflow.ResolverOptions{Directory: testDirectory}), task)
		if after.Health.Code != models.HealthFormProviderMissing {
			t.Errorf("health = %+v, want the remaining form-provider-missing", after.Health)
		}
		if len(snapshotMembers(after)) != 2 {
			t.Error("the fixed snapshot was not stored")
		}
	})

	t.Run("PinnedFormStaysPinned", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		v1only := fstest.MapFS{"approval/1.json": {Data: []byte(approvalSchemaV1)}}
		p := workflow.NewProjector(store, workflow.NewResolver(workflow.ResolverOptions{Forms: withForms(v1only)}))
		task, _, err := p.Project(ctx, "t1", sampleBookmark(formRef))
		if err != nil || task.Protected.Form.Version != "1" {
			t.Fatalf("projection: %v", err)
		}
		res, err := workflow.NewResolver(workflow.ResolverOptions{Forms: withForms(testForms())}).Resolve(ctx, task)
		if err != nil {
			t.Fatal(err)
		}
		if res.Form != nil || res.Snapshot != nil || res.Health.Severity != models.SeverityNone {
			t.Errorf("resolution = %+v, want nothing replaced and no finding", res)
		}
	})

	t.Run("HealthySnapshotNotReExpanded", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		task, _, err := newTestProjector(store, testDirectory).Project(ctx, "t1", sampleBookmark(snapshot))
		if err != nil {
			t.Fatal(err)
		}
		dir := &countingDirectory{inner: testDirectory}
		res, err := workflow.NewResolver(workflow.ResolverOptions{Directory: dir}).Resolve(ctx, task)
		if err != nil || res.Snapshot != nil || dir.count() != 0 {
			t.Errorf("resolution = %+v (%v), %d expansions; want the snapshot kept", res, err, dir.count())
		}
	})

	t.Run("TypedNilDirectoryIsNone", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		var none *directory.HTTP
		p := workflow.NewProjector(store, workflow.NewResolver(workflow.ResolverOptions{Directory: none}))
		task, _, err := p.Project(ctx, "t1", sampleBookmark(snapshot))
		if err != nil || task.Health.Code != models.HealthSnapshotDirectoryMissing {
			t.Fatalf("health %+v, %v; want snapshot-directory-missing", task.Health, err)
		}
	})
}
