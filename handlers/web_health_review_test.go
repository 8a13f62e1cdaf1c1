package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/views/i18n"
)

// healthTask stores a task with a given health finding (assigned to ann, cancellable).
func (f *webFixture) healthTask(t *testing.T, title string, h models.Health) models.Task {
	t.Helper()
	return testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{Title: title, Assignee: "ann",
		CancellationEnabled: true, Health: h})
}

// reviewOf reads the health review of a task page: its remedy and the forms it offers.
func reviewOf(t *testing.T, p *webPage) (remedy string, forms []string) {
	t.Helper()
	review := p.one("health-review")
	for _, id := range []string{"health-fix-retry", "health-fix-assign", "health-fix-cancel"} {
		if len(webWithin(review, id)) > 0 {
			forms = append(forms, id)
		}
	}
	return webAttr(review, "data-remedy"), forms
}

func TestTaskPageHealthReview(t *testing.T) {
	f := newWebFixture(t)
	blocked := f.seed(t, webTaskOpts{title: "Broken form", mutate: func(p *models.Projection) {
		p.Form = &models.PinnedForm{Requested: &models.FormRef{Provider: "files", Key: "missing"}}
	}})
	nobody := testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{Title: "Nobody's task", CancellationEnabled: true})
	ambiguous := f.healthTask(t, "Unclear", models.Health{Severity: models.SeverityAdvisory, Code: models.HealthRuntimeAnswerAmbiguous, Message: "unclear"})
	failing := f.healthTask(t, "Undelivered", models.Health{Severity: models.SeverityAdvisory, Code: models.HealthResumeDeliveryFailing, Message: "failing"})
	unnotified := f.healthTask(t, "Unnotified", models.Health{Severity: models.SeverityAdvisory, Code: models.HealthNotificationDeliveryFailing, Message: "failing"})
	if nobody.Health.Code != models.HealthNoParticipants {
		t.Fatalf("a task without participants has health %+v", nobody.Health)
	}

	t.Run("ExplainsEachFindingWithItsAction", func(t *testing.T) {
		boss := f.signIn(t, "boss")
		for _, c := range []struct {
			task   models.Task
			remedy models.Remedy
			forms  []string
		}{
			{blocked, models.RemedyRetryResolution, []string{"health-fix-retry"}},
			{nobody, models.RemedyAssign, []string{"health-fix-assign"}},
			{ambiguous, models.RemedyCancel, []string{"health-fix-cancel"}},
			{failing, models.RemedyWait, nil},
			{unnotified, models.RemedyCheckDelivery, nil},
		} {
			p := boss.get(webTaskHref(c.task.ID)).wantStatus(http.StatusOK)
			remedy, forms := reviewOf(t, p)
			if remedy != string(c.remedy) || !slices.Equal(forms, c.forms) {
				t.Errorf("%s: remedy %q with forms %v, want %q with %v", c.task.Title, remedy, forms, c.remedy, c.forms)
			}
			code := c.task.Health.Code
			if code == "" {
				code = f.current(t, c.task.ID).Health.Code
			}
			webWantContains(t, c.task.Title+" meaning", p.text("health-meaning"), english.HealthReview.Meaning(code))
			webWantContains(t, c.task.Title+" cause", p.text("health-cause"), english.HealthReview.Cause(code))
			webWantContains(t, c.task.Title+" remedy", p.text("health-remedy"), english.HealthReview.Remedies[c.remedy])
			if visibleHasCode(p, code) {
				t.Errorf("%s: the page shows the raw code %q", c.task.Title, code)
			}
			for _, id := range c.forms {
				form := p.one(id)
				if got, want := webAttr(form, "action"), webTaskHref(c.task.ID)+"/"+map[string]string{
					"health-fix-retry": "retry-resolution", "health-fix-assign": "assign", "health-fix-cancel": "cancel"}[id]; got != want {
					t.Errorf("%s: form posts to %q, want %q", c.task.Title, got, want)
				}
				values := webFormValues(form)
				if values.Get("csrf_token") == "" || values.Get("expectedRevision") == "" || values.Get("operationId") == "" {
					t.Errorf("%s: the form lacks its CSRF token or command fields: %v", c.task.Title, values)
				}
				if len(webWithin(form, "health-fix-submit")) != 1 {
					t.Errorf("%s: the form has no button", c.task.Title)
				}
			}
		}
	})

	t.Run("German", func(t *testing.T) {
		boss := f.signIn(t, "boss")
		boss.lang = "de"
		p := boss.get(webTaskHref(blocked.ID)).wantStatus(http.StatusOK)
		webWantContains(t, "meaning", p.text("health-meaning"), german.HealthReview.Meaning(models.HealthFormResolutionFailed))
		webWantContains(t, "button", webText(webWithin(p.one("health-fix-retry"), "health-fix-submit")[0]), "Auflösung wiederholen")
	})

	t.Run("AssignFixesNoParticipants", func(t *testing.T) {
		boss := f.signIn(t, "boss")
		page := boss.get(webTaskHref(nobody.ID))
		refused := boss.submit(page, "health-fix-assign", url.Values{"assignee": {"  "}}, nil)
		if refused.status != http.StatusUnprocessableEntity {
			t.Fatalf("an empty assignee answers %d, want 422", refused.status)
		}
		forged := boss.submit(page, "health-fix-assign", url.Values{"assignee": {"ann"}, "csrf_token": {"forged"}}, nil)
		if forged.status != http.StatusForbidden {
			t.Fatalf("a forged CSRF token answers %d, want 403", forged.status)
		}
		done := boss.submit(page, "health-fix-assign", url.Values{"assignee": {"ann"}}, nil)
		if done.status != http.StatusSeeOther || done.location != webTaskHref(nobody.ID) {
			t.Fatalf("assign answers %d → %q, want 303 to the task", done.status, done.location)
		}
		after := boss.follow(done).wantStatus(http.StatusOK)
		if got := f.current(t, nobody.ID); got.Assignee == nil || got.Assignee.ID != "ann" || got.Health.Severity != models.SeverityNone {
			t.Fatalf("after assigning: assignee %v, health %+v", got.Assignee, got.Health)
		}
		if after.has("health-review") {
			t.Fatal("the cleared finding is still explained")
		}
	})

	t.Run("RetryFixesTheForm", func(t *testing.T) {
		boss := f.signIn(t, "boss")
		done := boss.submit(boss.get(webTaskHref(blocked.ID)), "health-fix-retry", nil, nil)
		if done.status != http.StatusSeeOther || done.location != webTaskHref(blocked.ID) {
			t.Fatalf("retry answers %d → %q, want 303 to the task", done.status, done.location)
		}
	})

	t.Run("CancelNeedsAReason", func(t *testing.T) {
		boss := f.signIn(t, "boss")
		page := boss.get(webTaskHref(ambiguous.ID))
		if p := boss.submit(page, "health-fix-cancel", url.Values{"reason": {""}}, nil); p.status != http.StatusUnprocessableEntity {
			t.Fatalf("cancel without a reason answers %d, want 422", p.status)
		}
		if p := boss.submit(page, "health-fix-cancel", url.Values{"reason": {"gone \u202e"}}, nil); p.status != http.StatusUnprocessableEntity {
			t.Fatalf("cancel with a bidi override in the reason answers %d, want 422", p.status)
		}
		done := boss.submit(page, "health-fix-cancel", url.Values{"reason": {"The instance ended – ünïcødé"}}, nil)
		if done.status != http.StatusSeeOther {
			t.Fatalf("cancel answers %d, want 303: %s", done.status, done.body)
		}
		if got := f.current(t, ambiguous.ID).Status; got != models.StatusCancelling && got != models.StatusCancelled {
			t.Fatalf("status %s after cancelling", got)
		}
	})

	t.Run("OnlyManagersSeeIt", func(t *testing.T) {
		ann := f.signIn(t, "ann") // the assignee of the advisory tasks
		p := ann.get(webTaskHref(failing.ID)).wantStatus(http.StatusOK)
		if p.has("health-review") || p.has("banner-health") {
			t.Fatal("a non-manager sees the health review")
		}
		ann.get(webTaskHref(blocked.ID)).wantStatus(http.StatusNotFound)
	})
}

