package repository

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// summaryColumns are the columns of a list item: the safe ones (storekit.SafeTaskColumns), so
// that no protected (_enc) column is ever read by a list query.
var summaryColumns = storekit.SafeTaskColumns

// maxInList is the longest IN list a query binds; longer lists are split.
const maxInList = 500

// cond is one conjunct of a list query's WHERE clause, with `?` binds.
type cond struct {
	sql  string
	args []any
}

// taskQuery is a validated list filter.
type taskQuery struct {
	f       models.TaskFilter
	sort    storekit.Sort // by its column, then id, in the same direction; NULLs last
	limit   int
	after   *storekit.SortValue // the cursor position, nil on the first page
	afterID string
	// rowCursor states the cursor among the rows with a sort value as one row comparison
	// (valueCursorCond): PostgreSQL's.
	rowCursor bool
	// probeCandidates keeps the candidate test a sub-select run per task (availableWalk on
	// PostgreSQL) rather than a join the planner may drive the list from.
	probeCandidates bool
	// hashCandidates states the candidate test as the actor's candidate task ids, read once
	// (hashedCandidateCond; PostgreSQL's walk of a long read, availableRead).
	hashCandidates bool
	// availableShape is availableRead's choice, made once per list read and shared by the
	// copies of q that read the short search's window in chunks.
	availableShape *availableShape
	// walkCandidates states the candidate test of availableWalk on SQLite without the status
	// copy (candidateCond).
	walkCandidates bool
	// candidateIndexOnly states candidateCond without the task's membership mode, so that it
	// reads ux_candidates_identity alone: a test every candidate passes and more (a group
	// candidate of a snapshot task), which candidateFirstWalk runs before fetching the row.
	candidateIndexOnly bool
	// columns, when set, are the columns read instead of a list item's (the short search
	// reads id, sort value and search text).
	columns []string
	// searchIDs are a rare needle's matching task ids in the tenant, found through the substring
	// index (probeSearch), when searchNarrowed; the list is then read among them only.
	searchIDs      []string
	searchNarrowed bool
	// searchCommon: the probe found more than SearchProbe matches in the tenant.
	searchCommon bool
	// walkStatus, set on one walk of statusPage, narrows the needs-attention rule to the part
	// that applies to this one status (attentionCond).
	walkStatus string
}

// selected are the columns q reads.
func (q *taskQuery) selected() []string {
	if q.columns != nil {
		return q.columns
	}
	return summaryColumns
}

