package repository

import (
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// mergedWalks is one phase of statusPage on SQLite: the walks of every status as the arms of
// one compound SELECT ordered by the sort (column, then id) with the phase's LIMIT n. SQLite
// reads an ORDER BY over a UNION ALL whose arms its indexes order as a merge (`MERGE (UNION
// ALL)` in the plan): each arm is a co-routine that walks its status's range of walkIndex and
// yields the rows in order, the merge pulls from the arm holding the next row, and it stops
// after n rows. So the page reads n rows plus one per status, each fetched once for the rule
// and its columns. The other shape (each walk LIMIT n ids, their union's rows read again by
// id and sorted) read up to n per status and fetched each twice: for the short search's window
// (n = 1,001, six statuses for needs attention) 33 ms of statement at the scale target, where
// the merge takes 8 ms. The rows are the same: the first n of the union in the sort's order.
// QueryPlans/StatusPageMerges (storetest/plan_merge.go) pins the merge and that no arm is
// sorted.
func (s *Store) mergedWalks(tx *gorm.DB, q *taskQuery, now time.Time, phase []cond, n int) ([]taskRecord, error) {
	dir := q.sortDir()
	var parts []string
	var subs []any
	for _, st := range walkStatuses(q) {
		// No ORDER BY or LIMIT in the arm: the sub-select is flattened into the compound,
		// whose ORDER BY each arm then serves from its index.
		arm := s.statusWalk(tx, q, now, phase, st, q.selected())
		parts = append(parts, fmt.Sprintf("SELECT %s FROM (?) w%d", strings.Join(q.selected(), ", "), len(parts)))
		subs = append(subs, arm)
	}
	if len(parts) == 0 {
		return nil, nil
	}
	col := q.sort.Column
	sql := strings.Join(parts, " UNION ALL ") + " ORDER BY " + col + dir + ", id" + dir + " LIMIT ?"
	var recs []taskRecord
	if err := tx.Raw(sql, append(subs, n)...).Scan(&recs).Error; err != nil {
		return nil, translate(err)
	}
	return recs, nil
}
