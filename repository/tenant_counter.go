package repository

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
)

// The tenant's open-task count lives in a few counter rows ("stripes", migration 00008) instead
// of one: a creation raises one stripe and a finalization lowers one, so a tenant's writers lock
// different rows instead of queueing on a single one. The open count is the sum of the stripes.
//
// The limit (Config.OpenTasksPerTenant) stays exact without reading the sum under a lock: it is
// divided among the stripes (stripe k may count up to stripeCap(limit, n, k); the caps add up to
// the limit), and a stripe is only raised by a guarded UPDATE … WHERE open_tasks < cap. The sum
// therefore never passes the limit, and a creation is refused only when it found every stripe at
// its cap. Near the limit a creation may try several stripes, and one may be refused while a
// concurrent finalization has not committed yet — the same as with one row.

type tenantCounterRecord struct {
	TenantID  string    `gorm:"column:tenant_id;primaryKey"`
	Stripe    int       `gorm:"column:stripe;primaryKey"`
	OpenTasks int       `gorm:"column:open_tasks"`
	UpdatedAt time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (tenantCounterRecord) TableName() string { return "user_task_tenant_counters" }

// counterStripes is how many counter rows a tenant has: SQLite has one writer at a time, so
// one stripe there; the other dialects run writers in parallel.
func (s *Store) counterStripes() int {
	if s.dialect == migrations.SQLite {
		return 1
	}
	return 16
}

// stripeCap is the share of limit that stripe k of n may count; stripes at or beyond n
// (left from a larger n) take none.
func stripeCap(limit, n, k int) int {
	if k >= n {
		return 0
	}
	c := limit / n
	if k < limit%n {
		c++
	}
	return c
}

// stripeOf picks a task's stripe from its id, so its creation and its finalization usually
// touch the same row and a tenant's writers spread over all of them.
func stripeOf(taskID string, n int) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(taskID))
	return int(h.Sum32() % uint32(n))
}

// moveStripe raises (delta > 0) one stripe below limit, or lowers it above zero, by one.
func moveStripe(tx *gorm.DB, tenant string, stripe, delta, limit int, now time.Time) (bool, error) {
	q, set := tx.Model(&tenantCounterRecord{}), gorm.Expr("open_tasks - 1")
	if delta > 0 {
		q, set = q.Where("tenant_id = ? AND stripe = ? AND open_tasks < ?", tenant, stripe, limit), gorm.Expr("open_tasks + 1")
	} else {
		q = q.Where("tenant_id = ? AND stripe = ? AND open_tasks > 0", tenant, stripe)
	}
	res := q.Updates(map[string]any{"open_tasks": set, "updated_at": now})
	if res.Error != nil {
		return false, translate(res.Error)
	}
	return res.RowsAffected == 1, nil
}

// readStripes reads a tenant's counter rows without locking them, ordered by stripe.
func readStripes(tx *gorm.DB, tenant string) ([]tenantCounterRecord, error) {
	var rows []tenantCounterRecord
	err := tx.Where("tenant_id = ?", tenant).Order("stripe").Find(&rows).Error
	return rows, translate(err)
}

// reserveOpenTask counts a new open task of tenant on one stripe unless every stripe is at its
// share of the limit. The task's own stripe is tried first (one statement in the common case);
// when it is full the others are tried, those with room in a fresh read first, and all of them,
// because a snapshot read (MySQL's REPEATABLE READ) may be older than the guarded UPDATEs.
func (s *Store) reserveOpenTask(tx *gorm.DB, tenant, taskID string, now time.Time) error {
	limit, n := s.cfg.OpenTasksPerTenant, s.counterStripes()
	own := stripeOf(taskID, n)
	if ok, err := moveStripe(tx, tenant, own, 1, stripeCap(limit, n, own), now); ok || err != nil {
		return err
	}
	rows, err := readStripes(tx, tenant)
	if err != nil {
		return err
	}
	retryOwn := false
	if len(rows) == 0 {
		// The counter rows went missing (ensureTenant made them): make them and count here.
		if err := createStripes(tx, tenant, nil, n, now); err != nil {
			return err
		}
		rows, retryOwn = make([]tenantCounterRecord, n), true
		for k := range rows {
			rows[k].Stripe = k
		}
	}
	room := func(r tenantCounterRecord) int { return stripeCap(limit, n, r.Stripe) - r.OpenTasks }
	sort.SliceStable(rows, func(i, j int) bool { return room(rows[i]) > room(rows[j]) })
	for _, r := range rows {
		capK := stripeCap(limit, n, r.Stripe)
		if capK == 0 || r.Stripe == own && !retryOwn {
			continue
		}
		if ok, err := moveStripe(tx, tenant, r.Stripe, 1, capK, now); ok || err != nil {
			return err
		}
	}
	return &models.CapacityError{Limit: limit}
}

