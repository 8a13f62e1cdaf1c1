package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// deadlinePolicy is a policy as the API answers it.
type deadlinePolicy struct {
	WorkflowDefinitionID string           `json:"workflowDefinitionId"`
	Deadlines            []map[string]any `json:"deadlines"`
	Revision             int              `json:"revision"`
	ChangedBy            struct{ ID, Type, Provider string }
	UpdatedAt            string `json:"updatedAt"`
}

// policyDeadline is one deadline of a request body.
func policyDeadline(kind, after string, actions ...map[string]any) map[string]any {
	d := map[string]any{"kind": kind, "actions": actions}
	if after != "" {
		d["after"] = after
	}
	return d
}

var (
	policyFlag   = map[string]any{"type": "flag"}
	policyNotify = map[string]any{"type": "notify", "to": "managers"}
)

// TestDeadlinePolicyAPI covers GET/PUT/DELETE /api/v1/workflow-definitions/{id}/deadline-policy
// and its audit: managers only, revision-checked by If-Match or expectedRevision, the deadlines
// validated exactly as the projection field, ids with /?# and non-ASCII path-escaped.
func TestDeadlinePolicyAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	max, ann := handlerstest.Manager("acme", "max"), handlerstest.Worker("acme", "ann")
	of := func(id string) string {
		return "/api/v1/workflow-definitions/" + url.PathEscape(id) + "/deadline-policy"
	}
	do := func(t *testing.T, u handlerstest.User, method, path string, body any, header http.Header) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: method, Path: path, Token: env.Token(t, u), Body: body, Header: header})
	}
	decode := func(t *testing.T, r handlerstest.Response) deadlinePolicy {
		t.Helper()
		r.WantStatus(t, http.StatusOK)
		var p deadlinePolicy
		r.JSON(t, &p)
		if etag := r.Header.Get("ETag"); etag != `"`+strconv.Itoa(p.Revision)+`"` {
			t.Fatalf("ETag %q for revision %d", etag, p.Revision)
		}
		return p
	}
	ifMatch := func(v string) http.Header { return http.Header{"If-Match": {v}} }
	two := []map[string]any{
		policyDeadline("start", "PT4H", map[string]any{"type": "reassign", "candidateGroups": []map[string]any{{"id": "team-leads"}}}, policyNotify),
		policyDeadline("completion", "P2D", map[string]any{"type": "set-priority", "priority": 90}, policyFlag),
	}

	t.Run("OKPutGetUpdateDelete", func(t *testing.T) {
		id := "x/y?z#1 ü"
		p := decode(t, do(t, max, http.MethodPut, of(id), map[string]any{"deadlines": two, "expectedRevision": 0}, nil))
		if p.WorkflowDefinitionID != id || p.Revision != 1 || len(p.Deadlines) != 2 || p.ChangedBy.ID != "max" || p.ChangedBy.Type != "user" {
			t.Fatalf("put = %+v", p)
		}
		if to := p.Deadlines[0]["actions"].([]any)[1].(map[string]any)["to"]; to != "managers" {
			t.Fatalf("notify to = %v, want the wire form \"managers\"", to)
		}
		got := decode(t, do(t, max, http.MethodGet, of(id), nil, nil))
		if got.Revision != 1 || got.UpdatedAt != p.UpdatedAt || got.Deadlines[1]["after"] != "P2D" {
			t.Fatalf("get = %+v", got)
		}
		// The ETag of the read is the If-Match of the next write.
		up := decode(t, do(t, max, http.MethodPut, of(id), map[string]any{"deadlines": two[:1]}, ifMatch(`"1"`)))
		if up.Revision != 2 || len(up.Deadlines) != 1 {
			t.Fatalf("update = %+v", up)
		}
		do(t, max, http.MethodDelete, of(id), nil, ifMatch(`"2"`)).WantStatus(t, http.StatusNoContent)
		do(t, max, http.MethodGet, of(id), nil, nil).WantProblem(t, http.StatusNotFound, "not-found")
		do(t, max, http.MethodDelete, of(id), nil, nil).WantProblem(t, http.StatusNotFound, "not-found")
		again := decode(t, do(t, max, http.MethodPut, of(id), map[string]any{"deadlines": two, "expectedRevision": 0}, nil))
		if again.Revision != 4 {
			t.Fatalf("put after delete: revision %d, want 4", again.Revision)
		}
		var audit struct {
			Items []struct {
				Revision  int              `json:"revision"`
				Action    string           `json:"action"`
				Deadlines []map[string]any `json:"deadlines"`
				Actor     struct{ ID string }
			} `json:"items"`
		}
		r := do(t, max, http.MethodGet, of(id)+"/audit", nil, nil)
		r.WantStatus(t, http.StatusOK)
		r.JSON(t, &audit)
		var trail []string
		for _, e := range audit.Items {
			trail = append(trail, strconv.Itoa(e.Revision)+":"+e.Action)
		}
		if !slices.Equal(trail, []string{"4:put", "3:delete", "2:put", "1:put"}) || audit.Items[1].Deadlines != nil || len(audit.Items[2].Deadlines) != 1 {
			t.Fatalf("audit %v", trail)
		}
	})

	t.Run("OKAppliedToAProjection", func(t *testing.T) {
		decode(t, do(t, max, http.MethodPut, of("applied"), map[string]any{"deadlines": two, "expectedRevision": 0}, nil))
		task := env.Task(t, handlerstest.TaskOpts{Groups: []string{"finance"}, Projection: func(p *models.Projection) { p.Workflow.DefinitionID = "applied" }})
		ds, err := env.Store.TaskDeadlines(context.Background(), "acme", task.ID)
		if err != nil || len(ds) != 2 || ds[0].Kind != models.DeadlineStart {
			t.Fatalf("deadlines %+v, %v: want the policy's two", ds, err)
		}
	})

	t.Run("ErrForbidden", func(t *testing.T) {
		for _, u := range []handlerstest.User{ann, handlerstest.RuntimeUser("acme")} {
			do(t, u, http.MethodGet, of("applied"), nil, nil).WantProblem(t, http.StatusForbidden, "forbidden")
			do(t, u, http.MethodPut, of("applied"), map[string]any{"deadlines": two, "expectedRevision": 1}, nil).WantProblem(t, http.StatusForbidden, "forbidden")
			do(t, u, http.MethodDelete, of("applied"), nil, nil).WantProblem(t, http.StatusForbidden, "forbidden")
			do(t, u, http.MethodGet, of("applied")+"/audit", nil, nil).WantProblem(t, http.StatusForbidden, "forbidden")
		}
		decode(t, do(t, max, http.MethodGet, of("applied"), nil, nil))
	})

	t.Run("OtherTenantSeesNothing", func(t *testing.T) {
		gina := handlerstest.Manager("globex", "gina")
		do(t, gina, http.MethodGet, of("applied"), nil, nil).WantProblem(t, http.StatusNotFound, "not-found")
		do(t, gina, http.MethodDelete, of("applied"), nil, nil).WantProblem(t, http.StatusNotFound, "not-found")
		do(t, gina, http.MethodPut, of("applied"), map[string]any{"deadlines": two, "expectedRevision": 1}, nil).WantProblem(t, http.StatusConflict, "revision-conflict")
		r := do(t, gina, http.MethodGet, of("applied")+"/audit", nil, nil)
		r.WantStatus(t, http.StatusOK)
		if !strings.Contains(string(r.Body), `"items":[]`) {
			t.Fatalf("globex reads acme's audit: %s", r.Body)
		}
		if p := decode(t, do(t, max, http.MethodGet, of("applied"), nil, nil)); p.Revision != 1 {
			t.Fatalf("acme's policy changed: %+v", p)
		}
	})

	t.Run("ErrStaleRevision", func(t *testing.T) {
		decode(t, do(t, max, http.MethodPut, of("stale"), map[string]any{"deadlines": two, "expectedRevision": 0}, nil))
		do(t, max, http.MethodPut, of("stale"), map[string]any{"deadlines": two, "expectedRevision": 0}, nil).WantProblem(t, http.StatusConflict, "revision-conflict")
		do(t, max, http.MethodPut, of("stale"), map[string]any{"deadlines": two}, ifMatch(`"7"`)).WantProblem(t, http.StatusConflict, "revision-conflict")
		do(t, max, http.MethodDelete, of("stale"), nil, ifMatch(`"2"`)).WantProblem(t, http.StatusConflict, "revision-conflict")
		if p := decode(t, do(t, max, http.MethodGet, of("stale"), nil, nil)); p.Revision != 1 {
			t.Fatalf("a refused write changed the policy: %+v", p)
		}
	})

	t.Run("OKIDsArriveUnescapedOnce", func(t *testing.T) {
		for _, id := range []string{"a/b", "%2F", "a%b", "Ω 定義", "q?x=1#f"} {
			p := decode(t, do(t, max, http.MethodPut, of(id), map[string]any{"deadlines": two[:1], "expectedRevision": 0}, nil))
			if p.WorkflowDefinitionID != id {
				t.Fatalf("id %q arrived as %q", id, p.WorkflowDefinitionID)
			}
		}
		if p := decode(t, do(t, max, http.MethodGet, of("%2F"), nil, nil)); p.WorkflowDefinitionID != "%2F" {
			t.Fatalf("%%2F read back as %q", p.WorkflowDefinitionID)
		}
	})

	// The refusals: 422 naming the field, nothing written.
	six := slices.Repeat([]map[string]any{policyDeadline("start", "PT1H", policyFlag)}, 6)
	sixActions := []map[string]any{policyDeadline("start", "PT1H", policyFlag, policyFlag, policyFlag, policyFlag, policyFlag, policyFlag)}
	both := policyDeadline("start", "PT1H", policyFlag)
	both["at"] = "2030-01-01T00:00:00Z"
	for _, tt := range []struct {
		name     string
		body     any
		header   http.Header
		contract handlerstest.Contract
		fields   []string
	}{
		{"AfterAndAt", map[string]any{"deadlines": []any{both}, "expectedRevision": 0}, nil, handlerstest.Conforms, []string{"deadlines[0]"}},
		{"ZeroDuration", map[string]any{"deadlines": []any{policyDeadline("start", "PT0S", policyFlag)}, "expectedRevision": 0}, nil, handlerstest.Conforms, []string{"deadlines[0].after"}},
		{"NegativeDuration", map[string]any{"deadlines": []any{policyDeadline("start", "-PT1H", policyFlag)}, "expectedRevision": 0}, nil, handlerstest.Conforms, []string{"deadlines[0].after"}},
		{"UnknownKind", map[string]any{"deadlines": []any{policyDeadline("soon", "PT1H", policyFlag)}, "expectedRevision": 0}, nil, handlerstest.Breaks, []string{"deadlines[0].kind"}},
		{"UnknownAction", map[string]any{"deadlines": []any{policyDeadline("start", "PT1H", map[string]any{"type": "teleport"})}, "expectedRevision": 0}, nil, handlerstest.Breaks, []string{"deadlines[0].actions[0].type"}},
		{"SixDeadlines", map[string]any{"deadlines": six, "expectedRevision": 0}, nil, handlerstest.Breaks, []string{"deadlines"}},
		{"SixActions", map[string]any{"deadlines": sixActions, "expectedRevision": 0}, nil, handlerstest.Breaks, []string{"deadlines[0].actions"}},
		{"NoDeadlines", map[string]any{"deadlines": []any{}, "expectedRevision": 0}, nil, handlerstest.Breaks, []string{"deadlines"}},
		{"DeadlinesMissing", map[string]any{"expectedRevision": 0}, nil, handlerstest.Breaks, []string{"deadlines"}},
		{"UnknownNestedMember", map[string]any{"deadlines": []any{map[string]any{"kind": "start", "after": "PT1H", "actions": []any{policyFlag}, "x": 1}}, "expectedRevision": 0}, nil, handlerstest.Breaks, []string{"deadlines"}},
		{"RevisionMissing", map[string]any{"deadlines": two}, nil, handlerstest.Conforms, []string{"expectedRevision"}},
		{"RevisionNegative", map[string]any{"deadlines": two, "expectedRevision": -1}, nil, handlerstest.Breaks, []string{"expectedRevision"}},
		{"RevisionDiffersFromIfMatch", map[string]any{"deadlines": two, "expectedRevision": 0}, ifMatch(`"1"`), handlerstest.Conforms, []string{"expectedRevision"}},
		{"IfMatchNotARevision", map[string]any{"deadlines": two}, ifMatch(`*`), handlerstest.Conforms, []string{"If-Match"}},
		{"UnknownMember", map[string]any{"deadlines": two, "expectedRevision": 0, "note": "x"}, nil, handlerstest.Breaks, []string{"note"}},
	} {
		t.Run("ErrValidation_"+tt.name, func(t *testing.T) {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodPut, Path: of("refused"), Token: env.Token(t, max), Body: tt.body, Header: tt.header, Contract: tt.contract})
			p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if !slices.Equal(p.Fields(), tt.fields) {
				t.Errorf("fields = %v, want %v", p.Fields(), tt.fields)
			}
			do(t, max, http.MethodGet, of("refused"), nil, nil).WantProblem(t, http.StatusNotFound, "not-found")
		})
	}

	t.Run("ErrNotADefinitionID", func(t *testing.T) {
		r := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/workflow-definitions/a%00b/deadline-policy", Token: env.Token(t, max)})
		r.WantProblem(t, http.StatusNotFound, "not-found")
		long := strings.Repeat("d", models.MaxWorkflowIDLength+1)
		r = env.Do(t, handlerstest.Request{Method: http.MethodPut, Path: of(long), Token: env.Token(t, max), Body: map[string]any{"deadlines": two, "expectedRevision": 0}, Contract: handlerstest.Breaks})
		r.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
	})
}