// Query returns one page of task summaries that f.Actor may see in f.Scope, in f.Tenant.
// Authorization is part of the SQL: rows and totals only ever count authorized tasks.
// Items carry safe columns only (no protected content, no candidates). Pages are keyset
// paginated on (sort value, id), so following NextCursor yields exactly the order of one big
// page, and rows inserted meanwhile only appear after the cursor, where the order puts them.
//
// A total counts at most Config.TotalCap+1 rows: past the cap it is the cap with TotalCapped
// set. The needs-attention list, and the all list with a workflow filter, walk each status in
// the sort's order (statusPage) instead of sorting every match.
//
// Needs-attention is models.AttentionRule with f.StaleAfter and f.UnassignedAfter. HealthCodes
// and HealthSeverity narrow to tasks with such a finding; only managers may use them.
//
// Filters combine with AND. Due "overdue" is an open task flagged overdue or past its due
// time; "today" and "thisWeek" are the UTC day and ISO week (Monday to Sunday) of the database
// clock; DueFrom and DueTo are inclusive bounds. Search is a case-insensitive literal
// substring of the safe search text; Tag matches one normalized tag exactly.
//
// Errors: a manager-only scope or a health filter for anyone but a manager is
// models.ErrForbidden; an unknown health code or severity is a validation error; an unknown
// scope, sort, status or due filter is a validation error; an unreadable cursor, or one made
// for another sort, direction or filter (filterDigest), is models.CodeMalformedRequest.
func (s *Store) Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error) {
	q, err := newTaskQuery(f)
	if err != nil {
		return models.TaskPage{}, err
	}
	q.rowCursor = s.dialect == migrations.Postgres
	var page models.TaskPage
	err = s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		page.Now = now
		if err := s.listCustomPlans(tx); err != nil { // postgres_list_plans.go
			return err
		}
		if storekit.ShortNeedle(storekit.SearchNeedle(q.f.Search)) {
			return s.shortSearch(tx, q, now, &page) // task_query_short.go
		}
		if err := s.probeSearch(tx, q); err != nil { // task_query_search.go
			return err
		}
		if q.searchCommon {
			// A needle in more tasks than the probe reads: no index reads its matches in the
			// list's order, and the walk with the filter reads every row before them, the
			// whole tenant when they sit in one block of the order (a word of two workflows'
			// titles, sorted by title: 2.5 s at the scale target). Its page is the short
			// search's window, as a 1–2 character needle's.
			return s.shortSearch(tx, q, now, &page)
		}
		where := q.conditions(now, s.dialect)
		tasks := s.listTasks(tx, q)
		var recs []taskRecord
		var err error
		switch {
		case s.readsHistoryAtOnce(q): // task_query_history_page.go
			recs, err = s.historyFirstPage(tx, q, where, &page)
		case q.f.IncludeTotal:
			count := tasks
			if s.walksStatus(q) && !q.readsPlain() {
				// Counting stops at the cap: walking each status in creation order meets the
				// rule's matches evenly, where ix_tasks_status_due would first pass the
				// status's undated tasks (SQLite orders NULLs first), which rarely match. A
				// workflow filter counts its definition's tasks (ix_tasks_workflow_created).
				ix := "ix_tasks_status_created"
				if q.f.WorkflowDefinitionID != "" {
					ix = workflowIndex[models.SortCreated]
				}
				count = func() *gorm.DB { return s.tasksIndexedBy(tx, ix) }
			}
			counted, terr := s.availableTotalConds(tx, q, now, where) // task_query_available_postgres.go
			if terr != nil {
				return terr
			}
			total, capped, terr := s.cappedTotal(tx, count, counted, s.cfg.TotalCap)
			if terr != nil {
				return terr
			}
			page.Total, page.TotalCapped = &total, capped
			fallthrough
		default:
			recs, err = s.listRows(tx, q, now, where, tasks)
		}
		if err != nil {
			return err
		}
		if len(recs) > q.limit {
			recs = recs[:q.limit]
			last := &recs[len(recs)-1]
			if page.NextCursor, err = storekit.EncodeCursor(q.f.Sort, q.f.Descending, storekit.FilterDigest(q.f), q.sort.Value(&last.TaskRow), last.ID); err != nil {
				return err
			}
		}
		page.Items, err = s.safeTasks(recs)
		return err
	})
	if err != nil {
		return models.TaskPage{}, err
	}
	return page, nil
}

// listTasks is where the list's rows are read from: the tasks, through ix_tasks_health when
// the list filters by health.
func (s *Store) listTasks(tx *gorm.DB, q *taskQuery) func() *gorm.DB {
	if q.f.FiltersHealth() && !q.readsPlain() {
		return func() *gorm.DB { return s.tasksIndexedBy(tx, "ix_tasks_health") }
	}
	return func() *gorm.DB { return tx.Model(&taskRecord{}) }
}

// listRows reads the limit+1 rows of q after its cursor in its order, q's columns only
// (q.selected), where being q's conditions without the cursor.
func (s *Store) listRows(tx *gorm.DB, q *taskQuery, now time.Time, where []cond, tasks func() *gorm.DB) ([]taskRecord, error) {
	if ix, ok := s.availableWalk(q); ok && !q.readsPlain() {
		plain := tasks
		tasks = func() *gorm.DB { return s.tasksIndexedBy(tx, ix) }
		switch s.dialect {
		case migrations.Postgres:
			shape, err := s.availableRead(tx, q, q.limit+1) // task_query_available_postgres.go
			if err != nil {
				return nil, err
			}
			switch shape {
			case availableFromCandidates:
				tasks = plain
			case availableWalkProbing:
				q.probeCandidates = true
			case availableWalkHashed:
				q.hashCandidates = true
			}
			where = q.conditions(now, s.dialect)
		case migrations.SQLite:
			q.walkCandidates = true
			return s.candidateFirstWalk(tx, q, ix, q.conditions(now, s.dialect)) // task_query_available_sqlite.go
		}
	}
	uncursored := slices.Clip(where)
	if c, ok := q.cursorCond(); ok {
		where = append(where, c)
	}
	if s.walksStatus(q) && !q.readsPlain() {
		return s.statusPage(tx, q, now)
	}
	if s.walksNullsLast(q) && !q.readsPlain() {
		return s.nullsLastPage(tx, tasks, q, uncursored)
	}
	var recs []taskRecord
	if err := applyConds(tasks().Select(q.selected()), where).Order(q.orderBy()).Limit(q.limit + 1).Find(&recs).Error; err != nil {
		return nil, translate(err)
	}
	return recs, nil
}

