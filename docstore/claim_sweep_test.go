package docstore_test

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/testfactory"
)

// SweepClaims deletes version claims older than ClaimSweepAge, applied or not, and nothing
// else: young claims and resumption-id reservations stay, and the task goes on being written
// at the next versions.
func TestSweepClaims(t *testing.T) {
	ctx := testContext(t)
	s := openStore(t, nil)
	claimsOf := s.Database().Collection(docstore.ClaimCollection)
	task := createTask(t, s, &testfactory.TaskOpts{Tenant: "t1", CancellationEnabled: true})
	op := models.NewID()
	if _, err := s.Mutate(ctx, "t1", task.ID, op, cancelBy(testfactory.Manager("t1", "boss"), task.Revision, op)); err != nil {
		t.Fatal(err)
	}
	count := func(filter bson.D) int64 {
		t.Helper()
		n, err := claimsOf.CountDocuments(ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	versionClaims := bson.D{{Key: "version", Value: bson.D{{Key: "$exists", Value: true}}}}
	reservations := bson.D{{Key: "version", Value: bson.D{{Key: "$exists", Value: false}}}}
	claims, reserved := count(versionClaims), count(reservations)
	if claims == 0 || reserved == 0 {
		t.Fatalf("%d version claims and %d reservations after a cancel, want some of each", claims, reserved)
	}
	if n, err := s.SweepClaims(ctx); err != nil || n != 0 {
		t.Fatalf("young claims swept: %d, %v", n, err)
	}

	// Age everything, and leave an unapplied claim of the next version behind, as a writer
	// that died between its claim and its write would.
	next := rawTask(t, s, task.ID).Lookup("version").AsInt64() + 1
	set, _ := bson.Marshal(bson.D{{Key: "title", Value: "never acknowledged"}, {Key: "version", Value: next}})
	if _, err := claimsOf.InsertOne(ctx, bson.D{{Key: "_id", Value: docstore.ClaimID("t1", task.ID, next)}, {Key: "tenant_id", Value: "t1"},
		{Key: "task_id", Value: task.ID}, {Key: "version", Value: next}, {Key: "set", Value: bson.Raw(set)}, {Key: "created_at", Value: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * docstore.ClaimSweepAge)
	if _, err := claimsOf.UpdateMany(ctx, bson.D{}, bson.D{{Key: "$set", Value: bson.D{{Key: "created_at", Value: old}}}}); err != nil {
		t.Fatal(err)
	}
	n, err := s.SweepClaims(ctx)
	if err != nil || n != claims+1 {
		t.Fatalf("swept %d, %v; want the %d version claims and the unapplied one", n, err, claims+1)
	}
	if got := count(reservations); got != reserved {
		t.Fatalf("%d reservations left, want %d", got, reserved)
	}

	got, err := s.Get(ctx, "t1", task.ID)
	if err != nil || got.Title == "never acknowledged" || got.Status != models.StatusCancelling {
		t.Fatalf("after the sweep: %q %s, %v", got.Title, got.Status, err)
	}
	if _, err := s.Mutate(ctx, "t1", task.ID, "", finalize); err != nil {
		t.Fatalf("a write after the sweep: %v", err)
	}
	if got, err := s.Get(ctx, "t1", task.ID); err != nil || got.Status != models.StatusCancelled || got.Revision != task.Revision+2 {
		t.Fatalf("after the next write: %s revision %d, %v", got.Status, got.Revision, err)
	}
}
