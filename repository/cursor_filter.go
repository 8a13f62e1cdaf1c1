package repository

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"usertasks/models"
)

// filterDigest names the rows a list query selects, apart from the page position: the scope
// and every filter (health and assignee included), normalized as the query applies them. A
// cursor carries it, so a cursor is refused when reused with other filters rather than
// silently resuming a position in another list. The page size and the total are not part of
// it: paging through one list with any limit yields the same order.
func filterDigest(f models.TaskFilter) string {
	statuses := slices.Compact(slices.Sorted(slices.Values(statusStrings(f.Statuses))))
	codes := slices.Compact(slices.Sorted(slices.Values(f.HealthCodes)))
	when := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	num := func(n *int) any {
		if n == nil {
			return nil
		}
		return *n
	}
	// A JSON array keeps the fields apart whatever they hold.
	b, _ := json.Marshal([]any{
		f.Scope, statuses, num(f.PriorityFrom), num(f.PriorityTo), f.Due, when(f.DueFrom), when(f.DueTo),
		f.WorkflowDefinitionID, f.WorkflowInstanceID, f.Reference, f.TaskType, models.NormalizeTag(f.Tag),
		strings.ToLower(strings.TrimSpace(f.Search)), codes, f.HealthSeverity,
		f.Assignee.Unassigned, f.Assignee.Participant.Provider, f.Assignee.Participant.Type, f.Assignee.Participant.ID,
	})
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// assigneeCond is the assignee filter's conjunct, served by ix_tasks_assignee.
func assigneeCond(a models.AssigneeFilter) (cond, bool) {
	switch {
	case a.Unassigned:
		return cond{"assignee_id IS NULL", nil}, true
	case a.Participant.ID != "":
		p := a.Participant
		return cond{"assignee_provider = ? AND assignee_type = ? AND assignee_id = ?", []any{p.Provider, string(p.Type), p.ID}}, true
	}
	return cond{}, false
}
