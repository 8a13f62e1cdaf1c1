package tasks

import (
	"cmp"
	"slices"

	"usertasks/models"
)

// EscalationDays is how many UTC days, today included, the dashboard's escalations cover
// (SPEC 10.4: "the dashboard counts escalations of the last 7 days per workflow").
const EscalationDays = 7

// WorkflowEscalations is one workflow definition's fired deadlines over EscalationDays.
type WorkflowEscalations struct {
	ID, Name string // Name is empty when the workflow never named itself
	Count    int
}

// escalationsOf sums the rollup's escalations per workflow, most first, then by name and id
// so the table's order is stable.
func escalationsOf(r models.Rollup) []WorkflowEscalations {
	byID := map[string]*WorkflowEscalations{}
	var out []WorkflowEscalations
	for _, st := range r.ByWorkflow {
		if st.Metric != models.MetricEscalated || st.Count <= 0 {
			continue
		}
		w := byID[st.WorkflowDefinitionID]
		if w == nil {
			w = &WorkflowEscalations{ID: st.WorkflowDefinitionID}
			byID[st.WorkflowDefinitionID] = w
		}
		if st.WorkflowDefinitionName != "" {
			w.Name = st.WorkflowDefinitionName
		}
		w.Count += int(st.Count)
	}
	for _, w := range byID {
		out = append(out, *w)
	}
	slices.SortFunc(out, func(a, b WorkflowEscalations) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
	return out
}
