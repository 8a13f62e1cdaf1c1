package handlers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// approvalForm is an inline form with a masked field.
var approvalForm = json.RawMessage(`{
	"type": "object",
	"properties": {
		"approved": {"type": "boolean", "x-ui": {"label": "Approved", "order": 1}},
		"comment": {"type": "string", "maxLength": 200, "x-ui": {"order": 2}},
		"iban": {"type": "string", "x-ui": {"label": "IBAN", "masked": true, "order": 3}}
	},
	"required": ["approved"]
}`)

const approvalData = `{"comment": "looks fine", "iban": "DE89370400440532013000"}`

// detail is the part of a detail answer the tests look at; raw keeps every member.
type detail struct {
	ID             string   `json:"id"`
	Status         string   `json:"status"`
	Revision       int      `json:"revision"`
	AllowedActions []string `json:"allowedActions"`
	Instructions   *string  `json:"instructions"`
	Form           *struct {
		Provider *string `json:"provider"`
		Fields   []struct {
			Key       string `json:"key"`
			Masked    bool   `json:"masked"`
			CanReveal bool   `json:"canReveal"`
			Value     any    `json:"value"`
		} `json:"fields"`
	} `json:"form"`
	Disclosure struct {
		CanViewProtected bool `json:"canViewProtected"`
		CanViewHistory   bool `json:"canViewHistory"`
	} `json:"disclosure"`
	Outcome *struct {
		ActionKey   string `json:"actionKey"`
		CompletedBy *struct{ ID string }
		CompletedAt *string `json:"completedAt"`
	} `json:"outcome"`
	raw map[string]json.RawMessage
}

func getDetail(t *testing.T, env *handlerstest.Env, u handlerstest.User, id string) detail {
	t.Helper()
	resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(id), Token: env.Token(t, u)})
	resp.WantStatus(t, http.StatusOK)
	var d detail
	resp.JSON(t, &d)
	resp.JSON(t, &d.raw)
	return d
}

