package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workers"
)

// The deadlines end to end over HTTP (issue 30): a start deadline of 2 s projected by the
// runtime reassigns the task to another group, raises its priority and tells the managers once
// the due sweep runs after it; a task claimed in time never escalates; the detail shows both.
func TestDeadlinesOverHTTP(t *testing.T) {
	clock := &testfactory.Clock{}
	env := handlerstest.SQLite(t, &handlerstest.Options{Clock: clock.Now})
	runtime := env.Token(t, handlerstest.RuntimeUser("t1"))
	boss := env.Token(t, handlerstest.Manager("t1", "boss"))
	clerk := env.Token(t, handlerstest.Worker("t1", "cy", "clerks"))
	// The boss signs in once: recorded as a manager, whom notify-managers tells.
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notifications", Token: boss}).WantStatus(t, http.StatusOK)

	project := func(bookmark string) string {
		t.Helper()
		body := map[string]any{
			"workflowDefinitionId": "invoice", "workflowInstanceId": "wf-" + bookmark, "activityInstanceId": "approve", "bookmarkId": bookmark,
			"task": map[string]any{
				"title": "Approve invoice " + bookmark, "candidateGroups": []any{map[string]any{"id": "clerks"}},
				"deadlines": []any{map[string]any{"kind": "start", "after": "PT2S", "actions": []any{
					map[string]any{"type": "reassign", "candidateGroups": []any{map[string]any{"id": "leads"}}},
					map[string]any{"type": "set-priority", "priority": 90},
					map[string]any{"type": "notify", "to": "managers"},
				}}},
			},
		}
		r := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/runtime/bookmarks", Token: runtime, Body: body})
		r.WantStatus(t, http.StatusCreated)
		var p struct {
			TaskID string `json:"taskId"`
		}
		r.JSON(t, &p)
		return p.TaskID
	}
	late, taken := project("bm-late"), project("bm-taken")
	var claimed struct {
		Revision int `json:"revision"`
	}
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(taken), Token: clerk}).JSON(t, &claimed)
	env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(taken, "claim"), Token: clerk,
		Body: map[string]any{"expectedRevision": claimed.Revision}}).WantStatus(t, http.StatusOK)

	sweep := func() workers.SweepResult {
		t.Helper()
		res, err := workers.NewDueSweeper(env.Store, workers.SweepOptions{}).RunOnce(context.Background())
		if err != nil {
			t.Fatalf("sweep: %v", err)
		}
		return res
	}
	if res := sweep(); res.Escalated+res.DeadlinesSkipped != 0 {
		t.Fatalf("a sweep before the deadline settled %+v", res)
	}
	clock.Advance(3 * time.Second)
	if res := sweep(); res.Escalated != 1 || res.DeadlinesSkipped != 1 {
		t.Fatalf("the sweep after 2 s: %+v, want 1 escalated and 1 skipped", res)
	}
	if res := sweep(); res.Escalated+res.DeadlinesSkipped != 0 {
		t.Fatalf("a second sweep settled %+v again", res)
	}

	type detail struct {
		Priority  int    `json:"priority"`
		Status    string `json:"status"`
		Deadlines []struct {
			Kind    string  `json:"kind"`
			DueAt   string  `json:"dueAt"`
			State   string  `json:"state"`
			FiredAt *string `json:"firedAt"`
		} `json:"deadlines"`
	}
	var got detail
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(late), Token: boss}).JSON(t, &got)
	if got.Priority != 90 || got.Status != string(models.StatusAvailable) || len(got.Deadlines) != 1 ||
		got.Deadlines[0].State != "fired" || got.Deadlines[0].FiredAt == nil || got.Deadlines[0].Kind != "start" {
		t.Fatalf("the late task: %+v", got)
	}
	task, err := env.Store.Get(context.Background(), "t1", late)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(task.Assignment.Candidates, func(c models.Candidate) bool { return c.Participant.ID == "leads" }) ||
		slices.ContainsFunc(task.Assignment.Candidates, func(c models.Candidate) bool { return c.Participant.ID == "clerks" }) {
		t.Errorf("the late task's candidates: %+v, want leads instead of clerks", task.Assignment.Candidates)
	}
	var history struct {
		Items []struct {
			Type string `json:"type"`
		} `json:"items"`
	}
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(late, "events"), Token: boss}).JSON(t, &history)
	if !slices.ContainsFunc(history.Items, func(e struct {
		Type string `json:"type"`
	}) bool {
		return e.Type == string(models.EventDeadlineFired)
	}) {
		t.Errorf("the history has no deadline-fired event: %+v", history.Items)
	}

	var kept detail
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(taken), Token: clerk}).JSON(t, &kept)
	if kept.Priority == 90 || kept.Status != string(models.StatusAssigned) || kept.Deadlines[0].State != "skipped" || kept.Deadlines[0].FiredAt != nil {
		t.Fatalf("the task claimed in time: %+v", kept)
	}

	// The boss is told about the late task only.
	escalated := map[string]int{}
	for {
		ns, err := env.Store.ClaimNotifications(context.Background(), "test", 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(ns) == 0 {
			break
		}
		for _, n := range ns {
			if n.Trigger == models.TriggerEscalated {
				escalated[n.Recipient.ID+"/"+n.TaskID]++
			}
			if err := env.Store.SettleNotification(context.Background(), n, models.NotificationOutcome{State: models.NotificationDone, Email: models.ChannelOff, Webhook: models.ChannelOff}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if escalated["boss/"+late] != 1 || escalated["boss/"+taken] != 0 || escalated["leads/"+late] != 1 {
		t.Errorf("escalated notifications %v, want boss and leads about the late task, once", escalated)
	}
}
