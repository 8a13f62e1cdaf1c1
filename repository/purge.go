package repository

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// Retention purge (SPEC 7, persistence contract "Retention and cleanup"). Each policy removes
// its rows of one tenant page by page, one write transaction per page: the page is chosen
// inside the transaction that deletes it, with every guard of the policy evaluated at that
// transaction's database clock, so a row that changed since an earlier look is simply not
// chosen, and a crash leaves either the whole page or nothing. Rerunning continues with what
// is left. Child rows are deleted explicitly (not by relying on ON DELETE CASCADE) so that the
// counts are exact on every dialect. The daily rollup and the tenant's open-task counter are
// never touched: the rollup is history, and the counter holds no terminal task.

// purgePolicy is one kind of row a purge removes (a step of storekit.Purge).
type purgePolicy struct {
	table string
	// eligible is the WHERE clause (with its arguments) of the rows of tenant that may go at
	// now with the given cutoff (now minus the policy's age). Every column it names belongs
	// to table, which the clause may name for correlated subqueries.
	eligible func(tenant string, now, cutoff time.Time) (string, []any)
	// order is the page order, served by an index that starts with tenant_id where possible.
	order string
	// remove deletes (or, with dry set, counts) the rows sel selects and what belongs to them,
	// adding to c. sel is a list of ids or a subquery selecting them.
	remove func(tx *gorm.DB, tenant string, sel any, dry bool, c *models.PurgeCounts) error
}

// Purge applies p to tenant's rows (storekit.Purge) and returns what went. A cancelled ctx
// stops between pages (or rolls the current page back) with ctx's error; what was committed
// stays, and a later run goes on from there.
func (s *Store) Purge(ctx context.Context, tenant string, p models.RetentionPolicy, progress func(models.PurgeCounts)) (models.PurgeCounts, error) {
	return storekit.Purge(ctx, storekit.PurgeSteps{
		Terminal:      s.purgeStep(s.terminalTaskPolicy()),
		Invitations:   s.purgeStep(invitationPolicy()),
		GuestSessions: s.purgeStep(guestSessionPolicy()),
		Deliveries:    s.purgeStep(deliveryPolicy()),
		Resumptions:   s.purgeStep(resumptionPolicy()),
		Notifications: s.purgeStep(notificationPolicy()),
	}, tenant, p, progress)
}

// purgeStep is pol as a step of the purge: counted in one snapshot in a dry run, removed page
// by page otherwise.
func (s *Store) purgeStep(pol purgePolicy) storekit.PurgeStep {
	return func(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
		total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
		if p.DryRun {
			return s.countPolicy(ctx, tenant, age, pol, total)
		}
		return s.purgePolicy(ctx, tenant, age, p, pol, total, progress)
	}
}

// purgePolicy removes pol's rows page by page, one write transaction each, until a page comes
// out short.
func (s *Store) purgePolicy(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy, pol purgePolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error {
	return storekit.PurgePages(ctx, p, total, progress, func() (models.PurgeCounts, int, bool, error) {
		var page models.PurgeCounts
		var n int
		err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
			page, n = models.PurgeCounts{}, 0
			where, args := pol.eligible(tenant, now, now.Add(-age))
			q := tx.Table(pol.table).Where(where, args...).Order(pol.order).Limit(p.PageSize)
			if s.dialect == migrations.Postgres || s.dialect == migrations.MySQL {
				// Hold the chosen rows until they are gone; SQLite's one writer holds everything.
				q = q.Clauses(clause.Locking{Strength: "UPDATE"})
			}
			var ids []string
			if err := q.Pluck(pol.table+".id", &ids).Error; err != nil {
				return translate(err)
			}
			n = len(ids)
			if n == 0 {
				return nil
			}
			return pol.remove(tx, tenant, ids, false, &page)
		})
		return page, n, n < p.PageSize, err
	})
}

// countPolicy counts pol's rows and what belongs to them in one snapshot.
func (s *Store) countPolicy(ctx context.Context, tenant string, age time.Duration, pol purgePolicy, total *models.PurgeCounts) error {
	return s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		where, args := pol.eligible(tenant, now, now.Add(-age))
		sub := tx.Session(&gorm.Session{NewDB: true}).Table(pol.table).Select(pol.table+".id").Where(where, args...)
		var c models.PurgeCounts
		if err := pol.remove(tx, tenant, sub, true, &c); err != nil {
			return err
		}
		total.Add(c)
		return nil
	})
}

