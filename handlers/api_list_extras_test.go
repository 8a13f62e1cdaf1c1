package handlers_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
)

// TestListOnBehalfOfAndActivity: the list says which rows the reader sees standing in for an
// absent user (onBehalfOf, as the inbox's "on behalf of") and, when asked, each task's comment
// and file counts; both only where they apply, and the answer conforms to the document.
func TestListOnBehalfOfAndActivity(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Directory: peopleDirectory(t)})
	ann, ben := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "ben")
	forAnn := env.Task(t, handlerstest.TaskOpts{Title: "Ann's direct task", Candidates: []string{"ann"}})
	forBen := env.Task(t, handlerstest.TaskOpts{Title: "Ben's own task", Candidates: []string{"ben"}})
	now := time.Now().UTC().Truncate(time.Second)
	env.Do(t, handlerstest.Request{Method: http.MethodPut, Path: "/api/v1/me/absence", Token: env.Token(t, ann), Body: map[string]any{
		"from": now.Add(-time.Hour).Format(time.RFC3339), "until": now.Add(24 * time.Hour).Format(time.RFC3339), "substitute": map[string]any{"id": "ben"}}}).
		WantStatus(t, http.StatusOK)
	env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(forBen.ID, "comments"), Token: env.Token(t, ben),
		Body: map[string]any{"text": "Looking at it"}}).WantStatus(t, http.StatusCreated)

	type item struct {
		ID         string                            `json:"id"`
		OnBehalfOf *struct{ ID, DisplayName string } `json:"onBehalfOf"`
		Activity   *struct{ Comments, Files int }    `json:"activity"`
		raw        map[string]json.RawMessage
	}
	list := func(t *testing.T, query string) map[string]item {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?" + query, Token: env.Token(t, ben)})
		resp.WantStatus(t, http.StatusOK)
		var body struct{ Items []item }
		var raw struct{ Items []map[string]json.RawMessage }
		resp.JSON(t, &body)
		resp.JSON(t, &raw)
		out := map[string]item{}
		for i, it := range body.Items {
			it.raw = raw.Items[i]
			out[it.ID] = it
		}
		return out
	}

	t.Run("OKOnBehalfOfOnlyOnStandInRows", func(t *testing.T) {
		got := list(t, "scope=available")
		a, b := got[forAnn.ID], got[forBen.ID]
		if len(got) != 2 || a.OnBehalfOf == nil || a.OnBehalfOf.ID != "ann" {
			t.Fatalf("ben's available list %+v, want Ann's task on behalf of ann", got)
		}
		if _, ok := b.raw["onBehalfOf"]; ok {
			t.Errorf("ben's own task carries onBehalfOf %s", b.raw["onBehalfOf"])
		}
		if _, ok := a.raw["activity"]; ok {
			t.Error("activity without includeActivityCounts")
		}
	})

	t.Run("OKActivityCountsWhenAsked", func(t *testing.T) {
		got := list(t, "scope=available&includeActivityCounts=true")
		if b := got[forBen.ID]; b.Activity == nil || b.Activity.Comments != 1 || b.Activity.Files != 0 {
			t.Fatalf("ben's task activity %+v, want 1 comment", b.Activity)
		}
		if a := got[forAnn.ID]; a.Activity == nil || a.Activity.Comments != 0 || a.Activity.Files != 0 {
			t.Fatalf("ann's task activity %+v, want zeros", a.Activity)
		}
	})

	t.Run("ErrNotABoolean", func(t *testing.T) {
		p := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?includeActivityCounts=yes", Token: env.Token(t, ben),
			Contract: handlerstest.Breaks}).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
		if len(p.Errors) != 1 || p.Errors[0].Field != "includeActivityCounts" {
			t.Fatalf("errors %+v", p.Errors)
		}
	})
}
