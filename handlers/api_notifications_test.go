package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
	"usertasks/testfactory"
)

type notificationWire struct {
	ID      string `json:"id"`
	Trigger string `json:"trigger"`
	TaskID  string `json:"taskId"`
	Title   string `json:"title"`
	Actor   *struct {
		ID          string `json:"id"`
		DisplayName string `json:"displayName"`
	} `json:"actor"`
	OccurredAt string  `json:"occurredAt"`
	ReadAt     *string `json:"readAt"`
}

type notificationPageWire struct {
	Items       []notificationWire `json:"items"`
	NextCursor  *string            `json:"nextCursor"`
	UnreadCount int                `json:"unreadCount"`
}

func TestNotificationsAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ctx := context.Background()
	annID := "ann/?# ü" // an id that must survive paths, keys and JSON
	ann := env.Token(t, handlerstest.Worker("acme", annID, "finance"))
	bob := env.Token(t, handlerstest.Worker("acme", "bob", "finance"))
	annElsewhere := env.Token(t, handlerstest.Worker("globex", annID, "finance"))

	task := env.Task(t, handlerstest.TaskOpts{Title: "Approve invoice", Groups: []string{"finance"}})
	boss := testfactory.User("acme", "max")
	boss.DisplayName = "Max Boss"
	var shown []models.Notification
	for range 3 {
		shown = append(shown, testfactory.ShowNotification(ctx, t, env.Store, task, models.TriggerTaskAssigned, annID, &boss))
		time.Sleep(2 * time.Millisecond) // distinct occurredAt, newest first
		task.Revision++                  // another key
	}
	bobs := testfactory.ShowNotification(ctx, t, env.Store, task, models.TriggerTaskAvailable, "bob", nil)

	list := func(t *testing.T, token, query string) notificationPageWire {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notifications" + query, Token: token})
		resp.WantStatus(t, http.StatusOK)
		var p notificationPageWire
		resp.JSON(t, &p)
		return p
	}
	read := func(t *testing.T, token string, body any) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/me/notifications/read", Token: token, Body: body})
	}

	t.Run("OK", func(t *testing.T) {
		p := list(t, ann, "")
		if len(p.Items) != 3 || p.UnreadCount != 3 || p.NextCursor != nil {
			t.Fatalf("ann's page: %+v", p)
		}
		if p.Items[0].ID != shown[2].ID || p.Items[2].ID != shown[0].ID {
			t.Fatalf("not newest first: %v", []string{p.Items[0].ID, p.Items[1].ID, p.Items[2].ID})
		}
		it := p.Items[0]
		if it.Trigger != "task-assigned" || it.TaskID != task.ID || it.Title != "Approve invoice" || it.ReadAt != nil ||
			it.Actor == nil || it.Actor.ID != "max" || it.Actor.DisplayName != "Max Boss" {
			t.Fatalf("item %+v", it)
		}
	})

	t.Run("Paging", func(t *testing.T) {
		first := list(t, ann, "?limit=2")
		if len(first.Items) != 2 || first.NextCursor == nil {
			t.Fatalf("first page %+v", first)
		}
		second := list(t, ann, "?limit=2&cursor="+url.QueryEscape(*first.NextCursor))
		if len(second.Items) != 1 || second.NextCursor != nil || second.Items[0].ID != shown[0].ID {
			t.Fatalf("second page %+v", second)
		}
		// A cursor of the whole list used with unread=true belongs to other filters.
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notifications?unread=true&cursor=" + url.QueryEscape(*first.NextCursor), Token: ann}).
			WantProblem(t, http.StatusBadRequest, "malformed-request")
	})

	t.Run("ErrBadQuery", func(t *testing.T) {
		for _, q := range []string{"?cursor=%21%21", "?cursor=eyJ2IjoxfQ", "?cursor=eyJ2IjoxLCJhdCI6IngiLCJpZCI6ImEifQ"} {
			env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notifications" + q, Token: ann}).
				WantProblem(t, http.StatusBadRequest, "malformed-request")
		}
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notifications?cursor=" + strings.Repeat("A", 600), Token: ann, Contract: handlerstest.Breaks}).
			WantProblem(t, http.StatusBadRequest, "malformed-request")
		for _, q := range []string{"?unread=yes", "?limit=0", "?limit=x"} {
			env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notifications" + q, Token: ann, Contract: handlerstest.Breaks}).
				WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
		}
	})

	t.Run("Isolation", func(t *testing.T) {
		if p := list(t, bob, ""); len(p.Items) != 1 || p.Items[0].ID != bobs.ID || p.UnreadCount != 1 {
			t.Fatalf("bob's page %+v", p)
		}
		if p := list(t, annElsewhere, ""); len(p.Items) != 0 || p.UnreadCount != 0 {
			t.Fatalf("the same id in another tenant sees %+v", p)
		}
		// Someone else's id, replayed: ignored (204, nothing changes, no hint).
		read(t, bob, map[string]any{"ids": []string{shown[0].ID}}).WantStatus(t, http.StatusNoContent)
		read(t, annElsewhere, map[string]any{"all": true}).WantStatus(t, http.StatusNoContent)
		if p := list(t, ann, "?unread=true"); p.UnreadCount != 3 || len(p.Items) != 3 {
			t.Fatalf("another person's read marked ann's: %+v", p)
		}
	})

	t.Run("MarkRead", func(t *testing.T) {
		read(t, ann, map[string]any{"ids": []string{shown[1].ID, "unknown-id"}}).WantStatus(t, http.StatusNoContent)
		p := list(t, ann, "?unread=true")
		if p.UnreadCount != 2 || len(p.Items) != 2 || slices.ContainsFunc(p.Items, func(n notificationWire) bool { return n.ID == shown[1].ID }) {
			t.Fatalf("after marking one: %+v", p)
		}
		if all := list(t, ann, ""); all.Items[1].ReadAt == nil {
			t.Fatalf("the read one has no readAt: %+v", all.Items[1])
		}
		read(t, ann, map[string]any{"all": true}).WantStatus(t, http.StatusNoContent)
		if p := list(t, ann, "?unread=true"); p.UnreadCount != 0 || len(p.Items) != 0 {
			t.Fatalf("after all: %+v", p)
		}
		if p := list(t, bob, ""); p.UnreadCount != 1 {
			t.Fatalf("ann's all marked bob's: %+v", p)
		}
	})

	t.Run("ErrMarkReadInvalid", func(t *testing.T) {
		many := make([]string, 201)
		for i := range many {
			many[i] = "x"
		}
		for _, c := range []struct {
			name     string
			body     any
			contract handlerstest.Contract
		}{
			{"Neither", map[string]any{}, handlerstest.Conforms},
			{"Both", map[string]any{"ids": []string{"a"}, "all": true}, handlerstest.Conforms},
			{"Empty", map[string]any{"ids": []string{""}}, handlerstest.Breaks},
			{"Control", map[string]any{"ids": []string{"a\u0000b"}}, handlerstest.Conforms},
			{"TooMany", map[string]any{"ids": many}, handlerstest.Breaks},
			{"AllFalse", map[string]any{"all": false}, handlerstest.Conforms},
		} {
			t.Run(c.name, func(t *testing.T) {
				p := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/me/notifications/read", Token: ann, Body: c.body, Contract: c.contract}).
					WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
				if !slices.Contains(p.Fields(), "ids") {
					t.Fatalf("fields %v, want ids", p.Fields())
				}
			})
		}
		env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/me/notifications/read", Token: ann, Body: `{"ids":`, Contract: handlerstest.Breaks}).
			WantStatus(t, http.StatusBadRequest)
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		for _, r := range []handlerstest.Request{
			{Method: http.MethodGet, Path: "/api/v1/me/notifications"},
			{Method: http.MethodPost, Path: "/api/v1/me/notifications/read", Body: map[string]any{"all": true}},
			{Method: http.MethodGet, Path: "/api/v1/me/notification-preferences"},
			{Method: http.MethodPut, Path: "/api/v1/me/notification-preferences", Body: map[string]any{}},
		} {
			r.Contract = handlerstest.Breaks
			env.Do(t, r).WantProblem(t, http.StatusUnauthorized, "unauthenticated")
		}
	})
}