// drop deletes the rows of table matching where (or counts them, with dry set) and adds the
// number to n.
func drop(tx *gorm.DB, dry bool, n *int, table, where string, args ...any) error {
	if dry {
		var c int64
		if err := tx.Table(table).Where(where, args...).Count(&c).Error; err != nil {
			return translate(err)
		}
		*n += int(c)
		return nil
	}
	res := tx.Exec("DELETE FROM "+table+" WHERE "+where, args...)
	if res.Error != nil {
		return translate(res.Error)
	}
	*n += int(res.RowsAffected)
	return nil
}

// terminalTaskPolicy removes terminal tasks closed before the cutoff with every row that
// belongs to them. Never chosen: an open or transitional task, one without a closing time,
// one with a health finding, an accepted (pending) operation or a pending resumption.
func (s *Store) terminalTaskPolicy() purgePolicy {
	return purgePolicy{
		table: "user_tasks",
		eligible: func(tenant string, _, cutoff time.Time) (string, []any) {
			return "user_tasks.tenant_id = ? AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= ?" +
					" AND user_tasks.status IN (?) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL" +
					" AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = ?)" +
					" AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = ?)",
				[]any{tenant, cutoff, terminalStatuses, string(models.OperationAccepted), string(models.DeliveryPending)}
		},
		order: "user_tasks.completed_at, user_tasks.id", // ix_tasks_completed
		remove: func(tx *gorm.DB, tenant string, sel any, dry bool, c *models.PurgeCounts) error {
			steps := []struct {
				table string
				n     *int
			}{
				{"user_task_notifications", &c.Notifications},
				{"user_task_comments", &c.Comments},
				{storekit.AttachmentChunkTable, &c.AttachmentChunks},
				{storekit.AttachmentTable, &c.Attachments},
				{"user_task_guest_sessions", &c.GuestSessions},
				{"user_task_deliveries", &c.Deliveries},
				{"user_task_invitations", &c.Invitations},
				{"user_task_resumptions", &c.Resumptions},
				{"user_task_operations", &c.Operations},
				{"user_task_events", &c.Events},
				{"user_task_exclusions", &c.Exclusions},
				{"user_task_candidates", &c.Candidates},
				{"user_task_tags", &c.Tags},
			}
			for _, st := range steps {
				if err := drop(tx, dry, st.n, st.table, "tenant_id = ? AND task_id IN (?)", tenant, sel); err != nil {
					return err
				}
			}
			want := 0
			if ids, ok := sel.([]string); ok {
				want = len(ids)
			}
			if err := drop(tx, dry, &c.Tasks, "user_tasks", "tenant_id = ? AND id IN (?)", tenant, sel); err != nil {
				return err
			}
			if !dry && c.Tasks != want {
				// The rows were chosen and locked in this transaction; a difference means
				// something else deleted one meanwhile. Run the page again from the start.
				return fmt.Errorf("%w: purged %d of %d tasks", errRetry, c.Tasks, want)
			}
			return nil
		},
	}
}

// invitationPolicy removes revoked or expired invitations (and pending or dispatched ones past
// their expiry) older than the cutoff, with their delivery rows and guest sessions. An
// invitation whose delivery row is leased by a dispatcher right now is left for a later run,
// and so is every invitation of an open or transitional task that a guest holds (its assignee
// names an invitation); consumed and verified invitations stay with their task.
func invitationPolicy() purgePolicy {
	return purgePolicy{
		table: "user_task_invitations",
		eligible: func(tenant string, now, cutoff time.Time) (string, []any) {
			return "user_task_invitations.tenant_id = ?" +
					" AND ((user_task_invitations.status IN (?) AND user_task_invitations.updated_at <= ?)" +
					" OR (user_task_invitations.status IN (?) AND user_task_invitations.expires_at <= ?))" +
					" AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id" +
					" AND d.state = ? AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > ?)" +
					" AND NOT EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_invitations.task_id" +
					" AND t.assignee_provider = ? AND t.status IN (?))",
				[]any{tenant, []string{string(models.InvitationRevoked), string(models.InvitationExpired)}, cutoff,
					[]string{string(models.InvitationPending), string(models.InvitationDispatched)}, cutoff,
					string(models.DeliveryPending), now, models.GuestProvider, openTransitionalStatuses}
		},
		order: "user_task_invitations.id",
		remove: func(tx *gorm.DB, tenant string, sel any, dry bool, c *models.PurgeCounts) error {
			if err := drop(tx, dry, &c.GuestSessions, "user_task_guest_sessions", "tenant_id = ? AND invitation_id IN (?)", tenant, sel); err != nil {
				return err
			}
			if err := drop(tx, dry, &c.Deliveries, "user_task_deliveries", "tenant_id = ? AND invitation_id IN (?)", tenant, sel); err != nil {
				return err
			}
			return drop(tx, dry, &c.Invitations, "user_task_invitations", "tenant_id = ? AND id IN (?)", tenant, sel)
		},
	}
}

