package storetest

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
)

// testProtectedReads checks that a mutation loads only the protected columns its command asks
// for (models.ReadingProtected, issue 13): a claim's statements name none of the payload
// columns and do not read the whole row, its decision sees no payload, and what it did not load
// keeps its stored value.
func testProtectedReads(t *testing.T, h Harness) {
	h.needSQL(t, "the case reads the SQL statements of a claim")
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
	task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}, Instructions: "Check the *invoice*.", Data: `{"amount":12}`})
	ann := queryActor("t1", "ann", false)

	mu.Lock()
	recording = true
	mu.Unlock()
	var seen models.Protected
	c := ctx(t)
	claimed, err := s.Mutate(models.ReadingProtected(c, models.ReadsForTransition), "t1", task.ID, "op-claim",
		func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			seen = cur.Protected
			return models.Claim(cur, models.Command{Kind: models.OpClaim, OperationID: "op-claim", ExpectedRevision: cur.Revision, Actor: ann, Prior: prior}, now)
		})
	mu.Lock()
	recording = false
	got := append([]string(nil), log...)
	mu.Unlock()
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	if claimed.Task.Assignee == nil || claimed.Task.Assignee.ID != "ann" {
		t.Fatalf("claim did not assign ann: %+v", claimed.Task.Assignee)
	}
	if seen.Instructions != "" || seen.Data != nil || seen.Form != nil || seen.CompletionData != nil {
		t.Errorf("the claim's decision saw protected content it did not ask for: %+v", seen)
	}
	readRow := false
	for _, sql := range got {
		low := strings.ToLower(sql)
		for _, col := range []string{"instructions_enc", "task_data_enc", "form_enc", "completion_data_enc"} {
			if strings.Contains(low, col) {
				t.Errorf("a claim statement names %s:\n%s", col, sql)
			}
		}
		if strings.HasPrefix(low, "select") && strings.Contains(low, "user_tasks") && !strings.Contains(low, "user_task_") {
			readRow = true
			if strings.Contains(low, "select *") {
				t.Errorf("the claim reads the whole task row:\n%s", sql)
			}
		}
	}
	if !readRow {
		t.Errorf("no statement of the claim read the task row:\n%s", strings.Join(got, "\n"))
	}

	// What the claim did not load is kept; a mutation without a hint loads everything.
	after, err := s.Get(ctx(t), "t1", task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Protected.Instructions != "Check the *invoice*." || !bytes.Equal(after.Protected.Data, []byte(`{"amount":12}`)) {
		t.Errorf("protected content after the claim = %+v, want it unchanged", after.Protected)
	}
	var full models.Protected
	_, err = s.Mutate(ctx(t), "t1", task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		full = cur.Protected
		return models.Release(cur, models.Command{Kind: models.OpRelease, ExpectedRevision: cur.Revision, Actor: ann}, "", now)
	})
	if err != nil {
		t.Fatalf("release: %v", err)
	}
	if full.Instructions != "Check the *invoice*." || !bytes.Equal(full.Data, []byte(`{"amount":12}`)) {
		t.Errorf("a mutation without a hint saw %+v, want every protected part", full)
	}
}