type preferencesWire struct {
	Email  map[string]bool `json:"email"`
	Digest string          `json:"digest"`
}

func TestNotificationPreferencesAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann := env.Token(t, handlerstest.Worker("acme", "ann"))
	annElsewhere := env.Token(t, handlerstest.Worker("globex", "ann"))
	get := func(t *testing.T, token string) preferencesWire {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notification-preferences", Token: token})
		resp.WantStatus(t, http.StatusOK)
		var p preferencesWire
		resp.JSON(t, &p)
		return p
	}
	put := func(t *testing.T, token string, body any) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodPut, Path: "/api/v1/me/notification-preferences", Token: token, Body: body})
	}
	putBad := func(t *testing.T, token string, body any) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodPut, Path: "/api/v1/me/notification-preferences", Token: token, Body: body, Contract: handlerstest.Breaks})
	}

	t.Run("Defaults", func(t *testing.T) {
		p := get(t, ann)
		want := map[string]bool{"task-assigned": true, "mentioned": true, "escalated": true, "overdue": true,
			"task-available": false, "due-soon": false, "comment-added": false, "returned": false}
		if p.Digest != "off" || len(p.Email) != len(want) {
			t.Fatalf("defaults %+v", p)
		}
		for k, v := range want {
			if p.Email[k] != v {
				t.Errorf("default %s = %v, want %v", k, p.Email[k], v)
			}
		}
	})

	t.Run("OK", func(t *testing.T) {
		resp := put(t, ann, map[string]any{"email": map[string]bool{"task-available": true, "overdue": false}, "digest": "daily"})
		resp.WantStatus(t, http.StatusOK)
		p := get(t, ann)
		if !p.Email["task-available"] || p.Email["overdue"] || !p.Email["task-assigned"] || p.Digest != "daily" {
			t.Fatalf("after put %+v", p)
		}
		// Left out: kept.
		put(t, ann, map[string]any{"email": map[string]bool{"returned": true}}).WantStatus(t, http.StatusOK)
		if p := get(t, ann); !p.Email["task-available"] || !p.Email["returned"] || p.Digest != "daily" {
			t.Fatalf("a partial put lost choices: %+v", p)
		}
		if p := get(t, annElsewhere); p.Digest != "off" || !p.Email["overdue"] {
			t.Fatalf("another tenant's ann got ann's choices: %+v", p)
		}
	})

	t.Run("ErrUnknown", func(t *testing.T) {
		for _, c := range []struct {
			name  string
			body  any
			field string
		}{
			{"Trigger", map[string]any{"email": map[string]bool{"task-exploded": true}}, "email.task-exploded"},
			{"Digest", map[string]any{"digest": "weekly"}, "digest"},
			{"DigestEmpty", map[string]any{"digest": ""}, "digest"},
		} {
			t.Run(c.name, func(t *testing.T) {
				p := put(t, ann, c.body).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
				if !slices.Contains(p.Fields(), c.field) {
					t.Fatalf("fields %v, want %s", p.Fields(), c.field)
				}
			})
		}
		if p := get(t, ann); p.Digest != "daily" {
			t.Fatalf("a refused put changed the preferences: %+v", p)
		}
		// A value of the wrong type: refused (whether encoding/json names the map member decides
		// between 422 naming it and 400), never stored.
		if r := putBad(t, ann, `{"email": {"overdue": "yes"}}`); r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusBadRequest {
			t.Fatalf("a string for a boolean: %d", r.Status)
		}
		putBad(t, ann, `{"email": {}, "extra": 1}`).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
		putBad(t, ann, `{"email":`).WantProblem(t, http.StatusBadRequest, "malformed-request")
		if p := get(t, ann); p.Digest != "daily" || p.Email["overdue"] {
			t.Fatalf("a refused put changed the preferences: %+v", p)
		}
	})
}