func applyConds(db *gorm.DB, conds []cond) *gorm.DB {
	for _, c := range conds {
		db = db.Where(c.sql, c.args...)
	}
	return db
}

// newTaskQuery checks f as every store does (storekit.NewListQuery).
func newTaskQuery(f models.TaskFilter) (*taskQuery, error) {
	lq, err := storekit.NewListQuery(f)
	if err != nil {
		return nil, err
	}
	return &taskQuery{f: lq.Filter, sort: lq.Sort, limit: lq.Limit, after: lq.After, afterID: lq.AfterID,
		availableShape: new(availableShape)}, nil
}

var (
	openStatuses             = storekit.StatusStrings(models.OpenStatuses)
	openTransitionalStatuses = storekit.StatusStrings(append(append([]models.Status{}, models.OpenStatuses...), models.TransitionalStatuses...))
	transitionalStatuses     = storekit.StatusStrings(models.TransitionalStatuses)
	terminalStatuses         = storekit.StatusStrings(models.TerminalStatuses)
	allStatuses              = append(slices.Clone(openTransitionalStatuses), terminalStatuses...)
)

// healthSeverities are the severities of a health finding (no finding is NULL).
var healthSeverities = []string{string(models.SeverityAdvisory), string(models.SeverityBlocking)}

// notBlocking hides tasks with blocking health; only the manager scopes list them.
var notBlocking = cond{"(health_severity IS NULL OR health_severity <> ?)", []any{string(models.SeverityBlocking)}}

// nothing matches no row: a personal scope for an actor without a usable subject.
var nothing = cond{"1 = 0", nil}

