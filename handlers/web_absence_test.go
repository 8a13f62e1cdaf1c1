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

	"golang.org/x/net/html"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

func absUser(id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id}
}

// setAbsence gives the user id an absence with substitute sub, as a manager sets it.
func (f *webFixture) setAbsence(t *testing.T, id string, from, until time.Time, sub string) {
	t.Helper()
	who := absUser(id)
	in := tasks.AbsenceInput{From: from, Until: until, Substitute: models.ParticipantRef{Type: models.UserParticipant, ID: sub}}
	if _, err := f.svc.PutAbsence(context.Background(), bossActor(), &who, in); err != nil {
		t.Fatal(err)
	}
}

// absenceOf is the stored absence of the user id, if any.
func (f *webFixture) absenceOf(t *testing.T, id string) (models.Absence, bool) {
	t.Helper()
	a, err := f.store.Absence(context.Background(), "t1", absUser(id))
	if errors.Is(err, models.ErrNotFound) {
		return a, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return a, true
}

// minute is a time as a UTC page's datetime-local input holds it.
func minute(ts time.Time) string { return ts.UTC().Format("2006-01-02T15:04") }

func TestOutOfOffice(t *testing.T) {
	f := newPeopleFixture(t)
	now := time.Now().UTC()

	t.Run("ErrRefusalsRendered", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		ann.get("/settings/absence").wantStatus(http.StatusOK).one("absence-none")
		for _, c := range []struct {
			name              string
			from, until, sub  string
			errorID, wantText string
		}{
			{"UntilBeforeFrom", minute(now.Add(48 * time.Hour)), minute(now.Add(24 * time.Hour)), "bob", "error-until", "The end must be after the start."},
			{"LongerThan365Days", minute(now), minute(now.Add(366 * 24 * time.Hour)), "bob", "error-until", "at most 365 days"},
			{"SubstituteOneself", minute(now), minute(now.Add(time.Hour)), "ann", "error-substitute", "cannot be the absent person"},
			{"SubstituteUnknown", minute(now), minute(now.Add(time.Hour)), "zed", "error-substitute", "directory does not know"},
			{"SubstituteMissing", minute(now), minute(now.Add(time.Hour)), "", "error-substitute", "Choose a substitute."},
			{"FromUnreadable", "tomorrow", minute(now.Add(time.Hour)), "bob", "error-from", "Enter a date and a time."},
			{"YearOne", "0001-01-01T00:00", minute(now.Add(time.Hour)), "bob", "error-from", "Enter a date and a time."},
		} {
			t.Run(c.name, func(t *testing.T) {
				set := url.Values{"from": {c.from}, "until": {c.until}, "substitute": {c.sub}}
				res := ann.submit(ann.get("/settings/absence"), "absence-form", set, nil).wantStatus(http.StatusUnprocessableEntity)
				webWantContains(t, "message", res.text(c.errorID), c.wantText)
				if got := webAttr(webByID(res.doc, "absence-until"), "value"); got != c.until {
					t.Errorf("until shown back as %q, want %q", got, c.until)
				}
				if _, ok := f.absenceOf(t, "ann"); ok {
					t.Fatal("a refused absence was stored")
				}
			})
		}
		t.Run("CSRF", func(t *testing.T) {
			set := url.Values{"from": {minute(now)}, "until": {minute(now.Add(time.Hour))}, "substitute": {"bob"}, views.CSRFField: {"forged"}}
			ann.submit(ann.get("/settings/absence"), "absence-form", set, nil).wantStatus(http.StatusForbidden)
			if _, ok := f.absenceOf(t, "ann"); ok {
				t.Fatal("stored without a token")
			}
		})
	})

	t.Run("OKInTheSessionZone", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		ann.postTimeZone("Europe/Berlin", ann.get("/inbox").csrf())
		page := ann.get("/settings/absence?substitute-people=" + url.QueryEscape("builder")).wantStatus(http.StatusOK)
		if !strings.Contains(page.body, "From (Europe/Berlin)") {
			t.Fatal("the form does not say the zone it reads times in")
		}
		if got := choicesIn(page, "substitute-people-choices"); !slices.Equal(got, []string{"bob"}) {
			t.Fatalf("substitute choices = %v, want [bob]", got)
		}
		res := ann.submit(page, "absence-form", url.Values{"from": {"2030-01-07T10:00"}, "until": {"2030-01-14T18:00"}, "substitute": {"bob"}}, nil)
		if res.status != http.StatusSeeOther || res.location != "/settings/absence" {
			t.Fatalf("save: %d → %q\n%s", res.status, res.location, res.body)
		}
		after := ann.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "flash", after.text("flash"), "Absence saved.")
		if got := after.text("absence-state"); got != "Planned" {
			t.Errorf("state = %q, want Planned", got)
		}
		if got := after.text("absence-substitute"); got != "Bob Builder" {
			t.Errorf("substitute = %q, want Bob Builder", got)
		}
		if got := webFormValues(after.one("absence-form")).Get("substitute"); got != "bob" {
			t.Errorf("the form proposes the substitute %q, want bob chosen", got)
		}
		webWantContains(t, "chosen substitute", after.text("substitute-person-choice"), "Bob Builder")
		if manual := ann.get(webAttr(after.one("substitute-people-enter-id"), "href")); !manual.has("absence-substitute") {
			t.Error("“Enter an ID instead” does not lead to the ID field")
		}
		if got := webAttr(webByID(after.doc, "absence-from"), "value"); got != "2030-01-07T10:00" {
			t.Errorf("the form holds from %q, want the stored time in Berlin", got)
		}
		a, ok := f.absenceOf(t, "ann")
		if !ok || !a.From.Equal(time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)) || !a.Until.Equal(time.Date(2030, 1, 14, 17, 0, 0, 0, time.UTC)) || a.Substitute.ID != "bob" {
			t.Fatalf("stored %+v (%v), want 09:00–17:00 UTC with bob", a, ok)
		}
		if ann.get("/inbox").has("away-banner") {
			t.Error("a planned absence shows the away banner")
		}
	})

	t.Run("OKActiveBannerAndRemove", func(t *testing.T) {
		ann, bob := f.signIn(t, "ann"), f.signIn(t, "bob")
		res := ann.submit(ann.get("/settings/absence"), "absence-form", url.Values{"from": {minute(now.Add(-time.Hour))}, "until": {minute(now.Add(48 * time.Hour))}, "substitute": {"bob"}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("save: %d\n%s", res.status, res.body)
		}
		if got := ann.follow(res).text("absence-state"); got != "Active" {
			t.Errorf("state = %q, want Active", got)
		}
		inbox := ann.get("/inbox").wantStatus(http.StatusOK)
		webWantContains(t, "banner", inbox.text("away-banner"), "Bob Builder receives your new tasks")
		if got := webAttr(inbox.one("away-change"), "href"); got != "/settings/absence" {
			t.Errorf("the banner links to %q", got)
		}
		if bob.get("/inbox").has("away-banner") {
			t.Error("the substitute sees the absent user's banner")
		}
		if got := webAttr(inbox.one("nav-absence"), "href"); got != "/settings/absence" {
			t.Errorf("the menu links to %q", got)
		}

		page := ann.get("/settings/absence")
		res = ann.submit(page, "absence-remove-form", nil, nil)
		if res.status != http.StatusSeeOther || res.location != "/settings/absence" {
			t.Fatalf("remove: %d → %q", res.status, res.location)
		}
		after := ann.follow(res)
		webWantContains(t, "flash", after.text("flash"), "Absence removed.")
		after.one("absence-none")
		if _, ok := f.absenceOf(t, "ann"); ok {
			t.Fatal("still stored after the removal")
		}
		if again := ann.submit(page, "absence-remove-form", nil, nil); again.status != http.StatusSeeOther {
			t.Errorf("removing again: %d, want 303", again.status)
		}
		if ann.get("/inbox").has("away-banner") {
			t.Error("the banner stays after the removal")
		}
	})

	t.Run("German", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		ann.lang = "de"
		page := ann.get("/settings/absence").wantStatus(http.StatusOK)
		if got := page.text("absence-heading"); got != "Abwesenheit" {
			t.Errorf("heading = %q", got)
		}
		res := ann.submit(page, "absence-form", url.Values{"from": {minute(now.Add(2 * time.Hour))}, "until": {minute(now)}, "substitute": {"bob"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "message", res.text("error-until"), "Das Ende muss nach dem Beginn liegen.")
	})
}

func TestTeamOutOfOffice(t *testing.T) {
	f := newPeopleFixture(t)
	now := time.Now().UTC()
	boss, ann := f.signIn(t, "boss"), f.signIn(t, "ann")
	weird := "zoë/x?y#z w"
	times := url.Values{"from": {minute(now.Add(-time.Hour))}, "until": {minute(now.Add(24 * time.Hour))}}

	t.Run("ErrNotForOthers", func(t *testing.T) {
		ann.get("/manage/people/absence").wantStatus(http.StatusForbidden)
		ann.get("/manage/people/absence?user=bob").wantStatus(http.StatusForbidden)
		token := ann.get("/inbox").csrf()
		ann.post("/manage/people/absence", url.Values{views.CSRFField: {token}, "user": {"bob"}, "from": times["from"], "until": times["until"], "substitute": {"cara"}}).wantStatus(http.StatusForbidden)
		ann.post("/manage/people/absence/delete", url.Values{views.CSRFField: {token}, "user": {"bob"}}).wantStatus(http.StatusForbidden)
		if _, ok := f.absenceOf(t, "bob"); ok {
			t.Fatal("a non-manager set another person's absence")
		}
		if ann.get("/settings/absence").has("absence-team-link") {
			t.Error("a non-manager is led to the managers' page")
		}
	})

	t.Run("OKFindSetRemove", func(t *testing.T) {
		boss.get("/settings/absence").one("absence-team-link")
		if href := webAttr(boss.get("/manage").one("team-absence-link"), "href"); href != "/manage/people/absence" {
			t.Errorf("the dashboard leads managers to %q", href)
		}
		boss.get("/manage/people/absence").wantStatus(http.StatusOK).one("absence-finder")
		found := boss.get("/manage/people/absence?person-people=" + url.QueryEscape("zoë")).wantStatus(http.StatusOK)
		if got := choicesIn(found, "person-people-choices"); !slices.Equal(got, []string{weird}) {
			t.Fatalf("person choices = %v", got)
		}
		if got := webAttr(found.one("absence-open-form"), "method"); got != "get" {
			t.Errorf("the open form's method = %q, want get", got)
		}
		href := "/manage/people/absence?user=" + url.QueryEscape(weird)
		page := boss.get(href).wantStatus(http.StatusOK)
		if got := page.text("absence-heading"); got != "Out of office: Zoë Weird" {
			t.Errorf("heading = %q", got)
		}
		page.one("absence-none")
		set := url.Values{"substitute": {"bob"}}
		for k, v := range times {
			set[k] = v
		}
		res := boss.submit(page, "absence-form", set, nil)
		if res.status != http.StatusSeeOther || res.location != href {
			t.Fatalf("save: %d → %q, want 303 → %q\n%s", res.status, res.location, href, res.body)
		}
		after := boss.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "flash", after.text("flash"), "Absence saved.")
		if got := after.text("absence-substitute"); got != "Bob Builder" {
			t.Errorf("substitute = %q", got)
		}
		if a, ok := f.absenceOf(t, weird); !ok || a.Substitute.ID != "bob" {
			t.Fatalf("stored %+v (%v)", a, ok)
		}
		if _, ok := f.absenceOf(t, "boss"); ok {
			t.Fatal("the manager's own absence was set")
		}
		res = boss.submit(after, "absence-remove-form", nil, nil)
		if res.status != http.StatusSeeOther || res.location != href {
			t.Fatalf("remove: %d → %q", res.status, res.location)
		}
		if _, ok := f.absenceOf(t, weird); ok {
			t.Fatal("still stored after the removal")
		}
	})

	t.Run("ErrUnknownPerson", func(t *testing.T) {
		page := boss.get("/manage/people/absence?user=zed").wantStatus(http.StatusOK)
		set := url.Values{"substitute": {"bob"}}
		for k, v := range times {
			set[k] = v
		}
		res := boss.submit(page, "absence-form", set, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "message", res.text("absence-error"), "does not know this person")
	})

	t.Run("ErrNoPerson", func(t *testing.T) {
		boss.post("/manage/people/absence", url.Values{views.CSRFField: {boss.get("/inbox").csrf()}, "user": {" "}}).wantStatus(http.StatusBadRequest)
	})
}

