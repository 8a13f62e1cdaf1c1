package handlers

import (
	"net/http"
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

// listTasks handles GET /api/v1/user-tasks: the page, the absent user each row the reader
// sees standing in for (onBehalfOf, only when the page has such rows), and with
// includeActivityCounts=true each task's comment and file counts, one read for the page.
func (h *taskAPI) listTasks(c echo.Context) error {
	f, err := parseListQuery(c)
	if err != nil {
		return err
	}
	r := queryReader{q: c.QueryParams()}
	withActivity := r.boolean("includeActivityCounts")
	if err := r.err(); err != nil {
		return err
	}
	ctx, a := c.Request().Context(), actorOf(c)
	page, err := h.tasks.List(ctx, a, f)
	if err != nil {
		return err
	}
	out := pageOf(page)
	if len(page.StandsInFor) > 0 {
		behalf, err := h.tasks.OnBehalfOf(ctx, a, f, page)
		if err != nil {
			return err
		}
		for i, p := range behalf {
			if p != nil && i < len(out.Items) {
				out.Items[i].OnBehalfOf = p.Wire()
			}
		}
	}
	if withActivity && len(page.Items) > 0 {
		counts, err := h.tasks.ActivityCounts(ctx, a, page.Items)
		if err != nil {
			return err
		}
		for i, v := range page.Items {
			n := counts[v.Task.ID]
			out.Items[i].Activity = &activityJSON{Comments: n.Comments, Files: n.Attachments}
		}
	}
	return c.JSON(http.StatusOK, out)
}

// activityJSON is a list item's comment and file counts (includeActivityCounts=true).
type activityJSON struct {
	Comments int `json:"comments"`
	Files    int `json:"files"`
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
