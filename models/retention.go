package models

import (
	"fmt"
	"time"
)

// Retention (SPEC 7, persistence contract "Retention and cleanup"): terminal tasks are kept
// forever unless an operator opts in to a purge age. Invitations, guest sessions and the
// acknowledged rows of both outboxes have their own, shorter policies. A purge never removes an
// open or transitional task, one with an accepted operation or a pending resumption, or one
// with a health finding; it never touches the daily rollup (the dashboard's history) and never
// changes a tenant's open-task counter (terminal tasks are not in it).

// WorkerPurge names the retention purge's recorded runs.
const WorkerPurge Worker = "purge"

// Retention defaults: the shorter policies apply whenever a purge runs; the terminal-task age
// has no default (unset keeps terminal tasks forever).
const (
	DefaultInvitationRetention   = 30 * 24 * time.Hour
	DefaultGuestSessionRetention = 7 * 24 * time.Hour
	DefaultOutboxRetention       = 7 * 24 * time.Hour
	DefaultNotificationRetention = 30 * 24 * time.Hour
	DefaultPurgePageSize         = 500
	MaxPurgePageSize             = 500
)

// RetentionPolicy says what one purge removes. A zero age switches its policy off.
type RetentionPolicy struct {
	// TerminalAge: terminal tasks closed (completed_at) longer ago than this go, with every
	// row that belongs to them.
	TerminalAge time.Duration
	// InvitationAge: revoked or expired invitations (by their revocation, expiry or last
	// change) longer ago than this go, with their delivery rows and guest sessions.
	// Consumed invitations stay with their task.
	InvitationAge time.Duration
	// GuestSessionAge: guest sessions expired or revoked longer ago than this go.
	GuestSessionAge time.Duration
	// OutboxAge: delivered, settled or abandoned invitation delivery rows, and delivered or
	// settled resumption rows of terminal tasks, last changed longer ago than this go.
	OutboxAge time.Duration
	// NotificationAge: notifications that occurred longer ago than this go once delivered,
	// dropped or failed (USERTASKS_RETENTION_NOTIFICATION_AGE), read or not; pending rows and
	// rows whose email waits for a digest stay.
	NotificationAge time.Duration
	// PageSize is how many tasks (or rows) one transaction removes. Default and maximum 500.
	PageSize int
	// DryRun counts what would go and removes nothing.
	DryRun bool
}

// DefaultRetentionPolicy keeps terminal tasks and applies the shorter policies.
func DefaultRetentionPolicy() RetentionPolicy {
	return RetentionPolicy{InvitationAge: DefaultInvitationRetention, GuestSessionAge: DefaultGuestSessionRetention,
		OutboxAge: DefaultOutboxRetention, NotificationAge: DefaultNotificationRetention, PageSize: DefaultPurgePageSize}
}

// Check refuses negative ages and page sizes out of range.
func (p RetentionPolicy) Check() error {
	for _, d := range []time.Duration{p.TerminalAge, p.InvitationAge, p.GuestSessionAge, p.OutboxAge, p.NotificationAge} {
		if d < 0 {
			return InvalidField("age", fmt.Sprintf("retention age %s is negative", d))
		}
	}
	if p.PageSize < 0 || p.PageSize > MaxPurgePageSize {
		return InvalidField("pageSize", fmt.Sprintf("page size must be 1 to %d", MaxPurgePageSize))
	}
	return nil
}

// PurgeCounts counts the rows a purge removed (or, in a dry run, would remove), per kind.
type PurgeCounts struct {
	Tasks         int
	Events        int
	Operations    int
	Candidates    int
	Exclusions    int
	Tags          int
	Resumptions   int
	Invitations   int
	Deliveries    int
	GuestSessions int
	Notifications int
	Comments      int
	// Attachments and their sealed chunks (SPEC 10.2) go with their task.
	Attachments      int
	AttachmentChunks int
}

// Add adds o to c.
func (c *PurgeCounts) Add(o PurgeCounts) {
	c.Tasks += o.Tasks
	c.Events += o.Events
	c.Operations += o.Operations
	c.Candidates += o.Candidates
	c.Exclusions += o.Exclusions
	c.Tags += o.Tags
	c.Resumptions += o.Resumptions
	c.Invitations += o.Invitations
	c.Notifications += o.Notifications
	c.Attachments += o.Attachments
	c.AttachmentChunks += o.AttachmentChunks
	c.Deliveries += o.Deliveries
	c.GuestSessions += o.GuestSessions
	c.Comments += o.Comments
}

// Map names the counts, as recorded in a worker run and printed by `web purge`.
func (c PurgeCounts) Map() map[string]int {
	return map[string]int{"tasks": c.Tasks, "events": c.Events, "operations": c.Operations, "candidates": c.Candidates,
		"exclusions": c.Exclusions, "tags": c.Tags, "resumptions": c.Resumptions, "invitations": c.Invitations,
		"deliveries": c.Deliveries, "guestSessions": c.GuestSessions, "notifications": c.Notifications,
		"comments": c.Comments, "attachments": c.Attachments, "attachmentChunks": c.AttachmentChunks}
}

// Total is the number of rows counted.
func (c PurgeCounts) Total() int {
	n := 0
	for _, v := range c.Map() {
		n += v
	}
	return n
}
