package repository

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// DefaultSearchProbe is Config.SearchProbe's default: the most matches of a search that the
// list reads through the substring index and sorts (docs/query-plans.md, "Search", measured at
// a tenth of the scale target).
const DefaultSearchProbe = 1000

// searchIndexMinRunes is the shortest needle a trigram index can find: shorter needles keep the
// LIKE walk.
const searchIndexMinRunes = 3

// searchIndexed reports whether the list's search can be served by the substring index of
// migration 00013: SQLite's FTS5 trigram table and PostgreSQL's pg_trgm GIN index, for needles
// of at least three characters. MariaDB, SQL Server and Oracle keep the LIKE walk.
func (s *Store) searchIndexed(needle string) bool {
	return (s.dialect == migrations.SQLite || s.dialect == migrations.Postgres) &&
		utf8.RuneCountInString(needle) >= searchIndexMinRunes
}

// probeSearch decides how a searched list is read. The index finds a rare needle's rows at
// once, where the sort index's walk with the LIKE filter would read the whole tenant to fill a
// page; but a common needle matches tens of thousands of rows, which driving from the index
// would all sort. So the index is asked for at most Config.SearchProbe+1 of the tenant's
// matching task ids: when it has no more than SearchProbe, the list is narrowed to those ids
// (q.searchIDs: primary-key lookups, at most SearchProbe rows sorted) and read in the plain
// shape; otherwise the needle is common (q.searchCommon) and its page is the short search's
// bounded window of the list (Query), since a walk with the filter that stops after the page
// reads every row before the first matches, which for a needle clustered in the list's order
// is most of the tenant. The LIKE, or the same test in Go, stays the exact test (the index only
// narrows). It runs in the list's read transaction. On PostgreSQL a needle the planner expects
// to be dense is first looked for in a bounded sample of the table (probeSearchPostgres).
func (s *Store) probeSearch(tx *gorm.DB, q *taskQuery) error {
	needle := storekit.SearchNeedle(q.f.Search)
	if needle == "" || !s.searchIndexed(needle) || personalScope(q.f.Scope) {
		return nil
	}
	limit := s.cfg.SearchProbe
	var ids []string
	var err error
	switch s.dialect {
	case migrations.SQLite:
		// A phrase of the trigram tokenizer matches the needle as a substring, case folded by
		// Unicode rules, which may fold more than Go's lower-casing did (σ and ς): the LIKE on
		// the task keeps the probe's ids and count the list's own. A double quote inside a
		// phrase is doubled.
		err = tx.Raw("SELECT r.task_id FROM "+migrations.SQLiteSearchTable+
			" JOIN "+migrations.SQLiteSearchRows+" r ON r.id = "+migrations.SQLiteSearchTable+".rowid"+
			" JOIN user_tasks t ON t.id = r.task_id"+
			" WHERE "+migrations.SQLiteSearchTable+" MATCH ? AND r.tenant_id = ? AND t.search_text LIKE ? ESCAPE '!' LIMIT ?",
			`"`+strings.ReplaceAll(needle, `"`, `""`)+`"`, q.f.Tenant, "%"+escapeLike(needle, s.dialect)+"%", limit+1).Scan(&ids).Error
	case migrations.Postgres:
		ids, err = s.probeSearchPostgres(tx, q.f.Tenant, needle, limit+1)
	}
	if err != nil {
		return translate(err)
	}
	if len(ids) <= limit {
		q.searchIDs, q.searchNarrowed = ids, true
	} else {
		q.searchCommon = true
	}
	return nil
}

// personalScope reports whether a scope lists one person's own tasks, which its index reads
// without the search: the assigned scope (the actor's open tasks, ix_tasks_workload) and
// history (the tasks the actor completed or acted in). The walk with the LIKE filter reads
// those few thousand rows at most, where the probe of a common needle costs more than the
// whole page: PostgreSQL's GIN index builds the bitmap of every match in the tenant first
// (about 100 ms for a needle in 170,000 tasks at the scale target, on a loaded machine). Such
// a list is searched exactly, never windowed.
func personalScope(scope models.Scope) bool {
	return scope == models.ScopeAssigned || scope == models.ScopeHistory
}

// searchCond narrows the list to the ids the probe found (rare needles), or nothing when it
// found none.
func (q *taskQuery) searchCond() (cond, bool) {
	if !q.searchNarrowed {
		return cond{}, false
	}
	if len(q.searchIDs) == 0 {
		return nothing, true
	}
	return cond{"id IN ?", []any{q.searchIDs}}, true
}

// readsPlain reports whether the page is read in the plain shape (one statement, ORDER BY and
// LIMIT) rather than one of the index walks: a list narrowed to a rare needle's ids, whose few
// rows are found by primary key and sorted.
func (q *taskQuery) readsPlain() bool { return q.searchNarrowed }

// plannerMark is how a statement names the PostgreSQL planner settings it runs under.
var plannerMark = regexp.MustCompile(`^/\* planner: ([^*]*) \*/ `)

// PlannerSettings returns the PostgreSQL planner settings (name, value) a statement of the
// store runs under, as its leading "/* planner: name=value … */" comment names them, so that a
// tool explaining a recorded statement (the plan tests, the scale test) can set them too.
func PlannerSettings(stmt string) [][2]string {
	m := plannerMark.FindStringSubmatch(stmt)
	if m == nil {
		return nil
	}
	var out [][2]string
	for _, kv := range strings.Fields(m[1]) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}
