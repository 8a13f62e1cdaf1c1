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
)

// TestWebManageDashboard covers /manage and /manage/runs: managers only, every count present
// and linking to its filtered list, charts as accessible SVG with a table, the recorded runs
// of the manager's own tenant.
func TestWebManageDashboard(t *testing.T) {
	f := newWebFixture(t)
	ctx := context.Background()
	f.seed(t, webTaskOpts{title: "Available one"})
	f.seed(t, webTaskOpts{title: "Ann's", assignee: "ann"})
	f.seed(t, webTaskOpts{title: "Ann's second", assignee: "ann"})
	hostile := f.seed(t, webTaskOpts{title: "Hostile flow", mutate: func(p *models.Projection) {
		p.Workflow.DefinitionID, p.Workflow.DefinitionName = "x/y?z#1 ü", `<script>alert("x")</script>`
	}})
	blocked := f.seed(t, webTaskOpts{title: "Blocked"})
	if err := f.store.SetHealth(ctx, "t1", blocked.ID, models.Health{Severity: models.SeverityAdvisory,
		Code: models.HealthResumeDeliveryFailing, Message: "runtime"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Mutate(ctx, "t1", hostile.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		return models.Finalize(cur, now)
	}); err != nil {
		t.Fatal(err)
	}
	runs := []models.WorkerRun{
		{Worker: models.WorkerReconciliation, Tenant: "t1", Elapsed: 3 * time.Second, Counts: map[string]int{"finalized": 4, "recreated": 1}},
		{Worker: models.WorkerReconciliation, Tenant: "t2", Elapsed: time.Second, Counts: map[string]int{"finalized": 777}},
		{Worker: models.WorkerDueSweep, Tenant: models.AllTenants, Elapsed: time.Second, ErrorCode: "database-busy"},
	}
	if err := f.store.RecordWorkerRuns(ctx, runs); err != nil {
		t.Fatal(err)
	}

	t.Run("ErrForbiddenForNonManagers", func(t *testing.T) {
		b := f.signIn(t, "ann")
		for _, path := range []string{"/manage", "/manage/runs"} {
			p := b.get(path).wantStatus(http.StatusForbidden)
			p.one("error-page")
			if strings.Contains(p.body, "777") || strings.Contains(p.body, "finalized") {
				t.Fatalf("%s leaks run counts to a non-manager", path)
			}
		}
		if b.get("/inbox").has("nav-manage") {
			t.Fatalf("a non-manager sees the Manage link")
		}
	})

	t.Run("SignedOutIsSentToLogin", func(t *testing.T) {
		p := f.browser(t).get("/manage")
		if p.status == http.StatusOK {
			t.Fatalf("an anonymous visitor got the dashboard")
		}
	})

	t.Run("OK", func(t *testing.T) {
		b := f.signIn(t, "boss")
		if !b.get("/inbox?tab=all").has("nav-manage") {
			t.Fatalf("no Manage link for a manager")
		}
		p := b.get("/manage").wantStatus(http.StatusOK)
		counts := map[string]string{
			"count-status-Available": "2", "count-status-Assigned": "2", "count-status-Completing": "0",
			"count-health-" + models.HealthResumeDeliveryFailing: "1", "count-overdue": "0", "count-stale": "0",
			"count-backlog": "0", "count-closed-Cancelled": "1", "count-closed-Completed": "0",
		}
		for id, want := range counts {
			link := p.one(id + "-link")
			if got := webText(link); got != want {
				t.Errorf("%s = %q, want %q", id, got, want)
			}
			href := webAttr(link, "href")
			u, err := url.Parse(href)
			if err != nil || u.Path != "/inbox" || (u.Query().Get("tab") != "all" && u.Query().Get("tab") != "needs-attention") {
				t.Errorf("%s links to %q, want a manager list of the inbox", id, href)
				continue
			}
			b.get(href).wantStatus(http.StatusOK)
		}
		if href := webAttr(p.one("count-status-Available-link"), "href"); href != "/inbox?status=Available&tab=all" {
			t.Errorf("available links to %q", href)
		}
		if href := webAttr(p.one("count-overdue-link"), "href"); href != "/inbox?due=overdue&tab=all" {
			t.Errorf("overdue links to %q", href)
		}
		workload := p.all("count-workload")
		if len(workload) != 1 || !strings.Contains(webText(workload[0]), "ann") || !strings.Contains(webText(workload[0]), "2") {
			t.Fatalf("workload %d rows: %v", len(workload), webText(p.one("dash-workload")))
		}
		for _, id := range []string{"open", "flow", "claim", "complete", "sla"} {
			fig := p.one("chart-" + id)
			svg := webWithinTag(fig, "svg")
			table := p.one("chart-" + id + "-table")
			if table == nil || len(webWithinTag(table, "table")) != 1 {
				t.Errorf("chart %s has no table alternative", id)
			}
			if id == "claim" || id == "complete" || id == "sla" {
				continue // no claim or completion yet: these say so instead of drawing
			}
			if len(svg) != 1 || webAttr(svg[0], "role") != "img" {
				t.Fatalf("chart %s: want one svg with role=img", id)
			}
			if title := webByID(svg[0], id+"-title"); title == nil || title.Data != "title" {
				t.Errorf("chart %s has no <title>", id)
			}
			if desc := webByID(svg[0], id+"-desc"); desc == nil || desc.Data != "desc" || webText(desc) == "" {
				t.Errorf("chart %s has no <desc>", id)
			}
		}
		// Nothing completed yet: no workflow has a share on time, so none reads as 0 %.
		if p.one("chart-sla-empty") == nil || strings.Contains(webText(p.one("chart-sla-table")), "0%") {
			t.Errorf("SLA chart %q: want it to say there is no data, not 0 %% per workflow", webText(p.one("chart-sla")))
		}
		if strings.Contains(p.body, `<script>alert("x")`) || strings.Contains(p.body, "style=") {
			t.Fatalf("a workflow name was not escaped, or an inline style slipped in")
		}
		if !strings.Contains(p.body, "&lt;script&gt;") {
			t.Fatalf("the hostile workflow's name is missing from the tables")
		}
		last := p.one("dash-runs")
		if got := webText(last); !strings.Contains(got, "Reconciliation") || !strings.Contains(got, "4") || strings.Contains(got, "777") {
			t.Fatalf("last runs %q: want t1's reconciliation, never t2's", got)
		}
		if got := webText(last); !strings.Contains(got, "all tenants") || !strings.Contains(got, "database-busy") {
			t.Fatalf("last runs %q: want the failed sweep over all tenants", got)
		}
	})

	t.Run("ChartsDrawClaimsAndCompletions", func(t *testing.T) {
		g := newWebFixture(t)
		due := time.Now().Add(72 * time.Hour)
		task := g.seed(t, webTaskOpts{title: "Claim and finish", due: &due})
		ann := testfactory.Person("t1", "ann", "finance")
		steps := []func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error){
			func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
				return models.Claim(cur, models.Command{OperationID: "c", ExpectedRevision: cur.Revision, Actor: ann, Prior: prior}, now)
			},
			func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
				return models.Complete(cur, models.Command{OperationID: "k", ExpectedRevision: cur.Revision, Actor: ann, Prior: prior},
					"approve", nil, now)
			},
			func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
				return models.Finalize(cur, now)
			},
		}
		for i, step := range steps {
			if _, err := g.store.Mutate(ctx, "t1", task.ID, []string{"c", "k", ""}[i], step); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		p := g.signIn(t, "boss").get("/manage").wantStatus(http.StatusOK)
		for _, id := range []string{"claim", "complete", "sla"} {
			if svg := webWithinTag(p.one("chart-"+id), "svg"); len(svg) != 1 {
				t.Fatalf("chart %s is not drawn after a claim and a completion", id)
			}
		}
		sla := webText(p.one("chart-sla-table"))
		if !strings.Contains(sla, "Invoice approval") || !strings.Contains(sla, "100%") {
			t.Fatalf("SLA table %q: want the workflow by name at 100%%", sla)
		}
		if got := webText(p.one("count-closed-Completed-link")); got != "1" {
			t.Fatalf("completed in 30 days %q, want 1", got)
		}
	})

	t.Run("Runs", func(t *testing.T) {
		b := f.signIn(t, "boss")
		p := b.get("/manage/runs").wantStatus(http.StatusOK)
		rec := webText(p.one("runs-reconciliation"))
		if !strings.Contains(rec, "4 finalized") || !strings.Contains(rec, "1 recreated") || strings.Contains(p.body, "777") {
			t.Fatalf("reconciliation section %q: want t1's counts only", rec)
		}
		sweep := p.one("runs-due-sweep")
		if len(webWithin(sweep, "run-failed")) != 1 || !strings.Contains(webText(sweep), "database-busy") {
			t.Fatalf("due sweep section %q: want the failed all-tenants run with its code", webText(sweep))
		}
		if !strings.Contains(webText(p.one("runs-resumption-outbox")), "No run recorded yet.") {
			t.Fatalf("dispatcher section without runs does not say so")
		}
	})

	t.Run("German", func(t *testing.T) {
		b := f.signIn(t, "boss")
		b.lang = "de"
		p := b.get("/manage").wantStatus(http.StatusOK)
		if p.lang() != "de" || !strings.Contains(p.body, "Übersicht") || !strings.Contains(p.body, "Als Tabelle anzeigen") {
			t.Fatalf("the German dashboard is not German")
		}
	})
}

// webWithinTag returns the elements named tag under n.
func webWithinTag(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	webWalk(n, func(c *html.Node) {
		if c.Type == html.ElementNode && c.Data == tag {
			out = append(out, c)
		}
	})
	return out
}