// guestSessionPolicy removes guest sessions that expired or were revoked before the cutoff.
func guestSessionPolicy() purgePolicy {
	return ownRowsPolicy("user_task_guest_sessions", func(c *models.PurgeCounts) *int { return &c.GuestSessions },
		func(tenant string, _, cutoff time.Time) (string, []any) {
			return "user_task_guest_sessions.tenant_id = ? AND (user_task_guest_sessions.expires_at <= ?" +
				" OR user_task_guest_sessions.revoked_at <= ?)", []any{tenant, cutoff, cutoff}
		})
}

// deliveryPolicy removes invitation delivery rows that are done (delivered, settled or
// abandoned) and unchanged since the cutoff. Pending rows, retries included, are never chosen.
func deliveryPolicy() purgePolicy {
	return ownRowsPolicy("user_task_deliveries", func(c *models.PurgeCounts) *int { return &c.Deliveries },
		func(tenant string, _, cutoff time.Time) (string, []any) {
			return "user_task_deliveries.tenant_id = ? AND user_task_deliveries.state IN (?) AND user_task_deliveries.updated_at <= ?",
				[]any{tenant, doneDeliveryStates, cutoff}
		})
}

// resumptionPolicy removes the acknowledged resumption rows of terminal tasks unchanged since
// the cutoff. A transitional task keeps its row: reconciliation requeues it when the runtime
// never answered.
func resumptionPolicy() purgePolicy {
	return ownRowsPolicy("user_task_resumptions", func(c *models.PurgeCounts) *int { return &c.Resumptions },
		func(tenant string, _, cutoff time.Time) (string, []any) {
			return "user_task_resumptions.tenant_id = ? AND user_task_resumptions.state IN (?) AND user_task_resumptions.updated_at <= ?" +
					" AND EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.status IN (?))",
				[]any{tenant, doneDeliveryStates, cutoff, terminalStatuses}
		})
}

// notificationPolicy removes notifications that occurred before the cutoff and are settled
// (done, dropped or failed), read or not. A pending row, and one whose email waits for the
// recipient's digest, stays. Paged in ix_notifications_purge's order (tenant_id, occurred_at,
// id): the walk stops after a page of eligible rows, skipping only the few that wait.
func notificationPolicy() purgePolicy {
	pol := ownRowsPolicy("user_task_notifications", func(c *models.PurgeCounts) *int { return &c.Notifications },
		func(tenant string, _, cutoff time.Time) (string, []any) {
			return "user_task_notifications.tenant_id = ? AND user_task_notifications.occurred_at <= ?" +
					" AND user_task_notifications.state IN (?)" +
					" AND (user_task_notifications.email_state IS NULL OR user_task_notifications.email_state <> ?)",
				[]any{tenant, cutoff, settledNotificationStates, string(models.ChannelDigest)}
		})
	pol.order = "user_task_notifications.occurred_at, user_task_notifications.id"
	return pol
}

// settledNotificationStates are the notification states the delivery worker is done with.
var settledNotificationStates = []string{string(models.NotificationDone), string(models.NotificationDropped), string(models.NotificationFailed)}

// ownRowsPolicy is the policy of table's rows that own no other rows, chosen by eligible and
// paged by id; their number adds to the count count picks.
func ownRowsPolicy(table string, count func(c *models.PurgeCounts) *int, eligible func(tenant string, now, cutoff time.Time) (string, []any)) purgePolicy {
	return purgePolicy{
		table:    table,
		eligible: eligible,
		order:    table + ".id",
		remove: func(tx *gorm.DB, tenant string, sel any, dry bool, c *models.PurgeCounts) error {
			return drop(tx, dry, count(c), table, "tenant_id = ? AND id IN (?)", tenant, sel)
		},
	}
}

// doneDeliveryStates are the outbox states nothing will send again.
var doneDeliveryStates = []string{string(models.DeliveryDelivered), string(models.DeliverySettled), string(models.DeliveryAbandoned)}
