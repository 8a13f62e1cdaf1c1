package repository

import (
	"context"

	"gorm.io/gorm"

	"usertasks/models"
)

// WorkflowChoices lists the distinct workflow definitions of the tasks f.Actor may see in
// f.Scope, ordered by id, at most limit (the inbox's workflow filter offers them by name). Only
// the scope and its authorization narrow the tasks; the other filters of f are ignored. A
// choice's name is that of one of its tasks (a definition's tasks normally share one name).
//
// The manager scopes see the whole tenant, so there the definitions are read by skipping
// through ix_tasks_workflow_created (tenant_id, workflow_definition_id, …): one index seek per
// definition, whatever the number of tasks. The personal scopes group the rows of the scope,
// which costs what counting the tab does.
func (s *Store) WorkflowChoices(ctx context.Context, f models.TaskFilter, limit int) ([]models.WorkflowChoice, error) {
	scoped := models.TaskFilter{Tenant: f.Tenant, Scope: f.Scope, Actor: f.Actor, StaleAfter: f.StaleAfter}
	q, err := newTaskQuery(scoped)
	if err != nil {
		return nil, err
	}
	limit = max(1, min(limit, models.MaxPageSize))
	var out []models.WorkflowChoice
	err = s.inRead(ctx, func(tx *gorm.DB) error {
		if q.f.Scope.ManagerOnly() {
			out, err = s.skipDefinitions(tx, q.f.Tenant, limit)
			return err
		}
		now, err := s.dbNow(tx)
		if err != nil {
			return err
		}
		var rows []struct {
			ID   string  `gorm:"column:workflow_definition_id"`
			Name *string `gorm:"column:name"`
		}
		err = applyConds(tx.Model(&taskRecord{}).Select("workflow_definition_id, MAX(workflow_definition_name) AS name"), q.conditions(now, s.dialect)).
			Group("workflow_definition_id").Order("workflow_definition_id").Limit(limit).Scan(&rows).Error
		if err != nil {
			return translate(err)
		}
		out = make([]models.WorkflowChoice, 0, len(rows))
		for _, r := range rows {
			c := models.WorkflowChoice{ID: r.ID}
			if r.Name != nil {
				c.Name = *r.Name
			}
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// definitionIndex leads with (tenant_id, workflow_definition_id): any of the workflow filter's
// indexes (migration 00014, which replaced ix_tasks_definition) serves the seeks.
const definitionIndex = "ix_tasks_workflow_created"

// skipDefinitions reads a tenant's distinct workflow definitions one index seek at a time: the
// first definition after the previous one (a "loose index scan" every dialect can run). MariaDB
// is told the index (tasksForcing): left to choose, it took 60-150 ms per seek at a tenth of the
// scale target under load, where SQLite and PostgreSQL take 0.03 ms (docs/query-plans.md).
func (s *Store) skipDefinitions(tx *gorm.DB, tenant string, limit int) ([]models.WorkflowChoice, error) {
	var out []models.WorkflowChoice
	after := ""
	for len(out) < limit {
		var rows []struct {
			ID   string  `gorm:"column:workflow_definition_id"`
			Name *string `gorm:"column:workflow_definition_name"`
		}
		q := s.tasksForcing(tx, definitionIndex).Select("workflow_definition_id, workflow_definition_name").Where("tenant_id = ?", tenant)
		if len(out) > 0 { // not `> ''` on the first seek: Oracle reads '' as NULL
			q = q.Where("workflow_definition_id > ?", after)
		}
		err := q.Order("workflow_definition_id").Limit(1).Scan(&rows).Error
		if err != nil {
			return nil, translate(err)
		}
		if len(rows) == 0 {
			break
		}
		c := models.WorkflowChoice{ID: rows[0].ID}
		if rows[0].Name != nil {
			c.Name = *rows[0].Name
		}
		out = append(out, c)
		after = c.ID
	}
	return out, nil
}
