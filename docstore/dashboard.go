package docstore

import (
	"context"
	"errors"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// DashboardCounts reads a tenant's current numbers for the managers' dashboard, as
// repository.Store.DashboardCounts: counts per open and transitional status (ix_tasks_workload),
// per health code, overdue open tasks, stale transitions, the pending resumptions and the
// assignees' workload. Terminal tasks, the bulk of a tenant, are never read here (the daily
// rollup has them). The reads are separate queries, not one snapshot: a count may reflect a
// write the one before it did not see (the SQL store reads them in one transaction).
func (s *Store) DashboardCounts(ctx context.Context, tenant string, staleAfter time.Duration) (models.DashboardCounts, error) {
	out := models.DashboardCounts{ByStatus: map[models.Status]int{}}
	now, err := s.Now(ctx)
	if err != nil {
		return out, err
	}
	out.Now = now
	tasks := s.tasks()
	err = storekit.CountByStatus(out.ByStatus, func(st models.Status) (int64, error) {
		n, err := tasks.CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "status", Value: string(st)}})
		return n, translate(err)
	})
	if err != nil {
		return out, err
	}
	open, openOrTransitional := statusIn(models.OpenStatuses), statusIn(storekit.DashboardStatuses)
	if err := s.healthCounts(ctx, tenant, openOrTransitional, &out); err != nil {
		return out, err
	}
	n, err := tasks.CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "is_overdue", Value: true}, {Key: "status", Value: open}})
	if err != nil {
		return out, translate(err)
	}
	out.Overdue = int(n)
	n, err = tasks.CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "status", Value: statusIn(models.TransitionalStatuses)},
		{Key: "transitioned_at", Value: bson.D{{Key: "$lt", Value: now.Add(-staleAfter)}}}})
	if err != nil {
		return out, translate(err)
	}
	out.StaleTransitions = int(n)
	backlog, oldest, err := s.pendingResumptions(ctx, bson.D{{Key: "state", Value: string(models.DeliveryPending)}, {Key: "tenant_id", Value: tenant}}, "created_at")
	if err != nil {
		return out, err
	}
	out.Backlog = backlog
	if backlog > 0 {
		out.OldestPending = oldest
	}
	return out, s.workload(ctx, tenant, open, &out)
}

// statusIn is the filter value {$in: statuses}.
func statusIn(statuses []models.Status) bson.D {
	in := bson.A{}
	for _, st := range statuses {
		in = append(in, string(st))
	}
	return bson.D{{Key: "$in", Value: in}}
}

// healthCounts counts the tenant's open and transitional tasks per health severity and code.
func (s *Store) healthCounts(ctx context.Context, tenant string, statuses bson.D, out *models.DashboardCounts) error {
	var rows []struct {
		Key struct {
			Severity string `bson:"severity"`
			Code     string `bson:"code"`
		} `bson:"_id"`
		N int `bson:"n"`
	}
	match := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "status", Value: statuses},
		{Key: "health_severity", Value: bson.D{{Key: "$ne", Value: nil}}}, {Key: "health_code", Value: bson.D{{Key: "$ne", Value: nil}}}}
	if err := s.group(ctx, Aggregate, match, bson.D{{Key: "severity", Value: "$health_severity"}, {Key: "code", Value: "$health_code"}}, 1, &rows); err != nil {
		return err
	}
	for _, r := range rows {
		out.ByHealth = append(out.ByHealth, models.HealthCount{Severity: models.Severity(r.Key.Severity), Code: r.Key.Code, Count: r.N})
	}
	sort.Slice(out.ByHealth, func(i, j int) bool {
		a, b := out.ByHealth[i], out.ByHealth[j]
		return a.Severity < b.Severity || a.Severity == b.Severity && a.Code < b.Code
	})
	return nil
}

// workload counts the open tasks per assignee, most loaded first, ties by provider, type and
// id, at most models.MaxWorkload, then reads the listed assignees' display names.
func (s *Store) workload(ctx context.Context, tenant string, open bson.D, out *models.DashboardCounts) error {
	var rows []struct {
		Key struct {
			Provider string `bson:"provider"`
			Type     string `bson:"type"`
			ID       string `bson:"id"`
		} `bson:"_id"`
		N int `bson:"n"`
	}
	match := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "status", Value: open},
		{Key: "assignee_provider", Value: bson.D{{Key: "$ne", Value: nil}}}, {Key: "assignee_id", Value: bson.D{{Key: "$ne", Value: nil}}}}
	key := bson.D{{Key: "provider", Value: "$assignee_provider"}, {Key: "type", Value: "$assignee_type"}, {Key: "id", Value: "$assignee_id"}}
	if err := s.group(ctx, Aggregate, match, key, 1, &rows); err != nil {
		return err
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.N != b.N {
			return a.N > b.N
		}
		if a.Key.Provider != b.Key.Provider {
			return a.Key.Provider < b.Key.Provider
		}
		if a.Key.Type != b.Key.Type {
			return a.Key.Type < b.Key.Type
		}
		return a.Key.ID < b.Key.ID
	})
	if len(rows) > models.MaxWorkload {
		rows = rows[:models.MaxWorkload]
	}
	for _, r := range rows {
		ref := models.ParticipantRef{Tenant: tenant, Provider: r.Key.Provider, Type: models.ParticipantType(r.Key.Type), ID: r.Key.ID}
		var named struct {
			Display *string `bson:"assignee_display"`
		}
		err := s.tasks().FindOne(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "status", Value: open},
			{Key: "assignee_provider", Value: r.Key.Provider}, {Key: "assignee_type", Value: r.Key.Type}, {Key: "assignee_id", Value: r.Key.ID}},
			options.FindOne().SetProjection(bson.D{{Key: "assignee_display", Value: 1}})).Decode(&named)
		switch {
		case err == nil:
			ref.DisplayName = storekit.Str(named.Display)
		case !errors.Is(err, mongo.ErrNoDocuments):
			return translate(err)
		}
		out.Workload = append(out.Workload, models.AssigneeLoad{Assignee: ref, Count: r.N})
	}
	return nil
}
