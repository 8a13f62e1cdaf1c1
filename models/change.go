package models

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Change is what a transition produces: the new state plus the rows to write with it, all
// committed in one transaction guarded by ExpectedRevision.
type Change struct {
	// Task is the aggregate after the change.
	Task Task
	// ExpectedRevision guards the update (revision = ExpectedRevision); 0 for a creation.
	ExpectedRevision int
	// Event is appended with the change (nil only for a replay).
	Event *Event
	// Operation is the new idempotency record, if the command writes one.
	Operation *Operation
	// Resumption is the outbox row written when entering a transitional status.
	Resumption *Resumption
	// Deadlines are the task's deadlines, written with its creation (SPEC 10.4).
	Deadlines []Deadline
	// DefaultDeadlines marks a creation whose projection left `deadlines` out: the tenant's
	// deadline policy of the workflow definition applies (storekit.ApplyDeadlinePolicy). An
	// explicit empty list is the projection's own choice of none.
	DefaultDeadlines bool
	// AssignmentChanged rewrites the candidate and exclusion rows (projection, retry-resolution).
	AssignmentChanged bool
	// Finalize flips the task's accepted operation to completed and settles its outbox rows.
	Finalize bool
	// Replay is set when the command repeats a stored operation: nothing is written and the
	// caller answers with Replay.Result.
	Replay *Operation
}

// Command is the envelope every mutation shares.
type Command struct {
	Kind             OperationKind
	OperationID      string
	ExpectedRevision int
	Actor            Actor
	// RequestHash is RequestHash(kind, expectedRevision, meaningful fields).
	RequestHash string
	// Prior is the stored operation with the same OperationID on this task, if any.
	Prior *Operation
}

// CheckReplay implements the idempotency rule: same id, actor and hash → replay the stored
// result; same id with another hash or from another actor → idempotency-conflict (an operation
// id is no capability: whoever learns another caller's id must not receive that caller's
// answer); no prior → proceed.
func (c Command) CheckReplay() (*Operation, error) {
	if c.Prior == nil {
		return nil, nil
	}
	if c.Prior.RequestHash != c.RequestHash || c.Prior.Kind != c.Kind || !c.Prior.RanBy(c.Actor) {
		return nil, Conflict(CodeIdempotencyConflict)
	}
	return c.Prior, nil
}

// RequestHash is the canonical request hash: SHA-256 over the kind and the canonical JSON of
// the expected revision and the command's meaningful fields.
func RequestHash(kind OperationKind, expectedRevision int, fields any) string {
	raw, err := json.Marshal(map[string]any{"kind": kind, "expectedRevision": expectedRevision, "fields": fields})
	if err != nil {
		// Only unsupported types (channels, funcs) fail; fields are plain data by contract.
		panic("models: request fields are not JSON: " + err.Error())
	}
	canonical, _ := canonicalJSON(raw)
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// canonicalJSON re-encodes JSON with sorted object keys.
func canonicalJSON(raw []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v) // encoding/json sorts map keys
}
