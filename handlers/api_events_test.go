package handlers_test

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

type eventPage struct {
	Items []struct {
		Seq         int     `json:"seq"`
		Revision    int     `json:"revision"`
		Type        string  `json:"type"`
		OperationID *string `json:"operationId"`
		Actor       *struct {
			ID string `json:"id"`
		} `json:"actor"`
		Reason *string `json:"reason"`
	} `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func TestListEvents(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, bob, eve, max := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob"), handlerstest.Worker("acme", "eve"), handlerstest.Manager("acme", "max")
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann", "bob"}})
	env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "claim"), Token: env.Token(t, ann),
		Body: map[string]any{"expectedRevision": 1, "operationId": "op-claim"}}).WantStatus(t, http.StatusOK)
	env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "release"), Token: env.Token(t, ann),
		Body: map[string]any{"expectedRevision": 2, "reason": "on leave"}}).WantStatus(t, http.StatusOK)
	env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "assign"), Token: env.Token(t, max),
		Body: map[string]any{"expectedRevision": 3, "assignee": map[string]any{"id": "ann"}}}).WantStatus(t, http.StatusOK)
	events := func(t *testing.T, u handlerstest.User, query string) eventPage {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "events") + query, Token: env.Token(t, u)})
		resp.WantStatus(t, http.StatusOK)
		var p eventPage
		resp.JSON(t, &p)
		return p
	}

	t.Run("OK", func(t *testing.T) {
		p := events(t, ann, "")
		var types []string
		for i, e := range p.Items {
			types = append(types, e.Type)
			if e.Seq != i+1 || e.Revision != i+1 {
				t.Errorf("event %d: seq, revision = %d, %d, want %d, %d", i, e.Seq, e.Revision, i+1, i+1)
			}
		}
		if want := []string{"created", "claimed", "released", "assigned"}; !slices.Equal(types, want) {
			t.Errorf("types = %v, want %v", types, want)
		}
		if got := p.Items[1]; got.OperationID == nil || *got.OperationID != "op-claim" || got.Actor == nil || got.Actor.ID != "ann" {
			t.Errorf("claimed event = %+v, want op-claim by ann", got)
		}
		if got := p.Items[2].Reason; got == nil || *got != "on leave" {
			t.Errorf("released reason = %v, want on leave", got)
		}
		if p.NextCursor != nil {
			t.Errorf("nextCursor = %q, want null", *p.NextCursor)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		var types []string
		query := "?limit=1"
		for range 10 {
			p := events(t, max, query)
			for _, e := range p.Items {
				types = append(types, e.Type)
			}
			if p.NextCursor == nil {
				break
			}
			query = "?limit=1&cursor=" + url.QueryEscape(*p.NextCursor)
		}
		if want := []string{"created", "claimed", "released", "assigned"}; !slices.Equal(types, want) {
			t.Errorf("paged types = %v, want %v", types, want)
		}
	})
	t.Run("EmptyWithoutHistoryAccess", func(t *testing.T) {
		if p := events(t, bob, ""); len(p.Items) != 0 || p.NextCursor != nil {
			t.Errorf("a past candidate got %d events, want an empty page", len(p.Items))
		}
	})
	t.Run("ErrMalformedRequest", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "events") + "?cursor=bogus", Token: env.Token(t, ann)})
		resp.WantProblem(t, http.StatusBadRequest, "malformed-request")
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "events") + "?limit=0", Token: env.Token(t, ann), Contract: handlerstest.Breaks})
		if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{"limit"}) {
			t.Errorf("fields = %v, want [limit]", p.Fields())
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		missing := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(models.NewID(), "events"), Token: env.Token(t, eve)})
		missing.WantProblem(t, http.StatusNotFound, "not-found")
		invisible := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "events"), Token: env.Token(t, eve)})
		invisible.WantProblem(t, http.StatusNotFound, "not-found")
		if !bytes.Equal(missing.Body, invisible.Body) {
			t.Errorf("404 bodies differ:\n%s\n%s", missing.Body, invisible.Body)
		}
	})
}