func TestInboxNeedsAttentionReasons(t *testing.T) {
	f := newWebFixtureService(t, tasks.Options{UnassignedAfter: time.Nanosecond}, nil)
	overdue := f.seed(t, webTaskOpts{title: "Late", assignee: "ann", due: webPtr(time.Now().Add(-time.Hour))})
	waiting := f.seed(t, webTaskOpts{title: "Waiting"})
	nobody := testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{Title: "Nobody's task"})
	f.seed(t, webTaskOpts{title: "Fine", assignee: "ann"})

	boss := f.signIn(t, "boss")
	p := boss.get("/inbox?tab=needs-attention").wantStatus(http.StatusOK)
	if got := rowTitles(p); len(got) != 3 || slices.Contains(got, "Fine") {
		t.Fatalf("needs-attention rows %v", got)
	}
	reasons := func(id string) []string {
		var out []string
		for _, n := range webWithin(rowOf(p, id), "attention-reason") {
			out = append(out, webAttr(n, "data-reason"))
		}
		return out
	}
	if got := reasons(overdue.ID); !slices.Equal(got, []string{"overdue"}) {
		t.Errorf("overdue row reasons %v", got)
	}
	if got := reasons(waiting.ID); !slices.Equal(got, []string{"unassigned"}) {
		t.Errorf("unassigned row reasons %v", got)
	}
	row := rowOf(p, waiting.ID)
	webWantContains(t, "unassigned reason", webText(webWithin(row, "row-attention")[0]), "Unassigned since")
	times := webWithinTag(webWithin(row, "row-attention")[0], "time")
	if len(times) != 1 || webAttr(times[0], "datetime") != waiting.CreatedAt.UTC().Format(time.RFC3339) {
		t.Errorf("the unassigned reason's time is not the task's creation: %v", times)
	}
	// The finding in full (severity and name), the unassigned age as well.
	badge := webWithin(rowOf(p, nobody.ID), "health")
	if len(badge) != 1 || webText(badge[0]) != "Advisory: No participants" {
		t.Errorf("health badge %q", webText(badge[0]))
	}
	if got := reasons(nobody.ID); !slices.Equal(got, []string{"unassigned"}) {
		t.Errorf("no-participants row reasons %v", got)
	}
	if all := boss.get("/inbox?tab=all"); all.has("row-attention") {
		t.Error("the All list tells attention reasons")
	}
}

