package models

import "time"

// Scope selects which tasks a list query may return; authorization is part of the query.
type Scope string

const (
	ScopeAssigned       Scope = "assigned"        // the caller is the assignee
	ScopeAvailable      Scope = "available"       // open, unassigned, the caller is an eligible non-excluded candidate
	ScopeHistory        Scope = "history"         // terminal, and the caller completed it or acted on it
	ScopeAll            Scope = "all"             // managers: the whole tenant
	ScopeNeedsAttention Scope = "needs-attention" // managers: see AttentionRule
)

// ManagerOnly reports whether the scope is reserved to managers.
func (s Scope) ManagerOnly() bool { return s == ScopeAll || s == ScopeNeedsAttention }

// Valid reports whether s is a known scope.
func (s Scope) Valid() bool {
	switch s {
	case ScopeAssigned, ScopeAvailable, ScopeHistory, ScopeAll, ScopeNeedsAttention:
		return true
	}
	return false
}

// SortKey orders a list; every sort breaks ties by id, and nulls sort last in both directions.
type SortKey string

const (
	SortCreated   SortKey = "created"
	SortDue       SortKey = "due"
	SortPriority  SortKey = "priority"
	SortTitle     SortKey = "title"
	SortUpdated   SortKey = "updated"
	SortCompleted SortKey = "completed"
)

// SortKeys lists every sort.
var SortKeys = []SortKey{SortCreated, SortDue, SortPriority, SortTitle, SortUpdated, SortCompleted}

// DueFilter selects tasks by due date relative to now (UTC days and ISO weeks).
type DueFilter string

const (
	DueOverdue   DueFilter = "overdue"
	DueToday     DueFilter = "today"
	DueThisWeek  DueFilter = "thisWeek"
	DueNoDueDate DueFilter = "noDueDate"
)

// TaskFilter is an authorized list query. Tenant and Actor come from the principal only.
type TaskFilter struct {
	Tenant string
	Scope  Scope
	Actor  Actor

	Statuses             []Status
	PriorityFrom         *int
	PriorityTo           *int
	Due                  DueFilter
	DueFrom              *time.Time
	DueTo                *time.Time
	WorkflowDefinitionID string
	WorkflowInstanceID   string
	Reference            string
	TaskType             string
	Tag                  string // one tag, matched exactly and case-insensitively
	Search               string // case-insensitive literal substring over safe fields
	// HealthCodes and HealthSeverity narrow the list to tasks with one of these health codes
	// and with this severity (managers only: health is not shown to anyone else).
	HealthCodes    []string
	HealthSeverity Severity
	// Assignee narrows to one assignee's tasks or to unassigned ones (ParseAssigneeFilter).
	Assignee AssigneeFilter

	Sort       SortKey // default SortCreated
	Descending bool    // default for SortCreated is descending; callers set it explicitly
	Cursor     string  // opaque, from a previous page
	Limit      int     // default DefaultPageSize, clamped to MaxPageSize

	IncludeTotal bool
	// StaleAfter is how long a task may stay transitional before needs-attention lists it.
	StaleAfter time.Duration
	// UnassignedAfter is how long an open task may stay without an assignee, counted from its
	// creation, before needs-attention lists it.
	UnassignedAfter time.Duration
}

// FiltersHealth reports whether the filter narrows by health, which only managers may do.
func (f TaskFilter) FiltersHealth() bool {
	return len(f.HealthCodes) > 0 || f.HealthSeverity != SeverityNone
}

// TaskPage is one page of task summaries. Items never carry protected content.
type TaskPage struct {
	Items      []Task
	NextCursor string
	Total      *int
	// TotalCapped says the list holds more than Total, which is then the cap (TotalCap).
	TotalCapped bool
	// SearchLimited says a windowed search ended this page early — a short search (1–2
	// characters), or on SQLite and PostgreSQL a needle in more tasks than the substring probe
	// reads: its window of the list (storekit.ShortSearchWindow rows) ended before the page was
	// full while the list continues, so NextCursor resumes the search at the last row examined.
	SearchLimited bool
	// Now is the database time the query was evaluated at (overdue, stale and unassigned ages).
	Now time.Time
}

// DefaultStaleAfter is the default transitional staleness threshold.
const DefaultStaleAfter = 15 * time.Minute

// Validate refuses text filters holding characters no stored value may hold (TextProblem), so a
// NUL or an override never reaches a query: some drivers fail on them, and a NUL could make a
// substring search match every row. Search is human text, the other filters identifiers; field
// names are the list's query parameters. It also refuses unknown health codes and severities.
func (f TaskFilter) Validate() error {
	var pr problems
	for _, c := range []struct {
		field, value string
		kind         TextKind
	}{
		{"search", f.Search, Label},
		{"tag", f.Tag, Identifier},
		{"reference", f.Reference, Identifier},
		{"taskType", f.TaskType, Identifier},
		{"workflowDefinitionId", f.WorkflowDefinitionID, Identifier},
		{"workflowInstanceId", f.WorkflowInstanceID, Identifier},
		{"assignee", f.Assignee.Participant.ID, Identifier},
	} {
		if msg := TextProblem(c.value, c.kind); msg != "" {
			pr.fail(c.field, msg)
		}
	}
	for _, code := range f.HealthCodes {
		if !KnownHealthCode(code) {
			pr.fail("healthCode", "must be known health codes")
			break
		}
	}
	if f.HealthSeverity != SeverityNone && !f.HealthSeverity.Valid() {
		pr.fail("healthSeverity", "must be one of blocking, advisory")
	}
	return pr.err()
}
