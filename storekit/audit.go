package storekit

import (
	"encoding/json"
	"strings"

	"usertasks/models"
)

// The audit (SPEC 8, `web audit`) as every store runs it: the invariant codes of its findings and
// the tables and checks its per-task rules (audit_rules.go) read. Each store reads its own
// records and hands them to an Auditor (audit_page.go).

// Invariant codes of the audit's findings. docs/operations.md explains each one.
const (
	InvEventSequence    = "event-sequence"      // last_event_seq = max(seq) = count, seq 1..n without gaps
	InvEventRevision    = "event-revision"      // event revisions non-decreasing, the last one the task's revision
	InvStatusEvent      = "status-event"        // the last status-changing event implies the status
	InvStatusFields     = "status-fields"       // completed_at, transitioned_at, assignee and assigned_at agree with the status
	InvCandidateStatus  = "candidate-status"    // candidate rows' status copies equal the task's status
	InvCandidateSummary = "candidate-summary"   // candidate_users / candidate_groups count the candidate rows
	InvTagRows          = "tag-rows"            // the tag rows are the normalized tags of the tags column
	InvSearchText       = "search-text"         // search_text is the projection of the safe fields
	InvOverdueFlag      = "overdue-flag"        // is_overdue only with a due date that has passed
	InvOperationState   = "operation-state"     // an accepted operation exactly while transitional, of the matching kind
	InvResumption       = "resumption-outbox"   // a resumption row for a transitional task's operation, none pending otherwise
	InvResumeStimulus   = "resume-stimulus"     // the accepted operation holds what its delivery and finalization read
	InvCiphertext       = "ciphertext"          // every sealed value opens with the configured keys
	InvChildTenant      = "child-tenant"        // a task's rows all carry the task's tenant
	InvTenantCounter    = "tenant-counter"      // the tenant's open-task counter counts its open and transitional tasks
	InvInvitationGuest  = "invitation-guest"    // a verified invitation ⇔ its guest is (or was, until an event moved the task on) the assignee
	InvInvitationGroup  = "invitation-siblings" // at most one verified invitation per sibling group
	InvGuestSession     = "guest-session"       // a live session only for a verified invitation of a task its guest holds
	InvDeliveryState    = "delivery-state"      // a pending delivery only for a pending or dispatched invitation of the same task
	InvTokenHash        = "token-hash"          // invitation and session token hashes are 64 lowercase hex digits
)

// Invariants lists every code in the order a report prints them.
var Invariants = []string{
	InvEventSequence, InvEventRevision, InvStatusEvent, InvStatusFields, InvCandidateStatus,
	InvCandidateSummary, InvTagRows, InvSearchText, InvOverdueFlag, InvOperationState, InvResumption,
	InvResumeStimulus, InvCiphertext, InvChildTenant, InvTenantCounter, InvInvitationGuest, InvInvitationGroup,
	InvGuestSession, InvDeliveryState, InvTokenHash,
}

// SealedTable is a logical table holding sealed values: a key rotation (RekeyPage) walks it by
// name; the audit checks its values with their task when it is TaskScoped, and AuditSealed the
// others (browser sessions).
type SealedTable struct {
	Name       string
	Columns    []string // its sealed columns (the document store's fields of the same names)
	TaskScoped bool     // its rows belong to a task aggregate
	// Scope are the columns whose values precede the row key in the associated data
	// (SealRow), binding a value to more than its row: a comment to its tenant and task.
	Scope []string
}

// SealRow is the row part of the associated data of a value of t in the row keyed key, whose
// Scope columns hold scope (in order).
func (t SealedTable) SealRow(scope []string, key string) string {
	if len(t.Scope) == 0 {
		return key
	}
	return strings.Join(append(append([]string(nil), scope...), key), sealScopeSep)
}

