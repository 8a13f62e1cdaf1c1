package handlers

import (
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// pageJSON is one page of task summaries; totalCount only when asked for, with
// totalCountCapped: true when the list holds more than totalCount (the cap, models.TotalCap);
// searchLimited only when true: a 1–2 character search ended the page at the end of its
// window (models.TaskPage.SearchLimited).
type pageJSON struct {
	Items            []summaryJSON `json:"items"`
	NextCursor       *string       `json:"nextCursor"`
	TotalCount       *int          `json:"totalCount,omitempty"`
	TotalCountCapped *bool         `json:"totalCountCapped,omitempty"`
	SearchLimited    bool          `json:"searchLimited,omitempty"`
}

// listTasks handles GET /api/v1/user-tasks.
func (h *taskAPI) listTasks(c echo.Context) error {
	return runQuery(c, parseListQuery, h.tasks.List, pageOf)
}

// pageOf renders a page of the task list.
func pageOf(page tasks.Page) pageJSON {
	out := pageJSON{Items: make([]summaryJSON, 0, len(page.Items)), NextCursor: text(page.NextCursor), TotalCount: page.Total,
		SearchLimited: page.SearchLimited}
	if page.Total != nil {
		out.TotalCountCapped = &page.TotalCapped
	}
	for _, v := range page.Items {
		out.Items = append(out.Items, summaryOf(v))
	}
	return out
}

var (
	scopeNames     = []string{string(models.ScopeAssigned), string(models.ScopeAvailable), string(models.ScopeHistory), string(models.ScopeAll), string(models.ScopeNeedsAttention)}
	sortNames      = []string{"created", "due", "priority", "title", "updated", "completed"}
	dueNames       = []string{string(models.DueOverdue), string(models.DueToday), string(models.DueThisWeek), string(models.DueNoDueDate)}
	directionNames = []string{"asc", "desc"}
)

// parseListQuery reads the list's query parameters. Defaults: scope assigned, limit 50 (above
// 200 is clamped), sort created; direction desc for created and asc for every other sort.
// status may repeat and may hold comma-separated statuses; healthCode may repeat; assignee is
// "none" or "<type>:<id>" (models.ParseAssigneeFilter). Health
// codes and severity are checked by the service after the manager check (403 before 422). An
// unreadable cursor is the store's to refuse (400).
func parseListQuery(c echo.Context) (models.TaskFilter, error) {
	r := queryReader{q: c.QueryParams()}
	f := models.TaskFilter{
		Scope:                models.Scope(r.enum("scope", scopeNames...)),
		Cursor:               r.str("cursor"),
		Limit:                r.limit(),
		Sort:                 models.SortKey(r.enum("sort", sortNames...)),
		PriorityFrom:         r.integer("priorityFrom", models.MinPriority, models.MaxPriority),
		PriorityTo:           r.integer("priorityTo", models.MinPriority, models.MaxPriority),
		Due:                  models.DueFilter(r.enum("due", dueNames...)),
		DueFrom:              r.time("from"),
		DueTo:                r.time("to"),
		WorkflowDefinitionID: r.str("workflowDefinitionId"),
		WorkflowInstanceID:   r.str("workflowInstanceId"),
		Reference:            r.str("reference"),
		TaskType:             r.str("taskType"),
		Tag:                  r.str("tag"),
		Search:               r.str("search"),
		HealthCodes:          c.QueryParams()["healthCode"],
		HealthSeverity:       models.Severity(r.str("healthSeverity")),
		Assignee:             r.assignee(actorOf(c).Tenant),
		IncludeTotal:         r.boolean("includeTotalCount"),
	}
	if f.Scope == "" {
		f.Scope = models.ScopeAssigned
	}
	if f.Sort == "" {
		f.Sort = models.SortCreated
	}
	switch r.enum("direction", directionNames...) {
	case "asc":
		f.Descending = false
	case "desc":
		f.Descending = true
	default:
		f.Descending = f.Sort == models.SortCreated
	}
	for _, v := range c.QueryParams()["status"] {
		for s := range strings.SplitSeq(v, ",") {
			st := models.Status(strings.TrimSpace(s))
			if !st.Valid() {
				r.fail("status", "must be statuses among Unassigned, Available, Assigned, Completing, TimingOut, Cancelling, Completed, TimedOut, Cancelled")
				break
			}
			f.Statuses = append(f.Statuses, st)
		}
	}
	return f, r.err()
}
