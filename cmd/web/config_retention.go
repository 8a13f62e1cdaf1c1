package main

import (
	"time"

	"usertasks/models"
)

// retention is the purge's configuration (SPEC 7: off by default). Terminal tasks are kept
// forever unless TerminalAge is set; the shorter policies apply whenever a purge runs.
type retention struct {
	TerminalAge     time.Duration // USERTASKS_RETENTION_TERMINAL_AGE; 0 keeps terminal tasks
	InvitationAge   time.Duration // USERTASKS_RETENTION_INVITATION_AGE
	GuestSessionAge time.Duration // USERTASKS_RETENTION_GUEST_SESSION_AGE
	OutboxAge       time.Duration // USERTASKS_RETENTION_OUTBOX_AGE
	NotificationAge time.Duration // USERTASKS_RETENTION_NOTIFICATION_AGE (config_notify.go)
	// Interval is how often `web serve` purges (USERTASKS_PURGE_INTERVAL). The worker runs
	// only when this or TerminalAge is set; then it defaults to defaultPurgeInterval.
	Interval time.Duration
}

const (
	defaultPurgeInterval = time.Hour
	// minRetentionAge keeps a mistyped unit ("90" for 90ns) from purging everything closed.
	minRetentionAge = time.Hour
)

func defaultRetention() retention {
	p := models.DefaultRetentionPolicy()
	return retention{InvitationAge: p.InvitationAge, GuestSessionAge: p.GuestSessionAge, OutboxAge: p.OutboxAge,
		NotificationAge: p.NotificationAge}
}

// policy is the retention policy of a purge with pageSize rows per transaction.
func (r retention) policy(pageSize int) models.RetentionPolicy {
	return models.RetentionPolicy{TerminalAge: r.TerminalAge, InvitationAge: r.InvitationAge,
		GuestSessionAge: r.GuestSessionAge, OutboxAge: r.OutboxAge, NotificationAge: r.NotificationAge, PageSize: pageSize}
}

// workerEvery is the purge worker's interval: zero (off) unless the operator opted in.
func (r retention) workerEvery() time.Duration {
	switch {
	case r.Interval > 0:
		return r.Interval
	case r.TerminalAge > 0:
		return defaultPurgeInterval
	}
	return 0
}
