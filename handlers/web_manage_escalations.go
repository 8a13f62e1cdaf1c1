package handlers

import (
	"fmt"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// escalationsTable is the dashboard's fired deadlines per workflow: each workflow by name (its
// id without one), linking to the workflow's tasks in the All list.
func escalationsTable(t *i18n.Catalog, es []tasks.WorkflowEscalations) views.EscalationsTable {
	d := t.Deadlines
	out := views.EscalationsTable{Heading: fmt.Sprintf(d.DashHead, tasks.EscalationDays), None: fmt.Sprintf(d.DashNone, tasks.EscalationDays)}
	for _, e := range es {
		out.Rows = append(out.Rows, views.EscalationRow{Workflow: firstNonEmpty(e.Name, e.ID), Count: e.Count,
			Href: inboxLink(models.ScopeAll, "workflow", e.ID)})
	}
	return out
}
