package docstore_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// The claimed writes of documents other than the task aggregate, under the races FerretDB's
// non-atomic update would lose (docs/document-store.md, "Sessions, views, leases, claims").

// TestLeaseTakeOverHasOneWinner: eight nodes take over one expired lease at once; exactly one
// gets it, the others are told it is lost, and the stored lease is the winner's.
func TestLeaseTakeOverHasOneWinner(t *testing.T) {
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	ctx := testContext(t)
	if _, err := s.AcquireLease(ctx, "reconcile:t1", "node-0", time.Minute); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var won []models.Lease
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := s.AcquireLease(ctx, "reconcile:t1", fmt.Sprintf("node-%d", i+1), time.Minute)
			switch {
			case err == nil:
				mu.Lock()
				won = append(won, l)
				mu.Unlock()
			case !errors.Is(err, models.ErrLeaseLost):
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if len(won) != 1 {
		t.Fatalf("%d nodes took the lease over, want 1: %+v", len(won), won)
	}
	var d storekit.LeaseRow
	err := s.Database().Collection("user_task_leases").FindOne(ctx, bson.D{{Key: "_id", Value: "reconcile:t1"}}).Decode(&d)
	if err != nil || d.LeaseOwner != won[0].Owner || d.LeaseToken != won[0].Token || d.LeaseGeneration != 2 {
		t.Fatalf("stored %+v, %v; want the winner %+v at generation 2", d, err, won[0])
	}
}

// TestLeaseRollsADeadWriteForward: a release whose writer died after its claim blocks the lease
// only until ClaimGrace has passed; then the next writer applies it first.
func TestLeaseRollsADeadWriteForward(t *testing.T) {
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	ctx := testContext(t)
	a, err := s.AcquireLease(ctx, "sweep", "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := bson.Marshal(bson.D{{Key: "lease_expires_at", Value: now}, {Key: "updated_at", Value: now}, {Key: "version", Value: int64(1)}})
	key := docstore.LeaseKey("sweep")
	if _, err := s.Database().Collection(docstore.ClaimCollection).InsertOne(ctx, bson.D{{Key: "_id", Value: docstore.ClaimID("", key, 1)},
		{Key: "tenant_id", Value: ""}, {Key: "task_id", Value: key}, {Key: "version", Value: int64(1)}, {Key: "set", Value: bson.Raw(set)},
		{Key: "created_at", Value: now}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(docstore.DefaultClaimGrace + time.Second) // testfactory opens stores with the default
	if _, err := s.RenewLease(ctx, "sweep", a, time.Hour); !errors.Is(err, models.ErrLeaseLost) {
		t.Fatalf("renew after the dead release: %v, want ErrLeaseLost", err)
	}
	b, err := s.AcquireLease(ctx, "sweep", "node-b", time.Hour)
	if err != nil || b.Generation != 2 {
		t.Fatalf("take over after the release: %+v, %v", b, err)
	}
}

// TestSavedViewCapHoldsUnderConcurrency: an owner with 45 views creates ten more at once;
// exactly five are stored, the rest are refused by the cap.
func TestSavedViewCapHoldsUnderConcurrency(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	owner := models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "ann"}
	create := func(name string) error {
		_, err := s.CreateSavedView(ctx, models.SavedView{Tenant: "t1", Owner: owner, Name: name, Query: "tab=all"})
		return err
	}
	for i := range models.MaxSavedViews - 5 {
		if err := create(fmt.Sprintf("View %02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored, refused := 0, 0
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := create(fmt.Sprintf("Late %d", i))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				stored++
			case errors.Is(err, storekit.ErrTooManyViews):
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	n, err := s.Database().Collection("user_task_saved_views").CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: "t1"},
		{Key: "owner_provider", Value: owner.Provider}, {Key: "owner_type", Value: string(owner.Type)}, {Key: "owner_id", Value: owner.ID}})
	if stored != 5 || refused != 5 || err != nil || n != models.MaxSavedViews {
		t.Fatalf("stored %d, refused %d, %d views (%v); want 5, 5 and %d", stored, refused, n, err, models.MaxSavedViews)
	}
}

// TestWebSessionTouchesKeepARefresh: requests touching a session while its identity is
// refreshed do not write the old identity back.
func TestWebSessionTouchesKeepARefresh(t *testing.T) {
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	ctx := testContext(t)
	ws := models.WebSession{IDHash: fmt.Sprintf("%064x", 7), Via: models.WebViaOIDC, IdleTimeout: time.Hour, RefreshToken: "rt-1",
		WebIdentity: models.WebIdentity{Tenant: "t1", Provider: models.DefaultProvider, Subject: "ann", Permissions: []string{"user-tasks:view"}}}
	if _, err := s.CreateWebSession(ctx, ws, 8*time.Hour); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute)
	id := ws.WebIdentity
	id.Permissions = []string{"user-tasks:view", "user-tasks:supervise"}
	var wg sync.WaitGroup
	for i := range 9 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i == 4 {
				err = s.UpdateWebSessionIdentity(ctx, ws.IDHash, id, models.WebTokens{Refresh: "rt-2"})
			} else {
				_, err = s.WebSession(ctx, ws.IDHash)
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := s.WebSession(ctx, ws.IDHash)
	if err != nil || len(got.Permissions) != 2 || got.RefreshToken != "rt-2" {
		t.Fatalf("after the race: %+v, %v; want the refreshed identity and token", got, err)
	}
}
