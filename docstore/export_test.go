package docstore

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
)

// What the external tests (package docstore_test) reach inside the store: the crash injection
// points and the few internal steps they drive or read directly. The documents themselves they
// read and change as raw BSON, through Store.Database.

// ErrKilled is what a step stopped by CrashAt returns.
var ErrKilled = errors.New("killed")

// The steps CrashAt can stop a store at.
const (
	AfterClaim       = afterClaim
	AfterPlace       = afterPlace
	AfterRelayInsert = afterRelayInsert
	BeforeRelay      = beforeRelay
)

// CrashAt makes s stop at step, as a killed process would, until heal is called.
func CrashAt(s *Store, step crashStep) (crashes *int, heal func()) {
	n := 0
	s.crash = func(at crashStep) error {
		if at == step {
			n++
			return ErrKilled
		}
		return nil
	}
	return &n, func() { s.crash = nil }
}

// CancelAt makes s call cancel when it reaches step, as a caller that gives up there would
// (a client that goes away mid-request), and go on.
func CancelAt(s *Store, step crashStep, cancel func()) {
	s.crash = func(at crashStep) error {
		if at == step {
			cancel()
		}
		return nil
	}
}

// SortAssignment puts a task's candidates and exclusions in the order both stores read them.
func SortAssignment(t *models.Task) {
	d := &taskDoc{TaskRow: storekit.TaskRow{TenantID: t.Tenant}, Candidates: candidateDocs(t, time.Time{}), Exclusions: exclusionDocs(t, time.Time{})}
	t.Assignment.Candidates, t.Assignment.Exclusions = candidatesOf(d), exclusionsOf(d)
}

// Embedded are the logical tables stored inside the aggregate, and the array holding each.
var Embedded = embedded

// SameIndex reports whether two indexes have the same name, keys and uniqueness (as Up
// compares them).
var SameIndex = sameIndex

// VersionID is the _id of the schema version's document in VersionCollection.
const VersionID = versionID

// ClaimSweepAge is the age from which SweepClaims deletes a claim.
const ClaimSweepAge = claimSweepAge

// ClaimID is the _id of the claim of a document's version: a task's (tenant, task id) or a
// shared document's ("", its key: LeaseKey).
func ClaimID(tenant, key string, version int64) string { return claimID(tenant, key, version) }

// LeaseKey is the key of the named lease's claims.
func LeaseKey(name string) string { return leaseRef(name).key }

// SetClaimGrace changes s's Config.ClaimGrace (testfactory opens stores with the default).
func SetClaimGrace(s *Store, d time.Duration) { s.cfg.ClaimGrace = d }

// MarkPurging marks the task purging as a purge run does before it deletes the task's
// documents (purge.go); false when the task may not go.
func (s *Store) MarkPurging(ctx context.Context, id string, cutoff time.Time) (bool, error) {
	var d taskDoc
	if err := s.tasks().FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		return false, err
	}
	return s.markPurging(ctx, &d, cutoff)
}

// Seal seals plain as the store seals column of the row rowID.
func (s *Store) Seal(rowID, column string, plain []byte) (*string, error) {
	return s.seal(rowID, column, plain)
}

// ErrForeignResumption: a queued resumption's id is another task's (outbox_id.go).
var ErrForeignResumption = errForeignResumption

// ReserveResumptionID reserves r's id for its task before the write that queues r.
func (s *Store) ReserveResumptionID(ctx context.Context, r *models.Resumption, now time.Time) error {
	return s.reserveResumptionID(ctx, r, now)
}

// InsertResumptionOnce inserts a resumption the relay moves, unless its task's entry is there.
func (s *Store) InsertResumptionOnce(ctx context.Context, r storekit.ResumptionRow) error {
	return s.insertResumptionOnce(ctx, resumptionDoc{r})
}
