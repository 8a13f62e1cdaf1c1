package models

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func project(t *testing.T, p Projection, w wantChange) Change {
	t.Helper()
	return mustCommit(t, Task{}, w, func(Task) (Change, error) { return Project(p, now) })
}

func TestProjectStatus(t *testing.T) {
	wantCreated := wantChange{event: EventCreated, kind: OpProjection, state: OperationCompleted}
	tests := []struct {
		name       string
		adjust     func(*Projection)
		want       Status
		wantHealth Health
	}{
		{
			name:   "AssigneeGivesAssigned",
			adjust: func(p *Projection) { p.Assignee = &ParticipantRef{ID: "bob"} },
			want:   StatusAssigned,
		},
		{
			name:   "CandidatesGiveAvailable",
			adjust: func(p *Projection) { p.Invitations = nil },
			want:   StatusAvailable,
		},
		{
			name: "SnapshotMembersAloneGiveAvailable",
			adjust: func(p *Projection) {
				p.CandidateUsers, p.CandidateGroups, p.Invitations = nil, nil, nil
				p.Mode = MembershipSnapshot
				p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "carol"}, SourceGroup: &ParticipantRef{ID: "approvers"}}}
			},
			want: StatusAvailable,
		},
		{
			name:   "InvitationDefinitionsAloneGiveAvailable",
			adjust: func(p *Projection) { p.CandidateUsers, p.CandidateGroups = nil, nil },
			want:   StatusAvailable,
		},
		{
			name: "NoParticipantsGiveUnassignedWithAdvisoryHealth",
			adjust: func(p *Projection) {
				p.CandidateUsers, p.CandidateGroups, p.Invitations = nil, nil, nil
			},
			want:       StatusUnassigned,
			wantHealth: Health{Severity: SeverityAdvisory, Code: HealthNoParticipants},
		},
		{
			name: "NoParticipantsKeepTheCallersFinding",
			adjust: func(p *Projection) {
				p.CandidateUsers, p.CandidateGroups, p.Invitations = nil, nil, nil
				p.Health = Health{Severity: SeverityBlocking, Code: HealthSnapshotDirectoryMissing, Message: "No directory."}
			},
			want:       StatusUnassigned,
			wantHealth: Health{Severity: SeverityBlocking, Code: HealthSnapshotDirectoryMissing, Message: "No directory."},
		},
		{
			name: "UnresolvedFormWithoutFindingIsFlaggedBlocking",
			adjust: func(p *Projection) {
				p.Form = &PinnedForm{Requested: &FormRef{Provider: "files", Key: "invoice"}}
			},
			want:       StatusAvailable,
			wantHealth: Health{Severity: SeverityBlocking, Code: HealthFormResolutionFailed},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := baseProjection()
			tt.adjust(&p)
			w := wantCreated
			w.status = tt.want
			ch := project(t, p, w)
			got := ch.Task
			if got.Health.Severity != tt.wantHealth.Severity || got.Health.Code != tt.wantHealth.Code {
				t.Errorf("health: got %+v, want %+v", got.Health, tt.wantHealth)
			}
			if tt.wantHealth.Message != "" && got.Health.Message != tt.wantHealth.Message {
				t.Errorf("health message: got %q, want %q", got.Health.Message, tt.wantHealth.Message)
			}
			if tt.want == StatusAssigned {
				if got.Assignee == nil || !got.Assignee.Same(userRef("bob")) || got.AssignedAt == nil || !got.AssignedAt.Equal(now) {
					t.Errorf("assignee: got %v at %v, want bob at %v", got.Assignee, got.AssignedAt, now)
				}
			} else if got.Assignee != nil || got.AssignedAt != nil {
				t.Errorf("assignee: got %v at %v, want none", got.Assignee, got.AssignedAt)
			}
		})
	}
}

