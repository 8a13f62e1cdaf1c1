package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/directory"
	"usertasks/formsource"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workflow"
)

func TestProjection(t *testing.T) {
	ctx := context.Background()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	p := newTestProjector(store, testDirectory)

	project := func(t *testing.T, mutate func(r *workflow.ProjectionRequest)) models.Task {
		t.Helper()
		task, created, err := p.Project(ctx, "t1", sampleBookmark(mutate))
		if err != nil {
			t.Fatalf("Project: %v", err)
		}
		if !created {
			t.Fatal("created = false on a first delivery")
		}
		stored, err := store.Get(ctx, "t1", task.ID)
		if err != nil {
			t.Fatal(err)
		}
		return stored
	}

	t.Run("DirectAssignee", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.Assignee = &workflow.Participant{ID: "ann", DisplayName: "Ann"}
		})
		if task.Status != models.StatusAssigned || task.Assignee == nil || task.Assignee.ID != "ann" {
			t.Fatalf("status %s assignee %+v, want Assigned to ann", task.Status, task.Assignee)
		}
		if got, want := *task.Assignee, (models.ParticipantRef{Tenant: "t1", Provider: "default", Type: models.UserParticipant, ID: "ann", DisplayName: "Ann"}); got != want {
			t.Errorf("assignee = %+v, want %+v", got, want)
		}
		if task.Revision != 1 || task.Health.Severity != models.SeverityNone {
			t.Errorf("revision %d health %+v, want 1 and none", task.Revision, task.Health)
		}
	})

	t.Run("CandidateUsers", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.CandidateUsers = []workflow.Participant{{ID: "ann"}, {Provider: "corp", ID: "bob"}}
		})
		if task.Status != models.StatusAvailable || task.CandidateSummary != (models.CandidateSummary{Users: 2}) {
			t.Fatalf("status %s summary %+v, want Available with 2 users", task.Status, task.CandidateSummary)
		}
	})

	t.Run("LiveGroup", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
		})
		if task.Assignment.Mode != models.MembershipLive || task.CandidateSummary != (models.CandidateSummary{Groups: 1}) {
			t.Fatalf("mode %s summary %+v, want live with 1 group", task.Assignment.Mode, task.CandidateSummary)
		}
		for _, c := range task.Assignment.Candidates {
			if c.Source == models.SourceSnapshotMember {
				t.Errorf("live membership stored snapshot member %+v", c)
			}
		}
	})

	t.Run("SnapshotGroup", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}, {ID: "empty"}}
			r.Task.MembershipMode = "snapshot"
		})
		if task.Status != models.StatusAvailable || task.Health.Severity != models.SeverityNone {
			t.Fatalf("status %s health %+v, want Available and healthy", task.Status, task.Health)
		}
		var members []string
		for _, c := range task.Assignment.Candidates {
			if c.Source == models.SourceSnapshotMember {
				if c.SourceGroup == nil || c.SourceGroup.ID != "finance" {
					t.Errorf("member %s has source group %+v, want finance", c.Participant.ID, c.SourceGroup)
				}
				members = append(members, c.Participant.ID)
			}
		}
		if got, want := strings.Join(members, ","), "ann,bob"; got != want {
			t.Errorf("snapshot members = %s, want %s", got, want)
		}
		if got, want := task.CandidateSummary, (models.CandidateSummary{Users: 2, Groups: 2}); got != want {
			t.Errorf("summary = %+v, want %+v", got, want)
		}
	})

	t.Run("Exclusions", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
			r.Task.ExcludedUsers = []workflow.Participant{{ID: "eve"}, {ID: "eve"}}
			r.Task.AllowManagerExclusionOverride = true
		})
		if len(task.Assignment.Exclusions) != 1 || task.Assignment.Exclusions[0].ID != "eve" || !task.Assignment.AllowExclusionOverride {
			t.Fatalf("assignment = %+v, want eve excluded once with override", task.Assignment)
		}
	})

	t.Run("NoParticipants", func(t *testing.T) {
		task := project(t, nil)
		if task.Status != models.StatusUnassigned || task.Health.Code != models.HealthNoParticipants || task.Health.Severity != models.SeverityAdvisory {
			t.Fatalf("status %s health %+v, want Unassigned with advisory no-participants", task.Status, task.Health)
		}
	})

	t.Run("InlineForm", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.Form = &workflow.FormSpec{Schema: json.RawMessage(approvalSchemaV2)}
		})
		f := task.Protected.Form
		if !f.Resolved() || f.Requested != nil || f.Provider != "" {
			t.Fatalf("form = %+v, want an inline pinned schema", f)
		}
	})

	t.Run("FormLatestPinned", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval", Version: formsource.LatestVersion}
		})
		f := task.Protected.Form
		if !f.Resolved() || f.Provider != "files" || f.Key != "approval" || f.Version != "2" {
			t.Fatalf("form = %+v, want files/approval pinned to version 2", f)
		}
		if f.Requested == nil || *f.Requested != (models.FormRef{Provider: "files", Key: "approval", Version: "latest"}) {
			t.Errorf("requested = %+v, want the original reference", f.Requested)
		}
		if !sameJSON(t, f.Schema, approvalSchemaV2) {
			t.Errorf("schema is not version 2")
		}
	})

	t.Run("FormWithoutVersionPinned", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval"}
		})
		if got := task.Protected.Form.Version; got != "2" {
			t.Fatalf("version = %q, want 2", got)
		}
	})

	t.Run("FormExplicitVersion", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval", Version: "1"}
		})
		if f := task.Protected.Form; f.Version != "1" || !sameJSON(t, f.Schema, approvalSchemaV1) {
			t.Fatalf("form = %s v%s, want version 1", f.Key, f.Version)
		}
	})

	t.Run("WireBody", func(t *testing.T) {
		req := mustJSON(t, `{"workflowDefinitionId":"invoice","workflowDefinitionName":"Invoice","workflowDefinitionVersion":7,
		 "workflowInstanceId":"wf-wire","workflowInstanceReference":"ORDER-1","activityInstanceId":"a1","bookmarkId":"bm-wire",
		 "task":{"title":"Wire","summary":"s","reference":"R-1","tags":["Finance"," finance ","urgent"],"taskType":"approval",
		  "requester":{"id":"boss","displayName":"The Boss"},"priority":90,"dueAt":"2031-05-01T12:00:00+02:00",
		  "candidateUsers":[{"id":"ann"}],"instructions":"Read **this**","taskData":{"iban":"DE00"},
		  "form":{"provider":"files","key":"approval","version":1},
		  "actions":[{"key":"Approve","label":"Approve"},{"key":"Reject"}],
		  "invitations":[{"verifierName":"code","allowedActions":["approve"],"lifetime":"P2DT12H","recipient":"x@example.com"}],
		  "timeoutEnabled":true,"cancellationEnabled":true}}`)
		task, created, err := p.Project(ctx, "t1", req)
		if err != nil || !created {
			t.Fatalf("Project: created %v, %v", created, err)
		}
		got, err := store.Get(ctx, "t1", task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Workflow.DefinitionVersion == nil || *got.Workflow.DefinitionVersion != 7 || got.Workflow.InstanceReference != "ORDER-1" {
			t.Errorf("workflow = %+v", got.Workflow)
		}
		if got.MaterializationKey != "t1/wf-wire/a1" || got.Workflow.BookmarkID != "bm-wire" {
			t.Errorf("keys = %s %s", got.MaterializationKey, got.Workflow.BookmarkID)
		}
		if strings.Join(got.Tags, ",") != "finance,urgent" || got.Priority != 90 || got.TaskType != "approval" {
			t.Errorf("tags %v priority %d type %s", got.Tags, got.Priority, got.TaskType)
		}
		if want := time.Date(2031, 5, 1, 10, 0, 0, 0, time.UTC); got.DueAt == nil || !got.DueAt.Equal(want) || got.DueAt.Location() != time.UTC {
			t.Errorf("dueAt = %v, want %v in UTC", got.DueAt, want)
		}
		if got.Requester == nil || got.Requester.ID != "boss" {
			t.Errorf("requester = %+v", got.Requester)
		}
		if got.Protected.Instructions != "Read **this**" || string(got.Protected.Data) != `{"iban":"DE00"}` {
			t.Errorf("protected = %q %s", got.Protected.Instructions, got.Protected.Data)
		}
		if got.Protected.Form.Version != "1" {
			t.Errorf("form version = %q, want 1 (sent as a JSON integer)", got.Protected.Form.Version)
		}
		if len(got.Actions) != 2 || got.Actions[1].Label != "Reject" {
			t.Errorf("actions = %+v", got.Actions)
		}
		defs := got.Protected.InvitationDefinitions
		if len(defs) != 1 || defs[0].Lifetime != "P2DT12H" || defs[0].AllowedActions[0] != "Approve" {
			t.Errorf("invitations = %+v", defs)
		}
		if !got.TimeoutEnabled || !got.CancellationEnabled {
			t.Errorf("timeout %v cancellation %v", got.TimeoutEnabled, got.CancellationEnabled)
		}
	})

	t.Run("InvitationsOnlyAvailable", func(t *testing.T) {
		task := project(t, func(r *workflow.ProjectionRequest) {
			r.Task.Invitations = []models.InvitationDefinition{{VerifierName: "bearer", AllowedActions: []string{"Complete"}, BearerOnly: true}}
		})
		if task.Status != models.StatusAvailable {
			t.Fatalf("status = %s, want Available", task.Status)
		}
	})
}

