package models

import (
	"strconv"
	"strings"
	"time"
)

// Notifications tell people about their work without their watching the inbox (SPEC 10.3). A
// notification is written in the transaction of the change that causes it, or by the worker
// that detects a time-based one, at most once per (recipient, task, trigger, revision); the
// delivery worker then checks that the recipient may still see the task, shows it in the
// recipient's in-app list and sends it on through the other channels.

// WorkerNotify names the notification workers' recorded runs (delivery and due-soon).
const WorkerNotify Worker = "notify"

// NotificationTrigger is why a person is told about a task.
type NotificationTrigger string

const (
	// TriggerTaskAvailable: the task became Available to the recipient (a direct candidate, a
	// snapshot member or a member of a live candidate group; never an excluded user).
	TriggerTaskAvailable NotificationTrigger = "task-available"
	// TriggerTaskAssigned: someone else assigned the task to the recipient (not their own claim).
	TriggerTaskAssigned NotificationTrigger = "task-assigned"
	// TriggerDueSoon: the task is due within USERTASKS_DUE_SOON (to the assignee, or without
	// one to the candidate users); once per due time.
	TriggerDueSoon NotificationTrigger = "due-soon"
	// TriggerOverdue: the task became overdue (the same recipients as due-soon); once.
	TriggerOverdue NotificationTrigger = "overdue"
	// TriggerEscalated, TriggerMentioned, TriggerCommentAdded and TriggerReturned are raised by
	// escalation, comments and delegation (SPEC 10.1, 10.4, 10.5).
	TriggerEscalated    NotificationTrigger = "escalated"
	TriggerMentioned    NotificationTrigger = "mentioned"
	TriggerCommentAdded NotificationTrigger = "comment-added"
	TriggerReturned     NotificationTrigger = "returned"
)

// NotificationTriggers lists every trigger in the order the settings page shows them.
var NotificationTriggers = []NotificationTrigger{
	TriggerTaskAssigned, TriggerTaskAvailable, TriggerDueSoon, TriggerOverdue,
	TriggerEscalated, TriggerMentioned, TriggerCommentAdded, TriggerReturned,
}

// Valid reports whether t is a known trigger.
func (t NotificationTrigger) Valid() bool {
	for _, k := range NotificationTriggers {
		if t == k {
			return true
		}
	}
	return false
}

// NotificationState is where a notification row is in its delivery.
type NotificationState string

const (
	// NotificationPending: work remains (a group to expand, a visibility check, a channel to
	// send); the delivery worker claims it once AvailableAt has passed.
	NotificationPending NotificationState = "pending"
	// NotificationDone: every channel is settled (sent, off, or waiting for the digest).
	NotificationDone NotificationState = "done"
	// NotificationDropped: the recipient could no longer see the task at delivery; nothing was
	// shown or sent.
	NotificationDropped NotificationState = "dropped"
	// NotificationFailed: the retries ran out; LastError holds a safe code.
	NotificationFailed NotificationState = "failed"
)

// ChannelState is what happened on one outbound channel (email, webhook) of a notification.
type ChannelState string

const (
	ChannelUndecided ChannelState = ""         // not yet looked at by the delivery worker
	ChannelOff       ChannelState = "off"      // not wanted, not configured, or no address
	ChannelSent      ChannelState = "sent"     // handed over (2xx, or accepted by the relay)
	ChannelDigest    ChannelState = "digest"   // email only: waits for the recipient's digest
	ChannelDigested  ChannelState = "digested" // email only: went out in a digest
	ChannelFailed    ChannelState = "failed"   // the retries ran out
)

// Settled reports whether nothing more is to be done on the channel by the delivery worker
// (a digest is the digest worker's).
func (c ChannelState) Settled() bool { return c != ChannelUndecided }

// Notification is one row: one recipient told about one task for one reason. A row whose
// recipient is a group is a pending expansion: the delivery worker replaces it by a row per
// member (the directory answers) and never shows it to anyone.
type Notification struct {
	ID        string
	Tenant    string
	Recipient ParticipantRef
	TaskID    string
	Trigger   NotificationTrigger
	// Revision completes the key (recipient, task, trigger, revision): the task's revision after
	// the change that caused it, or for due-soon the due time in Unix seconds (once per due time).
	Revision int64
	// Actor is who caused it, with their display name when it happened; nil for the system.
	Actor *ParticipantRef
	// Title is the task's title when it happened (a safe field, SPEC 10.3).
	Title       string
	State       NotificationState
	Email       ChannelState
	Webhook     ChannelState
	Attempts    int
	AvailableAt time.Time
	LastError   string
	Lease       *Lease
	OccurredAt  time.Time
	VisibleAt   *time.Time // since when the recipient's in-app list shows it
	ReadAt      *time.Time
	UpdatedAt   time.Time
}