func TestProjectBuildsTheTask(t *testing.T) {
	p := baseProjection()
	p.Workflow.DefinitionVersion = intPtr(7)
	p.Tags = []string{" Finance ", "finance", "URGENT", "urgent "}
	p.Requester = &ParticipantRef{ID: "rita", DisplayName: "Rita"}
	p.DueAt = timePtr(time.Date(2025, 3, 2, 10, 0, 0, 0, time.FixedZone("CET", 3600)))
	p.CandidateUsers = []ParticipantRef{{ID: "alice"}, {ID: "alice", Provider: DefaultProvider, Tenant: testTenant}, {ID: "alice", Provider: "corp-ad"}}
	p.ExcludedUsers = []ParticipantRef{{ID: "mallory"}, {ID: "mallory"}}
	p.Actions = nil
	p.Invitations = []InvitationDefinition{{VerifierName: "code", AllowedActions: []string{"complete", "COMPLETE"}}}
	p.Form = resolvedForm()

	ch := project(t, p, wantChange{status: StatusAvailable, event: EventCreated, kind: OpProjection, state: OperationCompleted})
	got := ch.Task

	t.Run("IdentityAndRevision", func(t *testing.T) {
		if got.ID == "" || got.Tenant != testTenant || got.MaterializationKey != "acme/wi-1/ai-1" {
			t.Errorf("identity: got id %q tenant %q key %q", got.ID, got.Tenant, got.MaterializationKey)
		}
		if got.Revision != 1 || got.LastEventSeq != 1 || ch.ExpectedRevision != 0 || ch.Event.Seq != 1 || ch.Event.Revision != 1 {
			t.Errorf("revision: got task %d/%d, event %d/%d, guard %d, want 1/1, 1/1, 0", got.Revision, got.LastEventSeq, ch.Event.Seq, ch.Event.Revision, ch.ExpectedRevision)
		}
		if !got.CreatedAt.Equal(now) || !got.UpdatedAt.Equal(now) {
			t.Errorf("timestamps: got %v/%v, want %v", got.CreatedAt, got.UpdatedAt, now)
		}
		if !ch.AssignmentChanged || ch.Finalize || ch.Resumption != nil {
			t.Errorf("flags: got assignmentChanged %v finalize %v resumption %v", ch.AssignmentChanged, ch.Finalize, ch.Resumption)
		}
		if got.Workflow.DefinitionVersion == nil || *got.Workflow.DefinitionVersion != 7 || got.Workflow.BookmarkID != "bm-1" {
			t.Errorf("workflow: got %+v", got.Workflow)
		}
	})
	t.Run("SafeFieldsNormalized", func(t *testing.T) {
		if want := []string{"finance", "urgent"}; !reflect.DeepEqual(got.Tags, want) {
			t.Errorf("tags: got %q, want %q", got.Tags, want)
		}
		if got.Priority != DefaultPriority {
			t.Errorf("priority: got %d, want %d", got.Priority, DefaultPriority)
		}
		if want := time.Date(2025, 3, 2, 9, 0, 0, 0, time.UTC); got.DueAt == nil || !got.DueAt.Equal(want) || got.DueAt.Location() != time.UTC {
			t.Errorf("dueAt: got %v, want %v in UTC", got.DueAt, want)
		}
		if want := (ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: "rita", DisplayName: "Rita"}); got.Requester == nil || *got.Requester != want {
			t.Errorf("requester: got %+v, want %+v", got.Requester, want)
		}
		if !reflect.DeepEqual(got.Actions, DefaultActions()) {
			t.Errorf("actions: got %+v, want the default", got.Actions)
		}
	})
	t.Run("CandidatesDeduplicatedAndSummarized", func(t *testing.T) {
		want := []Candidate{
			{Participant: userRef("alice"), Source: SourceDirectUser},
			{Participant: ParticipantRef{Tenant: testTenant, Provider: "corp-ad", Type: UserParticipant, ID: "alice"}, Source: SourceDirectUser},
			{Participant: groupRef("approvers"), Source: SourceDirectGroup},
		}
		if !reflect.DeepEqual(got.Assignment.Candidates, want) {
			t.Errorf("candidates: got %+v, want %+v", got.Assignment.Candidates, want)
		}
		if want := []ParticipantRef{userRef("mallory")}; !reflect.DeepEqual(got.Assignment.Exclusions, want) {
			t.Errorf("exclusions: got %+v, want %+v", got.Assignment.Exclusions, want)
		}
		if want := (CandidateSummary{Users: 2, Groups: 1}); got.CandidateSummary != want {
			t.Errorf("summary: got %+v, want %+v", got.CandidateSummary, want)
		}
		if got.Assignment.Mode != MembershipLive {
			t.Errorf("mode: got %q, want live", got.Assignment.Mode)
		}
	})
	t.Run("ProtectedKept", func(t *testing.T) {
		if got.Protected.Instructions != p.Instructions || string(got.Protected.Data) != string(p.Data) ||
			!reflect.DeepEqual(got.Protected.Form, resolvedForm()) {
			t.Errorf("protected: got %+v", got.Protected)
		}
		if want := []string{"Complete"}; !reflect.DeepEqual(got.Protected.InvitationDefinitions[0].AllowedActions, want) {
			t.Errorf("invitation actions: got %q, want %q (canonical, deduplicated)", got.Protected.InvitationDefinitions[0].AllowedActions, want)
		}
	})
	t.Run("SystemActor", func(t *testing.T) {
		if ch.Event.Actor != nil || ch.Operation.Actor != nil {
			t.Errorf("actor: got %v, want the system (nil)", ch.Event.Actor)
		}
	})
}

