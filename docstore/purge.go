package docstore

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Retention purge (SPEC 7; docs/document-store.md, "Terminal-only purge"). Without
// transactions a task cannot go in one step, so it goes in an order that a crash can stop
// anywhere and a rerun can finish: the aggregate is first marked `purging` by a claimed write
// that checks, on the aggregate as read, that the task is terminal, closed before the cutoff,
// healthy and has nothing the relay still has to move; from then on every read treats it as
// gone (load's filter) and no writer can claim it. Then its rows in the other collections go,
// then the aggregate. A run first finishes the tenant's aggregates a crashed run left marked.
// The daily rollup and the open-task counter are history and never touched (a terminal task
// holds no place; a place left by a crash goes with its task).

// purgeUnits are the units the terminal purge deletes by (tenant_id, task_id), with the
// count each adds to; events, operations and resumptions come first so that the invitations
// they refer to outlive them, as the SQL store's order does.
var purgeUnits = []struct {
	coll  string
	count func(c *models.PurgeCounts) *int
}{
	{notificationCollection, func(c *models.PurgeCounts) *int { return &c.Notifications }},
	{commentCollection, func(c *models.PurgeCounts) *int { return &c.Comments }},
	{storekit.AttachmentChunkTable, func(c *models.PurgeCounts) *int { return &c.AttachmentChunks }},
	{storekit.AttachmentTable, func(c *models.PurgeCounts) *int { return &c.Attachments }},
	{guestSessionCollection, func(c *models.PurgeCounts) *int { return &c.GuestSessions }},
	{deliveryCollection, func(c *models.PurgeCounts) *int { return &c.Deliveries }},
	{invitationCollection, func(c *models.PurgeCounts) *int { return &c.Invitations }},
	{resumptionCollection, func(c *models.PurgeCounts) *int { return &c.Resumptions }},
	{operationCollection, func(c *models.PurgeCounts) *int { return &c.Operations }},
	{eventCollection, func(c *models.PurgeCounts) *int { return &c.Events }},
}

// Purge applies p to tenant's documents (storekit.Purge) and returns what went. A cancelled ctx
// stops between tasks with ctx's error; what went stays gone, a task caught half-way stays
// marked, and the next run finishes it.
func (s *Store) Purge(ctx context.Context, tenant string, p models.RetentionPolicy, progress func(models.PurgeCounts)) (models.PurgeCounts, error) {
	return storekit.Purge(ctx, storekit.PurgeSteps{
		Terminal:      s.purgeTerminal,
		Invitations:   s.purgeInvitations,
		GuestSessions: s.purgeGuestSessions,
		Deliveries:    s.purgeDeliveries,
		Resumptions:   s.purgeResumptions,
		Notifications: s.purgeNotifications,
	}, tenant, p, progress)
}

// purgeTerminal removes the tenant's terminal tasks closed before now-age, page by page, after
// the ones a crashed run left marked.
func (s *Store) purgeTerminal(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	if !p.DryRun {
		if err := s.finishMarked(ctx, tenant, total); err != nil {
			return err
		}
	}
	var after *taskDoc
	return storekit.PurgePages(ctx, p, total, progress, func() (models.PurgeCounts, int, bool, error) {
		now, err := s.Now(ctx)
		if err != nil {
			return models.PurgeCounts{}, 0, false, err
		}
		page, n, last, done, err := s.purgeTerminalPage(ctx, tenant, now.Add(-age), after, p)
		after = last
		return page, n, done, err
	})
}

