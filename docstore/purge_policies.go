package docstore

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// The purge's shorter policies (repository/purge.go has the same rules on SQL): revoked or
// lapsed invitations with their deliveries and guest sessions, ended guest sessions, and the
// outboxes' finished entries. Each reads a page of candidates by _id, checks what a filter
// cannot say (another document's state) and deletes with the candidate's own conditions in
// the filter again, so a document that changed since the read is left; each delete is
// idempotent, so a crash leaves nothing a rerun does not finish.

// doneStates are the outbox states nothing will send again.
var doneStates = bson.A{string(models.DeliveryDelivered), string(models.DeliverySettled), string(models.DeliveryAbandoned)}

// pagedPolicy walks the candidates filter selects in _id order, page by page, and lets take
// delete (or count) those it keeps and say how many of them went; progress follows every page
// that removed something (storekit.PurgePages).
func (s *Store) pagedPolicy(ctx context.Context, coll string, filter func(now time.Time) bson.D, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts),
	take func(ctx context.Context, ids []string, now time.Time, c *models.PurgeCounts) (int, error)) error {
	after := ""
	return storekit.PurgePages(ctx, p, total, progress, func() (models.PurgeCounts, int, bool, error) {
		var page models.PurgeCounts
		now, err := s.Now(ctx)
		if err != nil {
			return page, 0, false, err
		}
		f := filter(now)
		if after != "" {
			f = append(f, bson.E{Key: "_id", Value: bson.D{{Key: "$gt", Value: after}}})
		}
		var found []struct {
			ID string `bson:"_id"`
		}
		opts := options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(p.PageSize)).
			SetProjection(bson.D{{Key: "_id", Value: 1}})
		if err := s.findAll(ctx, coll, f, opts, &found); err != nil {
			return page, 0, false, err
		}
		if len(found) == 0 {
			return page, 0, true, nil
		}
		ids := make([]string, len(found))
		for i, d := range found {
			ids[i] = d.ID
		}
		after = ids[len(ids)-1]
		n, err := take(ctx, ids, now, &page)
		return page, n, len(found) < p.PageSize, err
	})
}

// ownDocsPolicy is the policy of coll's documents that own no others: each page of candidates
// goes with the eligible filter again, so one that changed since the read is left; their number
// adds to the count count picks.
func (s *Store) ownDocsPolicy(ctx context.Context, coll string, eligible func(now time.Time) bson.D, count func(c *models.PurgeCounts) *int,
	p models.RetentionPolicy, total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	return s.pagedPolicy(ctx, coll, eligible, p, total, progress,
		func(ctx context.Context, ids []string, now time.Time, c *models.PurgeCounts) (int, error) {
			return s.drop(ctx, p.DryRun, count(c), coll, append(eligible(now), idIn(ids)))
		})
}

// drop deletes the documents of coll that filter selects (or counts them, in a dry run) and
// adds the number to n; it returns the number.
func (s *Store) drop(ctx context.Context, dry bool, n *int, coll string, filter bson.D) (int, error) {
	if dry {
		c, err := s.db.Collection(coll).CountDocuments(ctx, filter)
		*n += int(c)
		return int(c), translate(err)
	}
	res, err := s.db.Collection(coll).DeleteMany(ctx, filter)
	if err != nil {
		return 0, translate(err)
	}
	*n += int(res.DeletedCount)
	return int(res.DeletedCount), nil
}

func idIn(ids []string) bson.E {
	return bson.E{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}
}

// invitationEligible selects the tenant's revoked or expired invitations unchanged since the
// cutoff and the pending or dispatched ones expired before it.
func invitationEligible(tenant string, cutoff time.Time) bson.D {
	return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "$or", Value: bson.A{
		bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: bson.A{string(models.InvitationRevoked), string(models.InvitationExpired)}}}},
			{Key: "updated_at", Value: bson.D{{Key: "$lte", Value: cutoff}}}},
		bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: bson.A{string(models.InvitationPending), string(models.InvitationDispatched)}}}},
			{Key: "expires_at", Value: bson.D{{Key: "$lte", Value: cutoff}}}},
	}}}
}

// purgeInvitations removes invitations invitationEligible selects with their deliveries and
// guest sessions; one whose delivery a dispatcher holds under a live lease is left for a later
// run, and so is every invitation of an open or transitional task a guest holds. The
// invitation goes last, so a crash leaves it to be chosen again.
func (s *Store) purgeInvitations(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	eligible := func(now time.Time) bson.D { return invitationEligible(tenant, now.Add(-age)) }
	return s.pagedPolicy(ctx, invitationCollection, eligible, p, total, progress,
		func(ctx context.Context, ids []string, now time.Time, c *models.PurgeCounts) (int, error) {
			var invs []struct {
				ID     string `bson:"_id"`
				TaskID string `bson:"task_id"`
			}
			if err := s.findAll(ctx, invitationCollection, bson.D{{Key: "tenant_id", Value: tenant}, idIn(ids)}, nil, &invs); err != nil {
				return 0, err
			}
			held, err := s.guestHeldTasks(ctx, tenant, invs)
			if err != nil {
				return 0, err
			}
			n := 0
			for _, inv := range invs {
				if held[inv.TaskID] {
					continue
				}
				leased, err := s.db.Collection(deliveryCollection).CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: tenant},
					{Key: "invitation_id", Value: inv.ID}, {Key: "state", Value: string(models.DeliveryPending)},
					{Key: "lease_expires_at", Value: bson.D{{Key: "$gt", Value: now}}}})
				if err != nil {
					return n, translate(err)
				}
				if leased > 0 {
					continue
				}
				of := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "invitation_id", Value: inv.ID}}
				if _, err := s.drop(ctx, p.DryRun, &c.GuestSessions, guestSessionCollection, of); err != nil {
					return n, err
				}
				if _, err := s.drop(ctx, p.DryRun, &c.Deliveries, deliveryCollection, of); err != nil {
					return n, err
				}
				f := append(eligible(now), bson.E{Key: "_id", Value: inv.ID})
				went, err := s.drop(ctx, p.DryRun, &c.Invitations, invitationCollection, f)
				n += went
				if err != nil {
					return n, err
				}
			}
			return n, nil
		})
}