// TestPeopleRecorded: an authenticated request records its user (name, the email claim,
// manager) once a minute at most, per tenant; a guest or an unauthenticated request records
// nobody.
func TestPeopleRecorded(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ctx := context.Background()
	max := handlerstest.Manager("acme", "max")
	max.Name, max.Email = "Max Boss", "max@example.com"
	token := env.Token(t, max)
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notification-preferences", Token: token}).WantStatus(t, http.StatusOK)
	p, err := env.Store.Person(ctx, "acme", max.Ref())
	if err != nil {
		t.Fatalf("max was not recorded: %v", err)
	}
	if p.User.DisplayName != "Max Boss" || p.Email != "max@example.com" || !p.Manager || p.Language == "" {
		t.Fatalf("recorded %+v", p)
	}
	if _, err := env.Store.Person(ctx, "globex", max.Ref()); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("recorded in another tenant: %v", err)
	}

	// Within the minute, a token without the email claim and a new name changes nothing.
	again := max
	again.Name, again.Email = "Renamed", ""
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/notifications", Token: env.Token(t, again)}).WantStatus(t, http.StatusOK)
	if p, _ := env.Store.Person(ctx, "acme", max.Ref()); p.User.DisplayName != "Max Boss" || p.Email != "max@example.com" {
		t.Fatalf("rewritten within the minute: %+v", p)
	}
}
