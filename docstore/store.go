package docstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// DefaultClaimGrace is Config.ClaimGrace's default.
const DefaultClaimGrace = 10 * time.Second

// Config configures a Store.
type Config struct {
	// URL is the mongodb:// or mongodb+srv:// URL of the database.
	URL string
	// Keys seals the protected fields, as on the SQL store. Required.
	Keys *keyring.Keyring
	// ClaimGrace is how long a version claim whose write has not landed is left to its writer
	// before a reader rolls it forward (the writer died between the claim and the write).
	// Default 10s.
	ClaimGrace time.Duration
	// Clock, when set, adjusts the database clock (tests move time forward with it).
	Clock func(dbNow time.Time) time.Time
	// TotalCap is the most a list total counts (models.TotalCap). Default models.TotalCap.
	TotalCap int
	// ShortSearchWindow is the most rows one page of a 1–2 character search examines
	// (storekit.ShortSearch). Default storekit.ShortSearchWindow; tests lower it.
	ShortSearchWindow int
	// OpenTasksPerTenant caps open and transitional tasks per tenant, as on SQL. Default
	// models.DefaultOpenTasksPerTenant.
	OpenTasksPerTenant int
}

// Store is the task store on documents (docs/document-store.md): the whole store contract
// (store.Store). It is safe for concurrent use.
type Store struct {
	conn *Conn
	db   *mongo.Database
	keys *keyring.Keyring
	cfg  Config
	// crash, when set (tests only), is asked at each step a crash can interrupt: a non-nil
	// answer ends the write there, as a killed process would.
	crash func(step crashStep) error
	// notify is the change notifier (NotifyChanges), nil when none.
	notify storekit.Notifier
	// issued is the NotifyDeliveries hook, nil when none.
	issued storekit.Hook
	// tenants are those recordTenant filed already (tenant → true).
	tenants sync.Map
}

var _ store.Store = (*Store)(nil)

// crashStep names a point between two writes of one logical step.
type crashStep string

const (
	// afterClaim: the version is claimed, the aggregate not yet written.
	afterClaim crashStep = "after-claim"
	// afterPlace: a creation took its open-task place, the task is not yet inserted.
	afterPlace crashStep = "after-place"
	// afterRelayInsert: the relay inserted the entries into their collections, not yet pulled them.
	afterRelayInsert crashStep = "after-relay-insert"
	// beforeRelay: a write committed, its relay has not started (the entries are only pending).
	beforeRelay crashStep = "before-relay"
)

// Open connects to the database cfg.URL names. It neither creates nor migrates the collections:
// run Up (`web migrate up`) first; CheckSchema tells whether the database is current.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Keys == nil {
		return nil, errors.New("docstore: an encryption key ring is required")
	}
	if cfg.ClaimGrace <= 0 {
		cfg.ClaimGrace = DefaultClaimGrace
	}
	conn, err := Connect(ctx, cfg.URL)
	if err != nil {
		return nil, err
	}
	return &Store{conn: conn, db: conn.DB, keys: cfg.Keys, cfg: cfg}, nil
}

// Close disconnects.
func (s *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.conn.Close(ctx)
}

// Database is the store's database, for the tests and tools that read or change its documents
// behind the store's back (the counterpart of repository.Store.DB).
func (s *Store) Database() *mongo.Database { return s.db }

// Ping checks that the server answers.
func (s *Store) Ping(ctx context.Context) error {
	return translate(s.conn.client.Ping(ctx, nil))
}

// CheckSchema fails unless the database is at exactly this binary's schema version.
func (s *Store) CheckSchema(ctx context.Context) error {
	cur, latest, err := Check(ctx, s.db)
	if err != nil {
		return fmt.Errorf("%w (database at %d, binary at %d)", err, cur, latest)
	}
	return nil
}