// guestHeldTasks names the tasks of invs that are open or transitional and assigned to a guest.
func (s *Store) guestHeldTasks(ctx context.Context, tenant string, invs []struct {
	ID     string `bson:"_id"`
	TaskID string `bson:"task_id"`
}) (map[string]bool, error) {
	ids := make([]string, len(invs))
	for i, inv := range invs {
		ids[i] = inv.TaskID
	}
	var tasks []struct {
		ID string `bson:"_id"`
	}
	open := append(append([]models.Status{}, models.OpenStatuses...), models.TransitionalStatuses...)
	f := bson.D{{Key: "tenant_id", Value: tenant}, idIn(ids), {Key: "assignee_provider", Value: models.GuestProvider},
		{Key: "status", Value: bson.D{{Key: "$in", Value: statusNames(open)}}}}
	opts := options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}})
	if err := s.findAll(ctx, Aggregate, f, opts, &tasks); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, t := range tasks {
		out[t.ID] = true
	}
	return out, nil
}

// purgeGuestSessions removes guest sessions expired or revoked before the cutoff.
func (s *Store) purgeGuestSessions(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	eligible := func(now time.Time) bson.D {
		cutoff := now.Add(-age)
		return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "$or", Value: bson.A{
			bson.D{{Key: "expires_at", Value: bson.D{{Key: "$lte", Value: cutoff}}}},
			bson.D{{Key: "revoked_at", Value: bson.D{{Key: "$lte", Value: cutoff}}}},
		}}}
	}
	return s.ownDocsPolicy(ctx, guestSessionCollection, eligible, func(c *models.PurgeCounts) *int { return &c.GuestSessions },
		p, total, progress)
}

// purgeDeliveries removes delivery entries that are done and unchanged since the cutoff.
// Pending ones, retries included, never go.
func (s *Store) purgeDeliveries(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	return s.ownDocsPolicy(ctx, deliveryCollection, doneBefore(tenant, age), func(c *models.PurgeCounts) *int { return &c.Deliveries },
		p, total, progress)
}

// doneBefore selects the tenant's outbox entries that are done and unchanged since now-age.
func doneBefore(tenant string, age time.Duration) func(now time.Time) bson.D {
	return func(now time.Time) bson.D {
		return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "state", Value: bson.D{{Key: "$in", Value: doneStates}}},
			{Key: "updated_at", Value: bson.D{{Key: "$lte", Value: now.Add(-age)}}}}
	}
}

// purgeResumptions removes the finished resumption entries of terminal tasks unchanged since
// the cutoff; a transitional task keeps its entry (reconciliation requeues it).
func (s *Store) purgeResumptions(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	eligible := doneBefore(tenant, age)
	return s.pagedPolicy(ctx, resumptionCollection, eligible, p, total, progress,
		func(ctx context.Context, ids []string, now time.Time, c *models.PurgeCounts) (int, error) {
			var rows []struct {
				ID     string `bson:"_id"`
				TaskID string `bson:"task_id"`
			}
			if err := s.findAll(ctx, resumptionCollection, bson.D{idIn(ids)}, nil, &rows); err != nil {
				return 0, err
			}
			taskIDs := make([]string, len(rows))
			for i, r := range rows {
				taskIDs[i] = r.TaskID
			}
			var terminal []struct {
				ID string `bson:"_id"`
			}
			f := bson.D{{Key: "tenant_id", Value: tenant}, idIn(taskIDs),
				{Key: "status", Value: bson.D{{Key: "$in", Value: statusNames(models.TerminalStatuses)}}}}
			if err := s.findAll(ctx, Aggregate, f, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}), &terminal); err != nil {
				return 0, err
			}
			done := map[string]bool{}
			for _, t := range terminal {
				done[t.ID] = true
			}
			var keep []string
			for _, r := range rows {
				if done[r.TaskID] {
					keep = append(keep, r.ID)
				}
			}
			if len(keep) == 0 {
				return 0, nil
			}
			return s.drop(ctx, p.DryRun, &c.Resumptions, resumptionCollection, append(eligible(now), idIn(keep)))
		})
}

// purgeNotifications removes the tenant's notifications that occurred before the cutoff and
// are settled: delivered (done), dropped or failed, read or not. Pending rows and rows whose
// email waits for a digest stay (index ix_notifications_purge: tenant_id, occurred_at, _id).
func (s *Store) purgeNotifications(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	eligible := func(now time.Time) bson.D {
		return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "occurred_at", Value: bson.D{{Key: "$lte", Value: now.Add(-age)}}},
			{Key: "state", Value: bson.D{{Key: "$in", Value: bson.A{string(models.NotificationDone), string(models.NotificationDropped), string(models.NotificationFailed)}}}},
			{Key: "email_state", Value: bson.D{{Key: "$ne", Value: string(models.ChannelDigest)}}}}
	}
	return s.ownDocsPolicy(ctx, notificationCollection, eligible, func(c *models.PurgeCounts) *int { return &c.Notifications },
		p, total, progress)
}
