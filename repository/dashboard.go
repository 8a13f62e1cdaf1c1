package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// DashboardCounts reads a tenant's current numbers for the managers' dashboard in one
// snapshot. Each query is bounded by the tenant and an index: each open and transitional status
// and the assignees of open tasks (ix_tasks_workload), health (ix_tasks_health), the overdue
// flag (ix_tasks_overdue), stale transitions (ix_tasks_transition) and the pending outbox
// (ix_resumptions_due); terminal tasks, the bulk of a tenant, are never read here (the daily
// rollup has them). Overdue counts open tasks the due sweep has
// flagged, which it does within its interval of the due date.
func (s *Store) DashboardCounts(ctx context.Context, tenant string, staleAfter time.Duration) (models.DashboardCounts, error) {
	out := models.DashboardCounts{ByStatus: map[models.Status]int{}}
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		out.Now = now
		// One count per status, each within its (tenant, status) range of ix_tasks_workload
		// from the index alone: at the scale target grouping the 100,000 open entries cost
		// PostgreSQL more than counting them (docs/benchmarks.md).
		err := storekit.CountByStatus(out.ByStatus, func(st models.Status) (int64, error) {
			var n int64
			err := tx.Model(&taskRecord{}).Where("tenant_id = ? AND status = ?", tenant, string(st)).Count(&n).Error
			return n, translate(err)
		})
		if err != nil {
			return err
		}
		var byHealth []struct {
			Severity string `gorm:"column:health_severity"`
			Code     string `gorm:"column:health_code"`
			N        int    `gorm:"column:n"`
		}
		err = tx.Model(&taskRecord{}).Select("health_severity, health_code, COUNT(*) AS n").
			Where("tenant_id = ? AND health_severity IS NOT NULL AND health_code IS NOT NULL AND status IN ?", tenant, openTransitionalStatuses).
			Group("health_severity, health_code").Order("health_severity, health_code").Scan(&byHealth).Error
		if err != nil {
			return translate(err)
		}
		for _, r := range byHealth {
			out.ByHealth = append(out.ByHealth, models.HealthCount{Severity: models.Severity(r.Severity), Code: r.Code, Count: r.N})
		}
		var n int64
		if err := tx.Model(&taskRecord{}).Where("tenant_id = ? AND is_overdue = ? AND status IN ?", tenant, true, openStatuses).
			Count(&n).Error; err != nil {
			return translate(err)
		}
		out.Overdue = int(n)
		if err := tx.Model(&taskRecord{}).Where("status IN ? AND transitioned_at < ? AND tenant_id = ?",
			transitionalStatuses, now.Add(-staleAfter), tenant).Count(&n).Error; err != nil {
			return translate(err)
		}
		out.StaleTransitions = int(n)
		pending := tx.Model(&resumptionRecord{}).Where("state = ? AND tenant_id = ?", string(models.DeliveryPending), tenant)
		if err := pending.Count(&n).Error; err != nil {
			return translate(err)
		}
		out.Backlog = int(n)
		if n > 0 {
			var oldest []time.Time
			err := tx.Model(&resumptionRecord{}).Where("state = ? AND tenant_id = ?", string(models.DeliveryPending), tenant).
				Order("created_at").Limit(1).Pluck("created_at", &oldest).Error
			if err != nil {
				return translate(err)
			}
			if len(oldest) == 1 {
				t := oldest[0].UTC()
				out.OldestPending = &t
			}
		}
		return s.workload(tx, tenant, &out)
	})
	return out, err
}

// workload counts the open tasks per assignee, most loaded first, ties by id: grouped inside
// ix_tasks_workload (tenant, status, assignee), then the display names of the listed few. An
// assignee has a provider and an id together; naming the provider, the index's third column,
// skips the unassigned entries of each status. SQLite is told the index: from its averaged
// statistics it would rather group in ix_tasks_assignee, whose tenant range also holds every
// terminal task ever assigned.
func (s *Store) workload(tx *gorm.DB, tenant string, out *models.DashboardCounts) error {
	var rows []struct {
		Provider string `gorm:"column:assignee_provider"`
		Type     string `gorm:"column:assignee_type"`
		ID       string `gorm:"column:assignee_id"`
		N        int    `gorm:"column:n"`
	}
	err := s.tasksIndexedBy(tx, "ix_tasks_workload").
		Select("assignee_provider, assignee_type, assignee_id, COUNT(*) AS n").
		Where("tenant_id = ? AND status IN ? AND assignee_provider IS NOT NULL AND assignee_id IS NOT NULL", tenant, openStatuses).
		Group("assignee_provider, assignee_type, assignee_id").
		Order("n DESC, assignee_provider, assignee_type, assignee_id").Limit(models.MaxWorkload).Scan(&rows).Error
	if err != nil {
		return translate(err)
	}
	for _, r := range rows {
		var names []*string
		err := tx.Model(&taskRecord{}).Where("tenant_id = ? AND status IN ? AND assignee_provider = ? AND assignee_type = ? AND assignee_id = ?",
			tenant, openStatuses, r.Provider, r.Type, r.ID).Limit(1).Pluck("assignee_display", &names).Error
		if err != nil {
			return translate(err)
		}
		ref := models.ParticipantRef{Tenant: tenant, Provider: r.Provider, Type: models.ParticipantType(r.Type), ID: r.ID}
		if len(names) == 1 {
			ref.DisplayName = storekit.Str(names[0])
		}
		out.Workload = append(out.Workload, models.AssigneeLoad{Assignee: ref, Count: r.N})
	}
	return nil
}