func TestProjectionHealth(t *testing.T) {
	ctx := context.Background()

	type want struct {
		severity models.Severity
		code     string
	}
	cases := []struct {
		name   string
		dir    directory.Directory
		mutate func(r *workflow.ProjectionRequest)
		want   want
		check  func(t *testing.T, task models.Task)
	}{
		{
			name: "SnapshotDirectoryMissing",
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
				r.Task.MembershipMode = "snapshot"
			},
			want: want{models.SeverityBlocking, models.HealthSnapshotDirectoryMissing},
		},
		{
			name: "SnapshotResolutionFailed",
			dir:  &countingDirectory{inner: testDirectory, fail: errors.New("directory down")},
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
				r.Task.MembershipMode = "snapshot"
			},
			want: want{models.SeverityBlocking, models.HealthSnapshotResolutionFailed},
			check: func(t *testing.T, task models.Task) {
				// The direct group row stays, so retry-resolution knows what to expand.
				if task.Status != models.StatusAvailable || task.CandidateSummary != (models.CandidateSummary{Groups: 1}) {
					t.Errorf("status %s summary %+v, want Available with the group kept", task.Status, task.CandidateSummary)
				}
			},
		},
		{
			name: "SnapshotUnknownGroup",
			dir:  testDirectory,
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateGroups = []workflow.Participant{{ID: "no-such-group"}}
				r.Task.MembershipMode = "snapshot"
			},
			want: want{models.SeverityBlocking, models.HealthSnapshotResolutionFailed},
		},
		{
			name: "SnapshotWithoutGroupsNeedsNoDirectory",
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateUsers = []workflow.Participant{{ID: "ann"}}
				r.Task.MembershipMode = "snapshot"
			},
			want: want{models.SeverityNone, ""},
		},
		{
			name: "FormProviderMissing",
			dir:  testDirectory,
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateUsers = []workflow.Participant{{ID: "ann"}}
				r.Task.Form = &workflow.FormSpec{Provider: "nowhere", Key: "approval", Version: "3"}
			},
			want: want{models.SeverityBlocking, models.HealthFormProviderMissing},
			check: func(t *testing.T, task models.Task) {
				f := task.Protected.Form
				if f == nil || f.Resolved() || f.Requested == nil || *f.Requested != (models.FormRef{Provider: "nowhere", Key: "approval", Version: "3"}) {
					t.Errorf("form = %+v, want the unresolved requested reference kept", f)
				}
			},
		},
		{
			name: "FormUnknownKey",
			dir:  testDirectory,
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateUsers = []workflow.Participant{{ID: "ann"}}
				r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "missing"}
			},
			want: want{models.SeverityBlocking, models.HealthFormResolutionFailed},
			check: func(t *testing.T, task models.Task) {
				if f := task.Protected.Form; f == nil || f.Requested == nil || f.Requested.Key != "missing" {
					t.Errorf("form = %+v, want the requested reference kept", f)
				}
			},
		},
		{
			name: "FormUnknownVersion",
			dir:  testDirectory,
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateUsers = []workflow.Participant{{ID: "ann"}}
				r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval", Version: "9"}
			},
			want: want{models.SeverityBlocking, models.HealthFormResolutionFailed},
		},
		{
			name: "FormInvalidInProvider",
			dir:  testDirectory,
			mutate: func(r *workflow.ProjectionRequest) {
				r.Task.CandidateUsers = []workflow.Participant{{ID: "ann"}}
				r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "broken"}
			},
			want: want{models.SeverityBlocking, models.HealthFormResolutionFailed},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store := testfactory.OpenStore(t, testfactory.SQLite, nil)
			p := newTestProjector(store, tc.dir)
			task, created, err := p.Project(ctx, "t1", sampleBookmark(tc.mutate))
			if err != nil || !created {
				t.Fatalf("Project: created %v, %v; a failed resolution must still create the task", created, err)
			}
			stored, err := store.Get(ctx, "t1", task.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := (want{stored.Health.Severity, stored.Health.Code}); got != tc.want {
				t.Fatalf("health = %+v, want %+v", stored.Health, tc.want)
			}
			if tc.want.severity != models.SeverityNone && stored.Health.Message == "" {
				t.Error("a finding needs a safe message")
			}
			if strings.Contains(stored.Health.Message, "directory down") {
				t.Error("the health message leaks the cause")
			}
			if tc.check != nil {
				tc.check(t, stored)
			}
		})
	}
}

