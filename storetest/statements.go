package storetest

import (
	"hash/fnv"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
)

// statementBudget pins how many statements (BEGIN and COMMIT not counted) the hot commands send
// per provider once a tenant and the day's rollup rows of the task's stripe exist, so the round
// trips of a command cannot creep back (issue 13). Create (8): the clock, the existence check,
// the task row, its candidate rows, the daily rollup, the event, the notifications the task
// causes (one INSERT for all its candidates, issue 28), the counter stripe. Claim (8):
// the clock, the task row locked and read, its candidates and exclusions in one read, the
// guarded UPDATE, the candidates' status copy, the daily rollup, the event, the operation.
// Complete (8): as claim without the rollup (it counts at finalization), with the outbox row. A
// first-time command does not look its operation id up (the operation's unique key refuses a
// replay the decision would accept; task_mutate.go). SQLite's IMMEDIATE transaction needs no
// lock statement; PostgreSQL and MariaDB lock and read the task in one SELECT … FOR UPDATE. A
// stripe's first count of a day adds its INSERT, as a day's first count always did. History: 11
// and 11 before issue 13 (a no-op UPDATE locked first), 10 and 10 until the candidate,
// exclusion and operation reads were folded. A claim that lost the race (stale revision, 4): the
// clock, the task locked and read, its candidates, the operation lookup, in one transaction;
// until issue 27 it ran all four again in a second transaction. The dispatcher's outbox claim
// (4, here of the two completions' rows): the clock, the due rows selected (and locked), one
// UPDATE leasing them all, the leased rows read back; until issue 27 one UPDATE per row.
var statementBudget = map[string]map[string]int{
	"SQLite":     {"create": 8, "claim": 8, "stale claim": 4, "complete": 8, "outbox claim": 4},
	"PostgreSQL": {"create": 8, "claim": 8, "stale claim": 4, "complete": 8, "outbox claim": 4},
	"MariaDB":    {"create": 8, "claim": 8, "stale claim": 4, "complete": 8, "outbox claim": 4},
}

func testStatements(t *testing.T, h Harness) {
	h.needSQL(t, "the case counts the SQL statements of a command")
	budget, ok := statementBudget[h.Name]
	if !ok {
		t.Skipf("no statement budget for %s", h.Name)
	}
	var mu sync.Mutex
	var log []string
	recording := false
	s := h.open(t, Options{OnSQL: func(sql string) {
		mu.Lock()
		defer mu.Unlock()
		if recording {
			log = append(log, sql)
		}
	}})
	measure := func(name string, on bool, fn func()) {
		t.Helper()
		mu.Lock()
		log, recording = nil, on
		mu.Unlock()
		fn()
		mu.Lock()
		got := append([]string(nil), log...)
		recording = false
		mu.Unlock()
		if on && len(got) != budget[name] {
			t.Errorf("%s sent %d statements on %s, the budget is %d:\n%s", name, len(got), h.Name, budget[name], strings.Join(got, "\n"))
		}
	}
	ann := queryActor("t1", "ann", false)
	cmd := func(opID string, cur models.Task, prior *models.Operation) models.Command {
		return models.Command{OperationID: opID, ExpectedRevision: cur.Revision, Actor: ann, Prior: prior}
	}
	// The first round makes the tenant's counter rows and the day's rollup rows; the second
	// is measured, with a task on the same rollup stripe as the first.
	first := models.NewID()
	for _, on := range []bool{false, true} {
		var task models.Task
		id := first
		if on {
			id = sameRollupStripe(first)
		}
		measure("create", on, func() { task = CreateTask(t, s, TaskOpts{ID: id, CandidateUsers: []string{"ann", "bob"}}) })
		mutate := func(name string, decide func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error)) {
			measure(name, on, func() {
				if _, err := s.Mutate(ctx(t), "t1", task.ID, "op-"+name, decide); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			})
		}
		created := task
		mutate("claim", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			return models.Claim(cur, cmd("op-claim", cur, prior), now)
		})
		// A second claimer at the revision the first one changed: refused once, not decided again.
		measure("stale claim", on, func() {
			_, err := s.Mutate(ctx(t), "t1", task.ID, "op-stale", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
				stale := models.Command{OperationID: "op-stale", ExpectedRevision: created.Revision, Actor: queryActor("t1", "bob", false), Prior: prior}
				return models.Claim(cur, stale, now)
			})
			if models.ErrorCode(err) != models.CodeRevisionConflict {
				t.Fatalf("stale claim: want a revision conflict, got %v", err)
			}
		})
		mutate("complete", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			return models.Complete(cur, cmd("op-complete", cur, prior), models.ActionComplete, nil, now)
		})
	}
	measure("outbox claim", true, func() {
		rows, err := s.ClaimResumptions(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(rows) != 2 {
			t.Fatalf("outbox claim: %d rows, %v; want both completions' rows", len(rows), err)
		}
	})
}

// sameRollupStripe returns a new task id whose daily rollup counts land on the stripe of id's
// (migration 00012: FNV-1a of the task id modulo the 16 stripes, or SQLite's one), so a command
// on it finds the day's rollup rows the other made.
func sameRollupStripe(id string) string {
	stripe := func(id string) uint32 {
		h := fnv.New32a()
		_, _ = h.Write([]byte(id))
		return h.Sum32() % 16
	}
	for {
		if other := models.NewID(); stripe(other) == stripe(id) {
			return other
		}
	}
}
