package repository

import (
	"math"
	"strings"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
)

// availableShape is how PostgreSQL reads one available list's rows (availableRead).
type availableShape int

const (
	// availableFromCandidates: the actor's candidate rows drive the read and their tasks are
	// sorted (the plain statement; PostgreSQL flattens the candidate test into a semi-join).
	availableFromCandidates availableShape = iota + 1
	// availableWalkProbing: the walk of the sort's status index, each task probed for the
	// actor's candidate row (candidateCond's probeCandidates).
	availableWalkProbing
	// availableWalkHashed: the same walk, tested against the actor's candidate task ids read
	// once into a hash (hashedCandidateCond).
	availableWalkHashed
)

// hashedWalkMinRows is the shortest read that tests the walk against the actor's candidate ids
// read once rather than probing each task: a page of 50 meets its rows within a few hundred
// Available tasks, which the probes read faster than the actor's ten thousand candidate rows
// are hashed; the short search's window of 1,000 (a common needle's first page) examines
// thousands.
const hashedWalkMinRows = 200

// availableRead chooses how PostgreSQL reads need rows of the available list (availableWalk),
// by the length of the actor's list, once per list read. The walk of the sort's index examines
// about need × A / n Available tasks for an actor who is a candidate of n of the tenant's A;
// reading the actor's n tasks from their candidate rows and sorting them costs about n. So the
// walk is right for an actor in a few large groups (a quarter of the Available tasks), and
// ruinous for an actor who is a candidate of a few: it would read every Available task of the
// tenant to fill the page. The store counts the actor's candidate rows of Available tasks up to
// the crossing point, √(need × open ÷ 2) with the tenant's open-task count for A (an upper
// bound: the factor 2 stands for the Available share and the probe's higher cost per row), from
// ix_candidates_lookup alone; the count costs at most that many index entries (7,000 at the
// scale target for a window of 1,000, about 2 ms). PostgreSQL's own estimate of n, from the
// candidates' statistics, was a third of the truth at the scale target (docs/query-plans.md).
func (s *Store) availableRead(tx *gorm.DB, q *taskQuery, need int) (availableShape, error) {
	if q.availableShape != nil && *q.availableShape != 0 {
		return *q.availableShape, nil
	}
	var open int64
	if err := tx.Raw("SELECT COALESCE(SUM(open_tasks), 0) FROM user_task_tenant_counters WHERE tenant_id = ?", q.f.Tenant).
		Row().Scan(&open); err != nil {
		return 0, translate(err)
	}
	crossing := int64(math.Ceil(math.Sqrt(float64(need) * float64(max(open, 1)) / 2)))
	sql, args := q.candidateRowsSQL(crossing)
	var n int64
	if err := tx.Raw(sql, args...).Row().Scan(&n); err != nil {
		return 0, translate(err)
	}
	shape := availableFromCandidates
	switch {
	case n >= crossing && need >= hashedWalkMinRows:
		shape = availableWalkHashed
	case n >= crossing:
		shape = availableWalkProbing
	}
	if shape == availableWalkHashed {
		if err := tx.Exec(hashedWalkMemory).Error; err != nil {
			return 0, translate(err)
		}
	}
	if q.availableShape != nil {
		*q.availableShape = shape
	}
	return shape, nil
}

// availableTotalConds are the conditions PostgreSQL counts an available list's total with
// (cappedTotal): for a list the walk reads (availableRead), the candidate test against the
// actor's candidate ids hashed once, as the hashed walk states it. Stated as the plain
// candidateCond, PostgreSQL builds the same hash from a bitmap scan of the candidate rows,
// each fetched from the heap: 17 of the capped count's 28 ms for the 13,000 candidate rows of
// the bench's user at the scale target, where ix_candidates_lookup alone takes 4 to 6
// (docs/query-plans.md). A short list keeps candidateCond, read from the candidate rows. The
// other dialects, and the lists without the walk, count with where.
func (s *Store) availableTotalConds(tx *gorm.DB, q *taskQuery, now time.Time, where []cond) ([]cond, error) {
	if _, ok := s.availableWalk(q); !ok || s.dialect != migrations.Postgres || q.readsPlain() {
		return where, nil
	}
	shape, err := s.availableRead(tx, q, q.limit+1)
	if err != nil || shape == availableFromCandidates {
		return where, err
	}
	if shape != availableWalkHashed { // availableRead raised it for the hashed walk only
		if err := tx.Exec(hashedWalkMemory).Error; err != nil {
			return nil, translate(err)
		}
	}
	c := *q
	c.hashCandidates = true
	return c.conditions(now, s.dialect), nil
}

// hashedWalkMemory lets the hashed walk's candidate ids stay hashed whatever the planner
// expects of them: PostgreSQL hashes a sub-select only when its estimated rows fit in
// work_mem × hash_mem_multiplier, and otherwise scans the whole sub-select's result for every
// task of the walk. A tenant's Available tasks are at most its open-task cap (250,000; about
// 22 MB of ids), so 16 MB (32 MB of hash memory at PostgreSQL's default multiplier) always
// fits; a larger setting of the server is kept. For the list's read transaction only.
const hashedWalkMemory = "SELECT set_config('work_mem', " +
	"(GREATEST(pg_size_bytes(current_setting('work_mem')), 16 * 1024 * 1024) / 1024)::text || 'kB', true)"

// candidateRowsSQL counts the actor's candidate rows of Available tasks, up to limit: one
// branch per candidateMatch, each an index-only range of ix_candidates_lookup (migration 00022
// added the source to it), so the count stops at the limit without reading a row. Group rows
// are counted whatever the task's membership mode: the count only sizes the list.
func (q *taskQuery) candidateRowsSQL(limit int64) (string, []any) {
	var parts []string
	var args []any
	for _, m := range q.candidateMatches() {
		parts = append(parts, "SELECT 1 FROM user_task_candidates c WHERE c.tenant_id = ? AND c.task_status = ? AND "+m.sql)
		args = append(append(args, q.f.Tenant, string(models.StatusAvailable)), m.args...)
	}
	return "SELECT count(*) FROM (" + strings.Join(parts, " UNION ALL ") + " LIMIT ?) n", append(args, limit)
}

// hashedCandidateCond is candidateCond as membership in the actor's candidate task ids: one
// sub-select per candidateMatch, uncorrelated and kept from flattening by OFFSET 0, so that
// PostgreSQL reads each once from ix_candidates_lookup (index only) into a hash ("hashed
// SubPlan") and tests every task of the walk against it. Probing each task instead reads its
// candidate rows (about four, with their heap pages for the status copy): 13,000 probes took
// 110 ms of a common needle's first page at the scale target, the hashes 3 ms.
func (q *taskQuery) hashedCandidateCond() cond {
	var parts []string
	var args []any
	for _, m := range q.candidateMatches() {
		in := "user_tasks.id IN (SELECT c.task_id FROM user_task_candidates c WHERE c.tenant_id = ? AND c.task_status = ? AND " + m.sql + " OFFSET 0)"
		a := append([]any{q.f.Tenant, string(models.StatusAvailable)}, m.args...)
		if m.live {
			in = "(user_tasks.membership_mode = ? AND " + in + ")"
			a = append([]any{string(models.MembershipLive)}, a...)
		}
		parts = append(parts, in)
		args = append(args, a...)
	}
	return cond{"(" + strings.Join(parts, " OR ") + ")", args}
}
