package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The inbox's state lives in its URL (SPEC 5.4: filters in the URL, back and forward work):
//
//	/inbox?tab=&q=&status=&priorityFrom=&priorityTo=&due=&workflow=&assignee=&sort=&direction=&pageSize=&cursor=&prev=
//
// Cursors only go forward, so Previous is kept as a stack: `prev` holds the cursors of the pages
// between the first and the current one, joined by dots (cursors are base64url, which has no
// dots). Next pushes the current cursor, Previous pops one; an empty stack leads back to the
// first page. Every link of the page — paging, sorting, row actions' return address — is built
// from the same state, so a shared link shows the same page; the tabs lead to the other lists
// as they open by default.

// inboxPageSizes are the offered page sizes; inboxDefaultPageSize is used without one.
var inboxPageSizes = []int{10, 25, 50, 100, 200}

const inboxDefaultPageSize = 25

// maxPrevLength bounds the cursor stack in the URL; beyond it the oldest entries are dropped
// (Previous then reaches the first page a little early).
const maxPrevLength = 6000

// inboxSearchMax bounds the search text.
const inboxSearchMax = 200

var cursorPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// inboxQuery is the state of an inbox URL.
type inboxQuery struct {
	scope   models.Scope
	filters views.InboxFilters
	cursor  string
	prev    []string
	badPrev bool
}

// readInboxQuery reads an inbox URL's query; values are kept as typed, parsing comes later.
func readInboxQuery(q url.Values) inboxQuery {
	iq := inboxQuery{
		scope: models.Scope(q.Get("tab")),
		filters: views.InboxFilters{
			Query: strings.TrimSpace(q.Get("q")), Status: orderStatuses(q["status"]),
			PriorityFrom: strings.TrimSpace(q.Get("priorityFrom")), PriorityTo: strings.TrimSpace(q.Get("priorityTo")),
			Due: q.Get("due"), Workflow: strings.TrimSpace(q.Get("workflow")), Health: readHealthFilters(q),
			Assignee: readAssigneeFilter(q),
			Sort:     q.Get("sort"), Direction: q.Get("direction"), PageSize: q.Get("pageSize"),
		},
		cursor: q.Get("cursor"),
	}
	if !iq.scope.Valid() {
		iq.scope = models.ScopeAssigned
	}
	if len(iq.filters.Query) > inboxSearchMax {
		iq.filters.Query = echoText(iq.filters.Query, inboxSearchMax)
	}
	if p := q.Get("prev"); p != "" {
		iq.prev = strings.Split(p, ".")
	}
	for _, c := range append(slices.Clone(iq.prev), iq.cursor) {
		if c != "" && !cursorPattern.MatchString(c) {
			iq.badPrev = true
		}
	}
	if len(iq.prev) > 0 && iq.cursor == "" {
		iq.badPrev = true // a stack without a current page cannot be walked back
	}
	return iq
}

// values renders the state as query parameters, leaving out empty ones.
func (q inboxQuery) values() url.Values {
	v := url.Values{}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	if q.scope != models.ScopeAssigned {
		set("tab", string(q.scope))
	}
	f := q.filters
	set("q", f.Query)
	for _, s := range f.Status {
		v.Add("status", s)
	}
	set("priorityFrom", f.PriorityFrom)
	set("priorityTo", f.PriorityTo)
	set("due", f.Due)
	set("workflow", f.Workflow)
	setHealthFilters(v, f.Health)
	setAssigneeFilter(v, f.Assignee)
	set("sort", f.Sort)
	set("direction", f.Direction)
	set("pageSize", f.PageSize)
	set("cursor", q.cursor)
	set("prev", strings.Join(q.prev, "."))
	return v
}

// href is the state's URL.
func (q inboxQuery) href() string {
	if enc := q.values().Encode(); enc != "" {
		return "/inbox?" + enc
	}
	return "/inbox"
}

// firstPage is the same list from its first page.
func (q inboxQuery) firstPage() inboxQuery {
	q.cursor, q.prev, q.badPrev = "", nil, false
	return q
}

// next is the page after this one, which starts at cursor.
func (q inboxQuery) next(cursor string) inboxQuery {
	n := q
	n.prev = slices.Clone(q.prev)
	if q.cursor != "" {
		n.prev = append(n.prev, q.cursor)
	}
	for len(strings.Join(n.prev, ".")) > maxPrevLength && len(n.prev) > 0 {
		n.prev = n.prev[1:]
	}
	n.cursor = cursor
	return n
}