// conditions is the authorized WHERE clause of the query, without the cursor.
func (q *taskQuery) conditions(now time.Time, dialect migrations.Dialect) []cond {
	f := q.f
	where := []cond{{"tenant_id = ?", []any{f.Tenant}}}
	where = append(where, q.scopeConds(now, dialect)...)

	if len(f.Statuses) > 0 {
		where = append(where, cond{"status IN ?", []any{storekit.StatusStrings(f.Statuses)}})
	}
	if len(f.HealthCodes) > 0 {
		codes := slices.Clone(f.HealthCodes)
		slices.Sort(codes)
		where = append(where, cond{"health_code IN ?", []any{slices.Compact(codes)}})
	}
	switch {
	case f.HealthSeverity != models.SeverityNone:
		where = append(where, cond{"health_severity = ?", []any{string(f.HealthSeverity)}})
	case len(f.HealthCodes) > 0:
		// A finding always has a severity: naming both lets ix_tasks_health (tenant,
		// severity, code) seek the codes instead of reading the tenant's every entry.
		where = append(where, cond{"health_severity IN ?", []any{healthSeverities}})
	}
	if c, ok := assigneeCond(f.Assignee); ok {
		where = append(where, c)
	}
	if f.PriorityFrom != nil {
		where = append(where, cond{"priority >= ?", []any{*f.PriorityFrom}})
	}
	if f.PriorityTo != nil {
		where = append(where, cond{"priority <= ?", []any{*f.PriorityTo}})
	}
	switch f.Due {
	case models.DueOverdue:
		where = append(where, cond{"(status IN ? AND (is_overdue = ? OR due_at < ?))", []any{openStatuses, true, now}})
	case models.DueToday, models.DueThisWeek:
		from, to := storekit.DueWindow(f.Due, now)
		where = append(where, cond{"(due_at >= ? AND due_at < ?)", []any{from, to}})
	case models.DueNoDueDate:
		where = append(where, cond{"due_at IS NULL", nil})
	}
	if f.DueFrom != nil {
		where = append(where, cond{"due_at >= ?", []any{sqlCodec.Time(*f.DueFrom)}})
	}
	if f.DueTo != nil {
		where = append(where, cond{"due_at <= ?", []any{sqlCodec.Time(*f.DueTo)}})
	}
	if f.WorkflowDefinitionID != "" {
		where = append(where, cond{"workflow_definition_id = ?", []any{f.WorkflowDefinitionID}})
	}
	if f.WorkflowInstanceID != "" {
		where = append(where, cond{"workflow_instance_id = ?", []any{f.WorkflowInstanceID}})
	}
	if f.Reference != "" {
		where = append(where, cond{"reference = ?", []any{f.Reference}})
	}
	if f.TaskType != "" {
		where = append(where, cond{"task_type = ?", []any{f.TaskType}})
	}
	if tag := models.NormalizeTag(f.Tag); tag != "" {
		where = append(where, cond{"EXISTS (SELECT 1 FROM user_task_tags tg WHERE tg.tenant_id = ? AND tg.tag = ? AND tg.task_id = user_tasks.id)",
			[]any{f.Tenant, tag}})
	}
	if needle := storekit.SearchNeedle(f.Search); needle != "" {
		where = append(where, cond{"search_text LIKE ? ESCAPE '!'", []any{"%" + escapeLike(needle, dialect) + "%"}})
	}
	if c, ok := q.searchCond(); ok {
		where = append(where, c)
	}
	return where
}

// scopeConds is the authorization of the scope: who may see which rows.
func (q *taskQuery) scopeConds(now time.Time, dialect migrations.Dialect) []cond {
	f := q.f
	me := f.Actor.Subject
	if storekit.ScopeEmpty(f) {
		return []cond{nothing}
	}
	switch f.Scope {
	case models.ScopeAssigned:
		return []cond{
			{"assignee_provider = ? AND assignee_type = ? AND assignee_id = ?", []any{me.Provider, string(me.Type), me.ID}},
			{"status IN ?", []any{openTransitionalStatuses}},
			notBlocking,
		}
	case models.ScopeAvailable:
		return []cond{
			{"status = ?", []any{string(models.StatusAvailable)}},
			{"assignee_id IS NULL", nil},
			notBlocking,
			q.candidateCond(),
			{"NOT EXISTS (SELECT 1 FROM user_task_exclusions x WHERE x.tenant_id = ? AND x.task_id = user_tasks.id" +
				" AND x.provider = ? AND x.participant_type = ? AND x.participant_id = ?)",
				[]any{f.Tenant, me.Provider, string(me.Type), me.ID}},
		}
	case models.ScopeHistory:
		return []cond{
			{"status IN ?", []any{terminalStatuses}},
			notBlocking,
			q.historyCond(me, dialect),
		}
	case models.ScopeNeedsAttention:
		if q.walkStatus != "" {
			return []cond{q.attentionCond(q.walkStatus, now)}
		}
		// models.AttentionRule in SQL: never a terminal task; any health finding, open and
		// overdue, open and unassigned since before the threshold, or transitional too long.
		return []cond{
			{"status IN ?", []any{openTransitionalStatuses}},
			{"(health_severity IN ?" +
				" OR (status IN ? AND (is_overdue = ? OR due_at < ? OR (assignee_id IS NULL AND created_at < ?)))" +
				" OR (status IN ? AND transitioned_at < ?))",
				[]any{healthSeverities, openStatuses, true, now, now.Add(-f.UnassignedAfter),
					transitionalStatuses, now.Add(-f.StaleAfter)}},
		}
	}
	return nil // ScopeAll: the whole tenant
}

