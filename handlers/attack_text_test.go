package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

// attackText are texts with characters that hide or reorder text ("Trojan Source") or break
// terminals and drivers.
var attackText = map[string]string{
	"Override": "Pay \u202Eexe.txt", "Isolate": "Pay \u2066x\u2069", "NUL": "Pay\x00", "Bell": "Pay\a",
	"Escape": "Pay\x1b[31m", "C1": "Pay\u0085x",
}

// TestAttackControlCharacters puts control characters and bidirectional overrides into the text
// fields TestControlCharactersRefused (projections, API commands, filters) does not reach —
// saved view names (API, page save and rename), the page's cancel reason, the token's display
// name — and expects each refused with 422 or dropped, never stored or shown raw.
func TestAttackControlCharacters(t *testing.T) {
	f := newAttackFixture(t)
	boss := f.token(t, handlerstest.Manager("t1", "boss"))
	b := f.signInAs(t, "t1", "boss")
	csrf := b.get("/inbox").csrf()
	_, raw := f.apiCall(t, http.MethodPost, "/api/v1/user-task-views", boss, map[string]any{"name": "Mine", "query": "tab=all"})
	viewID := jsonField(t, raw, "id")
	task := f.task(t, "t1", nil)

	for name, text := range attackText {
		t.Run(name, func(t *testing.T) {
			if s, body := f.apiCall(t, http.MethodPost, "/api/v1/user-task-views", boss, map[string]any{"name": text, "query": "tab=all"}); s != http.StatusUnprocessableEntity {
				t.Errorf("view name: %d %s", s, body)
			}
			for _, p := range []*webPage{
				b.post("/inbox/views", url.Values{"csrf_token": {csrf}, "name": {text}, "query": {"tab=all"}}),
				b.post("/inbox/views/"+viewID+"/rename", url.Values{"csrf_token": {csrf}, "name": {text}}),
			} {
				if p.status != http.StatusUnprocessableEntity {
					t.Errorf("view name on the page: %d", p.status)
				}
				if strings.ContainsAny(p.body, "\u202E\u2066\x00\a\x1b\u0085") {
					t.Errorf("the page shows the refused name raw")
				}
			}
			if p := b.post("/tasks/"+task.ID+"/cancel", url.Values{"csrf_token": {csrf}, "expectedRevision": {"1"}, "reason": {text}}); p.status != http.StatusUnprocessableEntity {
				t.Errorf("cancel reason on the page: %d", p.status)
			}
			u := handlerstest.Manager("t1", "boss")
			u.Name = text
			if s, body := f.apiCall(t, http.MethodGet, "/api/v1/user-tasks/capabilities", f.token(t, u), nil); s != http.StatusOK || strings.Contains(string(body), "Pay") {
				t.Errorf("token name: %d %s, want the name dropped", s, body)
			}
		})
	}
	if got := f.current(t, task.ID); got.Revision != task.Revision {
		t.Errorf("the task moved to revision %d", got.Revision)
	}
	if n := f.count(t, "SELECT COUNT(*) FROM user_task_saved_views"); n != 1 {
		t.Errorf("%d saved views, want only the first", n)
	}
}

// jsonField reads one string member of a JSON object.
func jsonField(t *testing.T, raw []byte, name string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	s, _ := m[name].(string)
	if s == "" {
		t.Fatalf("no %s in %s", name, raw)
	}
	return s
}