func TestProjectionValidation(t *testing.T) {
	ctx := context.Background()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	dir := &countingDirectory{inner: testDirectory}
	p := newTestProjector(store, dir)

	cases := []struct {
		name   string
		mutate func(r *workflow.ProjectionRequest)
		code   models.Code
		fields []string
	}{
		{"MissingIDs", func(r *workflow.ProjectionRequest) { r.WorkflowInstanceID, r.BookmarkID = "", "" },
			models.CodeValidationFailed, []string{"workflowInstanceId", "bookmarkId"}},
		{"MissingTitle", func(r *workflow.ProjectionRequest) { r.Task.Title = " " },
			models.CodeValidationFailed, []string{"task.title"}},
		{"BadDueAt", func(r *workflow.ProjectionRequest) { r.Task.DueAt = "tomorrow" },
			models.CodeValidationFailed, []string{"task.dueAt"}},
		{"BadLifetime", func(r *workflow.ProjectionRequest) {
			r.Task.Invitations = []models.InvitationDefinition{{VerifierName: "code", AllowedActions: []string{"Complete"}, Lifetime: "7 days"}}
		}, models.CodeValidationFailed, []string{"task.invitations[0].lifetime"}},
		{"BadMembershipMode", func(r *workflow.ProjectionRequest) { r.Task.MembershipMode = "sometimes" },
			models.CodeValidationFailed, []string{"task.membershipMode"}},
		{"BadParticipant", func(r *workflow.ProjectionRequest) {
			r.Task.CandidateUsers = []workflow.Participant{{ID: ""}}
			r.Task.CandidateGroups = []workflow.Participant{{Type: models.UserParticipant, ID: "finance"}}
		}, models.CodeValidationFailed, []string{"task.candidateUsers[0].id", "task.candidateGroups[0].type"}},
		{"GuestParticipant", func(r *workflow.ProjectionRequest) {
			r.Task.Assignee = &workflow.Participant{Provider: "guest", ID: "invitation:x"}
		},
			models.CodeValidationFailed, []string{"task.assignee.provider"}},
		{"ReservedAction", func(r *workflow.ProjectionRequest) { r.Task.Actions = []models.Action{{Key: "Timeout"}} },
			models.CodeReservedAction, []string{"task.actions[0].key"}},
		{"PriorityOutOfRange", func(r *workflow.ProjectionRequest) { p := 101; r.Task.Priority = &p },
			models.CodeInvalidPriority, []string{"task.priority"}},
		{"TooManyTags", func(r *workflow.ProjectionRequest) {
			for i := range 33 {
				r.Task.Tags = append(r.Task.Tags, strings.Repeat("t", i+1))
			}
		}, models.CodeValidationFailed, []string{"task.tags"}},
		{"TaskDataNotObject", func(r *workflow.ProjectionRequest) { r.Task.TaskData = json.RawMessage(`[1,2]`) },
			models.CodeValidationFailed, []string{"task.taskData"}},
		{"InstructionsTooLarge", func(r *workflow.ProjectionRequest) {
			r.Task.Instructions = strings.Repeat("x", models.MaxProtectedPayloadBytes+1)
		}, models.CodePayloadTooLarge, []string{"task.instructions"}},
		{"TaskDataTooLarge", func(r *workflow.ProjectionRequest) {
			r.Task.TaskData = json.RawMessage(`{"x":"` + strings.Repeat("y", models.MaxProtectedPayloadBytes) + `"}`)
		}, models.CodePayloadTooLarge, []string{"task.taskData"}},
		{"FormBothShapes", func(r *workflow.ProjectionRequest) {
			r.Task.Form = &workflow.FormSpec{Schema: json.RawMessage(approvalSchemaV1), Provider: "files", Key: "approval"}
		}, models.CodeValidationFailed, []string{"task.form"}},
		{"FormEmpty", func(r *workflow.ProjectionRequest) { r.Task.Form = &workflow.FormSpec{Schema: json.RawMessage("null")} },
			models.CodeValidationFailed, []string{"task.form"}},
		{"FormReferenceWithoutKey", func(r *workflow.ProjectionRequest) { r.Task.Form = &workflow.FormSpec{Provider: "files"} },
			models.CodeValidationFailed, []string{"task.form.key"}},
		{"FormBadVersion", func(r *workflow.ProjectionRequest) {
			r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval", Version: "1 2"}
		}, models.CodeValidationFailed, []string{"task.form.version"}},
		{"InlineFormInvalid", func(r *workflow.ProjectionRequest) {
			r.Task.Form = &workflow.FormSpec{Schema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"object"}}}`)}
		}, models.CodeValidationFailed, []string{"task.form.schema"}},
		{"ExcludedAssignee", func(r *workflow.ProjectionRequest) {
			r.Task.Assignee = &workflow.Participant{ID: "eve"}
			r.Task.ExcludedUsers = []workflow.Participant{{ID: "eve"}}
		}, models.CodeExcludedAssignee, []string{"task.assignee"}},
		{"TooManyParticipants", func(r *workflow.ProjectionRequest) {
			for i := range models.MaxParticipantsPerTask + 1 {
				r.Task.CandidateUsers = append(r.Task.CandidateUsers, workflow.Participant{ID: fmt.Sprintf("user-%d", i)})
			}
		}, models.CodeValidationFailed, []string{"task.candidates"}},
		{"SnapshotWithInvalidGroupIsNotExpanded", func(r *workflow.ProjectionRequest) {
			r.Task.MembershipMode = "snapshot"
			r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
			r.Task.Title = ""
		}, models.CodeValidationFailed, []string{"task.title"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := p.Project(ctx, "t1", sampleBookmark(tc.mutate))
			requireFields(t, err, tc.code, tc.fields...)
		})
	}
	if n := testfactory.CountTasks(context.Background(), t, store, "t1"); n != 0 {
		t.Errorf("%d tasks written by refused projections, want 0", n)
	}
	if n := dir.count(); n != 0 {
		t.Errorf("the directory was asked %d times for refused projections, want 0", n)
	}
}

func TestProjectionIdempotent(t *testing.T) {
	ctx := context.Background()

	t.Run("Sequential", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		dir := &countingDirectory{inner: testDirectory}
		p := newTestProjector(store, dir)
		req := sampleBookmark(func(r *workflow.ProjectionRequest) {
			r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
			r.Task.MembershipMode = "snapshot"
		})
		first, created, err := p.Project(ctx, "t1", req)
		if err != nil || !created {
			t.Fatalf("first: created %v, %v", created, err)
		}
		again, created, err := p.Project(ctx, "t1", req)
		if err != nil || created {
			t.Fatalf("repeat: created %v, %v; want the existing task", created, err)
		}
		if again.ID != first.ID || again.Revision != first.Revision || again.Status != first.Status {
			t.Errorf("repeat answered %s r%d %s, want %s r%d %s", again.ID, again.Revision, again.Status, first.ID, first.Revision, first.Status)
		}
		if n := dir.count(); n != 1 {
			t.Errorf("directory expansions = %d, want 1 (a repeat resolves nothing)", n)
		}
		stored, err := store.Get(ctx, "t1", first.ID)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(stored.Assignment.Candidates); n != 3 {
			t.Errorf("candidate rows = %d, want 3 (group + 2 members, never duplicated)", n)
		}
		if n := testfactory.CountTasks(context.Background(), t, store, "t1"); n != 1 {
			t.Errorf("tasks = %d, want 1", n)
		}
	})

	t.Run("SameBookmarkOtherStep", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		p := newTestProjector(store, nil)
		req := sampleBookmark(nil)
		first, _, err := p.Project(ctx, "t1", req)
		if err != nil {
			t.Fatal(err)
		}
		req.ActivityInstanceID = "another-activity"
		again, created, err := p.Project(ctx, "t1", req)
		if err != nil || created || again.ID != first.ID {
			t.Fatalf("same bookmark id: created %v id %s, %v; want the existing task %s", created, again.ID, err, first.ID)
		}
	})

	t.Run("SameStepOtherBookmark", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		p := newTestProjector(store, nil)
		req := sampleBookmark(nil)
		first, _, err := p.Project(ctx, "t1", req)
		if err != nil {
			t.Fatal(err)
		}
		req.BookmarkID = models.NewID()
		again, created, err := p.Project(ctx, "t1", req)
		if err != nil || created || again.ID != first.ID {
			t.Fatalf("same materialization key: created %v id %s, %v; want the existing task %s", created, again.ID, err, first.ID)
		}
	})

	t.Run("OtherTenantIsAnotherTask", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		p := newTestProjector(store, nil)
		req := sampleBookmark(nil)
		a, _, err := p.Project(ctx, "t1", req)
		if err != nil {
			t.Fatal(err)
		}
		b, created, err := p.Project(ctx, "t2", req)
		if err != nil || !created || b.ID == a.ID || b.Tenant != "t2" {
			t.Fatalf("other tenant: created %v tenant %s, %v; want a new task of t2", created, b.Tenant, err)
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		p := newTestProjector(store, testDirectory)
		req := sampleBookmark(func(r *workflow.ProjectionRequest) {
			r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
			r.Task.MembershipMode = "snapshot"
			r.Task.Form = &workflow.FormSpec{Provider: "files", Key: "approval"}
		})
		const n = 8
		var wg sync.WaitGroup
		ids := make([]string, n)
		createdCount := make([]bool, n)
		errs := make([]error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				task, created, err := p.Project(ctx, "t1", req)
				ids[i], createdCount[i], errs[i] = task.ID, created, err
			}()
		}
		close(start)
		wg.Wait()
		created := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("delivery %d: %v", i, errs[i])
			}
			if ids[i] != ids[0] {
				t.Errorf("delivery %d answered task %s, want %s", i, ids[i], ids[0])
			}
			if createdCount[i] {
				created++
			}
		}
		if created != 1 {
			t.Errorf("created = %d deliveries, want exactly 1", created)
		}
		if got := testfactory.CountTasks(context.Background(), t, store, "t1"); got != 1 {
			t.Errorf("tasks = %d, want 1", got)
		}
		stored, err := store.Get(ctx, "t1", ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := len(stored.Assignment.Candidates); got != 3 {
			t.Errorf("candidate rows = %d, want 3", got)
		}
		events, err := store.Events(ctx, "t1", ids[0], 0, 10)
		if err != nil || len(events) != 1 {
			t.Errorf("events = %d (%v), want the one created event", len(events), err)
		}
	})

	t.Run("Capacity", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, &testfactory.StoreOpts{OpenTasksPerTenant: 1})
		p := newTestProjector(store, nil)
		if _, _, err := p.Project(ctx, "t1", sampleBookmark(nil)); err != nil {
			t.Fatal(err)
		}
		_, _, err := p.Project(ctx, "t1", sampleBookmark(nil))
		if !errors.Is(err, models.ErrCapacity) {
			t.Fatalf("err = %v, want capacity exceeded", err)
		}
		if n := testfactory.CountTasks(context.Background(), t, store, "t1"); n != 1 {
			t.Errorf("tasks = %d, want 1", n)
		}
	})

	t.Run("CancelledCallerWritesNothing", func(t *testing.T) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		cctx, cancel := context.WithCancel(ctx)
		dir := &cancellingDirectory{cancel: cancel}
		p := newTestProjector(store, dir)
		_, _, err := p.Project(cctx, "t1", sampleBookmark(func(r *workflow.ProjectionRequest) {
			r.Task.CandidateGroups = []workflow.Participant{{ID: "finance"}}
			r.Task.MembershipMode = "snapshot"
		}))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if n := testfactory.CountTasks(context.Background(), t, store, "t1"); n != 0 {
			t.Errorf("tasks = %d, want 0", n)
		}
	})
}

// cancellingDirectory cancels the caller's context while it expands, like a client that gives up.
type cancellingDirectory struct{ cancel context.CancelFunc }

func (d *cancellingDirectory) Expand(ctx context.Context, _ string, _ models.ParticipantRef) ([]models.ParticipantRef, error) {
	d.cancel()
	return nil, ctx.Err()
}

func (d *cancellingDirectory) Search(context.Context, string, string, models.ParticipantType, int) ([]models.ParticipantRef, error) {
	return nil, nil
}

func TestProjectionNotifies(t *testing.T) {
	ctx := context.Background()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	notes := &pjNotes{}
	store.NotifyChanges(notes)
	p := newTestProjector(store, nil)
	req := sampleBookmark(nil)
	task, _, err := p.Project(ctx, "t1", req)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Project(ctx, "t1", req); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Project(ctx, "t1", sampleBookmark(func(r *workflow.ProjectionRequest) { r.Task.Title = "" })); err == nil {
		t.Fatal("an invalid projection was accepted")
	}
	if got, want := fmt.Sprint(notes.list()), fmt.Sprintf("[t1/%s@1]", task.ID); got != want {
		t.Errorf("notifications = %s, want %s (the creation only)", got, want)
	}
}

func TestProjectionBodies(t *testing.T) {
	ctx := context.Background()
	body := json.RawMessage(`{"workflowDefinitionId":"d","workflowInstanceId":"i","activityInstanceId":"a","bookmarkId":"b",
	 "runtimeOnly":{"x":1},"task":{"title":"From the listing","extra":true,"candidateUsers":[{"id":"ann"}]}}`)
	// Each case projects into a store of its own and counts what it left there.
	newBodies := func(t *testing.T) (store.Store, workflow.BodyProjector) {
		store := testfactory.OpenStore(t, testfactory.SQLite, nil)
		return store, newTestProjector(store, nil).Bodies()
	}
	wantTasks := func(t *testing.T, store store.Store, want int) {
		t.Helper()
		if n := testfactory.CountTasks(ctx, t, store, "t1"); n != want {
			t.Errorf("tasks = %d, want %d", n, want)
		}
	}

	t.Run("Created", func(t *testing.T) {
		store, bodies := newBodies(t)
		created, err := bodies.Project(ctx, "t1", body)
		if err != nil || !created {
			t.Fatalf("created %v, %v; want a new task (unknown members ignored)", created, err)
		}
		wantTasks(t, store, 1)
	})
	t.Run("Repeat", func(t *testing.T) {
		store, bodies := newBodies(t)
		if created, err := bodies.Project(ctx, "t1", body); err != nil || !created {
			t.Fatalf("first: created %v, %v; want a new task", created, err)
		}
		created, err := bodies.Project(ctx, "t1", body)
		if err != nil || created {
			t.Fatalf("created %v, %v; want the existing task", created, err)
		}
		wantTasks(t, store, 1)
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		store, bodies := newBodies(t)
		for name, raw := range map[string]string{
			"NotJSON":   `{"workflowDefinitionId":`,
			"WrongType": `{"task":{"priority":"high"}}`,
			"Refused":   `{"workflowDefinitionId":"d","workflowInstanceId":"i2","activityInstanceId":"a","bookmarkId":"b2","task":{}}`,
		} {
			if _, err := bodies.Project(ctx, "t1", json.RawMessage(raw)); !errors.Is(err, models.ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", name, err)
			}
		}
		wantTasks(t, store, 0)
	})
}

func TestParseLifetime(t *testing.T) {
	ok := map[string]time.Duration{
		"P7D":      7 * 24 * time.Hour,
		"PT36H":    36 * time.Hour,
		"P1DT12H":  36 * time.Hour,
		"P2W":      14 * 24 * time.Hour,
		"PT90M":    90 * time.Minute,
		"PT1.5S":   1500 * time.Millisecond,
		"PT0,5S":   500 * time.Millisecond,
		"P1W2DT3H": 9*24*time.Hour + 3*time.Hour,
		"P366D":    366 * 24 * time.Hour,
	}
	for in, want := range ok {
		got, err := models.ParseLifetime(in)
		if err != nil || got != want {
			t.Errorf("ParseLifetime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "P", "PT", "7D", "P1Y", "P1M", "PT1H2D", "P1DT", "P-1D", "P0D", "PT0S", "P1.5D", "P367D", "P1D1D", "PT1S2M", "p1d", "P1DT1H30M15.5S5"} {
		if got, err := models.ParseLifetime(in); err == nil {
			t.Errorf("ParseLifetime(%q) = %v, want an error", in, got)
		}
	}
}