// purgeTerminalPage purges (or counts) up to p.PageSize tasks eligible at cutoff after the
// (completed_at, _id) of after, reading on past candidates the checks refuse. It returns the
// counts, how many tasks went, the last candidate read and whether the scan is done.
func (s *Store) purgeTerminalPage(ctx context.Context, tenant string, cutoff time.Time, after *taskDoc,
	p models.RetentionPolicy) (models.PurgeCounts, int, *taskDoc, bool, error) {
	var page models.PurgeCounts
	n := 0
	for n < p.PageSize {
		var found []taskDoc
		limit := p.PageSize - n
		opts := options.Find().SetSort(bson.D{{Key: "completed_at", Value: 1}, {Key: "_id", Value: 1}}).
			SetLimit(int64(limit))
		if err := s.findAll(ctx, Aggregate, terminalFilter(tenant, cutoff, after), opts, &found); err != nil {
			return page, n, after, false, err
		}
		for i := range found {
			d := &found[i]
			after = d
			ok, err := s.noPendingResumption(ctx, d)
			if err != nil || !ok {
				if err != nil {
					return page, n, after, false, err
				}
				continue
			}
			if p.DryRun {
				if err := s.countTask(ctx, d, &page); err != nil {
					return page, n, after, false, err
				}
				n++
				continue
			}
			marked, err := s.markPurging(ctx, d, cutoff)
			if err != nil {
				return page, n, after, false, err
			}
			if !marked {
				continue
			}
			if err := s.purgeTask(ctx, d, &page); err != nil {
				return page, n, after, false, err
			}
			n++
		}
		if len(found) < limit {
			return page, n, after, true, nil
		}
	}
	return page, n, after, false, nil
}

// terminalFilter selects the tenant's aggregates a purge at cutoff may take (index
// ix_tasks_completed), after the candidate after: terminal, closed at or before the cutoff,
// without a health finding, with nothing the relay still has to move, no accepted operation and
// not being purged. The store checks again on the aggregate it marks (markPurging).
func terminalFilter(tenant string, cutoff time.Time, after *taskDoc) bson.D {
	f := bson.D{
		{Key: "tenant_id", Value: tenant},
		{Key: "status", Value: bson.D{{Key: "$in", Value: statusNames(models.TerminalStatuses)}}},
		{Key: "completed_at", Value: bson.D{{Key: "$lte", Value: cutoff}}},
		{Key: "health_severity", Value: nil},
		{Key: "health_code", Value: nil},
		{Key: "relay_due", Value: false},
		{Key: "operations.state", Value: bson.D{{Key: "$ne", Value: string(models.OperationAccepted)}}},
		{Key: "purging", Value: bson.D{{Key: "$exists", Value: false}}},
	}
	if after != nil && after.CompletedAt != nil {
		f = append(f, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "completed_at", Value: bson.D{{Key: "$gt", Value: *after.CompletedAt}}}},
			bson.D{{Key: "completed_at", Value: *after.CompletedAt}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: after.ID}}}},
		}})
	}
	return f
}

func statusNames(st []models.Status) bson.A {
	out := make(bson.A, len(st))
	for i, s := range st {
		out[i] = string(s)
	}
	return out
}

// purgeable reports whether the aggregate as read may be purged at cutoff.
func purgeable(d *taskDoc, cutoff time.Time) bool {
	if !models.Status(d.Status).IsTerminal() || d.CompletedAt == nil || d.CompletedAt.After(cutoff) ||
		d.HealthSeverity != nil || d.HealthCode != nil || d.relayDue() || d.RelayDue {
		return false
	}
	for _, o := range d.Operations {
		if o.State == string(models.OperationAccepted) {
			return false
		}
	}
	return true
}

// noPendingResumption reports whether the task has no resumption the runtime still waits for.
func (s *Store) noPendingResumption(ctx context.Context, d *taskDoc) (bool, error) {
	n, err := s.db.Collection(resumptionCollection).CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: d.TenantID},
		{Key: "task_id", Value: d.ID}, {Key: "state", Value: string(models.DeliveryPending)}})
	return n == 0, translate(err)
}

