package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/integrations/temporal/usertask"
)

// taskDeadlines is the part of the task detail this test reads.
type taskDeadlines struct {
	Priority  int `json:"priority"`
	Deadlines []struct {
		Kind  string `json:"kind"`
		State string `json:"state"`
	} `json:"deadlines"`
}

func (u *userTasks) deadlines(t *testing.T, id string) taskDeadlines {
	t.Helper()
	var d taskDeadlines
	if code := u.call(t, ava, http.MethodGet, "/api/v1/user-tasks/"+url.PathEscape(id), nil, &d); code != http.StatusOK {
		t.Fatalf("GET task %s: %d", id, code)
	}
	return d
}

// TestDeadlineThroughAwait: a start deadline given to Await reaches User Tasks; nobody takes
// the task, so after 2 s the due sweep hands it to another group and raises its priority,
// while a task claimed in time never escalates; an invalid deadline fails the workflow with
// User Tasks' refusal naming the member.
func TestDeadlineThroughAwait(t *testing.T) {
	s := newStack(t, false)
	escalate := []usertask.Deadline{{Kind: usertask.DeadlineStart, After: 2 * time.Second, Actions: []usertask.DeadlineAction{
		usertask.Reassign(nil, []usertask.Participant{{ID: "leads"}}), usertask.SetPriority(90), usertask.NotifyManagers()}}}

	s.start(t, "inv/escalates ü", approvalInput{Title: "Nobody takes this", Amount: 1, Deadlines: escalate})
	s.start(t, "inv?claimed#in-time", approvalInput{Title: "Ben takes this", Amount: 2, Deadlines: escalate})
	waiting := s.ut.taskOf(t, "inv/escalates ü")
	claimed := s.ut.taskOf(t, "inv?claimed#in-time")
	if code := s.ut.call(t, ben, http.MethodPost, "/api/v1/user-tasks/"+url.PathEscape(claimed.ID)+"/claim",
		map[string]any{"expectedRevision": claimed.Revision}, nil); code != http.StatusOK {
		t.Fatalf("claim: %d", code)
	}

	eventually(t, 30*time.Second, "the deadline fired", func() bool {
		d := s.ut.deadlines(t, waiting.ID)
		return len(d.Deadlines) == 1 && d.Deadlines[0].State == "fired"
	})
	if d := s.ut.deadlines(t, waiting.ID); d.Priority != 90 || d.Deadlines[0].Kind != "start" {
		t.Fatalf("after the firing: %+v, want priority 90", d)
	}
	// Ben (finance) is no longer a candidate: the task went to the leads.
	if code := s.ut.call(t, ben, http.MethodPost, "/api/v1/user-tasks/"+url.PathEscape(waiting.ID)+"/claim",
		map[string]any{"expectedRevision": s.ut.task(t, waiting.ID).Revision}, nil); code == http.StatusOK {
		t.Fatal("finance still claims the escalated task")
	}
	eventually(t, 30*time.Second, "the claimed task's deadline settled", func() bool {
		d := s.ut.deadlines(t, claimed.ID)
		return len(d.Deadlines) == 1 && d.Deadlines[0].State != "pending"
	})
	if d := s.ut.deadlines(t, claimed.ID); d.Deadlines[0].State != "skipped" || d.Priority == 90 {
		t.Fatalf("the task claimed in time: %+v, want its deadline skipped and the priority kept", d)
	}

	t.Run("ErrInvalidDeadline", func(t *testing.T) {
		run := s.start(t, "inv-bad-deadline", approvalInput{Title: "Bad", Amount: 3, Deadlines: []usertask.Deadline{
			{Kind: usertask.DeadlineStart, After: time.Hour, Actions: []usertask.DeadlineAction{{Type: "escalate"}}}}})
		_, err := result(t, run)
		if err == nil || !strings.Contains(err.Error(), "task.deadlines[0].actions[0].type") {
			t.Fatalf("workflow ended with %v, want the refusal naming task.deadlines[0].actions[0].type", err)
		}
	})
}