func TestProjectSnapshotMembers(t *testing.T) {
	p := baseProjection()
	p.Mode = MembershipSnapshot
	approvers := ParticipantRef{ID: "approvers"}
	auditors := ParticipantRef{ID: "auditors"}
	p.SnapshotMembers = []Candidate{
		{Participant: ParticipantRef{ID: "carol"}, Source: SourceSnapshotMember, SourceGroup: &approvers},
		{Participant: ParticipantRef{ID: "carol"}, SourceGroup: &approvers}, // identical row
		{Participant: ParticipantRef{ID: "carol"}, SourceGroup: &auditors},  // same user, other group
	}
	ch := project(t, p, wantChange{status: StatusAvailable, event: EventCreated, kind: OpProjection, state: OperationCompleted})
	var members []Candidate
	for _, c := range ch.Task.Assignment.Candidates {
		if c.Source == SourceSnapshotMember {
			members = append(members, c)
		}
	}
	want := []Candidate{
		{Participant: userRef("carol"), Source: SourceSnapshotMember, SourceGroup: refPtr(groupRef("approvers"))},
		{Participant: userRef("carol"), Source: SourceSnapshotMember, SourceGroup: refPtr(groupRef("auditors"))},
	}
	if !reflect.DeepEqual(members, want) {
		t.Errorf("snapshot members: got %+v, want %+v", members, want)
	}
	if want := (CandidateSummary{Users: 3, Groups: 1}); ch.Task.CandidateSummary != want {
		t.Errorf("summary: got %+v, want %+v", ch.Task.CandidateSummary, want)
	}
}

func TestProjectAcceptsBoundaries(t *testing.T) {
	tests := []struct {
		name   string
		adjust func(*Projection)
	}{
		{"PriorityZero", func(p *Projection) { p.Priority = intPtr(0) }},
		{"PriorityHundred", func(p *Projection) { p.Priority = intPtr(100) }},
		{"TitleAtLimit", func(p *Projection) { p.Title = strings.Repeat("t", MaxTitleLength) }},
		{"ThirtyTwoTags", func(p *Projection) { p.Tags = manyTags(MaxTags) }},
		{"DuplicateTagsBeyondTheLimit", func(p *Projection) { p.Tags = append(manyTags(MaxTags), manyTags(MaxTags)...) }},
		{"ParticipantsAtLimit", func(p *Projection) { p.CandidateUsers = manyUsers(MaxParticipantsPerTask - 2) }},
		{"InvitationsAtLimit", func(p *Projection) { p.Invitations = manyInvitations(MaxInvitationsPerTask) }},
		{"DataNull", func(p *Projection) { p.Data = json.RawMessage(" null ") }},
		{"InstructionsAtLimit", func(p *Projection) { p.Instructions = strings.Repeat("i", MaxProtectedPayloadBytes) }},
		{"LiveModeExplicit", func(p *Projection) { p.Mode = MembershipLive }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := baseProjection()
			tt.adjust(&p)
			if _, err := Project(p, now); err != nil {
				t.Fatalf("got %v, want the projection accepted", err)
			}
		})
	}
	t.Run("DataNullStoredAsAbsent", func(t *testing.T) {
		p := baseProjection()
		p.Data = json.RawMessage("null")
		ch, err := Project(p, now)
		if err != nil || ch.Task.Protected.Data != nil {
			t.Fatalf("got data %q, err %v; want nil", ch.Task.Protected.Data, err)
		}
	})
}

func manyTags(n int) []string {
	tags := make([]string, n)
	for i := range tags {
		tags[i] = fmt.Sprintf("tag-%d", i)
	}
	return tags
}

func manyUsers(n int) []ParticipantRef {
	refs := make([]ParticipantRef, n)
	for i := range refs {
		refs[i] = ParticipantRef{ID: fmt.Sprintf("user-%d", i)}
	}
	return refs
}