// Now reads the database clock (the server's localTime, which MongoDB and FerretDB report in
// `hello`), in UTC, at the millisecond precision of BSON dates.
func (s *Store) Now(ctx context.Context) (time.Time, error) {
	var hello struct {
		LocalTime time.Time `bson:"localTime"`
	}
	if err := s.db.RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&hello); err != nil {
		return time.Time{}, translate(err)
	}
	if hello.LocalTime.IsZero() {
		return time.Time{}, errors.New("docstore: the server reports no clock")
	}
	now := utc(hello.LocalTime)
	if s.cfg.Clock != nil {
		now = utc(s.cfg.Clock(now))
	}
	return now, nil
}

func (s *Store) tasks() *mongo.Collection  { return s.db.Collection(Aggregate) }
func (s *Store) claims() *mongo.Collection { return s.db.Collection(ClaimCollection) }

// translate maps driver errors to the store's error kinds.
func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, mongo.ErrNoDocuments):
		return models.ErrNotFound
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case mongo.IsNetworkError(err), mongo.IsTimeout(err):
		return fmt.Errorf("%w: the database connection failed", models.ErrBusy)
	}
	return fmt.Errorf("docstore: %w", err)
}

// errClaimLost: another writer claimed the version this write read; nothing was written.
var errClaimLost = errors.New("docstore: the version was claimed by another writer")

// maxAttempts bounds how often a write re-reads and decides again after losing a claim.
const maxAttempts = 32

// backoff waits a little, with jitter, before attempt (from 1) runs again.
func backoff(ctx context.Context, attempt int) error {
	limit := min(5<<attempt, 200)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(1+rand.IntN(limit)) * time.Millisecond):
		return nil
	}
}

func taskFilter(tenant, id string) bson.D {
	return bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: tenant}}
}

func claimID(tenant, taskID string, version int64) string {
	return fmt.Sprintf("%s/%s/%d", tenant, taskID, version)
}

// load reads the aggregate filter finds, after rolling forward a claimed write whose writer
// died (docs/document-store.md, "What FerretDB 1.x does not make atomic", step 4): the result
// is never behind a write that was claimed more than ClaimGrace ago. A younger claim belongs
// to a writer still at work, and the aggregate as it stands is the latest committed state.
func (s *Store) load(ctx context.Context, filter bson.D) (*taskDoc, error) {
	// A task a purge has marked is gone for every reader and writer (purge.go).
	filter = append(filter[:len(filter):len(filter)], bson.E{Key: "purging", Value: bson.D{{Key: "$exists", Value: false}}})
	for range maxAttempts {
		var d taskDoc
		if err := s.tasks().FindOne(ctx, filter).Decode(&d); err != nil {
			return nil, translate(err)
		}
		rolled, err := s.rollForward(ctx, &d)
		if err != nil || !rolled {
			return &d, err
		}
	}
	return nil, fmt.Errorf("%w: the task's claims did not settle", models.ErrBusy)
}

// rollForward applies the claim of the version after d's when its writer left it behind.
func (s *Store) rollForward(ctx context.Context, d *taskDoc) (bool, error) {
	var c claimDoc
	err := s.claims().FindOne(ctx, bson.D{{Key: "_id", Value: claimID(d.TenantID, d.ID, d.Version+1)}}).Decode(&c)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	if err != nil {
		return false, translate(err)
	}
	now, err := s.Now(ctx)
	if err != nil {
		return false, err
	}
	if now.Sub(c.CreatedAt) < s.cfg.ClaimGrace {
		return false, nil
	}
	_, err = s.tasks().UpdateOne(ctx, versionFilter(d), bson.D{{Key: "$set", Value: c.Set}})
	return true, translate(err)
}

func versionFilter(d *taskDoc) bson.D {
	return bson.D{{Key: "_id", Value: d.ID}, {Key: "tenant_id", Value: d.TenantID}, {Key: "version", Value: d.Version}}
}

