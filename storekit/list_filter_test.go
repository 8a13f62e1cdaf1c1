package storekit

import (
	"testing"
	"time"

	"usertasks/models"
)

// TestFilterDigest checks that the digest a cursor carries tells every filter apart and
// ignores what does not change the list (order of statuses and codes, the page size).
func TestFilterDigest(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	base := models.TaskFilter{Scope: models.ScopeAll, Sort: models.SortCreated,
		Statuses: []models.Status{models.StatusAvailable, models.StatusAssigned}, HealthCodes: []string{"a", "b"}}
	same := base
	same.Statuses = []models.Status{models.StatusAssigned, models.StatusAvailable, models.StatusAssigned}
	same.HealthCodes = []string{"b", "a"}
	same.Limit, same.IncludeTotal = 7, true
	if FilterDigest(same) != FilterDigest(base) {
		t.Fatal("the order of statuses or codes, or the page size, changed the digest")
	}
	n := 5
	for name, change := range map[string]func(*models.TaskFilter){
		"Scope":          func(f *models.TaskFilter) { f.Scope = models.ScopeNeedsAttention },
		"Status":         func(f *models.TaskFilter) { f.Statuses = f.Statuses[:1] },
		"HealthCode":     func(f *models.TaskFilter) { f.HealthCodes = []string{"a"} },
		"HealthSeverity": func(f *models.TaskFilter) { f.HealthSeverity = models.SeverityBlocking },
		"PriorityFrom":   func(f *models.TaskFilter) { f.PriorityFrom = &n },
		"PriorityTo":     func(f *models.TaskFilter) { f.PriorityTo = &n },
		"Due":            func(f *models.TaskFilter) { f.Due = models.DueOverdue },
		"DueFrom":        func(f *models.TaskFilter) { f.DueFrom = &at },
		"DueTo":          func(f *models.TaskFilter) { f.DueTo = &at },
		"Workflow":       func(f *models.TaskFilter) { f.WorkflowDefinitionID = "w" },
		"Instance":       func(f *models.TaskFilter) { f.WorkflowInstanceID = "w" },
		"Reference":      func(f *models.TaskFilter) { f.Reference = "w" },
		"TaskType":       func(f *models.TaskFilter) { f.TaskType = "w" },
		"Tag":            func(f *models.TaskFilter) { f.Tag = "w" },
		"Search":         func(f *models.TaskFilter) { f.Search = "w" },
		"Unassigned":     func(f *models.TaskFilter) { f.Assignee.Unassigned = true },
		"Assignee": func(f *models.TaskFilter) {
			f.Assignee.Participant = models.ParticipantRef{Provider: "default", Type: models.UserParticipant, ID: "ann"}
		},
	} {
		f := base
		change(&f)
		if FilterDigest(f) == FilterDigest(base) {
			t.Errorf("%s: another filter, the same digest", name)
		}
	}
}
