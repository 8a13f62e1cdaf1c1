package storekit

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"time"

	"usertasks/models"
)

// MaxSearchLength bounds the search needle of a list (bytes).
const MaxSearchLength = 1000

// ListQuery is a list filter checked and completed as every store reads it.
type ListQuery struct {
	// Filter is the caller's filter with the defaults applied: scope, sort, staleness limits.
	Filter models.TaskFilter
	// Sort is how Filter.Sort's values look.
	Sort Sort
	// Limit is the page size, defaulted and capped.
	Limit int
	// After and AfterID are the cursor's position; After is nil on the first page.
	After   *SortValue
	AfterID string
}

// NewListQuery checks f in the order of SPEC 4: the scope and the caller's right to it first,
// then the filters, then the cursor.
func NewListQuery(f models.TaskFilter) (ListQuery, error) {
	if f.Scope == "" {
		f.Scope = models.ScopeAssigned
	}
	if !f.Scope.Valid() {
		return ListQuery{}, models.InvalidField("scope", "must be one of assigned, available, history, all, needs-attention")
	}
	if f.Tenant == "" {
		return ListQuery{}, models.InvalidField("tenant", "is required")
	}
	if f.Actor.Guest != nil || (f.Actor.Tenant != "" && f.Actor.Tenant != f.Tenant) {
		return ListQuery{}, models.ErrForbidden
	}
	if (f.Scope.ManagerOnly() || f.FiltersHealth()) && !f.Actor.Manager {
		return ListQuery{}, models.ErrForbidden
	}
	if f.Sort == "" {
		f.Sort = models.SortCreated
	}
	sort, ok := Sorts[f.Sort]
	if !ok {
		return ListQuery{}, models.InvalidField("sort", "must be one of created, due, priority, title, updated, completed")
	}
	for _, st := range f.Statuses {
		if !st.Valid() {
			return ListQuery{}, models.InvalidField("status", "unknown status "+string(st))
		}
	}
	switch f.Due {
	case "", models.DueOverdue, models.DueToday, models.DueThisWeek, models.DueNoDueDate:
	default:
		return ListQuery{}, models.InvalidField("due", "must be one of overdue, today, thisWeek, noDueDate")
	}
	if len(f.Search) > MaxSearchLength {
		return ListQuery{}, models.InvalidField("search", "is too long")
	}
	if err := (models.TaskFilter{HealthCodes: f.HealthCodes, HealthSeverity: f.HealthSeverity, Assignee: f.Assignee}).Validate(); err != nil {
		return ListQuery{}, err
	}
	if f.StaleAfter <= 0 {
		f.StaleAfter = models.DefaultStaleAfter
	}
	if f.UnassignedAfter <= 0 {
		f.UnassignedAfter = models.DefaultUnassignedAttentionAfter
	}
	q := ListQuery{Filter: f, Sort: sort, Limit: f.Limit}
	if q.Limit <= 0 {
		q.Limit = models.DefaultPageSize
	}
	if q.Limit > models.MaxPageSize {
		q.Limit = models.MaxPageSize
	}
	if f.Cursor != "" {
		v, id, err := DecodeCursor(f.Cursor, f.Sort, f.Descending, FilterDigest(f))
		if err != nil {
			return ListQuery{}, err
		}
		q.After, q.AfterID = &v, id
	}
	return q, nil
}

// FilterDigest names the rows a list query selects, apart from the page position: the scope
// and every filter (health and assignee included), normalized as the query applies them. A
// cursor carries it, so a cursor is refused when reused with other filters rather than
// silently resuming a position in another list. The page size and the total are not part of
// it: paging through one list with any limit yields the same order.
func FilterDigest(f models.TaskFilter) string {
	statuses := slices.Compact(slices.Sorted(slices.Values(StatusStrings(f.Statuses))))
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
		SearchNeedle(f.Search), codes, f.HealthSeverity,
		f.Assignee.Unassigned, f.Assignee.Participant.Provider, f.Assignee.Participant.Type, f.Assignee.Participant.ID,
	})
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// StatusStrings are the statuses as stored.
func StatusStrings(ss []models.Status) []string {
	out := make([]string, len(ss))
	for i, st := range ss {
		out[i] = string(st)
	}
	return out
}
