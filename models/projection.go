package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Projection is one committed workflow bookmark to materialize as a task (SPEC 5.2), parsed by
// the caller. The caller has already expanded snapshot groups into SnapshotMembers and resolved
// the form; when either failed it leaves the part empty and sets a blocking Health.
type Projection struct {
	Tenant   string
	Workflow WorkflowLink

	Title     string
	Summary   string
	Reference string
	TaskType  string
	Tags      []string
	Requester *ParticipantRef
	Priority  *int // nil → DefaultPriority
	DueAt     *time.Time

	Assignee               *ParticipantRef
	CandidateUsers         []ParticipantRef
	CandidateGroups        []ParticipantRef
	ExcludedUsers          []ParticipantRef
	SnapshotMembers        []Candidate    // Source snapshot-member, with SourceGroup
	Mode                   MembershipMode // "" → live
	AllowExclusionOverride bool

	Instructions string
	Data         json.RawMessage // a JSON object, or empty
	Form         *PinnedForm

	Actions             []Action // empty → DefaultActions()
	Invitations         []InvitationDefinition
	TimeoutEnabled      bool
	CancellationEnabled bool
	Deadlines           []DeadlineDefinition // at most MaxDeadlines (SPEC 10.4); nil: the tenant's policy for the definition, if any

	Health Health // a blocking finding when snapshot expansion or form resolution failed
}

// Limits of invitation definitions; they live inside the protected blob, so they only keep it small.
const (
	maxVerifierNameLength = 64
	maxLifetimeLength     = 64
	maxRecipientLength    = 320 // the longest e-mail address
)

