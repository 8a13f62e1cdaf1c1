package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// providers are the stores the cross-provider tests run on; PostgreSQL and MariaDB are skipped
// without USERTASKS_TEST_POSTGRES_URL and USERTASKS_TEST_MYSQL_URL (and required under CI=true).
var providers = []struct {
	name  string
	start func(*testing.T, *handlerstest.Options) *handlerstest.Env
}{
	{"SQLite", handlerstest.SQLite},
	{"PostgreSQL", handlerstest.Postgres},
	{"MariaDB", handlerstest.MySQL},
}

// raceRounds is how often each two-party race runs per provider.
const raceRounds = 20

// TestRaces drives concurrent commands over real HTTP and checks that the first committed
// transition wins and every loser gets a 409, never a 500 or a silent no-op.
func TestRaces(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			env := p.start(t, nil)
			t.Run("ClaimOneTask", func(t *testing.T) { testClaimRace(t, env) })
			t.Run("CompleteVersusCancel", func(t *testing.T) { testCompleteCancelRace(t, env) })
			t.Run("CompleteReplayedConcurrently", func(t *testing.T) { testCompleteReplay(t, env) })
		})
	}
}

// together runs every call at once (as near as goroutines allow) and returns their answers.
func together(t *testing.T, calls ...func() handlerstest.Response) []handlerstest.Response {
	t.Helper()
	out := make([]handlerstest.Response, len(calls))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Go(func() {
			<-start
			out[i] = call()
		})
	}
	close(start)
	wg.Wait()
	return out
}

// outcome names an answer: its status and, for problems, its code.
func outcome(t *testing.T, r handlerstest.Response) string {
	if r.Status < 400 {
		return fmt.Sprint(r.Status)
	}
	return fmt.Sprintf("%d %s", r.Status, r.Problem(t).Code)
}

func tally(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// testClaimRace: two candidates claim one Available task at the same revision: exactly one
// 200 and one 409 revision-conflict, and the task names the winner.
func testClaimRace(t *testing.T, env *handlerstest.Env) {
	ann, bob := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob")
	seen, wins := map[string]int{}, map[string]int{}
	began := time.Now()
	for round := range raceRounds {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann", "bob"}})
		claim := func(u handlerstest.User) func() handlerstest.Response {
			token := env.Token(t, u)
			return func() handlerstest.Response {
				return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "claim"), Token: token,
					Body: map[string]any{"expectedRevision": 1}})
			}
		}
		answers := together(t, claim(ann), claim(bob))
		got := []string{outcome(t, answers[0]), outcome(t, answers[1])}
		sort.Strings(got)
		if want := []string{"200", "409 revision-conflict"}; got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("round %d: answers = %v, want %v\n%s", round, got, want, internalErrors(env))
		}
		winner := "ann"
		if answers[1].Status == http.StatusOK {
			winner = "bob"
		}
		stored := env.Get(t, task)
		if stored.Assignee == nil || stored.Assignee.ID != winner || stored.Revision != 2 || stored.LastEventSeq != 2 {
			t.Fatalf("round %d: stored assignee %v, revision %d, events %d; want %s, 2, 2", round, stored.Assignee, stored.Revision, stored.LastEventSeq, winner)
		}
		for _, a := range got {
			seen[a]++
		}
		wins[winner]++
	}
	t.Logf("%s claim race: %d rounds of 2 concurrent claims in %s → %s; winners: %s",
		env.Name, raceRounds, time.Since(began).Round(time.Millisecond), tally(seen), tally(wins))
}

