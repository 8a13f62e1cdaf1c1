package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"usertasks/models"
)

// TestWebManageEscalations: the dashboard counts the fired deadlines of the last 7 days per
// workflow (escaped, linking to the workflow's tasks), says so when there are none, and Needs
// attention filters the flagged task by deadline-missed.
func TestWebManageEscalations(t *testing.T) {
	f := newWebFixture(t)
	boss := f.signIn(t, "boss")

	t.Run("OKNone", func(t *testing.T) {
		p := boss.get("/manage").wantStatus(http.StatusOK)
		webWantContains(t, "card", p.text("dash-escalations"), "Escalations, last 7 days, per workflow")
		webWantContains(t, "card", p.text("escalations-none"), "No deadline fired in the last 7 days.")
	})

	flagged := func(def, name string) models.Task {
		task := f.seed(t, webTaskOpts{mutate: func(p *models.Projection) {
			p.Workflow.DefinitionID, p.Workflow.DefinitionName = def, name
			p.Deadlines = []models.DeadlineDefinition{{Kind: models.DeadlineStart, At: "2020-01-01T00:00:00Z",
				Actions: []models.DeadlineAction{{Type: models.DeadlineFlag}}}}
		}})
		if _, err := f.store.FireDeadline(context.Background(), "t1", task.ID, 0, nil); err != nil {
			t.Fatalf("fire: %v", err)
		}
		return task
	}
	a := flagged("x/y?z#1 ü", `<script>alert("x")</script>`)
	flagged("x/y?z#1 ü", `<script>alert("x")</script>`)
	flagged("invoice-approval", "Invoice approval")

	t.Run("OKPerWorkflow", func(t *testing.T) {
		p := boss.get("/manage").wantStatus(http.StatusOK)
		var rows []string
		for _, n := range p.all("escalation-row") {
			rows = append(rows, strings.Join(strings.Fields(webText(n)), " "))
		}
		if want := []string{`<script>alert("x")</script> 2`, "Invoice approval 1"}; !slices.Equal(rows, want) {
			t.Fatalf("rows %q, want %q", rows, want)
		}
		if strings.Contains(p.body, `<script>alert("x")`) {
			t.Fatal("the workflow name is not escaped")
		}
		var hrefs []string
		webWalk(p.one("dash-escalations"), func(n *html.Node) {
			if n.Type == html.ElementNode && n.Data == "a" {
				hrefs = append(hrefs, webAttr(n, "href"))
			}
		})
		if len(hrefs) != 2 {
			t.Fatalf("links %q", hrefs)
		}
		u, err := url.Parse(hrefs[0])
		if err != nil || u.Path != "/inbox" || u.Query().Get("workflow") != "x/y?z#1 ü" || u.Query().Get("tab") != string(models.ScopeAll) {
			t.Fatalf("link %q, want the All list of workflow x/y?z#1 ü", hrefs[0])
		}
	})

	t.Run("OKGerman", func(t *testing.T) {
		b := f.signIn(t, "boss")
		b.lang = "de"
		webWantContains(t, "card", b.get("/manage").text("dash-escalations"), "Eskalationen der letzten 7 Tage je Workflow")
	})

	t.Run("OKNeedsAttentionFilter", func(t *testing.T) {
		p := boss.get("/inbox?tab=needs-attention").wantStatus(http.StatusOK)
		var offered []string
		webWalk(p.one("filter-healthCode"), func(n *html.Node) {
			if n.Type == html.ElementNode && (n.Data == "option" || n.Data == "input") {
				offered = append(offered, webAttr(n, "value"))
			}
		})
		if !slices.Contains(offered, models.HealthDeadlineMissed) {
			t.Fatalf("health codes offered %q, want deadline-missed among them", offered)
		}
		other := f.seed(t, webTaskOpts{title: "Another finding"})
		if err := f.store.SetHealth(context.Background(), "t1", other.ID, models.Health{Severity: models.SeverityAdvisory,
			Code: models.HealthResumeDeliveryFailing, Message: "runtime"}); err != nil {
			t.Fatal(err)
		}
		list := boss.get("/inbox?tab=needs-attention&healthCode=" + models.HealthDeadlineMissed).wantStatus(http.StatusOK)
		if !strings.Contains(list.body, "/tasks/"+a.ID) {
			t.Error("the flagged task is not listed under deadline-missed")
		}
		if strings.Contains(list.body, "/tasks/"+other.ID) {
			t.Error("a task with another finding is listed under deadline-missed")
		}
	})
}