// inboxNotes maps the rows' titles to their "on behalf of" notes ("" for none).
func inboxNotes(p *webPage) map[string]string {
	out := map[string]string{}
	for _, row := range p.all("task-row") {
		title := ""
		if n := webWithin(row, "row-title"); len(n) == 1 {
			title = webText(n[0])
		}
		note := ""
		if n := webWithin(row, "row-on-behalf"); len(n) == 1 {
			note = webText(n[0])
		}
		out[title] = note
	}
	return out
}

// rowForm is the form with testID in the row titled title.
func rowForm(t *testing.T, p *webPage, title, testID string) *html.Node {
	t.Helper()
	for _, row := range p.all("task-row") {
		if n := webWithin(row, "row-title"); len(n) == 1 && webText(n[0]) == title {
			if forms := webWithin(row, testID); len(forms) == 1 {
				return forms[0]
			}
		}
	}
	t.Fatalf("no %s in the row %q", testID, title)
	return nil
}

func TestInboxOnBehalf(t *testing.T) {
	f := newPeopleFixture(t)
	now := time.Now()
	f.setAbsence(t, "ann", now.Add(-time.Hour), now.Add(48*time.Hour), "bob")
	f.seed(t, webTaskOpts{title: "For Ann", candidate: "ann"})
	f.seed(t, webTaskOpts{title: "For Bob", candidate: "bob"})
	f.seed(t, webTaskOpts{title: "For both", candidate: "ann", mutate: func(p *models.Projection) {
		p.CandidateUsers = append(p.CandidateUsers, models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "bob"})
	}})
	bob, ann := f.signIn(t, "bob"), f.signIn(t, "ann")

	t.Run("OKNotes", func(t *testing.T) {
		got := inboxNotes(bob.get("/inbox?tab=available").wantStatus(http.StatusOK))
		want := map[string]string{"For Ann": "on behalf of Ann Approver", "For Bob": "", "For both": ""}
		for title, note := range want {
			if g, ok := got[title]; !ok || g != note {
				t.Errorf("%q: note %q (listed %v), want %q", title, g, ok, note)
			}
		}
		for title, note := range inboxNotes(ann.get("/inbox?tab=available")) {
			if note != "" {
				t.Errorf("the absent user's own row %q says %q", title, note)
			}
		}
		webWantContains(t, "banner", ann.get("/inbox").text("away-banner"), "Bob Builder")
	})

	t.Run("OKClaimStandingIn", func(t *testing.T) {
		p := bob.get("/inbox?tab=available")
		form := rowForm(t, p, "For Ann", "row-claim-form")
		res := bob.post(webAttr(form, "action"), webFormValues(form))
		if res.status != http.StatusSeeOther {
			t.Fatalf("claim: %d\n%s", res.status, res.body)
		}
		var claimed models.Task
		for _, row := range bob.get("/inbox").all("task-row") {
			if n := webWithin(row, "row-title"); len(n) == 1 && webText(n[0]) == "For Ann" {
				claimed = f.current(t, webAttr(row, "data-task-id"))
			}
		}
		if claimed.Assignee == nil || claimed.Assignee.ID != "bob" {
			t.Fatalf("the claimed task is not in bob's list as his: %+v", claimed.Assignee)
		}
		lines := historyLines(bob.get("/tasks/" + claimed.ID + "?tab=history"))
		if !slices.Contains(lines, "Claimed by Bob Builder on behalf of Ann Approver") {
			t.Errorf("history = %v", lines)
		}
	})

	t.Run("OKTwoAbsentUsers", func(t *testing.T) {
		f.setAbsence(t, "cara", now.Add(-time.Hour), now.Add(48*time.Hour), "bob")
		f.seed(t, webTaskOpts{title: "For Cara", candidate: "cara"})
		f.seed(t, webTaskOpts{title: "For Ann again", candidate: "ann"})
		got := inboxNotes(bob.get("/inbox?tab=available"))
		if got["For Cara"] != "on behalf of Cara Cole" || got["For Ann again"] != "on behalf of Ann Approver" || got["For Bob"] != "" {
			t.Errorf("notes = %v", got)
		}
	})

	t.Run("German", func(t *testing.T) {
		de := f.signIn(t, "bob")
		de.lang = "de"
		if got := inboxNotes(de.get("/inbox?tab=available"))["For Ann again"]; got != "in Vertretung für Ann Approver" {
			t.Errorf("German note = %q", got)
		}
	})
}