// testCompleteCancelRace: the assignee completes while a manager cancels, both at revision 1:
// one 202, one 409, and exactly one outbox row, for the winner's operation.
func testCompleteCancelRace(t *testing.T, env *handlerstest.Env) {
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")
	annToken, maxToken := env.Token(t, ann), env.Token(t, max)
	seen, wins := map[string]int{}, map[string]int{}
	began := time.Now()
	for round := range raceRounds {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", CancellationEnabled: true})
		answers := together(t,
			func() handlerstest.Response {
				return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "complete"), Token: annToken,
					Body: map[string]any{"expectedRevision": 1, "operationId": "complete-op", "actionKey": "Complete"}})
			},
			func() handlerstest.Response {
				return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "cancel"), Token: maxToken,
					Body: map[string]any{"expectedRevision": 1, "operationId": "cancel-op", "reason": "superseded"}})
			})
		got := []string{outcome(t, answers[0]), outcome(t, answers[1])}
		sorted := append([]string(nil), got...)
		sort.Strings(sorted)
		if sorted[0] != "202" || sorted[1] != "409 revision-conflict" {
			t.Fatalf("round %d: answers = %v, want one 202 and one 409 revision-conflict\n%s", round, got, internalErrors(env))
		}
		winner, op, status := "complete", "complete-op", models.StatusCompleting
		if answers[1].Status == http.StatusAccepted {
			winner, op, status = "cancel", "cancel-op", models.StatusCancelling
		}
		outbox, err := env.Store.Resumptions(context.Background(), "acme", task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(outbox) != 1 || outbox[0].OperationID != op {
			t.Fatalf("round %d: outbox = %+v, want exactly one row for %s", round, outbox, op)
		}
		if stored := env.Get(t, task); stored.Status != status || stored.Revision != 2 {
			t.Fatalf("round %d: task %s at revision %d, want %s at 2", round, stored.Status, stored.Revision, status)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_operations WHERE task_id = ?", task.ID); n != 2 {
			t.Fatalf("round %d: %d operation rows, want 2 (projection and the winner)", round, n)
		}
		for _, a := range sorted {
			seen[a]++
		}
		wins[winner]++
	}
	t.Logf("%s complete vs cancel: %d rounds in %s → %s; winners: %s; outbox rows per task: 1",
		env.Name, raceRounds, time.Since(began).Round(time.Millisecond), tally(seen), tally(wins))
}

// testCompleteReplay: one completion sent 20 times at once with one operation id is one
// operation, one event and one outbox row, and all 20 answers are byte-identical.
func testCompleteReplay(t *testing.T, env *handlerstest.Env) {
	const n = 20
	ann := handlerstest.Worker("acme", "ann")
	token := env.Token(t, ann)
	task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Form: approvalForm})
	ops := env.Count(t, "SELECT COUNT(*) FROM user_task_operations WHERE task_id = ?", task.ID)
	body := map[string]any{"expectedRevision": 1, "operationId": "same-op", "actionKey": "Complete", "data": map[string]any{"approved": true}}
	calls := make([]func() handlerstest.Response, n)
	for i := range calls {
		calls[i] = func() handlerstest.Response {
			return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "complete"), Token: token, Body: body})
		}
	}
	began := time.Now()
	answers := together(t, calls...)
	took := time.Since(began)
	distinct := map[string]int{}
	for _, a := range answers {
		if a.Status != http.StatusAccepted {
			t.Fatalf("answer %s, want 202\n%s", outcome(t, a), internalErrors(env))
		}
		distinct[string(a.Body)]++
	}
	if len(distinct) != 1 {
		t.Errorf("%d distinct bodies among %d answers, want 1:\n%v", len(distinct), n, distinct)
	}
	after := env.Count(t, "SELECT COUNT(*) FROM user_task_operations WHERE task_id = ?", task.ID)
	events := env.Count(t, "SELECT COUNT(*) FROM user_task_events WHERE task_id = ?", task.ID)
	outbox, err := env.Store.Resumptions(context.Background(), "acme", task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after-ops != 1 || events != 2 || len(outbox) != 1 {
		t.Errorf("operations added %d, events %d, outbox rows %d; want 1, 2 (created + completion-requested), 1", after-ops, events, len(outbox))
	}
	if stored := env.Get(t, task); stored.Revision != 2 || stored.Status != models.StatusCompleting {
		t.Errorf("task %s at revision %d, want Completing at 2", stored.Status, stored.Revision)
	}
	t.Logf("%s replay: %d concurrent identical completions in %s → %d×202, %d distinct body, operations +%d, events +%d, outbox rows %d",
		env.Name, n, took.Round(time.Millisecond), n, len(distinct), after-ops, events-1, len(outbox))
}

// internalErrors returns the server's logged internal errors, for failure messages.
func internalErrors(env *handlerstest.Env) string {
	var out []string
	for line := range strings.SplitSeq(env.Logs.String(), "\n") {
		if strings.Contains(line, `"internal error"`) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
