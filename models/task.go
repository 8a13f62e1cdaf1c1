package models

import (
	"encoding/json"
	"strings"
	"time"
)

// WorkflowLink ties a task to the workflow step that waits for it.
type WorkflowLink struct {
	DefinitionID       string
	DefinitionName     string
	DefinitionVersion  *int
	InstanceID         string
	InstanceReference  string
	ActivityInstanceID string
	BookmarkID         string
}

// MaterializationKey is the normalized tenant/workflow-instance/activity-instance tuple.
func MaterializationKey(tenant, workflowInstanceID, activityInstanceID string) string {
	return tenant + "/" + workflowInstanceID + "/" + activityInstanceID
}

// MembershipMode says how group candidates are matched.
type MembershipMode string

const (
	MembershipLive     MembershipMode = "live"
	MembershipSnapshot MembershipMode = "snapshot"
)

// CandidateSource records why a participant is a candidate.
type CandidateSource string

const (
	SourceDirectUser     CandidateSource = "direct-user"
	SourceDirectGroup    CandidateSource = "direct-group"
	SourceSnapshotMember CandidateSource = "snapshot-member"
	SourceInvitation     CandidateSource = "invitation"
)

// Candidate is one materialized candidate relationship.
type Candidate struct {
	Participant ParticipantRef
	Source      CandidateSource
	SourceGroup *ParticipantRef // the expanded group, for snapshot members
}

// Assignment is the candidate configuration fixed at projection.
type Assignment struct {
	Candidates             []Candidate
	Exclusions             []ParticipantRef
	Mode                   MembershipMode
	AllowExclusionOverride bool
}

// CandidateSummary carries counts only: candidate identities are never shown to peers.
type CandidateSummary struct {
	Users  int
	Groups int
}

// Summarize counts direct and snapshot users and direct groups.
func (a Assignment) Summarize() CandidateSummary {
	var s CandidateSummary
	for _, c := range a.Candidates {
		switch c.Source {
		case SourceDirectUser, SourceSnapshotMember:
			s.Users++
		case SourceDirectGroup:
			s.Groups++
		}
	}
	return s
}

// Excludes reports whether p is excluded from the task.
func (a Assignment) Excludes(p ParticipantRef) bool {
	for _, e := range a.Exclusions {
		if e.Same(p) {
			return true
		}
	}
	return false
}

// Action is one way of completing a task.
type Action struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Reserved action keys: the runtime receives them for timeouts and cancellations.
const (
	ActionComplete  = "Complete"
	ActionTimeout   = "Timeout"
	ActionCancelled = "Cancelled"
)

// DefaultActions is used when a projection declares none.
func DefaultActions() []Action { return []Action{{Key: ActionComplete, Label: ActionComplete}} }

// FormRef names a form held by a form provider.
type FormRef struct {
	Provider string `json:"provider"`
	Key      string `json:"key"`
	Version  string `json:"version,omitempty"`
}

// PinnedForm is the form resolved at projection. Requested keeps the original reference
// so retry-resolution can resolve it again; it is nil for inline forms.
type PinnedForm struct {
	Requested *FormRef        `json:"requested,omitempty"`
	Provider  string          `json:"provider,omitempty"`
	Key       string          `json:"key,omitempty"`
	Version   string          `json:"version,omitempty"`
	Schema    json.RawMessage `json:"schema,omitempty"`
}

// Resolved reports whether a schema is pinned.
func (f *PinnedForm) Resolved() bool { return f != nil && len(f.Schema) > 0 }

// InvitationDefinition is a guest invitation a manager may issue for the task.
type InvitationDefinition struct {
	VerifierName   string   `json:"verifierName"`
	AllowedActions []string `json:"allowedActions"`
	BearerOnly     bool     `json:"bearerOnly,omitempty"`
	Lifetime       string   `json:"lifetime,omitempty"`
	Recipient      string   `json:"recipient,omitempty"`
}

// Protected holds the task's encrypted-at-rest content. It never appears in lists,
// search, events, logs or notifications.
type Protected struct {
	Instructions          string
	Data                  json.RawMessage
	Form                  *PinnedForm
	CompletionData        json.RawMessage
	InvitationDefinitions []InvitationDefinition
}

// Outcome is recorded when a task leaves its open states through a transition.
type Outcome struct {
	ActionKey   string
	CompletedBy *ParticipantRef
	// OnBehalfOf is the delegator when a delegate completed the task (SPEC 10.5); the stores
	// derive it from the task's DelegatedBy, which a completion keeps.
	OnBehalfOf *ParticipantRef
}

// Task is the user task aggregate.
type Task struct {
	ID                 string
	Tenant             string
	Workflow           WorkflowLink
	MaterializationKey string

	Title     string
	Summary   string
	Reference string
	Tags      []string
	TaskType  string
	Requester *ParticipantRef
	Priority  int
	DueAt     *time.Time
	IsOverdue bool

	Status         Status
	CreatedAt      time.Time
	UpdatedAt      time.Time
	AssignedAt     *time.Time
	CompletedAt    *time.Time
	TransitionedAt *time.Time // when the task entered its transitional status

	Assignee *ParticipantRef
	// DelegatedBy is the assignee who delegated the task to the current one (SPEC 10.5); nil
	// unless the task is delegated. Any other new assignment or a release ends the delegation.
	DelegatedBy      *ParticipantRef
	Assignment       Assignment
	CandidateSummary CandidateSummary

	Actions             []Action
	TimeoutEnabled      bool
	CancellationEnabled bool

	Health    Health
	Protected Protected
	Outcome   Outcome

	Revision int
	// LastEventSeq is the sequence of the newest event; the next event takes LastEventSeq+1.
	LastEventSeq int
}

// IsAssignee reports whether p is the task's assignee.
func (t *Task) IsAssignee(p ParticipantRef) bool { return t.Assignee != nil && t.Assignee.Same(p) }

// FindAction returns the declared action with key, compared case-insensitively.
func (t *Task) FindAction(key string) (Action, bool) {
	for _, a := range t.Actions {
		if strings.EqualFold(a.Key, key) {
			return a, true
		}
	}
	return Action{}, false
}

// NormalizeTag lowercases and trims a tag; tags are a case-insensitive set.
func NormalizeTag(tag string) string { return strings.ToLower(strings.TrimSpace(tag)) }
