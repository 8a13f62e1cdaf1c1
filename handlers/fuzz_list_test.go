package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

// fuzzLists are the list endpoints whose query strings the fuzz target sends; "{id}" is a task id.
var fuzzLists = []string{
	"/api/v1/user-tasks",
	"/api/v1/user-tasks/{id}/events",
	"/api/v1/user-task-participants",
	"/api/v1/user-task-views",
	"/api/v1/user-tasks/{id}/invitations",
}

// FuzzListQuery sends query strings, cursors included, to the list endpoints as a manager or a
// worker, over a few tasks. The seeds include a real next cursor.
func FuzzListQuery(f *testing.F) {
	s := newFuzzServer(f, false)
	boss := s.Token(f, handlerstest.Manager("acme", "max"))
	ann := s.Token(f, handlerstest.Worker("acme", "ann"))
	task := s.Task(f, fuzzTaskOpts())
	for range 3 {
		s.Task(f, fuzzTaskOpts())
	}
	page := struct{ NextCursor string }{}
	resp := s.Do(f, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=all&limit=1&sort=priority&direction=desc", Token: boss})
	if err := json.Unmarshal(resp.Body, &page); err != nil || page.NextCursor == "" {
		f.Fatalf("no next cursor: %d %s", resp.Status, resp.Body)
	}
	for _, q := range []string{
		"scope=all&limit=1&sort=priority&direction=desc&cursor=" + page.NextCursor,
		"scope=all&limit=1&cursor=" + page.NextCursor,
		"scope=available&status=available&status=claimed&sort=due&direction=asc&limit=50&search=invoice&tag=a",
		"scope=all&assignee=ann&assigneeProvider=default&due=overdue&from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&priorityFrom=10&priorityTo=90&includeTotalCount=true",
		"scope=needs-attention&healthCode=x&healthSeverity=warning&workflowDefinitionId=approval&reference=%E2%80%AE&taskType=t&limit=0",
		"scope=history&cursor=%00%FF&limit=-1&sort=title&direction=sideways",
		"search=" + string([]byte{0xff, 0xfe}) + "&limit=99999999999999999999&workflowInstanceId=%F0%9F",
		"type=group&search=ops&cursor=x",
		"scope=all&status=completed&to=2026-13-01&due=this-week",
	} {
		for ep := range fuzzLists {
			f.Add(uint8(ep), q)
		}
	}
	f.Fuzz(func(t *testing.T, ep uint8, query string) {
		token := boss
		if int(ep)/len(fuzzLists)%2 == 1 {
			token = ann
		}
		path := strings.ReplaceAll(fuzzLists[int(ep)%len(fuzzLists)], "{id}", task.ID)
		s.send(t, fuzzCall{method: http.MethodGet, path: path + "?" + query, header: bearer(token)})
	})
}