// SealedTables are every table with sealed values, in the order a rotation walks them.
var SealedTables = []SealedTable{
	{"user_tasks", []string{ColInstructions, ColTaskData, ColForm, ColInvitationDefs, ColCompletionData}, true, nil},
	{"user_task_operations", []string{ColPayload}, true, nil},
	{"user_task_invitations", []string{ColRecipient}, true, nil},
	{"user_task_deliveries", []string{ColPayload}, true, nil},
	{"user_task_web_sessions", []string{ColRefreshToken, ColIDToken}, false, nil},
	{CommentTable, []string{ColCommentBody}, true, []string{"tenant_id", "task_id"}},
	// Attachments are checked apart from their task's page: their chunks are large
	// (AttachmentAudit reads them one at a time).
	{AttachmentTable, []string{ColFileName}, false, nil},
	{AttachmentChunkTable, []string{ColChunk}, false, nil},
}

// SealedTableNamed is the sealed table of that name.
func SealedTableNamed(name string) (SealedTable, bool) {
	for _, t := range SealedTables {
		if t.Name == name {
			return t, true
		}
	}
	return SealedTable{}, false
}

// ImpliedStatuses are the statuses an event type leaves a task in; event types that change no
// status (schedule, overdue, resolution retry, reveal, invitation issue/revoke) are absent.
var ImpliedStatuses = map[models.EventType][]models.Status{
	models.EventCreated:               models.OpenStatuses,
	models.EventClaimed:               {models.StatusAssigned},
	models.EventReleased:              {models.StatusAvailable, models.StatusUnassigned},
	models.EventAssigned:              {models.StatusAssigned},
	models.EventInvitationVerified:    {models.StatusAssigned},
	models.EventDelegated:             {models.StatusAssigned},
	models.EventReturned:              {models.StatusAssigned},
	models.EventCompletionRequested:   {models.StatusCompleting},
	models.EventTimeoutRequested:      {models.StatusTimingOut},
	models.EventCancellationRequested: {models.StatusCancelling},
	models.EventCompleted:             {models.StatusCompleted},
	models.EventTimedOut:              {models.StatusTimedOut},
	models.EventCancelled:             {models.StatusCancelled},
	// A deadline's firing leaves the task open: reassigned (Available or Unassigned, released
	// by a completion deadline) or as it was (Assigned, a notify or priority only).
	models.EventDeadlineFired: models.OpenStatuses,
}

// TransitionKind is the kind of the accepted operation a transitional status waits on.
var TransitionKind = map[models.Status]models.OperationKind{
	models.StatusCompleting: models.OpComplete,
	models.StatusTimingOut:  models.OpTimeout,
	models.StatusCancelling: models.OpCancel,
}

// IsTokenHash reports whether h is a SHA-256 hex digest as the invitations package writes it.
func IsTokenHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for _, ch := range h {
		if !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f') {
			return false
		}
	}
	return true
}

// VerifiedInvitation reports whether an invitation status means its guest was verified.
func VerifiedInvitation(status string) bool {
	return status == string(models.InvitationVerified) || status == string(models.InvitationConsumed)
}

// SetOrNot words whether a field is set, for a finding's message.
func SetOrNot(set bool) string {
	if set {
		return "set"
	}
	return "not set"
}

// GuestHolds reports whether a task assigned to (provider, id) is assigned to the guest of
// invitation invitationID (nil: unassigned).
func GuestHolds(provider, id *string, invitationID string) bool {
	return provider != nil && id != nil && *provider == models.GuestProvider && *id == "invitation:"+invitationID
}

// MovedOnFrom reports whether a task's events, in sequence order, hold the verification event of
// invitation invitationID followed by a status-changing event (a manager reassigned the task, the
// runtime finalized it): n events, the i-th read by event.
func MovedOnFrom(invitationID string, n int, event func(i int) (typ string, metadata *string)) bool {
	for i := range n {
		typ, metadata := event(i)
		if models.EventType(typ) != models.EventInvitationVerified || metadata == nil {
			continue
		}
		var meta struct {
			InvitationID string `json:"invitationId"`
		}
		if json.Unmarshal([]byte(*metadata), &meta) != nil || meta.InvitationID != invitationID {
			continue
		}
		for j := i + 1; j < n; j++ {
			later, _ := event(j)
			if _, ok := ImpliedStatuses[models.EventType(later)]; ok {
				return true
			}
		}
	}
	return false
}
