package models

import "time"

// IsEligibleCandidate reports whether a may claim t by candidacy (SPEC 3.6): a direct-user or
// snapshot-member row names a's subject, or — in live membership only — a direct-group row names
// a group a holds now. Exclusions override candidacy; guests and the system are never candidates.
// The rule itself is candidacy, in policy.go.
func (t *Task) IsEligibleCandidate(a Actor) bool { return candidacy(*t, a, nil) }

// Claim assigns an Available task to the eligible candidate who asks (SPEC 3.3 `claimed`).
// Refusals: ErrNotFound (not an eligible candidate, a guest, or hidden by blocking health);
// idempotency and revision conflicts; terminal, transition-in-progress, not-claimable.
func Claim(t Task, cmd Command, now time.Time) (Change, error) {
	cmd, err := start(t, cmd, OpClaim, nil, mayClaim)
	if err != nil {
		return Change{}, err
	}
	var pr problems
	pr.operationID(cmd.OperationID, false)
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	if t.Status != StatusAvailable {
		return Change{}, Conflict(CodeNotClaimable)
	}

	next := assignedTo(t, cmd.Actor.Ref(), now)
	tr := transition{event: EventClaimed, state: OperationCompleted}
	// A substitute's claim records whom it stands in for, unless the claimer is a candidate
	// in their own right (SPEC 10.5).
	own := cmd.Actor
	own.StandsInFor = nil
	if absent, ok := SubstituteCandidacy(t, cmd.Actor); ok && !t.IsEligibleCandidate(own) {
		tr.metadata = map[string]any{"substituteFor": toWire(absent)}
	}
	return commitCommand(t, next, cmd, tr, now)
}

// mayClaim is the relationship of claim: an eligible candidate the task is not hidden from.
func mayClaim(t Task, a Actor) bool { return !hiddenFrom(t, a) && t.IsEligibleCandidate(a) }