// commit writes next over cur, the aggregate as read, under a version claim: it claims
// cur.Version+1 in user_task_claims with the write itself, then applies the write filtered on
// cur's version. errClaimLost when another writer holds that version. Once the claim is held the
// write is the claim's: if the filter matches nothing, a reader has rolled the same write
// forward already; if the process dies, a reader will. The claim stays (version claims are
// never reused), so holding it means exactly this write made the version.
func (s *Store) commit(ctx context.Context, cur, next *taskDoc, now time.Time) error {
	next.ID, next.TenantID, next.Version = cur.ID, cur.TenantID, cur.Version+1
	set, err := changedFields(cur, next)
	if err != nil {
		return err
	}
	claim := claimDoc{ID: claimID(cur.TenantID, cur.ID, next.Version), TenantID: cur.TenantID, TaskID: cur.ID,
		Version: next.Version, Set: set, CreatedAt: now}
	if _, err := s.claims().InsertOne(ctx, claim); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return errClaimLost
		}
		return translate(err)
	}
	if s.crash != nil {
		if err := s.crash(afterClaim); err != nil {
			return err
		}
	}
	// The claimed write is finished even if the caller gives up now, so that it lands without
	// waiting for a reader's roll-forward.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	_, err = s.tasks().UpdateOne(wctx, versionFilter(cur), bson.D{{Key: "$set", Value: set}})
	return translate(err)
}

// changedFields is the $set of a write: every top-level field of next whose encoding differs
// from cur's (the version always does).
func changedFields(cur, next *taskDoc) (bson.Raw, error) {
	old, err := bson.Marshal(cur)
	if err != nil {
		return nil, err
	}
	raw, err := bson.Marshal(next)
	if err != nil {
		return nil, err
	}
	elems, err := bson.Raw(raw).Elements()
	if err != nil {
		return nil, err
	}
	var set bson.D
	for _, e := range elems {
		key := e.Key()
		if key == "_id" {
			continue
		}
		was, err := bson.Raw(old).LookupErr(key)
		if err == nil && was.Type == e.Value().Type && bytes.Equal(was.Value, e.Value().Value) {
			continue
		}
		set = append(set, bson.E{Key: key, Value: e.Value()})
	}
	return bson.Marshal(set)
}

// clone copies an aggregate deeply enough to change its arrays.
func (d *taskDoc) clone() *taskDoc {
	c := *d
	c.TagKeys = append([]tagDoc(nil), d.TagKeys...)
	c.Candidates = append([]candidateDoc(nil), d.Candidates...)
	c.Exclusions = append([]exclusionDoc(nil), d.Exclusions...)
	c.Operations = append([]operationDoc(nil), d.Operations...)
	c.PendingEvents = append([]eventDoc(nil), d.PendingEvents...)
	c.PendingResumptions = append([]resumptionDoc(nil), d.PendingResumptions...)
	c.PendingEffects = append([]effectDoc(nil), d.PendingEffects...)
	c.PendingInvitations = append([]invitationDoc(nil), d.PendingInvitations...)
	c.PendingDeliveries = append([]deliveryDoc(nil), d.PendingDeliveries...)
	c.PendingNotifications = append([]notificationDoc(nil), d.PendingNotifications...)
	c.PendingComments = append([]commentDoc(nil), d.PendingComments...)
	c.Deadlines = append([]deadlineDoc(nil), d.Deadlines...)
	return &c
}

// relayDue reports whether anything in the aggregate waits for the relay.
func (d *taskDoc) relayDue() bool {
	if len(d.PendingEvents) > 0 || len(d.PendingResumptions) > 0 || len(d.PendingEffects) > 0 ||
		len(d.PendingInvitations) > 0 || len(d.PendingDeliveries) > 0 || len(d.PendingNotifications) > 0 ||
		len(d.PendingComments) > 0 {
		return true
	}
	for _, o := range d.Operations {
		if o.State != string(models.OperationAccepted) {
			return true
		}
	}
	return false
}
