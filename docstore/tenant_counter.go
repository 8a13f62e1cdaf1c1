package docstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// The tenant's open-task cap (docs/document-store.md, "Capacity counters without
// transactions"). FerretDB cannot raise a shared counter under a condition atomically, but it
// enforces unique indexes, so the counter is one document per open task, a "place": stripe k
// of user_task_tenant_counters (unique pk_user_task_tenant_counters (tenant_id, stripe)),
// open_tasks 1, holding the task's id. A creation takes a free place k below the limit with one
// insert; the unique index lets at most one task hold each, so at most limit places below the
// limit exist, on both servers, without a version claim. A finalization frees its task's place
// (a pending effect the relay applies: a delete by task id, idempotent). The open count is the
// sum of open_tasks, as on SQL.

// counterCollection is the tenant's open-task counter.
const counterCollection = "user_task_tenant_counters"

// effectReleasePlace frees the task's place in the tenant's open-task counter (the task became
// terminal).
const effectReleasePlace = "release-place"

// randomPlaceTries is how many random places a creation tries before it reads which are free:
// far below the limit the first try almost always succeeds.
const randomPlaceTries = 3

// placeDoc is one open task's place in the tenant's counter.
type placeDoc struct {
	TenantID  string    `bson:"tenant_id"`
	Stripe    int       `bson:"stripe"`
	OpenTasks int       `bson:"open_tasks"`
	TaskID    string    `bson:"task_id"`
	UpdatedAt time.Time `bson:"updated_at"`
}

func (s *Store) counters() *mongo.Collection { return s.db.Collection(counterCollection) }

// openTaskLimit is the cap on a tenant's open and transitional tasks.
func (s *Store) openTaskLimit() int {
	if s.cfg.OpenTasksPerTenant > 0 {
		return s.cfg.OpenTasksPerTenant
	}
	return models.DefaultOpenTasksPerTenant
}

// reservePlace takes a place below the limit for a new open task, or refuses with the SQL
// store's CapacityError when every place is taken. A few random places first; then the taken
// ones are read and the free ones tried in random order (a concurrent creation may take one
// first). A place a concurrent finalization frees after that read is not seen: the creation is
// refused, as on SQL when the finalization has not committed yet.
func (s *Store) reservePlace(ctx context.Context, tenant, taskID string, now time.Time) error {
	limit := s.openTaskLimit()
	took := false
	for i := 0; i < randomPlaceTries && !took; i++ {
		var err error
		if took, err = s.takePlace(ctx, tenant, taskID, rand.IntN(limit), now); err != nil {
			return err
		}
	}
	if !took {
		free, err := s.freePlaces(ctx, tenant, limit)
		if err != nil {
			return err
		}
		for _, k := range free {
			if took, err = s.takePlace(ctx, tenant, taskID, k, now); took || err != nil {
				break
			}
		}
		if err != nil {
			return err
		}
	}
	if !took {
		return &models.CapacityError{Limit: limit}
	}
	return s.checkLoweredLimit(ctx, tenant, taskID, limit)
}

// takePlace inserts the task's place k; false when another task holds it.
func (s *Store) takePlace(ctx context.Context, tenant, taskID string, k int, now time.Time) (bool, error) {
	_, err := s.counters().InsertOne(ctx, placeDoc{TenantID: tenant, Stripe: k, OpenTasks: 1, TaskID: taskID, UpdatedAt: utc(now)})
	if mongo.IsDuplicateKeyError(err) {
		return false, nil
	}
	return err == nil, translate(err)
}

// freePlaces returns the places below limit no task holds, shuffled so concurrent creations
// spread over them.
func (s *Store) freePlaces(ctx context.Context, tenant string, limit int) ([]int, error) {
	var taken []placeDoc
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "stripe", Value: bson.D{{Key: "$lt", Value: limit}}}}
	if err := s.findAll(ctx, counterCollection, filter, options.Find().SetProjection(bson.D{{Key: "stripe", Value: 1}}), &taken); err != nil {
		return nil, err
	}
	held := make(map[int]bool, len(taken))
	for _, p := range taken {
		held[p.Stripe] = true
	}
	free := make([]int, 0, limit-len(held))
	for k := 0; k < limit; k++ {
		if !held[k] {
			free = append(free, k)
		}
	}
	rand.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	return free, nil
}

