package repository

import (
	"usertasks/migrations"
	"usertasks/models"
)

// historyCond matches the tasks of the history scope's person: completed by them, or with an
// event they acted in. It names the person's task ids in one uncorrelated sub-select, a UNION
// ALL of two index seeks, both covering (ix_tasks_completed_by carries id since migration
// 00021; ix_events_actor carries task_id), which the planner reads once and drives the list
// from: a few thousand ids per person at the scale target. UNION ALL, not UNION: IN only asks
// whether an id is among them, so the duplicates (one id per event: 9,242 ids for 3,172 tasks
// at the scale target) change no answer, and removing them was a sort of its own
// (docs/query-plans.md, "The history scope at the scale target"). The same rule as an OR with
// a correlated EXISTS was checked row by row over every terminal task of the tenant, a million
// at the scale target (seconds per page). On MariaDB the UNION ALL sits in a derived table
// (mine): it runs an IN sub-select that is itself a UNION as a dependent subquery, once per
// outer row (5.7 s against 0.07 s for a total at a tenth of the target).
func (q *taskQuery) historyCond(me models.ParticipantRef, dialect migrations.Dialect) cond {
	mine := "SELECT id FROM user_tasks d WHERE d.tenant_id = ? AND d.completed_by_provider = ? AND d.completed_by_type = ? AND d.completed_by_id = ?" +
		" UNION ALL SELECT e.task_id FROM user_task_events e WHERE e.tenant_id = ? AND e.actor_provider = ? AND e.actor_type = ? AND e.actor_id = ?"
	if dialect == migrations.MySQL {
		mine = "SELECT id FROM (" + mine + ") mine"
	}
	return cond{"id IN (" + mine + ")", []any{q.f.Tenant, me.Provider, string(me.Type), me.ID, q.f.Tenant, me.Provider, string(me.Type), me.ID}}
}