// markPurging marks the aggregate purging with a claimed write, after checking on the
// aggregate as read that it may go; false when it may not (any more) or another writer won.
func (s *Store) markPurging(ctx context.Context, seen *taskDoc, cutoff time.Time) (bool, error) {
	marked := false
	err := s.write(ctx, seen.TenantID, seen.ID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		if !purgeable(cur, cutoff) {
			return nil, nil
		}
		next := cur.clone()
		next.Purging = &now
		marked = true
		return next, nil
	})
	if models.ErrorCode(err) == models.CodeNotFound {
		return false, nil // purged meanwhile by another run
	}
	if err != nil {
		return false, err
	}
	if marked {
		// The mark landed unless the filter missed: read it back.
		n, err := s.tasks().CountDocuments(ctx, bson.D{{Key: "_id", Value: seen.ID}, {Key: "tenant_id", Value: seen.TenantID},
			{Key: "purging", Value: bson.D{{Key: "$exists", Value: true}}}})
		if err != nil {
			return false, translate(err)
		}
		marked = n == 1
	}
	return marked, nil
}

// finishMarked purges the tenant's aggregates a crashed or cancelled run left marked.
func (s *Store) finishMarked(ctx context.Context, tenant string, total *models.PurgeCounts) error {
	var marked []taskDoc
	f := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "purging", Value: bson.D{{Key: "$exists", Value: true}}}}
	if err := s.findAll(ctx, Aggregate, f, options.Find().SetLimit(models.MaxPurgePageSize), &marked); err != nil {
		return err
	}
	for i := range marked {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.purgeTask(ctx, &marked[i], total); err != nil {
			return err
		}
	}
	return nil
}

// purgeTask deletes a marked task's documents, then the aggregate, adding to c. Each delete
// is idempotent, so a rerun after a crash deletes what is left and counts only that.
func (s *Store) purgeTask(ctx context.Context, d *taskDoc, c *models.PurgeCounts) error {
	// Finish even if the caller gives up now: a page stops between tasks, not inside one.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	of := bson.D{{Key: "tenant_id", Value: d.TenantID}, {Key: "task_id", Value: d.ID}}
	for _, u := range purgeUnits {
		res, err := s.db.Collection(u.coll).DeleteMany(wctx, of)
		if err != nil {
			return translate(err)
		}
		*u.count(c) += int(res.DeletedCount)
	}
	// The task's place (left only by a crash; a terminal task holds none) and its claims: the
	// claims hold the writes' fields, sealed values among them, and no writer can claim a
	// marked aggregate any more.
	for _, coll := range []string{counterCollection, ClaimCollection} {
		if _, err := s.db.Collection(coll).DeleteMany(wctx, of); err != nil {
			return translate(err)
		}
	}
	res, err := s.tasks().DeleteOne(wctx, bson.D{{Key: "_id", Value: d.ID}, {Key: "tenant_id", Value: d.TenantID},
		{Key: "purging", Value: bson.D{{Key: "$exists", Value: true}}}})
	if err != nil {
		return translate(err)
	}
	if res.DeletedCount == 1 {
		countAggregate(d, c)
	}
	return nil
}

// countTask adds what purgeTask would delete for d to c (a dry run).
func (s *Store) countTask(ctx context.Context, d *taskDoc, c *models.PurgeCounts) error {
	of := bson.D{{Key: "tenant_id", Value: d.TenantID}, {Key: "task_id", Value: d.ID}}
	for _, u := range purgeUnits {
		n, err := s.db.Collection(u.coll).CountDocuments(ctx, of)
		if err != nil {
			return translate(err)
		}
		*u.count(c) += int(n)
	}
	countAggregate(d, c)
	return nil
}

// countAggregate adds the task d and the rows its aggregate holds itself (the embedded ones and
// the entries still pending there) to c.
func countAggregate(d *taskDoc, c *models.PurgeCounts) {
	c.Tasks++
	c.Tags += len(d.TagKeys)
	c.Exclusions += len(d.Exclusions)
	c.Candidates += len(d.Candidates)
	c.Events += len(d.PendingEvents)
	c.Invitations += len(d.PendingInvitations)
	c.Deliveries += len(d.PendingDeliveries)
	c.Notifications += len(d.PendingNotifications)
	c.Comments += len(d.PendingComments)
}