// attentionCond is models.AttentionRule for the tasks of one open or transitional status: the
// walk of that status (statusPage) states only the part that can match it. Stated whole, with
// the other statuses' parts and a status IN list beside "status = ?", the rule made PostgreSQL
// estimate a few hundred matches among the 8,000 Unassigned tasks at the scale target, where
// nearly all match, and read them all through ix_tasks_transition and sort them instead of
// walking the sort's index (docs/query-plans.md).
func (q *taskQuery) attentionCond(status string, now time.Time) cond {
	if slices.Contains(transitionalStatuses, status) {
		return cond{"(health_severity IN ? OR transitioned_at < ?)", []any{healthSeverities, now.Add(-q.f.StaleAfter)}}
	}
	return cond{"(health_severity IN ? OR is_overdue = ? OR due_at < ? OR (assignee_id IS NULL AND created_at < ?))",
		[]any{healthSeverities, true, now, now.Add(-q.f.UnassignedAfter)}}
}

// candidateCond matches a candidate row of the task, in the task's tenant, that makes the
// actor eligible: a direct-user or snapshot-member row naming the subject, or, in live
// membership mode only, a direct-group row naming one of the actor's current groups. The
// status copy on the candidate row lets the lookup index narrow to Available rows.
//
// The walk of the Available tasks (availableWalk) on SQLite tests it per task without the
// status copy (walkCandidates): the task is Available there already, the copy always equals the
// task's status (a differing copy is corruption, models.CorruptError), and without it the probe
// reads ux_candidates_identity (tenant_id, task_id, provider, participant_type, participant_id,
// source, …) alone instead of each candidate row too (docs/query-plans.md, "The available
// walk's candidate test").
func (q *taskQuery) candidateCond() cond {
	if q.hashCandidates {
		return q.hashedCandidateCond() // task_query_available_postgres.go
	}
	f := q.f
	sql := "EXISTS (SELECT 1 FROM user_task_candidates c WHERE c.tenant_id = ? AND c.task_id = user_tasks.id"
	args := []any{f.Tenant}
	if !q.walkCandidates {
		sql += " AND c.task_status = ?"
		args = append(args, string(models.StatusAvailable))
	}
	var parts []string
	for _, m := range q.candidateMatches() {
		switch {
		case m.live && !q.candidateIndexOnly:
			parts = append(parts, "(user_tasks.membership_mode = ? AND "+m.sql+")")
			args = append(args, string(models.MembershipLive))
		case m.live: // candidateFirstWalk's index-only pre-test: without the task's membership mode
			parts = append(parts, "("+m.sql+")")
		default:
			parts = append(parts, m.sql)
		}
		args = append(args, m.args...)
	}
	sql += " AND (" + strings.Join(parts, " OR ")
	if q.probeCandidates {
		// A sub-select with an OFFSET is not flattened into a semi-join: PostgreSQL runs it
		// per row of the walk and, estimating half the rows to pass, walks the sort's index.
		return cond{sql + ") OFFSET 0)", args}
	}
	return cond{sql + "))", args}
}

// candidateMatch is one way a candidate row c makes the actor eligible, over
// user_task_candidates c: live marks the group rows, which count only on a task in live
// membership mode.
type candidateMatch struct {
	sql  string
	args []any
	live bool
}

// candidateMatches are the actor's ways to be a candidate (candidateCond): a direct-user or
// snapshot-member row naming the subject; in live membership mode, a direct-group row naming
// one of the actor's current groups; a substitute's stand-in rows (standInMatch).
func (q *taskQuery) candidateMatches() []candidateMatch {
	f, me := q.f, q.f.Actor.Subject
	out := []candidateMatch{{sql: "(c.source IN ? AND c.provider = ? AND c.participant_type = ? AND c.participant_id = ?)",
		args: []any{[]string{string(models.SourceDirectUser), string(models.SourceSnapshotMember)}, me.Provider, string(me.Type), me.ID}}}
	if byProvider := storekit.ActorGroups(f); len(byProvider) > 0 {
		providers := make([]string, 0, len(byProvider))
		for p := range byProvider {
			providers = append(providers, p)
		}
		sort.Strings(providers)
		var groups []string
		args := []any{string(models.SourceDirectGroup), string(models.GroupParticipant)}
		for _, p := range providers {
			ids := byProvider[p]
			sort.Strings(ids)
			var in []string
			args = append(args, p)
			for len(ids) > 0 { // Oracle takes at most 1,000 expressions in one IN list
				n := min(len(ids), maxInList)
				in = append(in, "c.participant_id IN ?")
				args = append(args, ids[:n])
				ids = ids[n:]
			}
			match := in[0]
			if len(in) > 1 {
				match = "(" + strings.Join(in, " OR ") + ")"
			}
			groups = append(groups, "(c.provider = ? AND "+match+")")
		}
		out = append(out, candidateMatch{sql: "c.source = ? AND c.participant_type = ? AND (" + strings.Join(groups, " OR ") + ")",
			args: args, live: true})
	}
	if standIn, standArgs, ok := standInMatch(f); ok { // task_query_substitute.go
		out = append(out, candidateMatch{sql: standIn, args: standArgs})
	}
	return out
}

