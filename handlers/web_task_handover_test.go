package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/net/html"

	"usertasks/models"
	"usertasks/views"
)

// choicesIn are the values of the radio choices below the element with testID.
func choicesIn(p *webPage, testID string) []string {
	var out []string
	for _, n := range p.all(testID) {
		webWalk(n, func(in *html.Node) {
			if in.Type == html.ElementNode && in.Data == "input" && webAttr(in, "type") == "radio" {
				out = append(out, webAttr(in, "value"))
			}
		})
	}
	return out
}

// historyLines are the History section's one-sentence entries.
func historyLines(p *webPage) []string {
	var lines []string
	for _, n := range p.all("event-summary") {
		lines = append(lines, webText(n))
	}
	return lines
}

// unnamedAssignee leaves the seeded assignee without a name: the directory names them.
func unnamedAssignee(p *models.Projection) { p.Assignee.DisplayName = "" }

// wantUntouched fails when the task moved on from before.
func (f *webFixture) wantUntouched(t *testing.T, before models.Task) {
	t.Helper()
	got := f.current(t, before.ID)
	if got.Revision != before.Revision || !got.Assignee.Same(*before.Assignee) || (got.DelegatedBy == nil) != (before.DelegatedBy == nil) {
		t.Fatalf("task changed: revision %d→%d, assignee %v, delegatedBy %v", before.Revision, got.Revision, got.Assignee, got.DelegatedBy)
	}
}