// previous is the page before this one; ok is false on the first page.
func (q inboxQuery) previous() (inboxQuery, bool) {
	if q.cursor == "" {
		return q, false
	}
	if len(q.prev) == 0 {
		return q.firstPage(), true
	}
	p := q
	p.cursor = q.prev[len(q.prev)-1]
	p.prev = slices.Clone(q.prev[:len(q.prev)-1])
	return p, true
}

// tabDefault is a tab as it opens by default: no filters, its default sort and page size. Tab
// links lead there, so the filters of the page shown (the dashboard's due=overdue, say) do
// not follow into another list they were not chosen for.
func tabDefault(s models.Scope) inboxQuery { return inboxQuery{scope: s} }

// cleared is the tab without filters (sort and page size stay: they are preferences).
func (q inboxQuery) cleared() inboxQuery {
	q = q.firstPage()
	q.filters = views.InboxFilters{Sort: q.filters.Sort, Direction: q.filters.Direction, PageSize: q.filters.PageSize}
	return q
}

// filtered reports whether any filter narrows the list.
func (q inboxQuery) filtered() bool {
	f := q.filters
	return f.Query != "" || len(f.Status) > 0 || f.PriorityFrom != "" || f.PriorityTo != "" || f.Due != "" || f.Workflow != "" ||
		q.filtersHealth() || f.Assignee != (views.InboxAssignee{})
}

