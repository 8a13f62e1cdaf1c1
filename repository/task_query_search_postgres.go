package repository

import (
	"encoding/json"
	"strconv"
	"strings"

	"gorm.io/gorm"
)

// searchSamplePagesPerID sizes PostgreSQL's sample read: the first searchSamplePagesPerID ×
// (SearchProbe + 1) pages of user_tasks (2,002 by default, about 30,000 tasks at the scale
// target's 15 a page). searchDenseFactor is how many times the probe's limit the planner must
// expect among the tenant's matches there before the sample is tried: a needle expected 2,002
// times is found 1,001 times before the sample ends unless the estimate is off by half.
// Measured at the scale target (docs/query-plans.md, "Search").
const (
	searchSamplePagesPerID = 2
	searchDenseFactor      = 2
)

// probeSearchPostgres finds up to limit of the tenant's task ids matching the needle: limit of
// them prove it common (probeSearch). The GIN index of pg_trgm serves any needle, but it builds
// the bitmap of every match in the table before it returns a row: 36–120 ms for "review"
// (169,000 matches) at the scale target, where a rare needle costs a few. A common needle's
// matches are found sooner by reading the table's first pages in physical order and stopping
// at limit matches. PostgreSQL's own estimate picks the path: the sample read is explained
// first (no row is read; the planner's selectivity of the LIKE comes from the column's
// statistics, the tenant's from its most common values, the pages' from the table's size),
// and when the planner expects at least searchDenseFactor × limit of the tenant's matches in
// the sample's pages the sample runs. Only limit matches found decide "common"; a sample that
// finds fewer (a wrong estimate, or a tenant whose tasks lie elsewhere in the table) is
// followed by the index probe, so an estimate costs at most the sample's bounded read and
// never changes the answer.
func (s *Store) probeSearchPostgres(tx *gorm.DB, tenant, needle string, limit int) ([]string, error) {
	pattern := "%" + escapeLike(needle, s.dialect) + "%"
	sample := searchSampleSQL(searchSamplePagesPerID * limit)
	var plan string
	if err := tx.Raw(SearchEstimatePrefix+sample, tenant, pattern, limit).Row().Scan(&plan); err != nil {
		return nil, err
	}
	if expected, ok := searchPlanMatches(plan); ok && searchDense(expected, limit) {
		var ids []string
		if err := withPlannerSettings(tx, sample, func() error {
			return tx.Raw(sample, tenant, pattern, limit).Scan(&ids).Error
		}); err != nil {
			return nil, err
		}
		if len(ids) >= limit {
			return ids, nil
		}
	}
	var ids []string
	err := withPlannerSettings(tx, searchProbeSQL, func() error {
		return tx.Raw(searchProbeSQL, pattern, tenant, limit).Scan(&ids).Error
	})
	return ids, err
}

// SearchEstimatePrefix begins the statement that asks PostgreSQL for its estimate of a needle's
// matches: an EXPLAIN of the sample read, which plans it and reads nothing. Tools that explain
// or replay recorded statements (the plan tests, the bench's raw side) recognize it by this.
const SearchEstimatePrefix = "EXPLAIN (FORMAT JSON) "

// searchDense reports whether the planner's expected matches among the sample's rows make the
// sample read worth trying for a probe of limit ids.
func searchDense(expected float64, limit int) bool {
	return expected >= float64(searchDenseFactor*limit)
}

// searchPlanMatches reads, from EXPLAIN (FORMAT JSON) of searchSampleSQL, the rows the planner
// expects from its scan of user_tasks: the tenant's matches in the sample's pages. Every scan
// path of a table carries the table's row estimate with all its conditions, so the estimate is
// the same whichever path the planner would take without the sample's settings (the EXPLAIN
// runs without them). ok is false when the plan has no such node.
func searchPlanMatches(plan string) (rows float64, ok bool) {
	type node struct {
		Relation string  `json:"Relation Name"`
		Rows     float64 `json:"Plan Rows"`
		Plans    []node  `json:"Plans"`
	}
	var out []struct {
		Plan node `json:"Plan"`
	}
	if json.Unmarshal([]byte(plan), &out) != nil || len(out) != 1 {
		return 0, false
	}
	var walk func(n node) (float64, bool)
	walk = func(n node) (float64, bool) {
		if n.Relation == "user_tasks" {
			return n.Rows, true
		}
		for _, c := range n.Plans {
			if r, ok := walk(c); ok {
				return r, true
			}
		}
		return 0, false
	}
	return walk(out[0].Plan)
}

// withPlannerSettings runs fn with the PostgreSQL planner settings stmt names (PlannerSettings)
// set for the transaction and restores their prior values after it, so the list's own
// statements plan as before.
func withPlannerSettings(tx *gorm.DB, stmt string, fn func() error) error {
	settings := PlannerSettings(stmt)
	var set, restore []string
	for _, kv := range settings {
		set = append(set, "current_setting('"+kv[0]+"')", "set_config('"+kv[0]+"', '"+kv[1]+"', true)")
	}
	prior := make([]string, 2*len(settings))
	dest := make([]any, len(prior))
	for i := range prior {
		dest[i] = &prior[i]
	}
	// A select list is evaluated left to right: each current value is read before it is set.
	if err := tx.Raw("SELECT " + strings.Join(set, ", ")).Row().Scan(dest...); err != nil {
		return err
	}
	if err := fn(); err != nil {
		return err
	}
	var args []any
	for i, kv := range settings {
		restore = append(restore, "set_config('"+kv[0]+"', ?, true)")
		args = append(args, prior[2*i])
	}
	return tx.Exec("SELECT "+strings.Join(restore, ", "), args...).Error
}

// searchProbeSQL is PostgreSQL's index probe, marked with the planner settings it runs under.
// Left to choose, PostgreSQL reads a common needle's first matches by a Seq Scan under the
// LIMIT (cheap while matches are dense, all of the table when they are not) and a rare one's
// through the tenant's B-tree entries: with sequential and plain index scans off, the bitmap
// scan of ix_tasks_search is left; testing the tenant on an expression (tenant_id concatenated
// with the empty string) keeps the tenant's B-tree out of the bitmap.
const searchProbeSQL = "/* planner: enable_seqscan=off enable_indexscan=off */ " +
	"SELECT id FROM user_tasks WHERE search_text LIKE ? ESCAPE '!' AND tenant_id || '' = ? LIMIT ?"

// searchSampleSQL is PostgreSQL's sample read: the tasks in the table's first pages (a TID
// Range Scan, PostgreSQL 14 and later, which reads those pages in physical order and no
// other), the tenant and the LIKE tested on each, until the LIMIT's matches. The page bound
// caps the read whatever the needle and whichever tenant. Sequential, index and bitmap scans
// are off, so that the planner keeps the range: a Seq Scan under the LIMIT would read past it
// when the needle is rarer than its estimate, an index the tenant's tasks out of physical
// order (one page each: 19 ms against the range's 3 ms for "review" at the scale target), a
// bitmap all the matches first.
func searchSampleSQL(pages int) string {
	return "/* planner: enable_seqscan=off enable_indexscan=off enable_bitmapscan=off */ " +
		"SELECT id FROM user_tasks WHERE ctid < '(" + strconv.Itoa(pages) + ",0)' AND tenant_id = ? AND search_text LIKE ? ESCAPE '!' LIMIT ?"
}