func TestWebDelegateAndReturn(t *testing.T) {
	f := newPeopleFixture(t)
	ann, bob := f.signIn(t, "ann"), f.signIn(t, "bob")

	t.Run("OKPickDelegateReturn", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{assignee: "ann", mutate: unnamedAssignee})
		p := ann.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		p.one("delegate-section")
		p.one("delegate-people-search")
		if p.has("delegate-people-choices") || p.has("task-return") || p.has("task-delegated-by") {
			t.Fatal("before a search: choices, Return or Delegated by shown")
		}
		found := ann.get("/tasks/" + task.ID + "?delegate-people=" + url.QueryEscape("BUILDER")).wantStatus(http.StatusOK)
		if got := choicesIn(found, "delegate-people-choices"); !slices.Equal(got, []string{"bob"}) {
			t.Fatalf("delegate choices = %v, want [bob]", got)
		}
		if found.has("people-choices") {
			t.Error("the Delegate search filled the Assign picker too")
		}
		res := ann.submit(found, "delegate-form", url.Values{"to": {"bob"}, "reason": {"holiday"}}, nil)
		if res.status != http.StatusSeeOther || res.location != "/tasks/"+task.ID {
			t.Fatalf("delegate: %d → %q\n%s", res.status, res.location, res.body)
		}
		after := ann.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "flash", after.text("flash"), "Task delegated.")
		if got := after.text("task-assignee"); got != "Bob Builder" {
			t.Errorf("assignee = %q, want Bob Builder", got)
		}
		if got := after.text("task-delegated-by"); got != "You" {
			t.Errorf("delegated by = %q, want You", got)
		}
		if after.has("delegate-section") || after.has("task-return") {
			t.Error("the delegator is offered Delegate or Return after handing the task over")
		}
		stored := f.current(t, task.ID)
		if stored.Assignee == nil || stored.Assignee.ID != "bob" || stored.DelegatedBy == nil || stored.DelegatedBy.ID != "ann" {
			t.Fatalf("stored assignee %v delegatedBy %v, want bob by ann", stored.Assignee, stored.DelegatedBy)
		}

		bp := bob.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		if got := bp.text("task-delegated-by"); got != "Ann Approver" {
			t.Errorf("bob sees delegated by %q, want Ann Approver", got)
		}
		if got := bp.text("task-return"); got != "Return to Ann Approver" {
			t.Errorf("return button = %q", got)
		}
		bp.one("task-form")        // the delegate completes as usual
		bp.one("delegate-section") // and may delegate on
		res = bob.submit(bp, "task-return-form", nil, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("return: %d\n%s", res.status, res.body)
		}
		webWantContains(t, "flash", bob.follow(res).text("flash"), "Task returned.")
		stored = f.current(t, task.ID)
		if stored.Assignee == nil || stored.Assignee.ID != "ann" || stored.DelegatedBy != nil {
			t.Fatalf("after the return: assignee %v delegatedBy %v, want ann, none", stored.Assignee, stored.DelegatedBy)
		}
		lines := historyLines(ann.get("/tasks/" + task.ID + "?tab=history"))
		for _, want := range []string{"Delegated to Bob Builder by Ann Approver", "Returned to Ann Approver by Bob Builder"} {
			if !slices.Contains(lines, want) {
				t.Errorf("history = %v, want %q", lines, want)
			}
		}
	})

	t.Run("OKHostileID", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{assignee: "ann", mutate: unnamedAssignee})
		found := ann.get("/tasks/" + task.ID + "?delegate-people=" + url.QueryEscape("zoë"))
		res := ann.submit(found, "delegate-form", url.Values{"to": {"zoë/x?y#z w"}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("delegate to zoë: %d\n%s", res.status, res.body)
		}
		webWantContains(t, "assignee", ann.follow(res).text("task-assignee"), "Zoë Weird")
	})

	t.Run("ErrRefusalsRendered", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{assignee: "ann", mutate: func(p *models.Projection) {
			unnamedAssignee(p)
			p.ExcludedUsers = append(p.ExcludedUsers, models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "cara"})
		}})
		for _, c := range []struct{ name, to, want string }{
			{"Empty", "", "Choose the person to delegate the task to."},
			{"Yourself", "ann", "You cannot delegate a task to yourself."},
			{"UnknownToTheDirectory", "zed", "directory does not know"},
			{"Excluded", "cara", "This user is excluded from the task."},
			{"AGroup", "finance", "directory does not know"},
			{"ControlCharacters", "bo\x00b", "User ID"},
		} {
			t.Run(c.name, func(t *testing.T) {
				res := ann.submit(ann.get("/tasks/"+task.ID), "delegate-form", url.Values{"to": {c.to}}, nil).wantStatus(http.StatusUnprocessableEntity)
				webWantContains(t, "error", res.text("error-to"), c.want)
				if res.one("delegate-form") == nil || webAttr(webByID(res.doc, "delegate-to"), "aria-invalid") != "true" {
					t.Error("the refused field is not marked invalid")
				}
				f.wantUntouched(t, task)
			})
		}
		t.Run("StaleRevision", func(t *testing.T) {
			p := ann.get("/tasks/" + task.ID)
			res := ann.submit(p, "delegate-form", url.Values{"to": {"bob"}, "expectedRevision": {strconv.Itoa(task.Revision + 5)}}, nil).wantStatus(http.StatusConflict)
			res.one("banner-conflict")
			f.wantUntouched(t, task)
		})
		t.Run("CSRF", func(t *testing.T) {
			ann.submit(ann.get("/tasks/"+task.ID), "delegate-form", url.Values{"to": {"bob"}, views.CSRFField: {"forged"}}, nil).wantStatus(http.StatusForbidden)
			ann.submit(ann.get("/tasks/"+task.ID), "delegate-form", url.Values{"to": {"bob"}, views.CSRFField: nil}, nil).wantStatus(http.StatusForbidden)
			f.wantUntouched(t, task)
		})
		t.Run("NotYours", func(t *testing.T) {
			// Bob may not see ann's task: its commands are 404, as its page.
			token := bob.get("/inbox").csrf()
			for _, path := range []string{"/delegate", "/return"} {
				bob.post("/tasks/"+task.ID+path, url.Values{views.CSRFField: {token}, "expectedRevision": {strconv.Itoa(task.Revision)}, "to": {"cara"}}).wantStatus(http.StatusNotFound)
			}
			otto := f.signIn(t, "otto") // another tenant
			otto.post("/tasks/"+task.ID+"/delegate", url.Values{views.CSRFField: {otto.get("/inbox").csrf()}, "expectedRevision": {strconv.Itoa(task.Revision)}, "to": {"bob"}}).wantStatus(http.StatusNotFound)
			f.wantUntouched(t, task)
		})
		t.Run("ReturnWithoutADelegation", func(t *testing.T) {
			p := ann.get("/tasks/" + task.ID)
			res := ann.post("/tasks/"+task.ID+"/return", url.Values{views.CSRFField: {p.csrf()}, "expectedRevision": {strconv.Itoa(task.Revision)}}).wantStatus(http.StatusConflict)
			webWantContains(t, "banner", res.text("banner-conflict"), "nobody to return it to")
			f.wantUntouched(t, task)
		})
	})

	t.Run("ErrReplayByAnotherActor", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{assignee: "ann", mutate: unnamedAssignee})
		form := webFormValues(ann.get("/tasks/" + task.ID).one("delegate-form"))
		form.Set("to", "bob")
		res := ann.post("/tasks/"+task.ID+"/delegate", form)
		if res.status != http.StatusSeeOther {
			t.Fatalf("delegate: %d", res.status)
		}
		again := ann.post("/tasks/"+task.ID+"/delegate", form) // a double submit replays
		if again.status != http.StatusSeeOther {
			t.Fatalf("the double submit: %d, want the replay's 303", again.status)
		}
		delegated := f.current(t, task.ID)
		if delegated.Revision != task.Revision+1 {
			t.Fatalf("revision %d after a double submit, want %d", delegated.Revision, task.Revision+1)
		}
		boss := f.signIn(t, "boss") // the same operation id from someone else
		form.Set(views.CSRFField, boss.get("/inbox").csrf())
		form.Set("expectedRevision", strconv.Itoa(delegated.Revision))
		boss.post("/tasks/"+task.ID+"/delegate", form).wantStatus(http.StatusConflict)
		f.wantUntouched(t, delegated)
	})

	t.Run("OfferedToWhomTheCommandAdmits", func(t *testing.T) {
		available := f.seed(t, webTaskOpts{})
		if p := ann.get("/tasks/" + available.ID); p.has("delegate-section") || p.has("task-return") {
			t.Error("a candidate of an Available task is offered Delegate or Return")
		}
		task := f.seed(t, webTaskOpts{assignee: "ann", mutate: unnamedAssignee})
		boss := f.signIn(t, "boss")
		p := boss.get("/tasks/" + task.ID + "?delegate-people=cara&people=bob").wantStatus(http.StatusOK)
		if got := choicesIn(p, "delegate-people-choices"); !slices.Equal(got, []string{"cara"}) {
			t.Errorf("the manager's delegate choices = %v, want [cara]", got)
		}
		if got := choicesIn(p, "people-choices"); !slices.Equal(got, []string{"bob"}) {
			t.Errorf("the manager's assign choices = %v, want [bob]", got)
		}
		if p.has("task-return") {
			t.Error("a manager is offered Return")
		}
		if history := boss.get("/tasks/" + task.ID + "?tab=history"); history.has("delegate-section") {
			t.Error("Delegate shown outside the Task section")
		}
	})

	t.Run("German", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{assignee: "ann", mutate: unnamedAssignee})
		de := f.signIn(t, "ann")
		de.lang = "de"
		res := de.submit(de.get("/tasks/"+task.ID), "delegate-form", url.Values{"to": {""}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "error", res.text("error-to"), "Wählen Sie die Person")
		res = de.submit(de.get("/tasks/"+task.ID), "delegate-form", url.Values{"to": {"bob"}}, nil)
		webWantContains(t, "flash", de.follow(res).text("flash"), "Aufgabe delegiert.")
		bde := f.signIn(t, "bob")
		bde.lang = "de"
		bp := bde.get("/tasks/" + task.ID)
		if got := bp.text("task-return"); got != "An Ann Approver zurückgeben" {
			t.Errorf("return button = %q", got)
		}
		if got := bp.text("task-delegated-by"); got != "Ann Approver" {
			t.Errorf("delegated by = %q", got)
		}
		if lines := historyLines(bde.get("/tasks/" + task.ID + "?tab=history")); !slices.Contains(lines, "Delegiert an Bob Builder von Ann Approver") {
			t.Errorf("history = %v", lines)
		}
	})
}

// TestDelegateWithoutDirectory: without a directory the delegate is typed as an ID, and the
// page names them by it.
func TestDelegateWithoutDirectory(t *testing.T) {
	f := newWebFixture(t)
	ann := f.signIn(t, "ann")
	task := f.seed(t, webTaskOpts{assignee: "ann"})
	p := ann.get("/tasks/" + task.ID)
	if p.has("delegate-people-search") {
		t.Fatal("a picker without a directory")
	}
	res := ann.submit(p, "delegate-form", url.Values{"to": {"zed"}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("delegate: %d\n%s", res.status, res.body)
	}
	if got := ann.follow(res).text("task-assignee"); got != "zed (ID)" {
		t.Errorf("assignee = %q, want the id marked as one", got)
	}
	if got, err := f.store.Get(context.Background(), "t1", task.ID); err != nil || got.DelegatedBy == nil || got.DelegatedBy.ID != "ann" {
		t.Fatalf("delegatedBy %v (%v)", got.DelegatedBy, err)
	}
}
