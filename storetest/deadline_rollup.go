package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"usertasks/models"
)

// testDeadlineRollup: every fired deadline counts once as an escalation in the daily rollup,
// under its task's tenant and workflow (the dashboard's escalations per workflow), whether it
// changed the task or only notified; a skipped deadline, a lost race and another tenant's
// firings count nothing.
func testDeadlineRollup(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	loan := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}, WorkflowDef: "loan/eu?x#1 ü", WorkflowName: "Loan"},
		DeadlineOpts{Kind: models.DeadlineStart, After: -time.Minute, Actions: []models.DeadlineAction{setPriority(90)}},
		DeadlineOpts{Kind: models.DeadlineCompletion, After: -time.Second, Actions: []models.DeadlineAction{notifyManagers}})
	claimed := createWithDeadlines(t, s, TaskOpts{CandidateUsers: []string{"ann"}, WorkflowDef: "hr"},
		DeadlineOpts{Kind: models.DeadlineStart, After: time.Hour, Actions: []models.DeadlineAction{flagAction}})
	createWithDeadlines(t, s, TaskOpts{Tenant: "t2", CandidateUsers: []string{"ann"}, WorkflowDef: "loan/eu?x#1 ü"},
		DeadlineOpts{Kind: models.DeadlineStart, After: -time.Minute, Actions: []models.DeadlineAction{flagAction}})
	mustCommand(t, s, claimed, queryActor("t1", "ann", false), func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
		return models.Claim(cur, cmd, now)
	})
	clock.Advance(2 * time.Hour)

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[w] = sweepAll(ctx(t), s)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("sweep: %v", err)
		}
	}
	if d := mustDeadlines(t, s, claimed)[0]; d.State != models.DeadlineSkipped {
		t.Fatalf("the claimed task's deadline is %s, want skipped", d.State)
	}
	_, err := s.FireDeadline(ctx(t), loan.Tenant, loan.ID, 1, theManagers)
	wantCode(t, err, models.CodeDeadlineSettled)

	if got := rollupTotals(t, s, "t1")[models.MetricEscalated]; got != 2 {
		t.Errorf("t1 escalations per day = %d, want 2 (both of loan's, once each)", got)
	}
	if got := rollupTotals(t, s, "t2")[models.MetricEscalated]; got != 1 {
		t.Errorf("t2 escalations per day = %d, want 1", got)
	}
	r, err := s.DailyRollup(ctx(t), "t1", storeNow(t, s).AddDate(0, 0, -6).Format(time.DateOnly))
	if err != nil {
		t.Fatal(err)
	}
	perFlow := map[string]int64{}
	for _, st := range r.ByWorkflow {
		if st.Metric == models.MetricEscalated {
			perFlow[st.WorkflowDefinitionID+"|"+st.WorkflowDefinitionName] += st.Count
		}
	}
	if got, want := fmt.Sprint(perFlow), fmt.Sprint(map[string]int64{"loan/eu?x#1 ü|Loan": 2}); got != want {
		t.Errorf("escalations per workflow of the last 7 days = %s, want %s", got, want)
	}
}
