package docstore

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/storekit"
)

// The task aggregate as stored (docs/document-store.md, "The task aggregate"): the task's row
// as every store keeps it (storekit.TaskRow: the columns under their logical names, nullable
// ones as pointers, BSON null, the sealed *_enc fields as keyring envelopes), and the embedded
// rows and pending entries. No field is omitted when empty, so two encodings of the aggregate
// compare field by field (changedFields).

type taskDoc struct {
	storekit.TaskRow `bson:",inline"`

	// Version is raised by every write of the aggregate (mutation, event append, relay pull);
	// each value is claimed in user_task_claims first.
	Version int64 `bson:"version"`
	// RelayDue is set while a pending entry, a finished operation or an effect waits for the relay.
	RelayDue bool `bson:"relay_due"`
	// Purging is set, once and for good, by a retention purge that is removing the task
	// (purge.go); from then on every read treats the task as gone.
	Purging *time.Time `bson:"purging,omitempty"`

	TagKeys            []tagDoc        `bson:"tag_keys"`
	Candidates         []candidateDoc  `bson:"candidates"`
	Exclusions         []exclusionDoc  `bson:"exclusions"`
	Operations         []operationDoc  `bson:"operations"`
	PendingEvents      []eventDoc      `bson:"pending_events"`
	PendingResumptions []resumptionDoc `bson:"pending_resumptions"`
	PendingEffects     []effectDoc     `bson:"pending_effects"`
	// PendingInvitations and PendingDeliveries are what IssueInvitation queued; the relay moves
	// the invitations before the deliveries (invitation_doc.go).
	PendingInvitations []invitationDoc `bson:"pending_invitations"`
	PendingDeliveries  []deliveryDoc   `bson:"pending_deliveries"`
	// PendingNotifications are the notifications the task's changes caused, not yet in
	// user_task_notifications (notification_doc.go).
	PendingNotifications []notificationDoc `bson:"pending_notifications"`
	// CommentCount counts the task's comments, deleted ones included (the limit of SPEC 10.1
	// decided under the version claim); PendingComments are those not yet in
	// user_task_comments (comment.go).
	CommentCount    int          `bson:"comment_count"`
	PendingComments []commentDoc `bson:"pending_comments"`
	// Deadlines are the task's deadlines (deadline.go), settled in place by the due sweep.
	Deadlines []deadlineDoc `bson:"deadlines"`
}

// tagDoc is one normalized tag (a user_task_tags row).
type tagDoc struct {
	Tag string `bson:"tag"`
}

// candidateDoc is one candidate relationship (a user_task_candidates row without the task and
// tenant, which are the aggregate's, and without the status copy, which is the aggregate's
// own status).
type candidateDoc struct {
	ID                    string `bson:"id"`
	storekit.CandidateRow `bson:",inline"`
	CreatedAt             time.Time `bson:"created_at"`
}

// exclusionDoc is one exclusion (a user_task_exclusions row).
type exclusionDoc struct {
	ID                      string `bson:"id"`
	storekit.ParticipantRow `bson:",inline"`
	CreatedAt               time.Time `bson:"created_at"`
}

// eventDoc is one event: pending in the aggregate, then a document of user_task_events.
type eventDoc struct {
	storekit.EventRow `bson:",inline"`
}

// operationDoc is one operation: in the aggregate while accepted and until the relay moves it
// once finished, then a document of user_task_operations. The payload is sealed.
type operationDoc struct {
	storekit.OperationRow `bson:",inline"`
}

// resumptionDoc is one resumption outbox entry: pending in the aggregate, then a document of
// user_task_resumptions.
type resumptionDoc struct {
	storekit.ResumptionRow `bson:",inline"`
}

// effectSettleResumptions settles the task's pending resumptions in user_task_resumptions
// (a finalization), all but the ones named in Exclude (written by the finalizing change itself).
const effectSettleResumptions = "settle-resumptions"

// effectDoc is a change to documents outside the aggregate that a write of the aggregate
// decided; the relay applies it idempotently, then removes it.
type effectDoc struct {
	ID        string    `bson:"id"`
	Kind      string    `bson:"kind"`
	Exclude   []string  `bson:"exclude"`
	CreatedAt time.Time `bson:"created_at"`
	// Count is what a count-daily effect counts (daily_stats.go).
	Count *dailyCountDoc `bson:"count,omitempty"`
	// Invitation is the invitation status change of an invitation effect (invitation_effect.go).
	Invitation *invitationEffect `bson:"invitation,omitempty"`
	// Comment is the comment an erase-comment effect erases (comment.go).
	Comment string `bson:"comment,omitempty"`
}

// claimDoc is a version claim (user_task_claims): the writer that inserts it alone may write
// that version of the aggregate, and Set is the write, so a reader can roll it forward when
// its writer died between the claim and the write.
type claimDoc struct {
	ID        string    `bson:"_id"`
	TenantID  string    `bson:"tenant_id"`
	TaskID    string    `bson:"task_id"`
	Version   int64     `bson:"version"`
	Set       bson.Raw  `bson:"set"`
	CreatedAt time.Time `bson:"created_at"`
}
