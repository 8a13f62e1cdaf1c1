package models

import (
	"fmt"
	"time"
)

// RetryResolution records a manager's retry of the task's form and snapshot resolution (SPEC
// 3.3 `resolution-retried`); the caller has already resolved them again. The status stays.
//
//   - form non-nil replaces the pinned form; nil keeps it.
//   - snapshot non-nil replaces every snapshot-member row (an empty, non-nil slice removes them);
//     nil keeps them. Only in snapshot membership.
//   - health replaces the finding; the zero Health clears it (an Unassigned task gets its advisory
//     no-participants back).
//
// Managers only (everyone else gets ErrNotFound); open or transitional tasks only.
func RetryResolution(t Task, cmd Command, form *PinnedForm, snapshot []Candidate, health Health, now time.Time) (Change, error) {
	cmd, err := start(t, cmd, OpRetryResolution, nil, manages)
	if err != nil {
		return Change{}, err
	}
	var pr problems
	pr.operationID(cmd.OperationID, false)
	pr.form("form", form)
	pr.health("health", health)
	var members []Candidate
	if snapshot != nil {
		if t.Assignment.Mode != MembershipSnapshot {
			pr.fail("snapshotMembers", "only with membership mode snapshot")
		}
		members = pr.snapshotMembers("snapshotMembers", snapshot, t.Tenant)
	}
	var candidates []Candidate
	if snapshot != nil {
		for _, c := range t.Assignment.Candidates {
			if c.Source != SourceSnapshotMember {
				candidates = append(candidates, c)
			}
		}
		candidates = dedupeCandidates(append(candidates, members...))
		if n := len(candidates) + len(t.Assignment.Exclusions); n > MaxParticipantsPerTask {
			pr.fail("snapshotMembers", fmt.Sprintf("candidates and exclusions must be at most %d, got %d", MaxParticipantsPerTask, n))
		}
	}
	if replay, err := admit(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	if t.Status.IsTerminal() {
		return Change{}, Conflict(CodeTerminal)
	}

	next := cloneTask(t)
	if form != nil {
		next.Protected.Form = cloneForm(form)
	}
	if snapshot != nil {
		next.Assignment.Candidates = cloneCandidates(candidates)
		next.CandidateSummary = next.Assignment.Summarize()
	}
	next.Health = health
	if next.Status.IsOpen() {
		settleParticipantsHealth(&next)
	}
	ch, err := commitCommand(t, next, cmd, transition{
		event: EventResolutionRetried,
		state: OperationCompleted,
		metadata: map[string]any{
			"formReplaced":     form != nil,
			"snapshotReplaced": snapshot != nil,
			"healthCode":       next.Health.Code,
		},
	}, now)
	if err != nil {
		return Change{}, err
	}
	ch.AssignmentChanged = snapshot != nil
	return ch, nil
}