// checkLoweredLimit handles places at or above the limit, which exist only when the limit was
// lowered below what the tenant held: the new task then counts only if the tenant's total is
// still within the limit; otherwise it gives its place back and is refused. Two creations that
// race here may both be refused where one would fit (never the other way round).
func (s *Store) checkLoweredLimit(ctx context.Context, tenant, taskID string, limit int) error {
	over := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "stripe", Value: bson.D{{Key: "$gte", Value: limit}}}}
	err := s.counters().FindOne(ctx, over, options.FindOne().SetProjection(bson.D{{Key: "stripe", Value: 1}})).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil
	}
	if err != nil {
		return s.afterFailedReserve(ctx, tenant, taskID, translate(err))
	}
	n, err := s.counters().CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: tenant}})
	if err != nil {
		return s.afterFailedReserve(ctx, tenant, taskID, translate(err))
	}
	if n > int64(limit) {
		return s.afterFailedReserve(ctx, tenant, taskID, &models.CapacityError{Limit: limit})
	}
	return nil
}

// afterFailedReserve gives the task's place back and returns err.
func (s *Store) afterFailedReserve(ctx context.Context, tenant, taskID string, err error) error {
	if rerr := s.releasePlace(ctx, tenant, taskID); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// releasePlace frees the task's place; freeing it again changes nothing.
func (s *Store) releasePlace(ctx context.Context, tenant, taskID string) error {
	_, err := s.counters().DeleteMany(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID}})
	return translate(err)
}

// AuditTenantCounters compares each tenant's open-task count (the sum of its counter
// documents) with its open and transitional tasks, as repository.Store.AuditTenantCounters
// does; tenant "" audits all. A place whose creation died before the task was written (see
// reservePlace's caller) shows here as a count above the tasks once it is older than
// ClaimGrace, until SweepStrayPlaces frees it; places in flight are not findings.
func (s *Store) AuditTenantCounters(ctx context.Context, tenant string) ([]store.AuditFinding, error) {
	var open bson.A
	for _, st := range models.AllStatuses {
		if st.CountsAsOpen() {
			open = append(open, string(st))
		}
	}
	taskMatch := bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: open}}}}
	counterMatch := bson.D{}
	if tenant != "" {
		taskMatch = append(bson.D{{Key: "tenant_id", Value: tenant}}, taskMatch...)
		counterMatch = bson.D{{Key: "tenant_id", Value: tenant}}
	}
	have, err := s.sumByTenant(ctx, Aggregate, taskMatch, 1)
	if err != nil {
		return nil, err
	}
	counted, err := s.sumByTenant(ctx, counterCollection, counterMatch, "$open_tasks")
	if err != nil {
		return nil, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	var out []store.AuditFinding
	for id, n := range counted {
		inFlight := 0
		if n > have[id] {
			// Places in flight (a release the relay has yet to apply, a creation on its way)
			// are not findings; only the rest of the difference is.
			if inFlight, err = s.placesInFlight(ctx, id, now); err != nil {
				return nil, err
			}
			inFlight = min(inFlight, n-have[id])
		}
		if n-inFlight != have[id] {
			msg := fmt.Sprintf("open-task counter is %d, the tenant has %d open or transitional tasks", n, have[id])
			if inFlight > 0 {
				msg = fmt.Sprintf("open-task counter is %d (%d of them in flight), the tenant has %d open or transitional tasks", n, inFlight, have[id])
			}
			out = append(out, store.AuditFinding{Tenant: id, Invariant: invTenantCounter, Message: msg})
		}
	}
	for id, n := range have {
		if _, ok := counted[id]; !ok && n > 0 {
			out = append(out, store.AuditFinding{Tenant: id, Invariant: invTenantCounter,
				Message: fmt.Sprintf("no open-task counter, the tenant has %d open or transitional tasks", n)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tenant < out[j].Tenant })
	return out, nil
}

// invTenantCounter is the tenant counter's invariant code.
const invTenantCounter = storekit.InvTenantCounter

// sumByTenant sums value (a field path or a constant) over the documents of collection that
// match, by tenant_id.
func (s *Store) sumByTenant(ctx context.Context, collection string, match bson.D, value any) (map[string]int, error) {
	pipeline := mongo.Pipeline{
		{{Key: "$match", Value: match}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$tenant_id"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: value}}}}}},
	}
	cur, err := s.db.Collection(collection).Aggregate(ctx, pipeline)
	if err != nil {
		return nil, translate(err)
	}
	var rows []struct {
		Tenant string `bson:"_id"`
		N      int    `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return nil, translate(err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Tenant] = r.N
	}
	return out, nil
}
