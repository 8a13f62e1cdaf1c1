package docstore_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/testfactory"
)

func countIn(t *testing.T, s *docstore.Store, collection, taskID string) int {
	t.Helper()
	n, err := s.Database().Collection(collection).CountDocuments(testContext(t), bson.D{{Key: "task_id", Value: taskID}})
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// aggregate is the task aggregate as stored: the task's row and what waits in it for the relay.
type aggregate struct {
	storekit.TaskRow   `bson:",inline"`
	RelayDue           bool       `bson:"relay_due"`
	PendingEvents      []bson.Raw `bson:"pending_events"`
	PendingResumptions []bson.Raw `bson:"pending_resumptions"`
	PendingEffects     []bson.Raw `bson:"pending_effects"`
	PendingInvitations []bson.Raw `bson:"pending_invitations"`
	PendingDeliveries  []bson.Raw `bson:"pending_deliveries"`
}

func pendingIn(t *testing.T, s *docstore.Store, id string) aggregate {
	t.Helper()
	var d aggregate
	if err := s.Database().Collection(docstore.Aggregate).FindOne(testContext(t), bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRelayCrashBetweenInsertAndPull: the relay dies after inserting the entries into their
// collections and before pulling them from the aggregate, twice (after the write and in a
// pass). The entries are then in both places: the history shows each once, the operation is
// found, and the next pass pulls them without inserting anything twice. A finalization's
// settle effect applied before the crash is applied again harmlessly.
func TestRelayCrashBetweenInsertAndPull(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	ann := testfactory.Worker("t1", "ann")
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	if countIn(t, s, eventCollection, task.ID) != 1 {
		t.Fatal("the creation's event was not relayed")
	}

	crashes, heal := docstore.CrashAt(s, docstore.AfterRelayInsert)
	if _, err := s.Mutate(ctx, "t1", task.ID, "claim-1", claimBy(ann, task.Revision, "claim-1")); err != nil {
		t.Fatalf("the claim failed with its relay: %v", err)
	}
	if _, err := s.Mutate(ctx, "t1", task.ID, "complete-1", completeBy(ann, 2, "complete-1", "")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mutate(ctx, "t1", task.ID, "", finalize); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RelayPass(ctx, 10); !errors.Is(err, docstore.ErrKilled) {
		t.Fatalf("RelayPass = %v, want the injected crash", err)
	}
	if *crashes != 4 {
		t.Fatalf("%d crashes, want 4 (three writes and a pass)", *crashes)
	}
	d := pendingIn(t, s, task.ID)
	if len(d.PendingEvents) != 3 || countIn(t, s, eventCollection, task.ID) != 4 {
		t.Fatalf("%d events pending, %d in the collection; want 3 in both places, 4 in the collection",
			len(d.PendingEvents), countIn(t, s, eventCollection, task.ID))
	}
	if seqs := eventSeqs(t, s, "t1", task.ID); !slices.Equal(seqs, upTo(4)) {
		t.Fatalf("event sequence %v while entries are in both places, want 1..4 once each", seqs)
	}
	if op, err := s.Operation(ctx, "t1", task.ID, "claim-1"); err != nil || op.Kind != models.OpClaim {
		t.Fatalf("Operation = %+v, %v", op, err)
	}
	if rs, err := s.Resumptions(ctx, "t1", task.ID); err != nil || len(rs) != 1 || rs[0].State != models.DeliverySettled {
		t.Fatalf("Resumptions = %+v, %v; want one, settled", rs, err)
	}

	heal()
	if n, err := s.RelayPass(ctx, 10); err != nil || n != 1 {
		t.Fatalf("RelayPass = %d, %v; want the task relayed", n, err)
	}
	requireRelayed(t, s, task.ID)
	if n := countIn(t, s, operationCollection, task.ID); n != 4 {
		t.Fatalf("%d operations in the collection, want 4 (projection, claim, completion, finalization)", n)
	}
	if n := countIn(t, s, resumptionCollection, task.ID); n != 1 {
		t.Fatalf("%d resumptions in the collection, want 1", n)
	}
	if rs, err := s.Resumptions(ctx, "t1", task.ID); err != nil || len(rs) != 1 || rs[0].State != models.DeliverySettled {
		t.Fatalf("Resumptions after the pass = %+v, %v", rs, err)
	}
	if n, err := s.RelayPass(ctx, 10); err != nil || n != 0 {
		t.Fatalf("a second pass found %d tasks, %v", n, err)
	}
}

// TestRollForwardAfterCrashBetweenClaimAndWrite: a writer dies after claiming the next version
// and before writing it. Until ClaimGrace passes, readers see the task as it was and no other
// writer gets past the claim; then the first reader rolls the claimed write forward: the task,
// its event and its operation appear exactly once, and the caller's retry of the same
// operation gets the original answer.
func TestRollForwardAfterCrashBetweenClaimAndWrite(t *testing.T) {
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	ctx := testContext(t)
	ann := testfactory.Worker("t1", "ann")
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann", "bob"}})

	_, heal := docstore.CrashAt(s, docstore.AfterClaim)
	if _, err := s.Mutate(ctx, "t1", task.ID, "claim-1", claimBy(ann, task.Revision, "claim-1")); !errors.Is(err, docstore.ErrKilled) {
		t.Fatalf("Mutate = %v, want the injected crash", err)
	}
	heal()
	if got, err := s.Get(ctx, "t1", task.ID); err != nil || got.Revision != task.Revision || got.Status != models.StatusAvailable {
		t.Fatalf("Get within the grace = %+v, %v; want the task as before", got, err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := s.Mutate(short, "t1", task.ID, "", claimBy(testfactory.Worker("t1", "bob"), task.Revision, "")); err == nil {
		t.Fatal("another writer got past the claimed version")
	}

	clock.Advance(time.Minute)
	got, err := s.Get(ctx, "t1", task.ID)
	if err != nil || got.Revision != task.Revision+1 || got.Assignee == nil || got.Assignee.ID != "ann" {
		t.Fatalf("Get after the grace = %+v, %v; want ann's claim rolled forward", got, err)
	}
	if seqs := eventSeqs(t, s, "t1", task.ID); !slices.Equal(seqs, upTo(2)) {
		t.Fatalf("event sequence %v, want 1..2", seqs)
	}
	again, err := s.Mutate(ctx, "t1", task.ID, "claim-1", claimBy(ann, task.Revision, "claim-1"))
	if err != nil || again.Replay == nil {
		t.Fatalf("the retried claim = %+v, %v; want a replay", again, err)
	}
	if _, err := s.Mutate(ctx, "t1", task.ID, "", claimBy(testfactory.Worker("t1", "bob"), task.Revision, "")); models.ErrorCode(err) != models.CodeRevisionConflict {
		t.Fatalf("bob's stale claim: %v, want revision-conflict", err)
	}
	if _, err := s.RelayPass(ctx, 10); err != nil {
		t.Fatal(err)
	}
	requireRelayed(t, s, task.ID)
	if n := countIn(t, s, operationCollection, task.ID); n != 2 {
		t.Fatalf("%d operations in the collection, want 2 (projection, claim)", n)
	}
}
