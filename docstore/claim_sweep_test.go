package docstore

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore/docstoretest"
	"usertasks/models"
	"usertasks/testfactory"
)

// SweepClaims deletes version claims older than claimSweepAge, applied or not, and nothing
// else: young claims and resumption-id reservations stay, and the task goes on being written
// at the next versions.
func TestSweepClaims(t *testing.T) {
	ctx := testContext(t)
	s := openDropped(t, ctx, Config{URL: docstoretest.DatabaseURL(t), Keys: testfactory.Keys()})
	mustUp(t, ctx, s.db)
	task := createTask(t, s, &testfactory.TaskOpts{Tenant: "t1", CancellationEnabled: true})
	op := models.NewID()
	if _, err := s.Mutate(ctx, "t1", task.ID, op, cancelBy(testfactory.Manager("t1", "boss"), task.Revision, op)); err != nil {
		t.Fatal(err)
	}
	count := func(filter bson.D) int64 {
		t.Helper()
		n, err := s.claims().CountDocuments(ctx, filter)
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
	d, err := s.load(ctx, taskFilter("t1", task.ID))
	if err != nil {
		t.Fatal(err)
	}
	set, _ := bson.Marshal(bson.D{{Key: "title", Value: "never acknowledged"}, {Key: "version", Value: d.Version + 1}})
	if _, err := s.claims().InsertOne(ctx, claimDoc{ID: claimID("t1", task.ID, d.Version+1), TenantID: "t1", TaskID: task.ID,
		Version: d.Version + 1, Set: set, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * claimSweepAge)
	if _, err := s.claims().UpdateMany(ctx, bson.D{}, bson.D{{Key: "$set", Value: bson.D{{Key: "created_at", Value: old}}}}); err != nil {
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
