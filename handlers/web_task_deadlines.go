package handlers

import (
	"encoding/json"

	"usertasks/models"
	"usertasks/views"
	"usertasks/views/i18n"
)

// deadlineRows are the task page's Deadlines block (SPEC 10.4): the detail's deadlines by
// index, numbered from 1 as History numbers their firing, with their actions in words.
func deadlineRows(t *i18n.Catalog, ds []models.Deadline) []views.DeadlineRow {
	rows := make([]views.DeadlineRow, 0, len(ds))
	for _, d := range ds {
		row := views.DeadlineRow{Number: d.Index + 1, Kind: d.Kind, Due: d.DueAt, State: d.State, Settled: d.FiredAt}
		for _, a := range d.Actions {
			row.Actions = append(row.Actions, t.DeadlineAction(d.Kind, a))
		}
		rows = append(rows, row)
	}
	return rows
}

// deadlineFiredSummary is the History line of a deadline-fired event, from its metadata
// (index, kind, action types); "" when the metadata is not that shape, so the line falls back
// to the event's name.
func deadlineFiredSummary(t *i18n.Catalog, e models.Event) string {
	var m struct {
		Index   *int                `json:"index"`
		Kind    models.DeadlineKind `json:"kind"`
		Actions []string            `json:"actions"`
	}
	if json.Unmarshal(e.Metadata, &m) != nil || m.Index == nil || *m.Index < 0 || m.Kind == "" {
		return ""
	}
	return t.DeadlineFired(*m.Index, m.Kind, m.Actions)
}