func TestGetTask(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, bob, eve := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob"), handlerstest.Worker("acme", "eve")
	max := handlerstest.Manager("acme", "max")
	task := env.Task(t, handlerstest.TaskOpts{
		Title: "Approve invoice", Assignee: "ann", Candidates: []string{"bob"}, Instructions: "Check the amount.",
		Data: approvalData, Form: approvalForm, CancellationEnabled: true,
	})

	t.Run("Assignee", func(t *testing.T) {
		d := getDetail(t, env, ann, task.ID)
		if d.Status != "Assigned" || d.Revision != 1 {
			t.Errorf("status, revision = %s, %d, want Assigned, 1", d.Status, d.Revision)
		}
		if want := []string{"release", "complete"}; !slices.Equal(d.AllowedActions, want) {
			t.Errorf("allowedActions = %v, want %v", d.AllowedActions, want)
		}
		if d.Instructions == nil || *d.Instructions != "Check the amount." {
			t.Errorf("instructions = %v, want the task's", d.Instructions)
		}
		if got, want := string(d.raw["data"]), `{"comment":"looks fine"}`; !jsonEqual(got, want) {
			t.Errorf("data = %s, want %s (the masked iban only through reveal)", got, want)
		}
		if !d.Disclosure.CanViewProtected || !d.Disclosure.CanViewHistory {
			t.Errorf("disclosure = %+v, want protected and history", d.Disclosure)
		}
		if d.Form == nil || d.Form.Provider != nil || len(d.Form.Fields) != 3 {
			t.Fatalf("form = %+v, want the inline form with 3 fields", d.Form)
		}
		values := map[string]any{}
		for _, f := range d.Form.Fields {
			values[f.Key] = f.Value
			if f.Masked != (f.Key == "iban") || f.CanReveal != f.Masked {
				t.Errorf("field %s masked, canReveal = %v, %v", f.Key, f.Masked, f.CanReveal)
			}
		}
		if values["comment"] != "looks fine" || values["iban"] != nil || values["approved"] != nil {
			t.Errorf("field values = %v, want comment prefilled and iban masked (null)", values)
		}
		if bytes.Contains(d.raw["form"], []byte("DE8937")) {
			t.Error("the masked value is in the form")
		}
		if _, ok := d.raw["healthCode"]; ok {
			t.Error("healthCode is shown to a non-manager")
		}
		if d.Outcome != nil {
			t.Errorf("outcome = %+v, want null while open", d.Outcome)
		}
	})
	t.Run("CandidateSeesSummaryOnly", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"bob"}, Instructions: "secret", Data: approvalData, Form: approvalForm})
		d := getDetail(t, env, bob, task.ID)
		for _, key := range []string{"instructions", "data"} {
			if _, ok := d.raw[key]; ok {
				t.Errorf("%s is shown to a candidate", key)
			}
		}
		if d.Form != nil || d.Disclosure.CanViewProtected {
			t.Errorf("form, disclosure = %+v, %+v, want null and no protected access", d.Form, d.Disclosure)
		}
		if want := []string{"claim"}; !slices.Equal(d.AllowedActions, want) {
			t.Errorf("allowedActions = %v, want %v", d.AllowedActions, want)
		}
	})
	t.Run("ManagerSeesHealthCode", func(t *testing.T) {
		unassigned := env.Task(t, handlerstest.TaskOpts{})
		d := getDetail(t, env, max, unassigned.ID)
		if got, want := string(d.raw["healthCode"]), `"no-participants"`; got != want {
			t.Errorf("healthCode = %s, want %s", got, want)
		}
		if got, want := string(d.raw["healthSeverity"]), `"advisory"`; got != want {
			t.Errorf("healthSeverity = %s, want %s", got, want)
		}
		if got := string(getDetail(t, env, max, task.ID).raw["healthCode"]); got != "null" {
			t.Errorf("healthCode of a healthy task = %s, want null", got)
		}
	})
	t.Run("OutcomeOnceTerminal", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "complete"), Token: env.Token(t, ann),
			Body: map[string]any{"expectedRevision": 1, "operationId": "op-outcome", "actionKey": "Complete"}})
		resp.WantStatus(t, http.StatusAccepted)
		if d := getDetail(t, env, ann, task.ID); d.Outcome != nil || d.Status != "Completing" {
			t.Errorf("while Completing: status %s, outcome %+v, want no outcome yet", d.Status, d.Outcome)
		}
		env.Finalize(t, task)
		d := getDetail(t, env, ann, task.ID)
		if d.Outcome == nil || d.Outcome.ActionKey != "Complete" || d.Outcome.CompletedBy == nil || d.Outcome.CompletedBy.ID != "ann" || d.Outcome.CompletedAt == nil {
			t.Errorf("outcome = %+v, want Complete by ann with a time", d.Outcome)
		}
		if d.Status != "Completed" || len(d.AllowedActions) != 0 {
			t.Errorf("status, allowedActions = %s, %v, want Completed, none", d.Status, d.AllowedActions)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		missing := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(models.NewID()), Token: env.Token(t, eve)})
		missing.WantProblem(t, http.StatusNotFound, "not-found")
		invisible := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID), Token: env.Token(t, eve)})
		invisible.WantProblem(t, http.StatusNotFound, "not-found")
		if !bytes.Equal(missing.Body, invisible.Body) {
			t.Errorf("404 bodies differ:\n%s\n%s", missing.Body, invisible.Body)
		}
		blocked := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"eve"}, Health: models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormResolutionFailed, Message: "broken"}})
		hidden := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(blocked.ID), Token: env.Token(t, eve)})
		hidden.WantProblem(t, http.StatusNotFound, "not-found")
		if !bytes.Equal(missing.Body, hidden.Body) {
			t.Errorf("404 bodies differ:\n%s\n%s", missing.Body, hidden.Body)
		}
		if d := getDetail(t, env, max, blocked.ID); string(d.raw["healthSeverity"]) != `"blocking"` {
			t.Errorf("manager sees healthSeverity %s, want blocking", d.raw["healthSeverity"])
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		noView := handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermClaim}}
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID), Token: env.Token(t, noView)})
		resp.WantProblem(t, http.StatusForbidden, "forbidden")
	})
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	ax, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return bytes.Equal(ax, by)
}
