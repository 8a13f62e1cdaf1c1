package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

// webPeopleDirectory names the web fixture's tenant t1: ann, bob and boss as the dev users
// call them, a user with URL syntax and non-ASCII in the id, one without a name, and the group
// finance.
func webPeopleDirectory(t *testing.T) directory.Static {
	t.Helper()
	d, err := directory.ParseStatic([]byte(`{"tenants": {"t1": {"users": [
	  {"id": "ann", "displayName": "Ann Approver", "groups": ["finance"]},
	  {"id": "bob", "displayName": "Bob Builder"},
	  {"id": "boss", "displayName": "Bea Boss"},
	  {"id": "cara", "displayName": "Cara Cole", "groups": ["finance"]},
	  {"id": "zoë/x?y#z w", "displayName": "Zoë Weird"},
	  {"id": "nameless", "groups": ["finance"]}],
	  "groups": [{"id": "finance", "displayName": "Finance"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func newPeopleFixture(t *testing.T) *webFixture {
	t.Helper()
	return newWebFixtureService(t, tasks.Options{Directory: webPeopleDirectory(t)}, nil)
}

// choices are the picker's listed people: "label|value".
func choices(p *webPage) []string {
	var out []string
	for _, n := range p.all("people-choices") {
		webWalk(n, func(in *html.Node) {
			if in.Type == html.ElementNode && in.Data == "input" && webAttr(in, "type") == "radio" {
				out = append(out, webAttr(in, "value"))
			}
		})
	}
	return out
}

func TestPeoplePicker(t *testing.T) {
	f := newPeopleFixture(t)
	boss := f.signIn(t, "boss")

	t.Run("OKSearchChooseAssign", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		p := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		if !p.has("people-search") || p.has("people-choices") {
			t.Fatalf("before a search: search form %v, choices %v; want the form only", p.has("people-search"), p.has("people-choices"))
		}
		if got := webAttr(p.one("people-search"), "method"); got != "get" {
			t.Errorf("search method = %q, want get", got)
		}
		found := boss.get("/tasks/" + task.ID + "?people=" + url.QueryEscape("BUIL")).wantStatus(http.StatusOK)
		if got := choices(found); !slices.Equal(got, []string{"bob"}) {
			t.Fatalf("choices = %v, want [bob]", got)
		}
		webWantContains(t, "choice", found.text("person-choice"), "Bob Builder")
		if found.has("assign-assignee") {
			t.Error("the ID field is shown next to the choices")
		}
		res := boss.submit(found, "manage-assign", url.Values{"assignee": {"bob"}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("assign: %d\n%s", res.status, res.body)
		}
		after := boss.follow(res)
		if got := after.text("task-assignee"); got != "Bob Builder" {
			t.Errorf("assignee = %q, want Bob Builder", got)
		}
		if got := f.current(t, task.ID).Assignee; got == nil || got.ID != "bob" || got.DisplayName != "Bob Builder" {
			t.Errorf("stored assignee = %+v", got)
		}
		hist := boss.get("/tasks/" + task.ID + "?tab=history")
		var lines []string
		for _, n := range hist.all("event-summary") {
			lines = append(lines, webText(n))
		}
		if !slices.Contains(lines, "Assigned to Bob Builder by Bea Boss") {
			t.Errorf("history = %v, want “Assigned to Bob Builder by Bea Boss”", lines)
		}
	})
	t.Run("OKHostileSearch", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		for q, want := range map[string][]string{
			"?y#z ":     {"zoë/x?y#z w"},
			"ZOË":       {"zoë/x?y#z w"},
			"%":         nil,
			"<script>":  nil,
			"nameless":  {"nameless"},
			"finance":   nil, // groups are not assignees
			"Ann Appro": {"ann"},
		} {
			p := boss.get("/tasks/" + task.ID + "?people=" + url.QueryEscape(q)).wantStatus(http.StatusOK)
			if got := choices(p); !slices.Equal(got, want) {
				t.Errorf("%q: choices = %v, want %v", q, got, want)
			}
			if want == nil && !p.has("people-none") {
				t.Errorf("%q: no “no matches” message", q)
			}
		}
		p := boss.get("/tasks/" + task.ID + "?people=nameless")
		webWantContains(t, "unnamed choice", p.text("person-choice"), "nameless (ID)")
		res := boss.submit(boss.get("/tasks/"+task.ID+"?people="+url.QueryEscape("zoë")), "manage-assign", url.Values{"assignee": {"zoë/x?y#z w"}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("assign zoë: %d\n%s", res.status, res.body)
		}
		webWantContains(t, "assignee", boss.follow(res).text("task-assignee"), "Zoë Weird")
	})
	t.Run("ErrSearchRefused", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		for _, q := range []string{"a\x00b", "a\u202eb", strings.Repeat("x", 201)} {
			p := boss.get("/tasks/" + task.ID + "?people=" + url.QueryEscape(q)).wantStatus(http.StatusOK)
			if !p.has("people-search-error") || p.has("people-choices") {
				t.Errorf("%q: error %v, choices %v; want the message and no choices", q, p.has("people-search-error"), p.has("people-choices"))
			}
		}
	})
	t.Run("ErrUnknownAssignee", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		p := boss.get("/tasks/" + task.ID)
		res := boss.submit(p, "manage-assign", url.Values{"assignee": {"zed"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "error", res.text("error-assignee"), "directory does not know")
		if got := f.current(t, task.ID); got.Revision != task.Revision || got.Assignee != nil {
			t.Errorf("task changed: revision %d, assignee %+v", got.Revision, got.Assignee)
		}
		// A refused choice keeps the search: the choices are listed again with the message.
		found := boss.get("/tasks/" + task.ID + "?people=bob")
		res = boss.submit(found, "manage-assign", url.Values{"assignee": {"bobby"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		if got := choices(res); !slices.Equal(got, []string{"bob"}) {
			t.Errorf("choices after the refusal = %v, want [bob]", got)
		}
		res.one("error-assignee")
	})
	t.Run("ErrCSRF", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		found := boss.get("/tasks/" + task.ID + "?people=bob")
		boss.submit(found, "manage-assign", url.Values{"assignee": {"bob"}, views.CSRFField: {"forged"}}, nil).wantStatus(http.StatusForbidden)
		if got := f.current(t, task.ID); got.Assignee != nil {
			t.Errorf("assigned without CSRF: %+v", got.Assignee)
		}
	})
	t.Run("OKCandidatesByName", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{mutate: func(p *models.Projection) {
			p.CandidateUsers = append(p.CandidateUsers, models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "nameless"})
			p.Requester = &models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "cara"}
		}})
		p := boss.get("/tasks/" + task.ID)
		var got []string
		for _, n := range p.all("candidate") {
			got = append(got, strings.Join(strings.Fields(webText(n)), " "))
		}
		if want := []string{"Finance (group)", "nameless (ID)"}; !slices.Equal(got, want) {
			t.Errorf("candidates = %v, want %v", got, want)
		}
		webWantContains(t, "requester", p.text("task-facts"), "Requested by Cara Cole")
	})
	t.Run("OKSnapshotMembersWithTheirGroup", func(t *testing.T) {
		finance := models.ParticipantRef{Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: "finance"}
		task := f.seed(t, webTaskOpts{mutate: func(p *models.Projection) {
			p.Mode, p.CandidateGroups = models.MembershipSnapshot, nil
			p.SnapshotMembers = []models.Candidate{{Participant: models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "cara"}, Source: models.SourceSnapshotMember, SourceGroup: &finance}}
		}})
		p := boss.get("/tasks/" + task.ID)
		if got := strings.Join(strings.Fields(p.text("candidate")), " "); got != "Cara Cole via Finance (group)" {
			t.Errorf("candidate = %q, want Cara Cole via Finance (group)", got)
		}
	})
	t.Run("NotForNonManagers", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{assignee: "ann"})
		p := f.signIn(t, "ann").get("/tasks/" + task.ID + "?people=bob").wantStatus(http.StatusOK)
		if p.has("people-search") || p.has("people-choices") || p.has("candidates") {
			t.Error("a non-manager sees the picker or the candidates")
		}
	})
}

func TestPeoplePickerWithoutDirectory(t *testing.T) {
	f := newWebFixture(t)
	boss := f.signIn(t, "boss")
	task := f.seed(t, webTaskOpts{})
	p := boss.get("/tasks/" + task.ID + "?people=bob").wantStatus(http.StatusOK)
	if p.has("people-search") || p.has("people-choices") {
		t.Error("the picker is offered without a directory")
	}
	res := boss.submit(p, "manage-assign", url.Values{"assignee": {"zed"}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("assign without a directory: %d, want 303", res.status)
	}
	if got := boss.follow(res).text("task-assignee"); got != "zed (ID)" {
		t.Errorf("assignee = %q, want the id marked as one", got)
	}
}

// brokenDirectory fails every search, like a directory service that is down.
type brokenDirectory struct{}

func (brokenDirectory) Search(context.Context, string, string, models.ParticipantType, int) ([]models.ParticipantRef, error) {
	return nil, errors.New("directory down")
}

func (brokenDirectory) Expand(context.Context, string, models.ParticipantRef) ([]models.ParticipantRef, error) {
	return nil, errors.New("directory down")
}

func TestPeoplePickerDirectoryDown(t *testing.T) {
	f := newWebFixtureService(t, tasks.Options{Directory: brokenDirectory{}}, nil)
	boss := f.signIn(t, "boss")
	task := f.seed(t, webTaskOpts{assignee: "bob", mutate: func(p *models.Projection) {
		p.Assignee.DisplayName = ""
	}})
	p := boss.get("/tasks/" + task.ID + "?people=bob").wantStatus(http.StatusOK)
	webWantContains(t, "search error", p.text("people-search-error"), "could not be searched")
	if got := p.text("task-assignee"); got != "bob (ID)" {
		t.Errorf("assignee = %q, want the id marked as one", got)
	}
}

func TestInboxAssigneesByName(t *testing.T) {
	f := newPeopleFixture(t)
	unnamed := func(p *models.Projection) { p.Assignee.DisplayName = "" }
	f.seed(t, webTaskOpts{title: "Named by the directory", assignee: "bob", mutate: unnamed})
	f.seed(t, webTaskOpts{title: "Unknown to the directory", assignee: "zed", mutate: unnamed})
	p := f.signIn(t, "boss").get("/inbox?tab=all").wantStatus(http.StatusOK)
	var got []string
	for _, n := range p.all("row-assignee") {
		got = append(got, webText(n))
	}
	slices.Sort(got)
	if want := []string{"Bob Builder", "zed (ID)"}; !slices.Equal(got, want) {
		t.Errorf("assignees = %v, want %v", got, want)
	}
}

func TestPeoplePickerGerman(t *testing.T) {
	f := newPeopleFixture(t)
	boss := f.signIn(t, "boss")
	boss.lang = "de"
	task := f.seed(t, webTaskOpts{})
	found := boss.get("/tasks/" + task.ID + "?people=nobody").wantStatus(http.StatusOK)
	webWantContains(t, "no matches", found.text("people-none"), "Niemand im Verzeichnis passt zu „nobody“.")
	res := boss.submit(boss.get("/tasks/"+task.ID+"?people=bob"), "manage-assign", url.Values{"assignee": {"bob"}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("assign: %d", res.status)
	}
	hist := boss.get("/tasks/" + task.ID + "?tab=history")
	webWantContains(t, "history", hist.text("event-summary"), "Zugewiesen an Bob Builder von Bea Boss")
	res = boss.submit(boss.get("/tasks/"+task.ID), "manage-assign", url.Values{"assignee": {"zed"}}, nil).wantStatus(http.StatusUnprocessableEntity)
	webWantContains(t, "error", res.text("error-assignee"), "Personenverzeichnis kennt diese Person nicht")
}