var english, german = i18n.Match("en"), i18n.Match("de")

func TestInboxHealthFilters(t *testing.T) {
	f := newWebFixture(t)
	for range 11 {
		f.seed(t, webTaskOpts{title: "Broken form", mutate: func(p *models.Projection) {
			p.Form = &models.PinnedForm{Requested: &models.FormRef{Provider: "files", Key: "missing"}}
		}})
	}
	testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{Title: "Nobody's task"})
	f.seed(t, webTaskOpts{title: "Fine", assignee: "ann"})
	boss := f.signIn(t, "boss")

	t.Run("ByCodeAcrossPages", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&healthCode=form-resolution-failed&pageSize=10").wantStatus(http.StatusOK)
		if got := rowTitles(p); len(got) != 10 || slices.ContainsFunc(got, func(s string) bool { return s != "Broken form" }) {
			t.Fatalf("first page %v", got)
		}
		if !webHasAttr(p.one("filter-healthCode-form-resolution-failed"), "checked") {
			t.Fatal("the code's checkbox is not checked")
		}
		next := webAttr(p.one("page-next"), "href")
		u, _ := url.Parse(next)
		if got := u.Query()["healthCode"]; !slices.Equal(got, []string{"form-resolution-failed"}) || u.Query().Get("cursor") == "" {
			t.Fatalf("next page link %q lost the filter or the cursor", next)
		}
		second := boss.get(next).wantStatus(http.StatusOK)
		if got := rowTitles(second); !slices.Equal(got, []string{"Broken form"}) {
			t.Fatalf("second page %v", got)
		}
		if prev := webAttr(second.one("page-prev"), "href"); !strings.Contains(prev, "healthCode=form-resolution-failed") {
			t.Fatalf("previous page link %q lost the filter", prev)
		}
	})
	t.Run("BySeverityAndRepeatedCodes", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&healthSeverity=advisory").wantStatus(http.StatusOK)
		if got := rowTitles(p); !slices.Equal(got, []string{"Nobody's task"}) {
			t.Fatalf("advisory rows %v", got)
		}
		p = boss.get("/inbox?tab=needs-attention&healthCode=no-participants&healthCode=form-resolution-failed&pageSize=25")
		if got := rowTitles(p); len(got) != 12 {
			t.Fatalf("rows of either code: %d", len(got))
		}
	})
	t.Run("RepeatedCodesCountOnce", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&pageSize=10&" + strings.Repeat("healthCode=form-resolution-failed&", 500)).wantStatus(http.StatusOK)
		u, _ := url.Parse(webAttr(p.one("page-next"), "href"))
		if got := u.Query()["healthCode"]; !slices.Equal(got, []string{"form-resolution-failed"}) {
			t.Fatalf("the next link repeats the code %d times", len(got))
		}
	})
	t.Run("EmptyValuesAreTidied", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&healthCode=&healthSeverity=")
		if p.status != http.StatusSeeOther || p.location != "/inbox?tab=all" {
			t.Fatalf("empty filters answer %d → %q", p.status, p.location)
		}
	})
	t.Run("UnknownValuesAre422", func(t *testing.T) {
		for query, input := range map[string]string{
			"healthCode=nope": "healthCode",
			"healthCode=no-participants&healthCode=%00":      "healthCode",
			"healthCode=%3Cscript%3Ealert(1)%3C%2Fscript%3E": "healthCode",
			"healthCode=" + strings.Repeat("%C3%A9", 300):    "healthCode",
			"healthSeverity=critical":                        "healthSeverity",
		} {
			p := boss.get("/inbox?tab=all&" + query)
			if p.status != http.StatusUnprocessableEntity || !p.has("error-"+input) {
				t.Errorf("%.60s: %d, error next to %s: %v", query, p.status, input, p.has("error-"+input))
			}
			if strings.Contains(p.body, "<script>alert") {
				t.Errorf("%.60s: the page echoes markup", query)
			}
		}
	})
	t.Run("NonManagersAreRefused", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		if p := ann.get("/inbox"); p.has("filter-healthCode") || p.has("filter-healthSeverity") {
			t.Fatal("a non-manager is offered the health filters")
		}
		for _, q := range []string{"healthCode=form-resolution-failed", "tab=available&healthSeverity=blocking", "healthCode=nope"} {
			p := ann.get("/inbox?" + q)
			if p.status != http.StatusForbidden {
				t.Errorf("%s: %d, want 403", q, p.status)
			}
		}
	})
}

