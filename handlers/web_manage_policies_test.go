package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"usertasks/views"
)

const webPolicyJSON = `[
  {"kind": "start", "after": "PT4H", "actions": [
    {"type": "reassign", "candidateGroups": [{"id": "team-leads"}]},
    {"type": "notify", "to": "managers"}]},
  {"kind": "completion", "after": "P2D", "actions": [{"type": "flag"}]}
]`

// TestWebDeadlinePolicies: a manager lists the workflows with their default deadlines, opens a
// definition (also one without tasks, by its id), saves the deadlines from the JSON form
// (Post/Redirect/Get with a flash), sees the refusals on the page with the text kept, removes
// them, and reads who changed what when; anyone else gets the 403 page and writes nothing.
func TestWebDeadlinePolicies(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{})
	boss := f.signIn(t, "boss")
	ctx := context.Background()

	t.Run("OKListLinksEveryWorkflow", func(t *testing.T) {
		p := boss.get("/manage/deadline-policies").wantStatus(http.StatusOK)
		rows := p.all("policy-row")
		if len(rows) != 1 || !strings.Contains(webText(rows[0]), "Invoice approval") || !strings.Contains(webText(rows[0]), "None") {
			t.Fatalf("rows %q", p.text("policies"))
		}
		if href := webAttr(p.one("policy-link"), "href"); href != "/manage/deadline-policies/invoice-approval" {
			t.Fatalf("link %q", href)
		}
		if href := webAttr(boss.get("/manage").one("policies-link"), "href"); href != "/manage/deadline-policies" {
			t.Fatalf("dashboard link %q", href)
		}
	})

	t.Run("OKSaveShowsAndAudits", func(t *testing.T) {
		page := boss.get("/manage/deadline-policies/invoice-approval").wantStatus(http.StatusOK)
		webWantContains(t, "current", page.text("policy-current"), "This workflow has no default deadlines")
		done := boss.submit(page, "policy-form", url.Values{"deadlines": {webPolicyJSON}}, nil)
		if done.status != http.StatusSeeOther || done.location != "/manage/deadline-policies/invoice-approval" {
			t.Fatalf("save: status %d to %q; body:\n%s", done.status, done.location, done.body)
		}
		shown := boss.follow(done).wantStatus(http.StatusOK)
		webWantContains(t, "flash", shown.text("flash"), "Default deadlines saved.")
		cur := shown.text("policy-current")
		for _, want := range []string{"Start deadline · PT4H after the task is created", "Reassign to 1 group", "Notify the managers",
			"Completion deadline · P2D after the task is created", "Flag the task", "Revision 1, changed by Bea Boss"} {
			webWantContains(t, "current", cur, want)
		}
		if rows := shown.all("policy-audit-row"); len(rows) != 1 || !strings.Contains(webText(rows[0]), "Saved") || !strings.Contains(webText(rows[0]), "Bea Boss") {
			t.Fatalf("audit %q", shown.text("policy-audit"))
		}
		p, err := f.store.DeadlinePolicy(ctx, "t1", "invoice-approval")
		if err != nil || p.Revision != 1 || len(p.Deadlines) != 2 || p.ChangedBy.ID != "boss" {
			t.Fatalf("stored %+v, %v", p, err)
		}
		// The next task of the workflow gets the defaults.
		task := f.seed(t, webTaskOpts{title: "After the policy"})
		if ds, err := f.store.TaskDeadlines(ctx, "t1", task.ID); err != nil || len(ds) != 2 {
			t.Fatalf("the new task's deadlines %+v, %v", ds, err)
		}
		lines := historyLines(boss.get("/tasks/" + task.ID + "?tab=history"))
		if !slices.Contains(lines, "Created with the workflow's default deadlines (revision 1)") {
			t.Errorf("history = %v, want the policy's revision on the creation", lines)
		}
		list := boss.get("/manage/deadline-policies")
		webWantContains(t, "list", list.text("policies"), "Reassign to 1 group")
		webWantContains(t, "list", list.text("policies"), "Bea Boss")
	})

	t.Run("ErrRefusalsRendered", func(t *testing.T) {
		page := boss.get("/manage/deadline-policies/invoice-approval")
		for _, tt := range []struct {
			name, text, want string
			status           int
		}{
			{"NotJSON", "[{", "not a JSON list of deadlines", http.StatusUnprocessableEntity},
			{"UnknownMember", `[{"kind":"start","after":"PT1H","actions":[{"type":"flag"}],"x":1}]`, "not a JSON list of deadlines", http.StatusUnprocessableEntity},
			{"ZeroDuration", `[{"kind":"start","after":"PT0S","actions":[{"type":"flag"}]}]`, "deadlines[0].after: must be at least PT1S", http.StatusUnprocessableEntity},
			{"BothAfterAndAt", `[{"kind":"start","after":"PT1H","at":"2030-01-01T00:00:00Z","actions":[{"type":"flag"}]}]`, "deadlines[0]: must have either after or at", http.StatusUnprocessableEntity},
			{"UnknownAction", `[{"kind":"start","after":"PT1H","actions":[{"type":"teleport"}]}]`, "deadlines[0].actions[0].type", http.StatusUnprocessableEntity},
			{"Empty", `[]`, "deadlines: must have at least one deadline", http.StatusUnprocessableEntity},
		} {
			t.Run(tt.name, func(t *testing.T) {
				got := boss.submit(page, "policy-form", url.Values{"deadlines": {tt.text}}, nil).wantStatus(tt.status)
				webWantContains(t, "errors", got.text("policy-errors"), tt.want)
				if kept := webText(got.one("policy-json")); kept != tt.text {
					t.Fatalf("the textarea holds %q, want the submitted %q", kept, tt.text)
				}
			})
		}
		t.Run("StaleRevision", func(t *testing.T) {
			got := boss.submit(page, "policy-form", url.Values{"deadlines": {webPolicyJSON}, "expectedRevision": {"0"}}, nil).wantStatus(http.StatusConflict)
			webWantContains(t, "banner", got.text("banner-conflict"), "Someone changed these default deadlines meanwhile")
		})
		if p, _ := f.store.DeadlinePolicy(ctx, "t1", "invoice-approval"); p.Revision != 1 {
			t.Fatalf("a refused post wrote revision %d", p.Revision)
		}
	})

	t.Run("ErrForbiddenForOthers", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		ann.get("/manage/deadline-policies").wantStatus(http.StatusForbidden)
		ann.get("/manage/deadline-policies/invoice-approval").wantStatus(http.StatusForbidden)
		csrf := ann.get("/inbox").csrf()
		ann.post("/manage/deadline-policies/invoice-approval", url.Values{views.CSRFField: {csrf}, "deadlines": {webPolicyJSON}, "expectedRevision": {"1"}}).
			wantStatus(http.StatusForbidden)
		ann.post("/manage/deadline-policies/invoice-approval", url.Values{views.CSRFField: {csrf}, "deadlines": {"[{"}, "expectedRevision": {"1"}}).
			wantStatus(http.StatusForbidden)
		ann.post("/manage/deadline-policies/invoice-approval/delete", url.Values{views.CSRFField: {csrf}, "expectedRevision": {"1"}}).
			wantStatus(http.StatusForbidden)
		if p, _ := f.store.DeadlinePolicy(ctx, "t1", "invoice-approval"); p.Revision != 1 {
			t.Fatalf("a worker's post wrote revision %d", p.Revision)
		}
	})

	t.Run("ErrCSRF", func(t *testing.T) {
		boss.post("/manage/deadline-policies/invoice-approval", url.Values{"deadlines": {webPolicyJSON}, "expectedRevision": {"1"}}).
			wantStatus(http.StatusForbidden)
		if p, _ := f.store.DeadlinePolicy(ctx, "t1", "invoice-approval"); p.Revision != 1 {
			t.Fatalf("a post without the token wrote revision %d", p.Revision)
		}
	})

	t.Run("OKDefinitionWithoutTasksByHostileID", func(t *testing.T) {
		id := "x/y?z#1 ü"
		open := boss.get("/manage/deadline-policies?" + url.Values{"definition": {id}}.Encode())
		if open.status != http.StatusSeeOther || open.location != "/manage/deadline-policies/"+url.PathEscape(id) {
			t.Fatalf("open: status %d to %q", open.status, open.location)
		}
		page := boss.follow(open).wantStatus(http.StatusOK)
		if got := page.text("policy-definition-id"); !strings.Contains(got, id) {
			t.Fatalf("the page names %q, want %q", got, id)
		}
		boss.follow(boss.submit(page, "policy-form", url.Values{"deadlines": {webPolicyJSON}}, nil)).wantStatus(http.StatusOK)
		if p, err := f.store.DeadlinePolicy(ctx, "t1", id); err != nil || p.DefinitionID != id {
			t.Fatalf("stored %q, %v", p.DefinitionID, err)
		}
		refused := boss.get("/manage/deadline-policies?" + url.Values{"definition": {"a\x01b"}}.Encode()).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "other", refused.text("policy-other-error"), "control characters")
		boss.get("/manage/deadline-policies/a%01b").wantStatus(http.StatusNotFound)
	})

	t.Run("OKDotSegmentIDsByQuery", func(t *testing.T) {
		// A browser resolves "." and ".." (also escaped) before it sends the request, so these
		// ids, and the query form's own segment, travel in the query.
		for _, id := range []string{".", "..", "definition"} {
			open := boss.get("/manage/deadline-policies?" + url.Values{"definition": {id}}.Encode())
			want := "/manage/deadline-policies/definition?id=" + url.QueryEscape(id)
			if open.status != http.StatusSeeOther || open.location != want {
				t.Fatalf("%q: open: status %d to %q, want %q", id, open.status, open.location, want)
			}
			page := boss.follow(open).wantStatus(http.StatusOK)
			if got := page.text("policy-definition-id"); !strings.Contains(got, id) {
				t.Fatalf("%q: the page names %q", id, got)
			}
			saved := boss.submit(page, "policy-form", url.Values{"deadlines": {webPolicyJSON}}, nil)
			if saved.status != http.StatusSeeOther || saved.location != want {
				t.Fatalf("%q: save: status %d to %q", id, saved.status, saved.location)
			}
			shown := boss.follow(saved).wantStatus(http.StatusOK)
			if p, err := f.store.DeadlinePolicy(ctx, "t1", id); err != nil || p.DefinitionID != id || p.Revision != 1 {
				t.Fatalf("%q: stored %+v, %v", id, p, err)
			}
			if _, err := f.store.DeadlinePolicy(ctx, "t1", "definition?id="+id); err == nil {
				t.Fatalf("%q: stored under the query's text", id)
			}
			done := boss.submit(shown, "policy-delete-form", nil, nil)
			if done.status != http.StatusSeeOther || done.location != "/manage/deadline-policies" {
				t.Fatalf("%q: delete: status %d to %q", id, done.status, done.location)
			}
			if _, err := f.store.DeadlinePolicy(ctx, "t1", id); err == nil {
				t.Fatalf("%q: the policy is still there", id)
			}
		}
		boss.get("/manage/deadline-policies/definition").wantStatus(http.StatusNotFound)
	})

	t.Run("OKDelete", func(t *testing.T) {
		page := boss.get("/manage/deadline-policies/invoice-approval")
		stale := boss.post("/manage/deadline-policies/invoice-approval/delete", url.Values{views.CSRFField: {page.csrf()}, "expectedRevision": {"7"}})
		stale.wantStatus(http.StatusConflict)
		done := boss.submit(page, "policy-delete-form", nil, nil)
		if done.status != http.StatusSeeOther || done.location != "/manage/deadline-policies" {
			t.Fatalf("delete: status %d to %q", done.status, done.location)
		}
		list := boss.follow(done)
		webWantContains(t, "flash", list.text("flash"), "Default deadlines removed.")
		if _, err := f.store.DeadlinePolicy(ctx, "t1", "invoice-approval"); err == nil {
			t.Fatal("the policy is still there")
		}
		again := boss.get("/manage/deadline-policies/invoice-approval")
		if rows := again.all("policy-audit-row"); len(rows) != 2 || !strings.Contains(webText(rows[0]), "Removed") {
			t.Fatalf("audit %q", again.text("policy-audit"))
		}
		if again.has("policy-delete-form") {
			t.Fatal("a delete form without a policy")
		}
	})

	t.Run("OKMarkup", func(t *testing.T) {
		page := boss.get("/manage/deadline-policies/invoice-approval")
		refused := boss.submit(page, "policy-form", url.Values{"deadlines": {"[{"}}, nil)
		for name, p := range map[string]*webPage{"list": boss.get("/manage/deadline-policies"), "page": page, "refused": refused} {
			ids := map[string]bool{}
			webWalk(p.doc, func(n *html.Node) {
				if n.Type != html.ElementNode {
					return
				}
				for _, a := range n.Attr {
					switch a.Key {
					case "else", "if", "switch", "case", "{", "}":
						t.Errorf("%s: <%s> has a stray %q attribute", name, n.Data, a.Key)
					}
				}
				if id := webAttr(n, "id"); id != "" {
					if ids[id] {
						t.Errorf("%s: id %q twice", name, id)
					}
					ids[id] = true
				}
			})
		}
		if got := webAttr(webByID(refused.doc, "policy-json"), "aria-invalid"); got != "true" {
			t.Errorf("the refused textarea is not marked invalid (%q)", got)
		}
	})

	t.Run("OKGerman", func(t *testing.T) {
		b := f.signIn(t, "boss")
		b.lang = "de"
		p := b.get("/manage/deadline-policies").wantStatus(http.StatusOK)
		if !strings.Contains(p.body, "Standardfristen") {
			t.Fatal("the German page is not German")
		}
		page := b.get("/manage/deadline-policies/invoice-approval")
		got := b.submit(page, "policy-form", url.Values{"deadlines": {`[{"kind":"start","after":"PT0S","actions":[{"type":"flag"}]}]`}}, nil)
		got.wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "errors", got.text("policy-errors"), "Die Standardfristen wurden nicht gespeichert")
	})

}
