package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"usertasks/formsource"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/workflow"
)

// TestFormProviderTroubleCanBeActedOn: a task whose form did not resolve names the provider
// and the form it asked for and where that provider is configured; a retry that fails again
// says why (the class of the failure, never the provider's own error).
func TestFormProviderTroubleCanBeActedOn(t *testing.T) {
	files := fstest.MapFS{
		"broken/1.json": {Data: []byte(`{"type":"object","properties":{"x":{"type":"nonsense"}}}`)},
	}
	resolver := workflow.NewResolver(workflow.ResolverOptions{Forms: map[string]formsource.Provider{
		formsource.FilesProvider: formsource.NewFileProvider(files),
	}})
	fixture := func(t *testing.T) *webFixture {
		return newWebFixtureService(t, tasks.Options{Resolver: resolver}, nil)
	}
	reqForm := func(provider, key, version string) func(*models.Projection) {
		return func(p *models.Projection) {
			p.Form = &models.PinnedForm{Requested: &models.FormRef{Provider: provider, Key: key, Version: version}}
		}
	}

	t.Run("ProviderUnknown", func(t *testing.T) {
		f := fixture(t)
		task, after := retryPostedWith(t, f, "", reqForm("legacy-forms", "invoice", "3"))
		if got := f.current(t, task.ID).Health.Code; got != models.HealthFormProviderMissing {
			t.Fatalf("health %q", got)
		}
		trouble := after.text("health-form")
		for _, want := range []string{"legacy-forms", "invoice", "3", "USERTASKS_FORMS_DIR", formsource.FilesProvider} {
			webWantContains(t, "form trouble", trouble, want)
		}
		flash := after.text("flash")
		webWantContains(t, "flash", flash, "failed again")
		webWantContains(t, "flash", flash, "No form provider of this name is configured")
	})
	t.Run("FormNotFound", func(t *testing.T) {
		f := fixture(t)
		_, after := retryPostedWith(t, f, "", reqForm(formsource.FilesProvider, "invoice", ""))
		trouble := after.text("health-form")
		webWantContains(t, "form trouble", trouble, "invoice")
		webWantContains(t, "form trouble", trouble, "USERTASKS_FORMS_DIR")
		webWantContains(t, "flash", after.text("flash"), "does not know this form or version")
	})
	t.Run("FormInvalid", func(t *testing.T) {
		f := fixture(t)
		_, after := retryPostedWith(t, f, "", reqForm(formsource.FilesProvider, "broken", "1"))
		flash := after.text("flash")
		webWantContains(t, "flash", flash, "not a valid form")
		if strings.Contains(after.body, "nonsense") || strings.Contains(flash, "broken/1.json") {
			t.Fatal("the provider's own error reached the page")
		}
	})
	t.Run("German", func(t *testing.T) {
		f := fixture(t)
		_, after := retryPostedWith(t, f, "de", reqForm("legacy-forms", "invoice", "3"))
		webWantContains(t, "flash", after.text("flash"), "erneut fehlgeschlagen")
		webWantContains(t, "form trouble", after.text("health-form"), "USERTASKS_FORMS_DIR")
	})
	t.Run("HostileNames", func(t *testing.T) {
		f := fixture(t)
		_, after := retryPostedWith(t, f, "", reqForm("<script>alert(1)</script>", "<img src=x>", ""))
		if strings.Contains(after.body, "<script>alert(1)") || strings.Contains(after.body, "<img src=x>") {
			t.Fatal("a provider name from the workflow is not escaped")
		}
		webWantContains(t, "form trouble", after.text("health-form"), "<script>alert(1)</script>")
	})
}

// retryPostedWith is retryPosted for a fixture whose resolver tells why a retry fails.
func retryPostedWith(t *testing.T, f *webFixture, lang string, mutate func(*models.Projection)) (models.Task, *webPage) {
	t.Helper()
	task := f.seed(t, webTaskOpts{title: "Broken form", mutate: mutate})
	boss := f.signIn(t, "boss")
	boss.lang = lang
	page := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	res := boss.submit(page, "manage-retry", nil, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("retry: %d\n%s", res.status, res.body)
	}
	return task, boss.follow(res).wantStatus(http.StatusOK)
}
