package repository

import (
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
)

// mergesWalks reports whether statusPage reads a phase's walks as one ordered merge
// (mergedWalks): SQLite and PostgreSQL, whose planners merge the arms of a UNION ALL that
// their indexes order. MariaDB, where the merge was not tried, keeps unitedWalks.
func (s *Store) mergesWalks() bool {
	return s.dialect == migrations.SQLite || s.dialect == migrations.Postgres
}

// mergedWalks is one phase of statusPage on SQLite and PostgreSQL: the walks of every status
// as the arms of one compound SELECT ordered by the sort (column, then id) with the phase's
// LIMIT n. Both read an ORDER BY over a UNION ALL whose arms their indexes order as a merge:
// SQLite's plan is `MERGE (UNION ALL)`, each arm a co-routine that walks its status's range of
// walkIndex; PostgreSQL's is `Limit -> Merge Append`, one `Limit -> Index Scan` of walkIndex
// per status. The merge pulls from the arm holding the next row and stops after n rows. So
// the page reads n rows plus about one per status, each fetched once for the rule and its
// columns. The other shape (unitedWalks: each walk LIMIT n ids, their union's rows read again
// by id and sorted) read up to n per status and fetched each twice: for the short search's
// window (n = 1,001, six statuses for needs attention) at the scale target 33 ms of statement
// on SQLite, where the merge takes 8, and 29–63 ms on PostgreSQL, where it takes 1–6
// (docs/query-plans.md). The rows are the same: the first n of the union in the sort's order.
// QueryPlans/<variant><sort><dir>MergesTheWalks (storetest/plan_merge.go) pins the merge and
// that the union is not sorted.
func (s *Store) mergedWalks(tx *gorm.DB, q *taskQuery, now time.Time, phase []cond, n int) ([]taskRecord, error) {
	var parts []string
	var subs []any
	for _, st := range walkStatuses(q) {
		// SQLite: no ORDER BY or LIMIT in the arm, so that the sub-select is flattened
		// into the compound, whose ORDER BY each arm then serves from its index.
		// PostgreSQL plans an arm with a WHERE clause on its own (it cannot pull it up into
		// the union's append); without an order of its own the arm's rows come unordered,
		// and the union was read whole and sorted (Append -> Sort: 85–210 ms of statement
		// at the scale target). The arm's ORDER BY gives the merge its ordered input, and
		// its LIMIT makes PostgreSQL plan the arm as a walk that stops early (an index scan
		// in the sort's order) rather than read the status's matches and sort them.
		arm := s.statusWalk(tx, q, now, phase, st, q.selected())
		if s.dialect == migrations.Postgres {
			arm = arm.Order(q.walkOrder()).Limit(n)
		}
		parts = append(parts, fmt.Sprintf("SELECT %s FROM (?) w%d", strings.Join(q.selected(), ", "), len(parts)))
		subs = append(subs, arm)
	}
	if len(parts) == 0 {
		return nil, nil
	}
	sql := strings.Join(parts, " UNION ALL ") + " ORDER BY " + q.walkOrder() + " LIMIT ?"
	var recs []taskRecord
	if err := tx.Raw(sql, append(subs, n)...).Scan(&recs).Error; err != nil {
		return nil, translate(err)
	}
	return recs, nil
}
