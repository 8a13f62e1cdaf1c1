package docstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// The collections the tests read and write behind the store's back, under their logical
// tables' names.
const (
	eventCollection        = "user_task_events"
	operationCollection    = "user_task_operations"
	resumptionCollection   = "user_task_resumptions"
	invitationCollection   = "user_task_invitations"
	deliveryCollection     = "user_task_deliveries"
	guestSessionCollection = "user_task_guest_sessions"
	webSessionCollection   = "user_task_web_sessions"
	counterCollection      = "user_task_tenant_counters"
)

// openStore opens a Store on a fresh, migrated database of its own (testfactory), dropped when
// the test ends.
func openStore(t *testing.T, clock *testfactory.Clock) *docstore.Store {
	t.Helper()
	o := &testfactory.StoreOpts{}
	if clock != nil {
		o.Clock = clock.Now
	}
	return docStore(t, testfactory.OpenStore(t, testfactory.Mongo, o))
}

// docStore is s as the document store it is.
func docStore(t *testing.T, s store.Store) *docstore.Store {
	t.Helper()
	ds, ok := s.(*docstore.Store)
	if !ok {
		t.Fatalf("got a %T, not a *docstore.Store", s)
	}
	return ds
}

// project creates the task of projection p on s (the runtime protocol's path).
func project(t *testing.T, s taskStore, p models.Projection) (models.Task, bool) {
	t.Helper()
	key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	task, created, err := s.Create(testContext(t), p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return task, created
}

func createTask(t *testing.T, s taskStore, o *testfactory.TaskOpts) models.Task {
	t.Helper()
	task, created := project(t, s, testfactory.Projection(o))
	if !created {
		t.Fatal("the task existed already")
	}
	return task
}

// rawTask reads the aggregate document as stored.
func rawTask(t *testing.T, s *docstore.Store, id string) bson.Raw {
	t.Helper()
	raw, err := s.Database().Collection(docstore.Aggregate).FindOne(testContext(t), bson.D{{Key: "_id", Value: id}}).Raw()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func fullOpts() *testfactory.TaskOpts {
	due := time.Date(2031, 4, 5, 6, 7, 8, 123_000_000, time.UTC)
	prio := 80
	return &testfactory.TaskOpts{
		Title: "Review contract ключ / ? #", Summary: "summary", Reference: "REF-1", TaskType: "review",
		Tags: []string{"Urgent", "legal", " urgent "}, Priority: &prio, DueAt: &due,
		Candidates: []string{"zoe", "ann", "bob"}, Groups: []string{"clerks"}, Excluded: []string{"mallory"},
		Instructions: "secret instructions", Data: `{"amount":"secret-amount"}`,
		Form:                []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`),
		CancellationEnabled: true, TimeoutEnabled: true,
	}
}

// TestCreateGet: a created task reads back whole by id, materialization key and bookmark: the
// same task the creation returned (candidates and exclusions in the SQL store's read order),
// its protected content sealed in the document and opened on read.
func TestCreateGet(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	created := createTask(t, s, fullOpts())
	got, err := s.Get(ctx, created.Tenant, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := created
	docstore.SortAssignment(&want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Get:\n got %+v\nwant %+v", got, want)
	}
	byKey, err := s.FindByMaterializationKey(ctx, created.Tenant, created.MaterializationKey)
	if err != nil || !reflect.DeepEqual(byKey, got) {
		t.Fatalf("FindByMaterializationKey = %+v, %v", byKey, err)
	}
	byBookmark, err := s.FindByBookmarkID(ctx, created.Tenant, created.Workflow.BookmarkID)
	if err != nil || !reflect.DeepEqual(byBookmark, got) {
		t.Fatalf("FindByBookmarkID = %+v, %v", byBookmark, err)
	}
	if got.Protected.Instructions != "secret instructions" || !bytes.Contains(got.Protected.Data, []byte("secret-amount")) || !got.Protected.Form.Resolved() {
		t.Fatalf("protected content %+v", got.Protected)
	}

	raw := rawTask(t, s, created.ID)
	for _, secret := range []string{"secret instructions", "secret-amount", `"boolean"`} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("the stored aggregate holds %q in plaintext", secret)
		}
	}
	for _, field := range []string{storekit.ColInstructions, storekit.ColTaskData, storekit.ColForm} {
		if v, err := raw.LookupErr(field); err != nil || v.Type != bson.TypeString {
			t.Errorf("%s is not a sealed string: %v %v", field, v, err)
		}
	}
	type tag struct {
		Tag string `bson:"tag"`
	}
	var tags []tag
	if err := raw.Lookup("tag_keys").Unmarshal(&tags); err != nil || !slices.Equal(tags, []tag{{"urgent"}, {"legal"}}) {
		t.Errorf("tag_keys %v, %v; want urgent, legal once each", tags, err)
	}
	if v := raw.Lookup("version").AsInt64(); v < 2 {
		t.Errorf("version %d: the relay did not move the creation's entries", v)
	}
	if evs, err := s.Events(ctx, created.Tenant, created.ID, 0, 0); err != nil || len(evs) != 1 || evs[0].Type != models.EventCreated || evs[0].Seq != 1 {
		t.Fatalf("Events = %+v, %v; want the created event", evs, err)
	}
}

// TestCreateIdempotent: a second delivery of the same materialization key or bookmark returns
// the stored task, created false, without building; the keys are unique per tenant only.
func TestCreateIdempotent(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	p := testfactory.Projection(nil)
	first, created := project(t, s, p)
	if !created {
		t.Fatal("the first delivery did not create")
	}
	key := first.MaterializationKey
	for name, keys := range map[string][2]string{
		"SameKeys":     {key, p.Workflow.BookmarkID},
		"SameKey":      {key, "other-bookmark"},
		"SameBookmark": {"t1/other/key", p.Workflow.BookmarkID},
	} {
		got, created, err := s.Create(ctx, "t1", keys[0], keys[1], func(time.Time) (models.Change, error) {
			t.Errorf("%s: build ran for an existing task", name)
			return models.Change{}, errors.New("built")
		})
		if err != nil || created || got.ID != first.ID {
			t.Errorf("%s: Create = %s, %v, %v; want the first task, not created", name, got.ID, created, err)
		}
	}
	other := p
	other.Tenant = "t2"
	if _, created := project(t, s, other); !created {
		t.Error("the same keys in another tenant did not create")
	}
	moved := testfactory.Projection(nil)
	_, _, err := s.Create(ctx, "t1", "t1/not/the/key", moved.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(moved, now)
	})
	if err == nil {
		t.Fatal("a task built for other keys was stored")
	}
}

// TestCreateConcurrentDuplicates: eight deliveries of one projection at once create one task;
// every other delivery gets that task.
func TestCreateConcurrentDuplicates(t *testing.T) {
	s := openStore(t, nil)
	p := testfactory.Projection(nil)
	const n = 8
	ids, created := make([]string, n), make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
			task, ok, err := s.Create(testContext(t), p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
				return models.Project(p, now)
			})
			if err != nil {
				t.Errorf("delivery %d: %v", i, err)
			}
			ids[i], created[i] = task.ID, ok
		}()
	}
	wg.Wait()
	winners := 0
	for i := range n {
		if created[i] {
			winners++
		}
		if ids[i] != ids[0] {
			t.Errorf("delivery %d got task %q, delivery 0 %q", i, ids[i], ids[0])
		}
	}
	if winners != 1 {
		t.Fatalf("%d deliveries created, want 1", winners)
	}
	if n, err := s.Database().Collection(docstore.Aggregate).CountDocuments(testContext(t), bson.D{}); err != nil || n != 1 {
		t.Fatalf("%d aggregates, %v; want 1", n, err)
	}
}

// TestGetErrNotFound: another tenant's task, an unknown id and hostile ids are not found.
func TestGetErrNotFound(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	task := createTask(t, s, nil)
	for name, get := range map[string]func() (models.Task, error){
		"OtherTenant":         func() (models.Task, error) { return s.Get(ctx, "t2", task.ID) },
		"OtherTenantKey":      func() (models.Task, error) { return s.FindByMaterializationKey(ctx, "t2", task.MaterializationKey) },
		"OtherTenantBookmark": func() (models.Task, error) { return s.FindByBookmarkID(ctx, "t2", task.Workflow.BookmarkID) },
		"Unknown":             func() (models.Task, error) { return s.Get(ctx, "t1", models.NewID()) },
		"Hostile":             func() (models.Task, error) { return s.Get(ctx, "t1", task.ID+"/../x?#") },
		"NonASCII":            func() (models.Task, error) { return s.Get(ctx, "t1", "ключ \u00a0\x01") },
		"Empty":               func() (models.Task, error) { return s.FindByBookmarkID(ctx, "t1", "") },
	} {
		if _, err := get(); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
	if _, err := s.Operation(ctx, "t2", task.ID, "x"); !errors.Is(err, models.ErrNotFound) {
		t.Errorf("Operation of another tenant: %v", err)
	}
	if evs, err := s.Events(ctx, "t2", task.ID, 0, 0); err != nil || len(evs) != 0 {
		t.Errorf("Events of another tenant = %v, %v; want none", evs, err)
	}
}

// TestOpenPingNow: Open needs a key ring; the store answers and reads the server's clock.
func TestOpenPingNow(t *testing.T) {
	ctx := testContext(t)
	if _, err := docstore.Open(ctx, docstore.Config{URL: testfactory.Database(t, testfactory.Mongo)}); err == nil {
		t.Fatal("Open without a key ring succeeded")
	}
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckSchema(ctx); err != nil {
		t.Fatal(err)
	}
	now, err := s.Now(ctx)
	if err != nil || now.Location() != time.UTC || time.Until(now).Abs() > time.Minute || now.Truncate(time.Millisecond) != now {
		t.Fatalf("Now = %v, %v", now, err)
	}
	clock.Advance(time.Hour)
	if later, err := s.Now(ctx); err != nil || later.Sub(now) < time.Hour {
		t.Fatalf("Now after Advance = %v, %v", later, err)
	}
}

// taskStore is what the scenarios below need of a store; the SQL store has it too, so the
// same scenario runs on both and their outcomes are compared.
type taskStore interface {
	Create(ctx context.Context, tenant, materializationKey, bookmarkID string, build models.BuildFunc) (models.Task, bool, error)
	Mutate(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc) (models.Change, error)
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	Events(ctx context.Context, tenant, taskID string, afterSeq, limit int) ([]models.Event, error)
}

func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	if code := models.ErrorCode(err); code != "" {
		return string(code)
	}
	return fmt.Sprintf("error %v", err)
}
