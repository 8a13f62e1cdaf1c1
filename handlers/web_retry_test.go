package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/tasks"
)

// formProvider resolves every requested form to the web schema, like a configured provider.
type formProvider struct{}

func (formProvider) Resolve(_ context.Context, t models.Task) (tasks.Resolution, error) {
	if f := t.Protected.Form; f != nil && !f.Resolved() {
		return tasks.Resolution{Form: &models.PinnedForm{Requested: f.Requested, Provider: f.Requested.Provider,
			Key: f.Requested.Key, Version: "1", Schema: json.RawMessage(webSchema)}}, nil
	}
	return tasks.Resolution{}, nil
}

// retryPosted seeds a task whose form could not be resolved and has the manager retry it.
func retryPosted(t *testing.T, f *webFixture, lang string, mutate ...func(*models.Projection)) (models.Task, *webPage) {
	t.Helper()
	task := f.seed(t, webTaskOpts{title: "Broken form", mutate: func(p *models.Projection) {
		p.Form = &models.PinnedForm{Requested: &models.FormRef{Provider: "files", Key: "invoice"}}
		for _, m := range mutate {
			m(p)
		}
	}})
	boss := f.signIn(t, "boss")
	boss.lang = lang
	page := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	res := boss.submit(page, "manage-retry", nil, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("retry: %d\n%s", res.status, res.body)
	}
	return task, boss.follow(res).wantStatus(http.StatusOK)
}

func TestTaskPageRetryResolutionSaysWhatHappened(t *testing.T) {
	t.Run("StillBlocked", func(t *testing.T) {
		f := newWebFixture(t) // no form provider: the retry cannot help
		task, after := retryPosted(t, f, "")
		if h := f.current(t, task.ID).Health; !h.Blocking() {
			t.Fatalf("the task is no longer blocked: %+v", h)
		}
		flash := after.one("flash")
		text := webText(flash)
		webWantContains(t, "flash", text, "still blocked")
		webWantContains(t, "flash", text, "No form provider of this name is configured")
		if strings.Contains(text, "Resolution retried.") || !strings.Contains(webAttr(flash, "class"), "banner--warning") {
			t.Fatalf("the flash reports success: %q (%s)", text, webAttr(flash, "class"))
		}
		after.one("banner-health")
	})
	t.Run("StillBlockedGerman", func(t *testing.T) {
		f := newWebFixture(t)
		_, after := retryPosted(t, f, "de")
		text := after.text("flash")
		webWantContains(t, "flash", text, "weiterhin blockiert")
		webWantContains(t, "flash", text, "kein Formularanbieter dieses Namens eingerichtet")
		if visibleHasCode(after, models.HealthFormProviderMissing) {
			t.Fatal("the raw code is shown")
		}
	})
	t.Run("Resolved", func(t *testing.T) {
		f := newWebFixtureService(t, tasks.Options{Resolver: formProvider{}}, nil)
		task, after := retryPosted(t, f, "")
		if h := f.current(t, task.ID).Health; h.Severity != models.SeverityNone {
			t.Fatalf("health not cleared: %+v", h)
		}
		flash := after.one("flash")
		webWantContains(t, "flash", webText(flash), "nothing blocks the task")
		if !strings.Contains(webAttr(flash, "class"), "banner--success") {
			t.Fatalf("flash class %q", webAttr(flash, "class"))
		}
		if after.has("banner-health") {
			t.Fatal("the health banner is still shown")
		}
	})
	t.Run("ResolvedWithANote", func(t *testing.T) {
		f := newWebFixtureService(t, tasks.Options{Resolver: formProvider{}}, nil)
		task, after := retryPosted(t, f, "", func(p *models.Projection) { p.CandidateGroups, p.ExcludedUsers = nil, nil })
		if h := f.current(t, task.ID).Health; h.Code != models.HealthNoParticipants || h.Blocking() {
			t.Fatalf("health %+v, want the advisory no-participants", h)
		}
		text := after.text("flash")
		webWantContains(t, "flash", text, "nothing blocks the task")
		webWantContains(t, "flash", text, "Still to note: Nobody can work on this task")
	})
}
