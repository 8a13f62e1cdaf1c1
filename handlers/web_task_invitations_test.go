package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/views"
	"usertasks/views/i18n"
)

// guestDefinitions are a seeded task's invitation definitions: a code link for both actions and
// a bearer-capable one for approve only.
func guestDefinitions(p *models.Projection) {
	p.Invitations = []models.InvitationDefinition{
		{VerifierName: "code", AllowedActions: []string{"approve", "reject"}},
		{VerifierName: "bearer", AllowedActions: []string{"approve"}, BearerOnly: true, Lifetime: "PT12H"},
	}
}

func TestWebTaskInvitations(t *testing.T) {
	f := newWebFixture(t)
	boss := f.signIn(t, "boss")
	ann := f.signIn(t, "ann")
	otto := f.signIn(t, "otto")
	task := f.seed(t, webTaskOpts{mutate: guestDefinitions})
	href := "/tasks/" + task.ID

	t.Run("PanelForManagersOnly", func(t *testing.T) {
		p := boss.get(href).wantStatus(http.StatusOK)
		p.one("invitation-form")
		p.one("invitations-none")
		if got := p.text("invitation-definition"); !strings.Contains(got, "Link and 6-digit code: Approve, Reject") || !strings.Contains(got, "Link alone: Approve") {
			t.Fatalf("definitions %q", got)
		}
		if ann.get(href).has("manage-invitations") {
			t.Fatal("a candidate sees the guest links")
		}
		plain := f.seed(t, webTaskOpts{})
		if boss.get("/tasks/" + plain.ID).has("manage-invitations") {
			t.Fatal("a task without definitions offers guest links")
		}
	})
	t.Run("IssuePostRedirectGet", func(t *testing.T) {
		p := boss.get(href)
		res := boss.submit(p, "invitation-form", url.Values{"recipients": {"Guest One\r\n\r\nGuest Two"}, "allowedActions": {"approve"}}, nil)
		if res.status != http.StatusSeeOther || res.location != href {
			t.Fatalf("issue answered %d → %q; form %s", res.status, res.location, res.text("invitation-form"))
		}
		page := boss.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "flash", page.text("flash"), "guest link was created")
		rows := page.all("invitation")
		if len(rows) != 2 {
			t.Fatalf("%d invitations listed", len(rows))
		}
		list := page.text("invitations")
		for _, want := range []string{"Guest One", "Guest Two", "Waiting to be sent", "Delivery attempts: 0", "Expires", "Sent together"} {
			webWantContains(t, "list", list, want)
		}
		// A double submit of the same form (same operation id) replays instead of issuing twice.
		if again := boss.submit(p, "invitation-form", url.Values{"recipients": {"Guest One\nGuest Two"}, "allowedActions": {"approve"}}, nil); again.status != http.StatusSeeOther {
			t.Fatalf("double submit: %d", again.status)
		}
		if got, _ := f.store.Invitations(context.Background(), "t1", task.ID); len(got) != 2 {
			t.Fatalf("%d invitations after a double submit", len(got))
		}
	})
	t.Run("IssueRefusedRerendersWithMessages", func(t *testing.T) {
		p := boss.get(href)
		res := boss.submit(p, "invitation-form", url.Values{"definition": {"1"}, "recipients": {"Guest\u0007"}, "allowedActions": {"reject"}}, nil).
			wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "recipients error", res.text("error-recipients"), "Recipients")
		webWantContains(t, "actions error", res.text("error-allowed-actions"), "not an action of the definition")
		if got := webAttr(res.one("invitation-recipients"), "aria-invalid"); got != "true" {
			t.Fatalf("aria-invalid %q", got)
		}
		if !strings.Contains(res.text("invitation-recipients"), "Guest") {
			t.Fatal("the posted recipients were not kept")
		}
		res = boss.submit(p, "invitation-form", url.Values{"definition": {"9"}, "recipients": {"x"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "definition error", res.text("error-definition"), "Kind of link")
		res = boss.submit(p, "invitation-form", url.Values{"recipients": {"x"}, "bearerOnly": {"true"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		res.one("error-bearer-only")
	})
	t.Run("Refusals", func(t *testing.T) {
		form := url.Values{"expectedRevision": {"1"}, "definition": {"0"}, "recipients": {"x"}}
		post := func(b *webBrowser, path string, csrf bool) *webPage {
			v := url.Values{}
			for k, vs := range form {
				v[k] = vs
			}
			if csrf {
				v.Set("csrf_token", b.get("/inbox").csrf())
			}
			return b.post(path, v)
		}
		post(ann, href+"/invitations", true).wantStatus(http.StatusForbidden)
		post(otto, href+"/invitations", true).wantStatus(http.StatusNotFound)
		post(boss, href+"/invitations", false).wantStatus(http.StatusForbidden)
		post(boss, "/tasks/"+url.PathEscape("a b?#ü")+"/invitations", true).wantStatus(http.StatusNotFound)
		list, _ := f.store.Invitations(context.Background(), "t1", task.ID)
		post(ann, href+"/invitations/"+list[0].ID+"/revoke", true).wantStatus(http.StatusForbidden)
		post(otto, href+"/invitations/"+list[0].ID+"/revoke", true).wantStatus(http.StatusNotFound)
		post(boss, href+"/invitations/"+list[0].ID+"/revoke", false).wantStatus(http.StatusForbidden)
		post(boss, href+"/invitations/"+models.NewID()+"/revoke", true).wantStatus(http.StatusNotFound)
		if got, _ := f.store.Invitations(context.Background(), "t1", task.ID); len(got) != 2 || got[0].Status != models.InvitationPending {
			t.Fatalf("refused posts changed the invitations: %+v", got)
		}
	})
	t.Run("RevokePostRedirectGet", func(t *testing.T) {
		p := boss.get(href)
		forms := p.all("invitation-revoke")
		if len(forms) != 2 {
			t.Fatalf("%d revoke buttons", len(forms))
		}
		button := webWithin(forms[0], "invitation-revoke-button")
		if len(button) != 1 || !strings.HasPrefix(webAttr(button[0], "aria-label"), "Revoke the guest link for Guest") {
			t.Fatal("the revoke button does not name its recipient")
		}
		revoke := func(form *html.Node) *webPage { return boss.post(webAttr(form, "action"), webFormValues(form)) }
		page := boss.follow(revoke(forms[0])).wantStatus(http.StatusOK)
		webWantContains(t, "flash", page.text("flash"), "revoked")
		webWantContains(t, "list", page.text("invitations"), "Revoked")
		if got := len(page.all("invitation-revoke")); got != 1 {
			t.Fatalf("%d revoke buttons after revoking one", got)
		}
		// The stale page's form again: a conflict banner, not an error page.
		stale := revoke(forms[0]).wantStatus(http.StatusConflict)
		webWantContains(t, "banner", stale.text("banner-conflict"), "revoked already")
	})
	t.Run("German", func(t *testing.T) {
		boss.lang = "de"
		defer func() { boss.lang = "" }()
		p := boss.get(href).wantStatus(http.StatusOK)
		webWantContains(t, "heading", p.text("manage-invitations"), "Gastlinks")
		webWantContains(t, "status", p.text("invitations"), "Widerrufen")
		webWantContains(t, "status", p.text("invitations"), "Wartet auf Versand")
	})
	t.Run("ExpiryInTheSessionsTimeZone", func(t *testing.T) {
		due := time.Now().Add(3 * time.Hour).UTC().Truncate(time.Second)
		dueTask := f.seed(t, webTaskOpts{due: &due, mutate: guestDefinitions})
		b := f.signIn(t, "boss")
		p := b.get("/tasks/" + dueTask.ID)
		b.postTimeZone("Asia/Kathmandu", p.csrf()).wantStatus(http.StatusNoContent)
		p = b.follow(b.submit(b.get("/tasks/"+dueTask.ID), "invitation-form", url.Values{"recipients": {"Guest"}}, nil))
		kathmandu, _ := time.LoadLocation("Asia/Kathmandu")
		want := views.Clock{T: i18n.English(), Loc: kathmandu}.Absolute(due)
		webWantContains(t, "expiry", p.text("invitations"), "Expires "+want)
	})
	t.Run("ClosedTaskKeepsTheListWithoutTheForm", func(t *testing.T) {
		closedTask := f.seed(t, webTaskOpts{mutate: guestDefinitions})
		p := boss.get("/tasks/" + closedTask.ID)
		boss.follow(boss.submit(p, "invitation-form", url.Values{"recipients": {"late"}}, nil))
		testfactory.Finalize(context.Background(), t, f.store, f.current(t, closedTask.ID))
		p = boss.get("/tasks/" + closedTask.ID).wantStatus(http.StatusOK)
		if p.has("invitation-form") || len(p.all("invitation")) != 1 || len(p.all("invitation-revoke")) != 1 {
			t.Fatal("a closed task offers the form or hides its invitations")
		}
	})
}
