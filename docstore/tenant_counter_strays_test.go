package docstore

import (
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore/docstoretest"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// A creation that died between its place and its task leaves a place without a task: while it
// is younger than ClaimGrace it is a creation on its way (no finding, not swept); past that the
// audit reports it and SweepStrayPlaces frees it, and nothing else. A terminal task whose
// release waits for the relay holds its place in flight, not as a finding.
func TestStrayPlaces(t *testing.T) {
	ctx := testContext(t)
	s := openDropped(t, ctx, Config{URL: docstoretest.DatabaseURL(t), Keys: testfactory.Keys(), ClaimGrace: time.Minute})
	mustUp(t, ctx, s.db)
	held := createTask(t, s, &testfactory.TaskOpts{Tenant: "cap", CancellationEnabled: true})
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	young := placeDoc{TenantID: "cap", Stripe: 7001, OpenTasks: 1, TaskID: "died-just-now", UpdatedAt: utc(now)}
	old := placeDoc{TenantID: "cap", Stripe: 7002, OpenTasks: 1, TaskID: "died-long-ago", UpdatedAt: utc(now.Add(-2 * time.Minute))}
	if _, err := s.counters().InsertOne(ctx, young); err != nil {
		t.Fatal(err)
	}

	audit := func() []store.AuditFinding {
		t.Helper()
		found, err := s.AuditTenantCounters(ctx, "cap")
		if err != nil {
			t.Fatal(err)
		}
		return found
	}
	if found := audit(); len(found) != 0 {
		t.Fatalf("a place younger than ClaimGrace is reported: %+v", found)
	}
	if n, err := s.SweepStrayPlaces(ctx); err != nil || n != 0 {
		t.Fatalf("sweep freed %d, %v; want 0 while the creation may be on its way", n, err)
	}

	if _, err := s.counters().InsertOne(ctx, old); err != nil {
		t.Fatal(err)
	}
	if found := audit(); len(found) != 1 || !strings.Contains(found[0].Message, "open-task counter is 3 (1 of them in flight), the tenant has 1") {
		t.Fatalf("findings %+v, want the old stray place reported", found)
	}
	if n, err := s.SweepStrayPlaces(ctx); err != nil || n != 1 {
		t.Fatalf("sweep freed %d, %v; want the old stray place", n, err)
	}
	if found := audit(); len(found) != 0 {
		t.Fatalf("after the sweep: %+v", found)
	}
	if got := counterStripes(t, s, "cap"); len(got) != 2 {
		t.Fatalf("places left %v, want the held task's and the young one", got)
	}

	t.Run("ReleaseWaitingForTheRelay", func(t *testing.T) {
		op := models.NewID()
		if _, err := s.Mutate(ctx, "cap", held.ID, op, cancelBy(testfactory.Manager("cap", "boss"), held.Revision, op)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Mutate(ctx, "cap", held.ID, "", finalize); err != nil {
			t.Fatal(err)
		}
		// The state just before the relay frees the place: the place is there and the
		// finalized aggregate waits for the relay with the release pending.
		if _, err := s.counters().InsertOne(ctx, placeDoc{TenantID: "cap", Stripe: 7003, OpenTasks: 1, TaskID: held.ID, UpdatedAt: utc(now)}); err != nil {
			t.Fatal(err)
		}
		release := effectDoc{ID: models.NewID(), Kind: effectReleasePlace, CreatedAt: utc(now)}
		if _, err := s.tasks().UpdateOne(ctx, taskFilter("cap", held.ID), bson.D{{Key: "$set", Value: bson.D{
			{Key: "relay_due", Value: true}, {Key: "pending_effects", Value: []effectDoc{release}}}}}); err != nil {
			t.Fatal(err)
		}
		if found := audit(); len(found) != 0 {
			t.Fatalf("a release waiting for the relay is reported: %+v", found)
		}
		if n, err := s.SweepStrayPlaces(ctx); err != nil || n != 0 {
			t.Fatalf("sweep freed %d, %v; the relay frees that place", n, err)
		}
		if _, err := s.RelayPass(ctx, 10); err != nil {
			t.Fatal(err)
		}
		if got := counterStripes(t, s, "cap"); len(got) != 1 {
			t.Fatalf("places after the relay %v, want the young one only", got)
		}
	})
}