// cursorCond restricts the rows to those after the cursor in the query's order.
func (q *taskQuery) cursorCond() (cond, bool) {
	if q.after == nil {
		return cond{}, false
	}
	col, op := q.sort.Column, ">"
	if q.f.Descending {
		op = "<"
	}
	if q.after.Null {
		// Nulls come last: after a NULL row only NULL rows further along the id order.
		return cond{"(" + col + " IS NULL AND id " + op + " ?)", []any{q.afterID}}, true
	}
	c := q.valueCursorCond()
	if q.sort.Nullable {
		return cond{"(" + col + " IS NULL OR " + c.sql + ")", c.args}, true
	}
	return c, true
}

// valueCursorCond is the half of cursorCond among the rows with a sort value, for a cursor on
// such a row: the column bounds an index range, and the id breaks ties within its value.
//
// PostgreSQL takes the row comparison (column, id) > (value, id) as the bound of the sort
// index's range (tenant_id, status, column, id) itself, where of the two conditions it bounds
// the range by the column only and filters the id: a deep page of a sort with few values
// (priority) first read every row of the cursor's value before it, 15,000 rows and 30 ms at
// the scale target, where the row bound starts at the cursor (docs/query-plans.md). The
// order is the same (the column, then the id, in one direction), and the other dialects keep
// the two conditions, which their planners bound alike.
func (q *taskQuery) valueCursorCond() cond {
	col, op := q.sort.Column, ">"
	if q.f.Descending {
		op = "<"
	}
	v := q.afterValue()
	if q.rowCursor {
		return cond{"(" + col + ", id) " + op + " (?, ?)", []any{v, q.afterID}}
	}
	return cond{"(" + col + " " + op + "= ? AND (" + col + " " + op + " ? OR id " + op + " ?))", []any{v, v, q.afterID}}
}

// afterValue is the cursor's sort value as bound in SQL.
func (q *taskQuery) afterValue() any {
	switch q.sort.Kind {
	case storekit.KindTime:
		return q.after.Time
	case storekit.KindInt:
		return q.after.Int
	}
	return q.after.Text
}

// orderBy is the query's order: nulls last (nullable columns), the column, then id, both in
// the requested direction.
func (q *taskQuery) orderBy() string {
	dir := " ASC"
	if q.f.Descending {
		dir = " DESC"
	}
	col := q.sort.Column
	order := col + dir + ", id" + dir
	if q.sort.Nullable {
		order = "CASE WHEN " + col + " IS NULL THEN 1 ELSE 0 END ASC, " + order
	}
	return order
}

// escapeLike makes needle a literal LIKE pattern with '!' as the escape character (portable:
// MySQL treats a backslash specially inside string literals). '[' is a wildcard on SQL Server
// and is escaped there and wherever an escaped '[' is accepted; Oracle refuses an escape
// character before anything but '%', '_' or itself (ORA-01424), and '[' is literal there.
func escapeLike(needle string, dialect migrations.Dialect) string {
	var b strings.Builder
	for _, r := range needle {
		switch {
		case r == '!' || r == '%' || r == '_':
			b.WriteByte('!')
		case r == '[' && dialect != migrations.Oracle:
			b.WriteByte('!')
		}
		b.WriteRune(r)
	}
	return b.String()
}
