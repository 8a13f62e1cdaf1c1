package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"usertasks/models"
)

// visibleHasCode reports whether a page's visible text shows a raw code.
func visibleHasCode(p *webPage, code string) bool {
	return strings.Contains(webText(p.doc), code)
}

func TestWebHealthInWords(t *testing.T) {
	f := newWebFixture(t)
	blocked := f.seed(t, webTaskOpts{title: "Broken form", mutate: func(p *models.Projection) {
		p.Form = &models.PinnedForm{Requested: &models.FormRef{Provider: "files", Key: "missing"}}
	}})
	code := f.current(t, blocked.ID).Health.Code
	for _, tc := range []struct{ lang, badge, sentence string }{
		{"", "Blocked : Form could not be loaded", "could not be loaded from its form provider"},
		{"de", "Blockiert : Formular nicht ladbar", "konnte nicht von seinem Formularanbieter geladen werden"},
	} {
		t.Run(webFirstOr(tc.lang, "en"), func(t *testing.T) {
			boss := f.signIn(t, "boss")
			boss.lang = tc.lang
			list := boss.get("/inbox?tab=needs-attention").wantStatus(http.StatusOK)
			badge := webWithin(rowOf(list, blocked.ID), "health")
			// Needs attention names the finding in full: severity and name.
			if want := strings.ReplaceAll(tc.badge, " :", ":"); len(badge) != 1 || webText(badge[0]) != want {
				t.Fatalf("row health badge %q, want %q", webText(badge[0]), want)
			}
			if webAttr(badge[0], "data-health-code") != code {
				t.Fatalf("the badge lost its code hook: %q", webAttr(badge[0], "data-health-code"))
			}
			webWantContains(t, "row health tooltip", webAttr(badge[0], "title"), tc.sentence)
			page := boss.get("/tasks/" + blocked.ID).wantStatus(http.StatusOK)
			webWantContains(t, "health banner", page.text("banner-health"), tc.sentence)
			if got := webText(webWithin(page.one("task-header"), "health")[0]); got != strings.ReplaceAll(tc.badge, " :", ":") {
				t.Fatalf("task header health badge %q", got)
			}
			for name, p := range map[string]*webPage{"list": list, "task": page} {
				if visibleHasCode(p, code) {
					t.Errorf("the %s page shows the raw code %q", name, code)
				}
			}
		})
	}
}

func TestWebDefaultActionInWords(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	b.lang = "de"
	t.Run("DefaultIsTranslated", func(t *testing.T) {
		task, p := claimed(t, f, b, webTaskOpts{noForm: true, mutate: func(p *models.Projection) { p.Actions = nil }})
		button := p.one("action-" + models.ActionComplete)
		if got := webText(button); got != "Abschließen" {
			t.Fatalf("default action button %q, want Abschließen", got)
		}
		if webAttr(button, "value") != models.ActionComplete {
			t.Fatalf("the button posts %q, want the key %q", webAttr(button, "value"), models.ActionComplete)
		}
		done := b.follow(b.submit(p, "task-form", nil, button))
		webWantContains(t, "outcome", done.text("task-outcome"), "„Abschließen“")
		if f.current(t, task.ID).Outcome.ActionKey != models.ActionComplete {
			t.Fatal("the default action was not recorded by its key")
		}
	})
	t.Run("WorkflowLabelsStay", func(t *testing.T) {
		_, p := claimed(t, f, b, webTaskOpts{noForm: true, mutate: func(p *models.Projection) {
			p.Actions = []models.Action{{Key: "done", Label: "Complete"}}
		}})
		if got := p.text("action-done"); got != "Complete" {
			t.Fatalf("a workflow's label became %q", got)
		}
	})
}

func TestWebGermanAssigneeWord(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{assignee: "ann"})
	b := f.signIn(t, "ann")
	b.lang = "de"
	var labels []string
	p := b.get("/tasks/" + task.ID)
	for _, n := range p.all("task-facts") {
		labels = append(labels, webText(n))
	}
	webWantContains(t, "facts", strings.Join(labels, " "), "Bearbeiter")
	webWantContains(t, "list header", webText(b.get("/inbox").one("task-list")), "Bearbeiter")
	if strings.Contains(p.body, "Bearbeitung") {
		t.Fatal("the page still says Bearbeitung")
	}
}

func TestWebProblemsInWords(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	b.lang = "de"
	_, p := claimed(t, f, b, webTaskOpts{noForm: true})
	for _, tc := range []struct {
		action, code, want string
	}{
		{models.ActionCancelled, string(models.CodeReservedAction), "dem Workflow vorbehalten"},
		{"nope", string(models.CodeInvalidAction), "Wählen Sie eine der angebotenen Aktionen"},
	} {
		res := b.follow(b.submit(p, "task-form", map[string][]string{"action": {tc.action}}, nil)).wantStatus(http.StatusOK)
		webWantContains(t, tc.code, res.text("form-error"), tc.want)
		if visibleHasCode(res, tc.code) {
			t.Fatalf("the page shows the code %q", tc.code)
		}
	}
}