// webTaskHref is a task page's path.
func webTaskHref(id string) string { return "/tasks/" + url.PathEscape(id) }

// TestInboxNotificationDeliveryFailing: a task flagged notification-delivery-failing is in the
// manager's Needs attention with the finding's name, and the health filter offers the code.
func TestInboxNotificationDeliveryFailing(t *testing.T) {
	f := newWebFixture(t)
	f.healthTask(t, "Unnotified", models.Health{Severity: models.SeverityAdvisory, Code: models.HealthNotificationDeliveryFailing, Message: "failing"})
	f.seed(t, webTaskOpts{title: "Fine", assignee: "ann"})
	boss := f.signIn(t, "boss")
	p := boss.get("/inbox?tab=needs-attention&healthCode=" + models.HealthNotificationDeliveryFailing).wantStatus(http.StatusOK)
	if got := rowTitles(p); !slices.Equal(got, []string{"Unnotified"}) {
		t.Fatalf("rows %v, want the flagged task only", got)
	}
	if !webHasAttr(p.one("filter-healthCode-"+models.HealthNotificationDeliveryFailing), "checked") {
		t.Fatal("the code's checkbox is not checked")
	}
	if got := webAttr(p.one("health"), "data-health-code"); got != models.HealthNotificationDeliveryFailing {
		t.Fatalf("the row's finding is %q", got)
	}
	webWantContains(t, "finding", p.text("health"), english.HealthName(models.HealthNotificationDeliveryFailing))
}