// Project materializes a projection as a new task (SPEC 3.3, first three rows): Assigned with a
// direct assignee; Available with candidates, snapshot members or invitation definitions;
// otherwise Unassigned with advisory health no-participants (unless the caller set a finding).
// The change is a creation: ExpectedRevision 0, revision 1, event `created` with sequence 1.
func Project(p Projection, now time.Time) (Change, error) {
	var pr problems
	tenant := p.Tenant
	pr.text("tenant", tenant, MaxTenantLength, true, Identifier)

	w := p.Workflow
	pr.text("workflowDefinitionId", w.DefinitionID, MaxWorkflowIDLength, true, Identifier)
	pr.text("workflowDefinitionName", w.DefinitionName, MaxWorkflowNameLength, false, Label)
	if w.DefinitionVersion != nil && *w.DefinitionVersion < 0 {
		pr.fail("workflowDefinitionVersion", "must not be negative")
	}
	pr.text("workflowInstanceId", w.InstanceID, MaxWorkflowIDLength, true, Identifier)
	pr.text("workflowInstanceReference", w.InstanceReference, MaxReferenceLength, false, Identifier)
	pr.text("activityInstanceId", w.ActivityInstanceID, MaxWorkflowIDLength, true, Identifier)
	pr.text("bookmarkId", w.BookmarkID, MaxBookmarkIDLength, true, Identifier)

	pr.text("title", p.Title, MaxTitleLength, true, Label)
	pr.text("summary", p.Summary, MaxSummaryLength, false, Prose)
	pr.text("reference", p.Reference, MaxReferenceLength, false, Identifier)
	pr.text("taskType", p.TaskType, MaxTaskTypeLength, false, Identifier)
	tags := pr.tags(p.Tags)

	priority := DefaultPriority
	pr.priority(p.Priority)
	if p.Priority != nil {
		priority = *p.Priority
	}
	var dueAt *time.Time
	if p.DueAt != nil {
		if p.DueAt.IsZero() {
			pr.fail("dueAt", "must be a time")
		}
		d := p.DueAt.UTC()
		dueAt = &d
	}

	var requester, assignee *ParticipantRef
	if p.Requester != nil {
		if r, ok := pr.participant("requester", *p.Requester, tenant, UserParticipant, CodeValidationFailed); ok {
			requester = &r
		}
	}
	if p.Assignee != nil {
		if r, ok := pr.participant("assignee", *p.Assignee, tenant, UserParticipant, CodeValidationFailed); ok {
			assignee = &r
		}
	}

	mode := p.Mode
	switch mode {
	case "":
		mode = MembershipLive
	case MembershipLive, MembershipSnapshot:
	default:
		pr.fail("membershipMode", "must be live or snapshot")
	}

	var candidates []Candidate
	for i, ref := range p.CandidateUsers {
		if r, ok := pr.participant(fmt.Sprintf("candidateUsers[%d]", i), ref, tenant, UserParticipant, CodeValidationFailed); ok {
			candidates = append(candidates, Candidate{Participant: r, Source: SourceDirectUser})
		}
	}
	// Direct groups are kept in snapshot mode too: they name what retry-resolution expands again.
	for i, ref := range p.CandidateGroups {
		if r, ok := pr.participant(fmt.Sprintf("candidateGroups[%d]", i), ref, tenant, GroupParticipant, CodeValidationFailed); ok {
			candidates = append(candidates, Candidate{Participant: r, Source: SourceDirectGroup})
		}
	}
	if len(p.SnapshotMembers) > 0 && mode != MembershipSnapshot {
		pr.fail("snapshotMembers", "only with membership mode snapshot")
	}
	candidates = append(candidates, pr.snapshotMembers("snapshotMembers", p.SnapshotMembers, tenant)...)
	candidates = dedupeCandidates(candidates)

	var exclusions []ParticipantRef
	for i, ref := range p.ExcludedUsers {
		if r, ok := pr.participant(fmt.Sprintf("excludedUsers[%d]", i), ref, tenant, UserParticipant, CodeValidationFailed); ok {
			exclusions = append(exclusions, r)
		}
	}
	exclusions = dedupeRefs(exclusions)
	if n := len(candidates) + len(exclusions); n > MaxParticipantsPerTask {
		pr.fail("candidates", fmt.Sprintf("candidates and exclusions must be at most %d, got %d", MaxParticipantsPerTask, n))
	}
	assignment := Assignment{Candidates: candidates, Exclusions: exclusions, Mode: mode, AllowExclusionOverride: p.AllowExclusionOverride}
	if assignee != nil && assignment.Excludes(*assignee) {
		// The definition contradicts itself; exclusions override candidacy everywhere.
		pr.add(CodeExcludedAssignee, "assignee", "is excluded from the task")
	}

	if len(p.Instructions) > MaxProtectedPayloadBytes {
		pr.add(CodePayloadTooLarge, "instructions", fmt.Sprintf("must be at most %d bytes", MaxProtectedPayloadBytes))
	}
	var data json.RawMessage
	if !nullJSON(p.Data) {
		switch {
		case len(p.Data) > MaxProtectedPayloadBytes:
			pr.add(CodePayloadTooLarge, "taskData", fmt.Sprintf("must be at most %d bytes", MaxProtectedPayloadBytes))
		case !jsonObject(p.Data):
			pr.fail("taskData", "must be a JSON object")
		}
		data = bytes.Clone(p.Data)
	}
	pr.form("form", p.Form)

	actions := pr.actions(p.Actions)
	invitations := pr.invitations(p.Invitations, actions)
	pr.health("health", p.Health)
	deadlines := pr.deadlines(p.Deadlines, tenant, now)

	if err := pr.err(); err != nil {
		return Change{}, err
	}

	task := Task{
		ID:                  NewID(),
		Tenant:              tenant,
		Workflow:            w,
		MaterializationKey:  MaterializationKey(tenant, w.InstanceID, w.ActivityInstanceID),
		Title:               p.Title,
		Summary:             p.Summary,
		Reference:           p.Reference,
		Tags:                tags,
		TaskType:            p.TaskType,
		Requester:           requester,
		Priority:            priority,
		DueAt:               dueAt,
		CreatedAt:           now,
		Assignee:            assignee,
		Assignment:          assignment,
		CandidateSummary:    assignment.Summarize(),
		Actions:             actions,
		TimeoutEnabled:      p.TimeoutEnabled,
		CancellationEnabled: p.CancellationEnabled,
		Health:              p.Health,
		Protected: Protected{
			Instructions:          p.Instructions,
			Data:                  data,
			Form:                  cloneForm(p.Form),
			InvitationDefinitions: invitations,
		},
	}
	task.Workflow.DefinitionVersion = clonePtr(w.DefinitionVersion)
	switch {
	case assignee != nil:
		task.Status = StatusAssigned
		task.AssignedAt = clonePtr(&now)
	case hasParticipants(task):
		task.Status = StatusAvailable
	default:
		task.Status = StatusUnassigned
	}
	if task.Protected.Form != nil && !task.Protected.Form.Resolved() && task.Health.Severity == SeverityNone {
		// A form reference without a pinned schema can never be completed: flag it for managers
		// even when the caller forgot to.
		task.Health = Health{Severity: SeverityBlocking, Code: HealthFormResolutionFailed, Message: "The task's form could not be resolved."}
	}
	settleParticipantsHealth(&task)

	ch, err := commit(Task{}, task, transition{
		kind:        OpProjection,
		event:       EventCreated,
		state:       OperationCompleted,
		requestHash: RequestHash(OpProjection, 0, map[string]string{"materializationKey": task.MaterializationKey, "bookmarkId": w.BookmarkID}),
		metadata:    map[string]any{"status": task.Status},
	}, now)
	if err != nil {
		return Change{}, err
	}
	ch.AssignmentChanged = true
	for i := range deadlines {
		deadlines[i].TaskID = task.ID
	}
	ch.Deadlines = deadlines
	ch.DefaultDeadlines = p.Deadlines == nil
	return ch, nil
}

