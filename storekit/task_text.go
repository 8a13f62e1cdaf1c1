package storekit

import (
	"strings"

	"usertasks/models"
)

// SearchText is a task's bounded, lower-cased safe search projection, as every store keeps it
// beside the task: only safe fields, never protected content.
func SearchText(t *models.Task) string {
	parts := []string{t.Title, t.Summary, t.Reference, t.TaskType, strings.Join(t.Tags, " "),
		t.Workflow.DefinitionID, t.Workflow.DefinitionName, t.Workflow.InstanceID, t.Workflow.InstanceReference}
	if t.Requester != nil {
		parts = append(parts, t.Requester.ID, t.Requester.DisplayName)
	}
	return strings.ToLower(strings.Join(parts, "\n"))
}

// SearchNeedle is what a list's search looks for in the search text: the search trimmed and
// lower-cased, as SearchText is; "" looks for nothing.
func SearchNeedle(search string) string { return strings.ToLower(strings.TrimSpace(search)) }
