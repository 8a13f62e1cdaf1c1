package models

import "time"

// DefaultUnassignedAttentionAfter is how long an open task may wait without an assignee before
// needs-attention lists it.
const DefaultUnassignedAttentionAfter = 24 * time.Hour

// AttentionReason is one reason the needs-attention scope lists a task.
type AttentionReason string

const (
	AttentionHealth     AttentionReason = "health"     // any health finding, blocking or advisory
	AttentionOverdue    AttentionReason = "overdue"    // open and flagged overdue or past its due time
	AttentionStale      AttentionReason = "stale"      // transitional for longer than the stale threshold
	AttentionUnassigned AttentionReason = "unassigned" // open with no assignee since longer than the threshold
)

// AttentionRule is the definition of needs-attention (SPEC 4, refined by issue 10): a task that
// is not terminal needs attention when it has a health finding, or is open and overdue, or is
// transitional for longer than StaleAfter, or is open without an assignee for longer than
// UnassignedAfter, measured from its creation. Terminal tasks never need attention. The store's
// query states the same rule in SQL; this is its Go form, for telling people why.
type AttentionRule struct {
	StaleAfter      time.Duration
	UnassignedAfter time.Duration
}

// OverdueAt reports whether t is overdue at now: open, and flagged by the due sweep or past its
// due date. Overdue is an open task's state: a submitted, cancelling or closed task is never
// overdue, although the sweep's flag stays on it.
func (t *Task) OverdueAt(now time.Time) bool {
	return t.Status.IsOpen() && (t.IsOverdue || (t.DueAt != nil && t.DueAt.Before(now)))
}

// Reasons lists why t needs attention at now, in a stable order; none when it does not.
func (r AttentionRule) Reasons(t Task, now time.Time) []AttentionReason {
	if t.Status.IsTerminal() {
		return nil
	}
	var out []AttentionReason
	if t.Health.Severity != SeverityNone {
		out = append(out, AttentionHealth)
	}
	if t.OverdueAt(now) {
		out = append(out, AttentionOverdue)
	}
	if t.Status.IsTransitional() && t.TransitionedAt != nil && t.TransitionedAt.Before(now.Add(-r.StaleAfter)) {
		out = append(out, AttentionStale)
	}
	if t.Status.IsOpen() && t.Assignee == nil && t.CreatedAt.Before(now.Add(-r.UnassignedAfter)) {
		out = append(out, AttentionUnassigned)
	}
	return out
}