// taskFilter parses the state into the service's filter; problems are messages by input name.
func (q inboxQuery) taskFilter(t *i18n.Catalog) (models.TaskFilter, map[string]string) {
	errs := map[string]string{}
	f := models.TaskFilter{Scope: q.scope, Search: q.filters.Query, WorkflowDefinitionID: q.filters.Workflow, Cursor: q.cursor, Limit: inboxDefaultPageSize}
	in := q.filters
	for _, s := range in.Status {
		if st := models.Status(s); st.Valid() {
			f.Statuses = append(f.Statuses, st)
		} else {
			errs["status"] = t.InvalidChoice
		}
	}
	priority := func(name, raw string) *int {
		if raw == "" {
			return nil
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < models.MinPriority || n > models.MaxPriority {
			errs[name] = t.WholeNumber0to100
			return nil
		}
		return &n
	}
	f.PriorityFrom, f.PriorityTo = priority("priorityFrom", in.PriorityFrom), priority("priorityTo", in.PriorityTo)
	q.healthFilter(&f, errs, t)
	q.assigneeFilter(&f, errs, t)
	if f.PriorityFrom != nil && f.PriorityTo != nil && *f.PriorityFrom > *f.PriorityTo {
		errs["priorityFrom"] = t.PriorityRangeOrder
	}
	if in.Due != "" {
		switch d := models.DueFilter(in.Due); d {
		case models.DueOverdue, models.DueToday, models.DueThisWeek, models.DueNoDueDate:
			f.Due = d
		default:
			errs["due"] = t.InvalidChoice
		}
	}
	f.Sort = defaultSort(q.scope)
	if in.Sort != "" {
		if slices.Contains(models.SortKeys, models.SortKey(in.Sort)) {
			f.Sort = models.SortKey(in.Sort)
		} else {
			errs["sort"] = t.InvalidChoice
		}
	}
	switch in.Direction {
	case "":
		f.Descending = f.Sort == models.SortCreated || f.Sort == models.SortUpdated || f.Sort == models.SortCompleted || f.Sort == models.SortPriority
	case "asc":
	case "desc":
		f.Descending = true
	default:
		errs["direction"] = t.InvalidChoice
	}
	if in.PageSize != "" {
		n, err := strconv.Atoi(in.PageSize)
		if err != nil || !slices.Contains(inboxPageSizes, n) {
			errs["pageSize"] = t.InvalidChoice
		} else {
			f.Limit = n
		}
	}
	// Every tab shows its count, the whole tenant's included (a tenant-indexed COUNT: about
	// 4 ms at 10,000 tasks on SQLite).
	f.IncludeTotal = true
	return f, errs
}

// defaultSort is a tab's order without a sort in the URL: the newest first, which on History
// is the latest closed (its Closed column shows the sort), elsewhere the latest created.
func defaultSort(s models.Scope) models.SortKey {
	if s == models.ScopeHistory {
		return models.SortCompleted
	}
	return models.SortCreated
}

// inbox handles GET /inbox.
func (w *web) inbox(c echo.Context) error {
	raw := c.QueryParams()
	if id := raw.Get("view"); id != "" {
		return w.openView(c, id)
	}
	q := readInboxQuery(raw)
	// A submitted filter form sends every input, most of them empty: tidy the URL once, so
	// what the address bar shows and people share is short.
	for _, vs := range raw {
		if len(vs) == 0 || vs[0] == "" {
			return c.Redirect(http.StatusSeeOther, q.href())
		}
	}
	return w.renderInbox(c, q, "")
}

// renderInbox lists one page and renders the inbox; conflict is a row action's 409 banner.
func (w *web) renderInbox(c echo.Context, q inboxQuery, conflict string) error {
	d, _ := webSession(c)
	m := views.InboxPage{Scope: q.scope, Filters: q.filters, Filtered: q.filtered(), PageSizes: inboxPageSizes, SearchWindow: models.ShortSearchWindow,
		FiltersOpen: q.filtered() || q.filters.Sort != "" || q.filters.Direction != "" || q.filters.PageSize != "",
		ClearHref:   q.cleared().href(), RetryHref: q.href(), Conflict: conflict, ShowHealth: d.Manager}
	m.Chrome = w.chrome(c, func(t *i18n.Catalog) string { return t.Scope(q.scope) + " · " + t.InboxTitle })
	scopes := []models.Scope{models.ScopeAssigned, models.ScopeAvailable, models.ScopeHistory}
	if d.Manager {
		scopes = append(scopes, models.ScopeAll, models.ScopeNeedsAttention)
	}
	for _, s := range scopes {
		m.Tabs = append(m.Tabs, views.Tab{Key: string(s), Label: m.T.Scope(s), Href: tabDefault(s).href(), Current: s == q.scope})
	}
	m.Paging.FirstHref = q.firstPage().href()
	if m.Filters.Sort == "" {
		m.Filters.Sort = string(defaultSort(q.scope))
	}
	if m.Filters.PageSize == "" {
		m.Filters.PageSize = strconv.Itoa(inboxDefaultPageSize)
	}
	status := inboxStatus(c, conflict)

	if q.filtersHealth() && !d.Manager {
		return models.ErrForbidden // health is for managers' eyes only, as on the API
	}
	filter, problems := q.taskFilter(m.T)
	w.fillInboxLists(c, &m, q, filter, problems)
	if msg := problems["assignee"]; msg != "" {
		m.AssigneeChip = w.assigneeChip(c.Request().Context(), m.T, d.actor(), q, nil, msg)
	}
	switch {
	case len(problems) > 0:
		m.State, m.FilterErrors, m.FiltersOpen = views.ListInvalid, problems, true
		return w.render(c, http.StatusUnprocessableEntity, views.InboxView(m))
	case q.badPrev:
		m.State = views.ListBadRange
		return w.render(c, http.StatusBadRequest, views.InboxView(m))
	}
	page, err := w.tasks.List(c.Request().Context(), webActor(c), filter)
	switch code := models.ErrorCode(err); {
	case err == nil:
	case code == models.CodeForbidden || code == models.CodeUnauthenticated:
		return err // the error page: a manager list for a non-manager is 403
	case code == models.CodeMalformedRequest:
		m.State = views.ListBadRange
		return w.render(c, http.StatusBadRequest, views.InboxView(m))
	case code == models.CodeValidationFailed:
		// A filter the service refuses (a control character in the search): shown like the
		// filters this page refuses itself.
		m.State, m.FilterErrors, m.FiltersOpen = views.ListInvalid, inboxFilterErrors(err, m.T), true
		return w.render(c, http.StatusUnprocessableEntity, views.InboxView(m))
	default:
		m.State = views.ListError
		return w.render(c, w.answerError(c, err, m.T).status, views.InboxView(m))
	}

	m.Total, m.TotalCapped = page.Total, page.TotalCapped
	countTabs(&m)
	ret := q.href()
	for _, v := range page.Items {
		m.Rows = append(m.Rows, w.inboxRow(m.T, v, d.actor(), q.scope, ret))
	}
	w.nameAssignees(c, m.T, d.actor(), page.Items, m.Rows, w.onBehalf(c, filter, page))
	w.activityCounts(c, webActor(c), page.Items, m.Rows)
	m.Away = w.awayBanner(c, d.actor()) // web_absence.go
	m.AssigneeChip = w.assigneeChip(c.Request().Context(), m.T, d.actor(), q, page.Items, "")
	if len(m.Rows) == 0 {
		m.State = views.ListEmpty
	}
	m.SearchLimited = page.SearchLimited
	if page.NextCursor != "" && (len(m.Rows) > 0 || page.SearchLimited) {
		// A short search's page may be empty and still lead on (its window ended).
		m.Paging.NextHref = q.next(page.NextCursor).href()
	}
	if p, ok := q.previous(); ok {
		m.Paging.PrevHref = p.href()
	} else {
		m.Paging.FirstHref = ""
	}
	status = w.addBulkToolbar(c, &m, q, status)
	return w.render(c, status, views.InboxView(m))
}

// countTabs puts the list's total on the current tab. Only the current tab is counted: the
// list counts it anyway, while counting every other tab too cost a query each on every render
// and live refresh (at 10,000 tasks on SQLite about 85 ms a page for a person, 145 ms for a
// manager), the personal tabs being the dear ones.
func countTabs(m *views.InboxPage) {
	for i := range m.Tabs {
		if m.Tabs[i].Current {
			m.Tabs[i].Count, m.Tabs[i].CountCapped = m.Total, m.TotalCapped
		}
	}
}

// inboxFilterErrors names the service's field errors by the inbox inputs they came from.
func inboxFilterErrors(err error, t *i18n.Catalog) map[string]string {
	inputs := map[string]string{"search": "q", "workflowDefinitionId": "workflow"}
	out := map[string]string{}
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		for _, fe := range ve.Fields {
			if in, ok := inputs[fe.Field]; ok {
				out[in] = t.FieldMessage(fe.Message)
			}
		}
	}
	return out
}

