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
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	cmd, err := prepare(cmd, OpClaim, nil)
	if err != nil {
		return Change{}, err
	}
	if !replaysOwn(t, cmd) && (hiddenFrom(t, cmd.Actor) || !t.IsEligibleCandidate(cmd.Actor)) {
		return Change{}, ErrNotFound
	}
	var pr problems
	pr.operationID(cmd.OperationID, false)
	if err := pr.err(); err != nil {
		return Change{}, err
	}
	if replay, err := admit(t, cmd); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	if err := requireOpen(t); err != nil {
		return Change{}, err
	}
	if t.Status != StatusAvailable {
		return Change{}, Conflict(CodeNotClaimable)
	}

	next := cloneTask(t)
	next.Status = StatusAssigned
	next.Assignee = cmd.Actor.Ref()
	next.AssignedAt = clonePtr(&now)
	settleParticipantsHealth(&next)
	return commit(t, next, transition{
		kind:        OpClaim,
		event:       EventClaimed,
		state:       OperationCompleted,
		operationID: cmd.OperationID,
		requestHash: cmd.RequestHash,
		actor:       cmd.Actor.Ref(),
	}, now)
}