// releaseOpenTask lowers the tenant's open count when a task becomes terminal: the task's own
// stripe when it counts anything, otherwise the fullest other one. The count never goes below
// zero and the sum stays exact.
func (s *Store) releaseOpenTask(tx *gorm.DB, tenant, taskID string, now time.Time) error {
	own := stripeOf(taskID, s.counterStripes())
	if ok, err := moveStripe(tx, tenant, own, -1, 0, now); ok || err != nil {
		return err
	}
	rows, err := readStripes(tx, tenant)
	if err != nil {
		return err
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].OpenTasks > rows[j].OpenTasks })
	for _, r := range rows {
		if r.Stripe == own {
			continue
		}
		if ok, err := moveStripe(tx, tenant, r.Stripe, -1, 0, now); ok || err != nil {
			return err
		}
	}
	return nil
}

// createStripes inserts the stripes below n that have lacks, at zero. A concurrent insert
// of the same rows makes the transaction run again.
func createStripes(tx *gorm.DB, tenant string, have []tenantCounterRecord, n int, now time.Time) error {
	present := map[int]bool{}
	for _, r := range have {
		present[r.Stripe] = true
	}
	var add []tenantCounterRecord
	for k := 0; k < n; k++ {
		if !present[k] {
			add = append(add, tenantCounterRecord{TenantID: tenant, Stripe: k, UpdatedAt: now})
		}
	}
	if len(add) == 0 {
		return nil
	}
	if err := translate(tx.Create(&add).Error); err != nil {
		if errors.Is(err, errDuplicate) {
			return fmt.Errorf("%w: tenant counter created concurrently", errRetry)
		}
		return err
	}
	return nil
}

// balanced spreads total over n stripes evenly within their caps; beyond the limit (lowered
// below what the tenant holds) every stripe is at its cap and stripe 0 holds the rest, so every
// creation is refused until enough tasks end.
func balanced(total, limit, n int) []int {
	out := make([]int, n)
	for k := range out {
		out[k] = min(total/n+b2i(k < total%n), stripeCap(limit, n, k))
	}
	if total > limit {
		out[0] += total - limit
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// outOfBalance reports whether a stripe counts more than its cap: after migration 00008 moved
// a tenant's whole count to stripe 0, or after the limit or the stripe count changed.
func outOfBalance(rows []tenantCounterRecord, limit, n int) bool {
	for _, r := range rows {
		if r.OpenTasks > stripeCap(limit, n, r.Stripe) {
			return true
		}
	}
	return false
}

// ensureTenant creates the tenant's row and counter stripes in their own transaction, once per
// process, so that creations only ever lock existing rows (an absent one makes InnoDB take gap
// locks that deadlock concurrent first creations), and spreads a count that is out of balance.
func (s *Store) ensureTenant(ctx context.Context, tenant string) error {
	if _, ok := s.tenants.Load(tenant); ok {
		return nil
	}
	limit, n := s.cfg.OpenTasksPerTenant, s.counterStripes()
	rebalance := false
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		var count int64
		if err := tx.Model(&tenantRecord{}).Where("tenant_id = ?", tenant).Count(&count).Error; err != nil {
			return translate(err)
		}
		if count == 0 {
			if err := translate(tx.Create(&tenantRecord{TenantID: tenant, UpdatedAt: now}).Error); err != nil {
				if errors.Is(err, errDuplicate) {
					return fmt.Errorf("%w: tenant created concurrently", errRetry)
				}
				return err
			}
		}
		rows, err := readStripes(tx, tenant)
		if err != nil {
			return err
		}
		rebalance = outOfBalance(rows, limit, n)
		return createStripes(tx, tenant, rows, n, now)
	})
	if err == nil && rebalance {
		err = s.rebalanceStripes(ctx, tenant, limit, n)
	}
	if err != nil {
		return err
	}
	s.tenants.Store(tenant, true)
	return nil
}

// rebalanceStripes spreads a tenant's count evenly over its stripes, the sum unchanged. The
// first statement locks every stripe, so the read after it is current on every dialect.
func (s *Store) rebalanceStripes(ctx context.Context, tenant string, limit, n int) error {
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		err := tx.Model(&tenantCounterRecord{}).Where("tenant_id = ?", tenant).
			Update("open_tasks", gorm.Expr("open_tasks")).Error
		if err != nil {
			return translate(err)
		}
		rows, err := readStripes(tx, tenant)
		if err != nil {
			return err
		}
		total := 0
		for _, r := range rows {
			total += r.OpenTasks
		}
		want := balanced(total, limit, n)
		for _, r := range rows {
			target := 0
			if r.Stripe < n {
				target = want[r.Stripe]
			}
			if r.OpenTasks == target {
				continue
			}
			err := tx.Model(&tenantCounterRecord{}).Where("tenant_id = ? AND stripe = ?", tenant, r.Stripe).
				Updates(map[string]any{"open_tasks": target, "updated_at": now}).Error
			if err != nil {
				return translate(err)
			}
		}
		return nil
	})
}