// inboxRow builds one row; claim and release are offered only when allowed.
func (w *web) inboxRow(cat *i18n.Catalog, v tasks.TaskView, a models.Actor, scope models.Scope, ret string) views.InboxRow {
	t := v.Task
	r := views.InboxRow{
		ID: t.ID, Href: taskHref(t.ID), Title: t.Title, Reference: t.Reference,
		Status: t.Status, Priority: t.Priority, Due: t.DueAt, Overdue: t.OverdueAt(w.now()),
		Mine: t.IsAssignee(a.Subject), Updated: t.UpdatedAt, Closed: closing(cat, t, a), Revision: t.Revision,
	}
	if t.Assignee != nil {
		r.Assignee = firstNonEmpty(t.Assignee.DisplayName, t.Assignee.ID)
	}
	if slices.Contains(v.AllowedActions, models.ActClaim) || listedClaimable(v, a, scope) {
		r.Claim = &views.Command{Action: taskHref(t.ID) + "/claim", Revision: t.Revision, OperationID: models.NewID(), Return: ret}
	}
	if slices.Contains(v.AllowedActions, models.ActRelease) {
		r.Release = &views.Command{Action: taskHref(t.ID) + "/release", Revision: t.Revision, OperationID: models.NewID(), Return: ret}
	}
	if v.Manager && t.Health.Severity != models.SeverityNone {
		r.Health = &views.Health{Blocking: t.Health.Blocking(), Code: t.Health.Code}
	}
	r.Attention = attentionNotes(v)
	return r
}

// closing tells how a closed task ended; nil while it is open or transitional.
func closing(cat *i18n.Catalog, t models.Task, a models.Actor) *views.Closing {
	if !t.Status.IsTerminal() {
		return nil
	}
	c := &views.Closing{Status: t.Status, At: t.UpdatedAt}
	if t.CompletedAt != nil {
		c.At = *t.CompletedAt
	}
	if by := t.Outcome.CompletedBy; by != nil {
		c.By, c.ByMe = firstNonEmpty(by.DisplayName, by.ID), by.Same(a.Subject)
	}
	if t.Status == models.StatusCompleted && t.Outcome.ActionKey != "" {
		c.Action = actionLabel(cat, t, t.Outcome.ActionKey)
	}
	return c
}

// listedClaimable covers what list items cannot tell yet: the store does not load candidate rows
// for lists, so a list item's allowed actions never include claim for a candidate. The available
// scope is defined as "open, unassigned, and the caller is an eligible, non-excluded candidate"
// and is authorized in SQL, so an Available row there is claimable with the claim permission.
// (The claim itself is decided by the service as always; once list items carry the candidate
// relation this adds nothing.)
func listedClaimable(v tasks.TaskView, a models.Actor, scope models.Scope) bool {
	t := v.Task
	return scope == models.ScopeAvailable && t.Status == models.StatusAvailable && t.Assignee == nil &&
		models.ActorCan(a, models.PermClaim)
}

// taskHref is a task page's path.
func taskHref(id string) string { return "/tasks/" + url.PathEscape(id) }

// renderReturn renders the page a row action came from with a conflict banner (409): the
// inbox with its filters, or the task page.
func (w *web) renderReturn(c echo.Context, ret, taskID, conflict string) error {
	u, err := url.Parse(ret)
	if err == nil && u.Path == "/inbox" {
		return w.renderInbox(c, readInboxQuery(u.Query()), conflict)
	}
	return w.renderTask(c, taskID, taskState{status: http.StatusConflict, conflict: conflict})
}
