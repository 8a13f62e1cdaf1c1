package docstore

import (
	"context"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
)

// A place and its task are two writes (tenant_counter.go): a creation takes the place, then
// inserts the task; a finalization writes the task, then the relay frees the place. Between the
// two a place is in flight, and a crash there leaves it behind. The audit tells the two apart
// (placesInFlight), and SweepStrayPlaces frees the places a creation left without a task.

// placeState is what a place's task says of the place.
type placeState int

const (
	placeHeld     placeState = iota // the task is open or transitional: the place counts
	placeInFlight                   // about to be freed or about to be used: not a finding
	placeStray                      // no task will ever use or free it
)

// placeTask is what judgePlaces reads of a place's task.
type placeTask struct {
	ID       string `bson:"_id"`
	Status   string `bson:"status"`
	RelayDue bool   `bson:"relay_due"`
}

// judgePlaces tells, for each of tenant's places whose task id is in ids, what its task says
// of it: a terminal task whose release waits in its aggregate (relay_due) and a missing task
// whose place is younger than ClaimGrace (a creation still on its way) are in flight; a
// missing task past that, or a terminal task with nothing pending, leave a stray.
func (s *Store) judgePlaces(ctx context.Context, tenant string, places []placeDoc, now time.Time) (map[string]placeState, error) {
	ids := make(bson.A, 0, len(places))
	for _, p := range places {
		ids = append(ids, p.TaskID)
	}
	var tasks []placeTask
	opts := options.Find().SetProjection(bson.D{{Key: "status", Value: 1}, {Key: "relay_due", Value: 1}})
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}
	if err := s.findAll(ctx, Aggregate, filter, opts, &tasks); err != nil {
		return nil, err
	}
	out := make(map[string]placeState, len(places))
	for _, p := range places {
		i := slices.IndexFunc(tasks, func(t placeTask) bool { return t.ID == p.TaskID })
		switch {
		case i < 0 && now.Sub(p.UpdatedAt) < s.cfg.ClaimGrace:
			out[p.TaskID] = placeInFlight
		case i < 0:
			out[p.TaskID] = placeStray
		case models.Status(tasks[i].Status).CountsAsOpen():
			out[p.TaskID] = placeHeld
		case tasks[i].RelayDue:
			out[p.TaskID] = placeInFlight
		default:
			out[p.TaskID] = placeStray
		}
	}
	return out, nil
}

// placesInFlight counts tenant's places that are in flight (judgePlaces); the audit reads
// them only for a tenant whose sums differ.
func (s *Store) placesInFlight(ctx context.Context, tenant string, now time.Time) (int, error) {
	var places []placeDoc
	if err := s.findAll(ctx, counterCollection, bson.D{{Key: "tenant_id", Value: tenant}}, options.Find(), &places); err != nil {
		return 0, err
	}
	n := 0
	for chunk := range slices.Chunk(places, models.MaxPageSize) {
		states, err := s.judgePlaces(ctx, tenant, chunk, now)
		if err != nil {
			return 0, err
		}
		for _, st := range states {
			if st == placeInFlight {
				n++
			}
		}
	}
	return n, nil
}

// SweepStrayPlaces frees the places no task will ever use or free (judgePlaces) and reports
// how many it freed. RunRelay calls it; it is safe on any number of nodes. A creation slower
// than ClaimGrace between its place and its task loses its place here: the tenant may then
// hold one task over its cap, the overshoot the cap allows for concurrent writers anyway.
func (s *Store) SweepStrayPlaces(ctx context.Context) (int, error) {
	freed, _, err := s.sweepStrayPlaces(ctx)
	return freed, err
}

// sweepStrayPlaces is SweepStrayPlaces, also counting the places it left because they were in
// flight: each is freed or used within ClaimGrace, or a later sweep frees it.
func (s *Store) sweepStrayPlaces(ctx context.Context) (freed, inFlight int, err error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, 0, err
	}
	after := bson.D{}
	for {
		var places []placeDoc
		opts := options.Find().SetSort(bson.D{{Key: "tenant_id", Value: 1}, {Key: "stripe", Value: 1}}).SetLimit(int64(models.MaxPageSize))
		if err := s.findAll(ctx, counterCollection, after, opts, &places); err != nil {
			return freed, inFlight, err
		}
		byTenant := map[string][]placeDoc{}
		for _, p := range places {
			byTenant[p.TenantID] = append(byTenant[p.TenantID], p)
		}
		for tenant, ps := range byTenant {
			states, err := s.judgePlaces(ctx, tenant, ps, now)
			if err != nil {
				return freed, inFlight, err
			}
			for _, p := range ps {
				if states[p.TaskID] == placeInFlight {
					inFlight++
				}
				if states[p.TaskID] != placeStray {
					continue
				}
				res, err := s.counters().DeleteOne(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "stripe", Value: p.Stripe}, {Key: "task_id", Value: p.TaskID}})
				if err != nil {
					return freed, inFlight, translate(err)
				}
				freed += int(res.DeletedCount)
			}
		}
		if len(places) < models.MaxPageSize {
			return freed, inFlight, nil
		}
		last := places[len(places)-1]
		after = bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "tenant_id", Value: bson.D{{Key: "$gt", Value: last.TenantID}}}},
			bson.D{{Key: "tenant_id", Value: last.TenantID}, {Key: "stripe", Value: bson.D{{Key: "$gt", Value: last.Stripe}}}},
		}}}
	}
}