func manyInvitations(n int) []InvitationDefinition {
	defs := make([]InvitationDefinition, n)
	for i := range defs {
		defs[i] = InvitationDefinition{VerifierName: "code", AllowedActions: []string{"Approve"}}
	}
	return defs
}

func TestProjectRefusals(t *testing.T) {
	big := strings.Repeat("x", MaxProtectedPayloadBytes+1)
	tests := []struct {
		name   string
		adjust func(*Projection)
		code   Code
		field  string
	}{
		{"TitleMissing", func(p *Projection) { p.Title = "  " }, CodeValidationFailed, "title"},
		{"TitleTooLong", func(p *Projection) { p.Title = strings.Repeat("t", MaxTitleLength+1) }, CodeValidationFailed, "title"},
		{"TitleNotUTF8", func(p *Projection) { p.Title = "bad \xff" }, CodeValidationFailed, "title"},
		{"SummaryTooLong", func(p *Projection) { p.Summary = strings.Repeat("s", MaxSummaryLength+1) }, CodeValidationFailed, "summary"},
		{"ReferenceTooLong", func(p *Projection) { p.Reference = strings.Repeat("r", MaxReferenceLength+1) }, CodeValidationFailed, "reference"},
		{"TaskTypeTooLong", func(p *Projection) { p.TaskType = strings.Repeat("k", MaxTaskTypeLength+1) }, CodeValidationFailed, "taskType"},
		{"TenantMissing", func(p *Projection) { p.Tenant = "" }, CodeValidationFailed, "tenant"},
		{"TenantTooLong", func(p *Projection) { p.Tenant = strings.Repeat("a", MaxTenantLength+1) }, CodeValidationFailed, "tenant"},
		{"DefinitionIDMissing", func(p *Projection) { p.Workflow.DefinitionID = "" }, CodeValidationFailed, "workflowDefinitionId"},
		{"DefinitionNameTooLong", func(p *Projection) { p.Workflow.DefinitionName = strings.Repeat("n", MaxWorkflowNameLength+1) }, CodeValidationFailed, "workflowDefinitionName"},
		{"DefinitionVersionNegative", func(p *Projection) { p.Workflow.DefinitionVersion = intPtr(-1) }, CodeValidationFailed, "workflowDefinitionVersion"},
		{"InstanceIDMissing", func(p *Projection) { p.Workflow.InstanceID = "" }, CodeValidationFailed, "workflowInstanceId"},
		{"InstanceIDTooLong", func(p *Projection) { p.Workflow.InstanceID = strings.Repeat("i", MaxWorkflowIDLength+1) }, CodeValidationFailed, "workflowInstanceId"},
		{"ActivityInstanceIDMissing", func(p *Projection) { p.Workflow.ActivityInstanceID = "" }, CodeValidationFailed, "activityInstanceId"},
		{"BookmarkIDMissing", func(p *Projection) { p.Workflow.BookmarkID = "" }, CodeValidationFailed, "bookmarkId"},
		{"BookmarkIDTooLong", func(p *Projection) { p.Workflow.BookmarkID = strings.Repeat("b", MaxBookmarkIDLength+1) }, CodeValidationFailed, "bookmarkId"},
		{"InstanceReferenceTooLong", func(p *Projection) { p.Workflow.InstanceReference = strings.Repeat("r", MaxReferenceLength+1) }, CodeValidationFailed, "workflowInstanceReference"},
		{"TooManyTags", func(p *Projection) { p.Tags = manyTags(MaxTags + 1) }, CodeValidationFailed, "tags"},
		{"TagTooLong", func(p *Projection) { p.Tags = []string{strings.Repeat("g", MaxTagLength+1)} }, CodeValidationFailed, "tags[0]"},
		{"TagEmpty", func(p *Projection) { p.Tags = []string{"ok", " "} }, CodeValidationFailed, "tags[1]"},
		{"PriorityBelowZero", func(p *Projection) { p.Priority = intPtr(-1) }, CodeInvalidPriority, "priority"},
		{"PriorityAboveHundred", func(p *Projection) { p.Priority = intPtr(101) }, CodeInvalidPriority, "priority"},
		{"DueAtZero", func(p *Projection) { p.DueAt = &time.Time{} }, CodeValidationFailed, "dueAt"},
		{"TooManyParticipants", func(p *Projection) { p.CandidateUsers = manyUsers(MaxParticipantsPerTask) }, CodeValidationFailed, "candidates"},
		{"TooManyInvitations", func(p *Projection) { p.Invitations = manyInvitations(MaxInvitationsPerTask + 1) }, CodeValidationFailed, "invitations"},
		{"ActionKeyEmpty", func(p *Projection) { p.Invitations, p.Actions = nil, []Action{{Key: ""}} }, CodeValidationFailed, "actions[0].key"},
		{"ActionKeyPadded", func(p *Projection) { p.Invitations, p.Actions = nil, []Action{{Key: " Approve"}} }, CodeValidationFailed, "actions[0].key"},
		{"ActionKeyTooLong", func(p *Projection) {
			p.Invitations, p.Actions = nil, []Action{{Key: strings.Repeat("a", MaxActionKeyLength+1)}}
		}, CodeValidationFailed, "actions[0].key"},
		{"ActionLabelTooLong", func(p *Projection) {
			p.Invitations, p.Actions = nil, []Action{{Key: "A", Label: strings.Repeat("l", MaxActionLabelLength+1)}}
		}, CodeValidationFailed, "actions[0].label"},
		{"ActionKeyDuplicateIgnoringCase", func(p *Projection) { p.Invitations, p.Actions = nil, []Action{{Key: "Approve"}, {Key: "APPROVE"}} }, CodeValidationFailed, "actions[1].key"},
		{"ActionTimeoutReserved", func(p *Projection) { p.Invitations, p.Actions = nil, []Action{{Key: "Approve"}, {Key: "timeout"}} }, CodeReservedAction, "actions[1].key"},
		{"ActionCancelledReserved", func(p *Projection) { p.Invitations, p.Actions = nil, []Action{{Key: "CANCELLED"}} }, CodeReservedAction, "actions[0].key"},
		{"TooManyActions", func(p *Projection) {
			p.Actions, p.Invitations = nil, nil
			for i := 0; i <= MaxActions; i++ {
				p.Actions = append(p.Actions, Action{Key: fmt.Sprintf("a%d", i)})
			}
		}, CodeValidationFailed, "actions"},
		{"InstructionsTooLarge", func(p *Projection) { p.Instructions = big }, CodePayloadTooLarge, "instructions"},
		{"DataTooLarge", func(p *Projection) { p.Data = json.RawMessage(`{"x":"` + big + `"}`) }, CodePayloadTooLarge, "taskData"},
		{"DataNotAnObject", func(p *Projection) { p.Data = json.RawMessage(`[1,2]`) }, CodeValidationFailed, "taskData"},
		{"DataMalformed", func(p *Projection) { p.Data = json.RawMessage(`{"x":`) }, CodeValidationFailed, "taskData"},
		{"FormSchemaTooLarge", func(p *Projection) {
			p.Form = &PinnedForm{Schema: json.RawMessage(`{"x":"` + big + `"}`)}
		}, CodePayloadTooLarge, "form.schema"},
		{"FormSchemaNotAnObject", func(p *Projection) { p.Form = &PinnedForm{Schema: json.RawMessage(`"schema"`)} }, CodeValidationFailed, "form.schema"},
		{"CandidateOfAnotherTenant", func(p *Projection) {
			p.CandidateUsers = []ParticipantRef{{Tenant: "globex", ID: "alice"}}
		}, CodeValidationFailed, "candidateUsers[0]"},
		{"AssigneeOfAnotherTenant", func(p *Projection) { p.Assignee = &ParticipantRef{Tenant: "globex", ID: "bob"} }, CodeValidationFailed, "assignee"},
		{"CandidateUserThatIsAGroup", func(p *Projection) {
			p.CandidateUsers = []ParticipantRef{{Type: GroupParticipant, ID: "approvers"}}
		}, CodeValidationFailed, "candidateUsers[0].type"},
		{"CandidateGroupThatIsAUser", func(p *Projection) {
			p.CandidateGroups = []ParticipantRef{{Type: UserParticipant, ID: "alice"}}
		}, CodeValidationFailed, "candidateGroups[0].type"},
		{"ParticipantIDMissing", func(p *Projection) { p.ExcludedUsers = []ParticipantRef{{ID: ""}} }, CodeValidationFailed, "excludedUsers[0].id"},
		{"ParticipantIDTooLong", func(p *Projection) {
			p.CandidateUsers = []ParticipantRef{{ID: strings.Repeat("u", MaxParticipantIDLength+1)}}
		}, CodeValidationFailed, "candidateUsers[0].id"},
		{"ParticipantProviderTooLong", func(p *Projection) {
			p.CandidateUsers = []ParticipantRef{{ID: "u", Provider: strings.Repeat("p", MaxProviderLength+1)}}
		}, CodeValidationFailed, "candidateUsers[0].provider"},
		{"DisplayNameTooLong", func(p *Projection) {
			p.Requester = &ParticipantRef{ID: "rita", DisplayName: strings.Repeat("d", MaxDisplayNameLength+1)}
		}, CodeValidationFailed, "requester.displayName"},
		{"GuestParticipant", func(p *Projection) {
			p.Assignee = refPtr(GuestRef(testTenant, "inv-1"))
		}, CodeValidationFailed, "assignee.provider"},
		{"ExcludedAssignee", func(p *Projection) { p.Assignee = &ParticipantRef{ID: "mallory"} }, CodeExcludedAssignee, "assignee"},
		{"UnknownMembershipMode", func(p *Projection) { p.Mode = "eventual" }, CodeValidationFailed, "membershipMode"},
		{"SnapshotMembersInLiveMode", func(p *Projection) {
			p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "carol"}, SourceGroup: &ParticipantRef{ID: "approvers"}}}
		}, CodeValidationFailed, "snapshotMembers"},
		{"SnapshotMemberWithoutGroup", func(p *Projection) {
			p.Mode = MembershipSnapshot
			p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "carol"}}}
		}, CodeValidationFailed, "snapshotMembers[0].sourceGroup"},
		{"SnapshotMemberWithWrongSource", func(p *Projection) {
			p.Mode = MembershipSnapshot
			p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "carol"}, Source: SourceDirectUser, SourceGroup: &ParticipantRef{ID: "approvers"}}}
		}, CodeValidationFailed, "snapshotMembers[0].source"},
		{"InvitationWithoutVerifier", func(p *Projection) {
			p.Invitations = []InvitationDefinition{{AllowedActions: []string{"Approve"}}}
		}, CodeValidationFailed, "invitations[0].verifierName"},
		{"InvitationWithoutActions", func(p *Projection) {
			p.Invitations = []InvitationDefinition{{VerifierName: "code"}}
		}, CodeValidationFailed, "invitations[0].allowedActions"},
		{"InvitationWithUndeclaredAction", func(p *Projection) {
			p.Invitations = []InvitationDefinition{{VerifierName: "code", AllowedActions: []string{"Escalate"}}}
		}, CodeInvalidAction, "invitations[0].allowedActions[0]"},
		{"InvitationWithReservedAction", func(p *Projection) {
			p.Invitations = []InvitationDefinition{{VerifierName: "code", AllowedActions: []string{"Timeout"}}}
		}, CodeReservedAction, "invitations[0].allowedActions[0]"},
		{"HealthWithUnknownSeverity", func(p *Projection) { p.Health = Health{Severity: "fatal", Code: "x"} }, CodeValidationFailed, "health.severity"},
		{"HealthCodeWithoutSeverity", func(p *Projection) { p.Health = Health{Code: HealthFormResolutionFailed} }, CodeValidationFailed, "health.severity"},
		{"HealthMessageTooLong", func(p *Projection) {
			p.Health = Health{Severity: SeverityBlocking, Code: HealthFormResolutionFailed, Message: strings.Repeat("m", MaxHealthMessageLength+1)}
		}, CodeValidationFailed, "health.message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := baseProjection()
			tt.adjust(&p)
			ch, err := Project(p, now)
			wantCode(t, err, tt.code)
			wantField(t, err, tt.field)
			if !reflect.DeepEqual(ch, Change{}) {
				t.Errorf("got change %+v with the refusal, want the zero Change", ch)
			}
		})
	}
}

func TestProjectListsEveryProblem(t *testing.T) {
	p := baseProjection()
	p.Title = ""
	p.Summary = strings.Repeat("s", MaxSummaryLength+1)
	p.Priority = intPtr(500)
	_, err := Project(p, now)
	t.Run("SpecificCodeWins", func(t *testing.T) { wantCode(t, err, CodeInvalidPriority) })
	for _, field := range []string{"title", "summary", "priority"} {
		t.Run("Names_"+field, func(t *testing.T) { wantField(t, err, field) })
	}
}