// Key is the row's natural key as one string (for logs, tests and the webhook's dedupe).
func (n Notification) Key() string {
	return strings.Join([]string{n.Tenant, n.TaskID, string(n.Trigger), strconv.FormatInt(n.Revision, 10), string(n.Recipient.Type), n.Recipient.Provider, n.Recipient.ID}, "\x1f")
}

// NotificationOutcome is what the delivery worker writes back for a leased row.
type NotificationOutcome struct {
	// State: NotificationPending to try again after RetryAfter, or a final state.
	State NotificationState
	// Email and Webhook are the channels' states after this attempt (a sent channel stays sent).
	Email   ChannelState
	Webhook ChannelState
	// Visible shows the row in the recipient's in-app list (an earlier VisibleAt is kept).
	Visible bool
	// RetryAfter is the delay before the next attempt of a pending row (database clock).
	RetryAfter time.Duration
	// ErrorCode is a safe code for the last failure ("" when none).
	ErrorCode string
}

// NotificationCursor is the keyset position of the in-app list: newest first.
type NotificationCursor struct {
	OccurredAt time.Time
	ID         string
}

// NotificationQuery asks for one recipient's in-app notifications (shown ones only).
type NotificationQuery struct {
	Tenant     string
	Recipient  ParticipantRef
	UnreadOnly bool
	After      *NotificationCursor
	Limit      int // 1 to MaxPageSize; 0 means DefaultPageSize
}

// NotificationPage is a page of the in-app list with the recipient's unread count.
type NotificationPage struct {
	Items  []Notification
	Next   *NotificationCursor // nil on the last page
	Unread int
}

// DigestPeriod is how often a person's emails are collected into one mail.
type DigestPeriod string

const (
	DigestOff    DigestPeriod = "off"
	DigestHourly DigestPeriod = "hourly"
	DigestDaily  DigestPeriod = "daily"
)

// Valid reports whether d is a known period.
func (d DigestPeriod) Valid() bool { return d == DigestOff || d == DigestHourly || d == DigestDaily }

// NotificationPreferences is a person's choice of email per trigger and digest (SPEC 10.3).
// In-app notifications cannot be turned off.
type NotificationPreferences struct {
	Email  map[NotificationTrigger]bool
	Digest DigestPeriod
}

// DefaultNotificationPreferences: email for what needs the person (assigned, mentioned,
// escalated, overdue), not for the rest; no digest.
func DefaultNotificationPreferences() NotificationPreferences {
	email := make(map[NotificationTrigger]bool, len(NotificationTriggers))
	for _, t := range NotificationTriggers {
		email[t] = false
	}
	for _, t := range []NotificationTrigger{TriggerTaskAssigned, TriggerMentioned, TriggerEscalated, TriggerOverdue} {
		email[t] = true
	}
	return NotificationPreferences{Email: email, Digest: DigestOff}
}

// EmailOn reports whether the person wants an email for t; a trigger the stored preferences
// do not name takes its default.
func (p NotificationPreferences) EmailOn(t NotificationTrigger) bool {
	if on, ok := p.Email[t]; ok {
		return on
	}
	return DefaultNotificationPreferences().Email[t]
}

// Complete fills what p leaves out with the defaults.
func (p NotificationPreferences) Complete() NotificationPreferences {
	out := DefaultNotificationPreferences()
	for t, on := range p.Email {
		if t.Valid() {
			out.Email[t] = on
		}
	}
	if p.Digest.Valid() {
		out.Digest = p.Digest
	}
	return out
}

// Person is a user the product knows in a tenant (SPEC 10.3, "who the product knows"): recorded
// from their latest authenticated request, at most once a minute, with their notification
// preferences.
type Person struct {
	Tenant      string
	User        ParticipantRef // a user: provider, id, display name
	Email       string         // the email claim of the last sign-in ("" when none)
	Language    string         // "en" or "de"
	TimeZone    string         // an IANA name ("" for UTC)
	Manager     bool
	SeenAt      time.Time
	Preferences NotificationPreferences
}

// PersonRecordEvery is how often a person's record is rewritten from their requests.
const PersonRecordEvery = time.Minute
