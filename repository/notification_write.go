package repository

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// Notifications (SPEC 10.3): a row per (tenant, task, trigger, revision, recipient), unique on
// that key (ux_notifications_key), so a key written twice — by the change and a worker, by two
// nodes, twice in one batch — keeps its first row. A key that exists is skipped, never an
// error, and the writing transaction goes on.

type notificationRecord struct {
	storekit.NotificationRow `gorm:"embedded"`
}

func (notificationRecord) TableName() string { return "user_task_notifications" }

// notificationBatch keeps a multi-row INSERT of 27 columns under SQL Server's 2,100 and
// PostgreSQL's 65,535 bind parameters.
const notificationBatch = 50

// writeNotifications writes the rows the change causes (storekit.NotificationsFor), in its
// transaction; before is the task as loaded, nil for a creation.
func (s *Store) writeNotifications(tx *gorm.DB, before *models.Task, c *models.Change, now time.Time) error {
	ns := storekit.NotificationsFor(before, c, now)
	if len(ns) == 0 {
		return nil
	}
	_, err := s.insertNotifications(tx, ns, now)
	return err
}

// insertNotifications writes ns as new pending rows due at now, each whose key (or id) is
// taken skipped, and returns how many it wrote. Per dialect, an insert that cannot fail on
// the key:
//   - SQLite and PostgreSQL: INSERT … ON CONFLICT DO NOTHING (on PostgreSQL a failed statement
//     would abort the whole transaction); the rows affected are the rows written;
//   - MariaDB: INSERT … ON DUPLICATE KEY UPDATE id = id, whose rows affected count found rows
//     too (clientFoundRows), so the rows written are counted by their ids afterwards;
//   - SQL Server and Oracle: gorm's "on conflict" is a MERGE on the primary key only, which
//     would still fail on the natural key, and a MERGE races anyway; a row at a time, a
//     duplicate-key refusal is skipped: both roll back the failed statement only, never the
//     transaction (SQL Server with XACT_ABORT off, its default).
func (s *Store) insertNotifications(tx *gorm.DB, ns []models.Notification, now time.Time) (int, error) {
	recs := uniqueNotifications(ns, now)
	if len(recs) == 0 {
		return 0, nil
	}
	switch s.dialect {
	case migrations.SQLite, migrations.Postgres:
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(&recs, notificationBatch)
		return int(res.RowsAffected), translate(res.Error)
	case migrations.MySQL:
		return s.insertNotificationsMySQL(tx, recs)
	default:
		written := 0
		for i := range recs {
			err := translate(tx.Create(&recs[i]).Error)
			switch {
			case errors.Is(err, errDuplicate):
			case err != nil:
				return written, err
			default:
				written++
			}
		}
		return written, nil
	}
}

// insertNotificationsMySQL leaves out the rows whose id exists (a replayed write), inserts the
// rest with ON DUPLICATE KEY UPDATE id = id (gorm's "do nothing" on MySQL), and counts which
// of their ids now exist: a row skipped for its key left the other writer's id.
func (s *Store) insertNotificationsMySQL(tx *gorm.DB, recs []notificationRecord) (int, error) {
	written := 0
	for start := 0; start < len(recs); start += notificationBatch {
		chunk := recs[start:min(start+notificationBatch, len(recs))]
		ids := make([]string, len(chunk))
		for i := range chunk {
			ids[i] = chunk[i].ID
		}
		var existing []string
		if err := tx.Model(&notificationRecord{}).Where("id IN ?", ids).Pluck("id", &existing).Error; err != nil {
			return written, translate(err)
		}
		fresh := make([]notificationRecord, 0, len(chunk))
		freshIDs := make([]string, 0, len(chunk))
		for _, r := range chunk {
			if !slices.Contains(existing, r.ID) {
				fresh, freshIDs = append(fresh, r), append(freshIDs, r.ID)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh).Error; err != nil {
			return written, translate(err)
		}
		var n int64
		if err := tx.Model(&notificationRecord{}).Where("id IN ?", freshIDs).Count(&n).Error; err != nil {
			return written, translate(err)
		}
		written += int(n)
	}
	return written, nil
}

// uniqueNotifications encodes ns as new rows due at now, each key and id once (the first
// wins, as the unique key would decide), in the order given.
func uniqueNotifications(ns []models.Notification, now time.Time) []notificationRecord {
	keys := make(map[string]bool, len(ns))
	ids := make(map[string]bool, len(ns))
	recs := make([]notificationRecord, 0, len(ns))
	for i := range ns {
		n := ns[i]
		if n.ID == "" {
			n.ID = models.NewID()
		}
		if n.OccurredAt.IsZero() {
			n.OccurredAt = now
		}
		if keys[n.Key()] || ids[n.ID] {
			continue
		}
		keys[n.Key()], ids[n.ID] = true, true
		recs = append(recs, notificationRecord{sqlCodec.NotificationRow(&n, now)})
	}
	return recs
}

// AddNotifications writes rows a worker decided (due-soon), each whose key exists skipped,
// and returns how many it wrote; the rows are pending, due at the database's time.
func (s *Store) AddNotifications(ctx context.Context, ns []models.Notification) (int, error) {
	if len(ns) == 0 {
		return 0, nil
	}
	written := 0
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		var err error
		written, err = s.insertNotifications(tx, ns, now)
		return err
	})
	if err != nil {
		return 0, err
	}
	return written, nil
}

// ExpandNotification replaces the leased group row by its members' rows in one transaction:
// the group row is done (and its lease freed) first, so a stale lease writes nothing. Members
// must belong to the group row's tenant and task.
func (s *Store) ExpandNotification(ctx context.Context, group models.Notification, members []models.Notification) (int, error) {
	for _, m := range members {
		if m.Tenant != group.Tenant || m.TaskID != group.TaskID || m.Recipient.Type != models.UserParticipant {
			return 0, fmt.Errorf("repository: a group's notification expands to users of its own tenant and task")
		}
	}
	written := 0
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := fenced(tx, &notificationRecord{}, group.ID, group.Lease, now).Updates(map[string]any{
			"state": string(models.NotificationDone), "email_state": string(models.ChannelOff), "webhook_state": string(models.ChannelOff),
			"updated_at": now, "lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		if err := leaseResult(res); err != nil {
			return err
		}
		var err error
		written, err = s.insertNotifications(tx, members, now)
		return err
	})
	if err != nil {
		return 0, err
	}
	return written, nil
}