// tags normalizes tags into a case-insensitive set, in first-seen order.
func (p *problems) tags(tags []string) []string {
	var out []string
	seen := make(map[string]bool, len(tags))
	for i, raw := range tags {
		tag := NormalizeTag(raw)
		f := fmt.Sprintf("tags[%d]", i)
		p.text(f, tag, MaxTagLength, true, Identifier)
		if tag != "" && !seen[tag] {
			seen[tag] = true
			out = append(out, tag)
		}
	}
	if len(out) > MaxTags {
		p.fail("tags", fmt.Sprintf("must be at most %d distinct tags, got %d", MaxTags, len(out)))
	}
	return out
}

// actions validates declared actions: keys literal, non-empty, unique case-insensitively and not
// reserved; an empty list becomes DefaultActions. A missing label takes the key.
func (p *problems) actions(actions []Action) []Action {
	if len(actions) == 0 {
		return DefaultActions()
	}
	if len(actions) > MaxActions {
		p.fail("actions", fmt.Sprintf("must be at most %d actions", MaxActions))
	}
	out := make([]Action, 0, len(actions))
	seen := make(map[string]bool, len(actions))
	for i, a := range actions {
		f := fmt.Sprintf("actions[%d]", i)
		lower := strings.ToLower(a.Key)
		switch {
		case strings.TrimSpace(a.Key) == "":
			p.fail(f+".key", "is required")
		case strings.TrimSpace(a.Key) != a.Key:
			p.fail(f+".key", "must not start or end with spaces")
		case isReservedAction(a.Key):
			p.add(CodeReservedAction, f+".key", a.Key+" is reserved")
		case seen[lower]:
			p.fail(f+".key", "is declared twice (keys are compared case-insensitively)")
		default:
			p.text(f+".key", a.Key, MaxActionKeyLength, true, Identifier)
		}
		seen[lower] = true
		if a.Label == "" {
			a.Label = a.Key
		}
		p.text(f+".label", a.Label, MaxActionLabelLength, false, Label)
		out = append(out, a)
	}
	return out
}

// isReservedAction reports whether key names an outcome only the system produces.
func isReservedAction(key string) bool {
	return strings.EqualFold(key, ActionTimeout) || strings.EqualFold(key, ActionCancelled)
}

// invitations validates guest invitation definitions against the declared actions; allowed
// actions take the declared key's spelling.
func (p *problems) invitations(defs []InvitationDefinition, actions []Action) []InvitationDefinition {
	if len(defs) > MaxInvitationsPerTask {
		p.fail("invitations", fmt.Sprintf("must be at most %d invitation definitions", MaxInvitationsPerTask))
	}
	declared := Task{Actions: actions}
	var out []InvitationDefinition
	for i, d := range defs {
		f := fmt.Sprintf("invitations[%d]", i)
		p.text(f+".verifierName", d.VerifierName, maxVerifierNameLength, true, Identifier)
		p.text(f+".lifetime", d.Lifetime, maxLifetimeLength, false, Identifier)
		p.text(f+".recipient", d.Recipient, maxRecipientLength, false, Identifier)
		if len(d.AllowedActions) == 0 {
			p.fail(f+".allowedActions", "is required")
		}
		var allowed []string
		for j, key := range d.AllowedActions {
			a, ok := declared.FindAction(key)
			switch {
			case isReservedAction(key):
				p.add(CodeReservedAction, fmt.Sprintf("%s.allowedActions[%d]", f, j), key+" is reserved")
			case !ok:
				p.add(CodeInvalidAction, fmt.Sprintf("%s.allowedActions[%d]", f, j), "is not a declared action")
			case !containsFold(allowed, a.Key):
				allowed = append(allowed, a.Key)
			}
		}
		d.AllowedActions = allowed
		out = append(out, d)
	}
	return out
}

// containsFold reports whether list holds s, compared case-insensitively.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
