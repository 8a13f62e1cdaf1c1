package repository

import "usertasks/models"

// statusSortIndexes are the indexes (tenant_id, status, sort column, id) of each sort
// (migrations 00001, 00007, 00010): within one status they hold the tasks in the sort's order.
var statusSortIndexes = map[models.SortKey]string{
	models.SortCreated:   "ix_tasks_status_created",
	models.SortDue:       "ix_tasks_status_due",
	models.SortPriority:  "ix_tasks_status_priority",
	models.SortTitle:     "ix_tasks_status_title",
	models.SortUpdated:   "ix_tasks_status_updated",
	models.SortCompleted: "ix_tasks_status_completed",
}

// availableWalk names the index the available list's page is read through, on the dialects of
// the scale target: the Available tasks in the page's order (statusSortIndexes), each tested for
// the user's candidate row and exclusion, until the page is full. A user in a few groups is a
// candidate of a good share of them, so the walk reads a few pages' worth of entries; found
// through the candidate index instead, the user's tasks (a quarter of the tenant's Available
// tasks for a user in 5 groups) were all read and sorted for every page. The nullable sorts
// (due, completed) walk the same index twice (nullsLastPage): its dated range, then its NULLs in
// id order. A health filter keeps ix_tasks_health, which finds the few findings directly.
//
// SQLite is told the index (INDEXED BY): its statistics cannot tell that a quarter of the
// Available tasks match, and it would drive from the candidates. The total is counted without
// the hint: through the candidate index it reads the user's tasks once, without an order.
//
// A workflow filter walks its definition's sort index (workflowIndex, which holds the status
// after the definition): walking the status's index, the title sort passed every Available
// task whose title sorts before the definition's name, each fetched to test the definition
// (38 ms for the first page at the scale target, under 1 ms through ix_tasks_workflow_title).
func (s *Store) availableWalk(q *taskQuery) (string, bool) {
	if !s.walksIndexes() || q.f.Scope != models.ScopeAvailable || q.f.FiltersHealth() {
		return "", false
	}
	return walkIndex(q), true
}
