package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// searchCorpus is the hostile text of the search corpus: each entry is one task's safe fields.
// The strings are chosen where a store's matching could part from the rule (Go's
// strings.ToLower of both sides, then a literal substring): Unicode case folding beyond
// lower-casing (ſ/s, µ/μ, ς/σ, İ/ı), collations that equate ß and ss or ü and u, LIKE's
// wildcards and escape character, regular-expression metacharacters, combining marks against
// precomposed letters, 4-byte UTF-8, and the "\n" that joins the fields.
var searchCorpus = []TaskOpts{
	{Title: "Über Straße", Summary: "Grüße aus München"},
	{Title: "UEBER STRASSE", Summary: "Gruesse aus Muenchen"},
	{Title: "Uber strasse", Tags: []string{"Ubahn"}},
	{Title: "İstanbul İzmir", Summary: "DİYARBAKIR"},
	{Title: "ıslak ırmak", Summary: "Isparta ILIK"},
	{Title: "ΣΟΦΙΑ Σίσυφος", Summary: "ὀδυσσεύς λόγος"},
	{Title: "5 µm pitch", Summary: "micro sign"},
	{Title: "μικρό μέγεθος", Summary: "Greek mu"},
	{Title: "Kelvin 300\u212a", Summary: "long \u017fs and ss"},
	{Title: "東京の会議", Summary: "東京都 議事録", Tags: []string{"日本"}},
	{Title: "Cafe\u0301 decomposed", Summary: "re\u0301sume\u0301"},
	{Title: "Café precomposed", Summary: "résumé"},
	{Title: "100% sure_thing", Summary: "50%_off [draft] [!] a!b"},
	{Title: `back\slash path`, Summary: `C:\temp\x and \\server`},
	{Title: `it's "quoted"`, Summary: "O'Brien said \"hi\" `tick`"},
	{Title: "Deploy 🚀 now", Summary: "thumbs 👍🏽 and 👍"},
	{Title: "regex .* (a|b) ^$ +?", Summary: "{1,2} \\d end"},
	{Title: "alpha", Summary: "beta gamma", Reference: "REF-77", TaskType: "Approve"},
	{Title: "alphabet", Summary: "betamax", Tags: []string{"Urgent", "Finance"}},
	{Title: "ab", Summary: "a", Reference: "b"},
	{Title: "plain task", Summary: "nothing special here", WorkflowName: "Invoice Approval"},
}

// searchCorpusNeedles are the searches of the corpus, as a caller types them (the case trims
// and lower-cases them as the rule does): 1, 2, 3 and more characters.
var searchCorpusNeedles = []string{
	// one character
	"a", "ß", "ü", "ı", "i", "s", "σ", "ς", "μ", "µ", "東", "🚀", "%", "_", "[", "!", `\`, "'", `"`, ".", "é", "k",
	// two characters
	"ss", "ue", "İs", "is", "σο", "京の", "👍🏽", "%_", "[!", "!b", `\s`, "e\u0301", "ab", "  Ü ",
	// three and more
	"über", "strasse", "straße", "istanbul", "ıslak", "ılık", "σοφια", "ὀδυσσεύς", "λόγος", "µm ", "μικρό", "kelvin 300k",
	"ſs", "東京の", "会議", "日本", "café", "cafe\u0301", "résumé", "100%", "e_t", "[draft]", "[!]", "a!b",
	`k\s`, `c:\temp`, `\\server`, "it's", `"quoted"`, "o'brien", "deploy 🚀", "👍🏽 and", ".*", "(a|b)", "^$", "{1,2}",
	"ha\nbe", "ha be", "alpha\nbeta", "urgent finance", "ref-77", "approve", "invoice approval", "  PLAIN task  ", "zzz",
}

// testQuerySearchCorpus pins the search's answers on every store: for each needle of the
// corpus, paged through with small limits in several sorts, the store lists exactly the
// tasks whose storekit.SearchText contains storekit.SearchNeedle (the rule, applied here in
// Go), in the order of the sort, with an exact total. The corpus is far smaller than the
// short-search window (storekit.ShortSearchWindow), so 1–2 character needles are exact too.
func testQuerySearchCorpus(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	boss := queryActor("t1", "boss", true)
	var tasks []models.Task
	for i, o := range searchCorpus {
		o.Priority = queryInt(i * 37 % 101) // an order unlike creation's
		tasks = append(tasks, CreateTask(t, s, o))
	}
	// The same text in another tenant never matches.
	CreateTask(t, s, TaskOpts{Tenant: "t2", Title: "Über Straße 🚀 a"})

	sorts := []struct {
		key  models.SortKey
		desc bool
	}{{models.SortCreated, false}, {models.SortTitle, true}, {models.SortPriority, false}, {models.SortDue, true}}
	for _, raw := range searchCorpusNeedles {
		needle := storekit.SearchNeedle(raw)
		var want []models.Task
		for _, task := range tasks {
			if strings.Contains(storekit.SearchText(&task), needle) {
				want = append(want, task)
			}
		}
		t.Run(fmt.Sprintf("%q", raw), func(t *testing.T) {
			for i, so := range sorts {
				limit := 1 + i%3
				f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Search: raw, Sort: so.key, Descending: so.desc,
					Limit: limit, IncludeTotal: true}
				ordered := slices.Clone(want)
				slices.SortStableFunc(ordered, func(a, b models.Task) int {
					switch {
					case queryLess(a, b, so.key, so.desc):
						return -1
					case queryLess(b, a, so.key, so.desc):
						return 1
					}
					return 0
				})
				got, total := searchPages(t, s, f)
				if g, w := searchTitles(got), searchTitles(ordered); !slices.Equal(g, w) {
					t.Fatalf("sort %s desc %v limit %d: got %q, want %q", so.key, so.desc, limit, g, w)
				}
				if total.Total == nil || *total.Total != len(want) || total.TotalCapped {
					t.Fatalf("sort %s: total %v capped %v, want %d", so.key, total.Total, total.TotalCapped, len(want))
				}
			}
		})
	}
}

// searchPages follows NextCursor from the first page of f to the last and returns every item
// and the first page (its total). A short search may answer a page short of the limit, even
// empty, with a next cursor (SearchLimited): it is followed like any other.
func searchPages(t *testing.T, s store.Store, f models.TaskFilter) ([]models.Task, models.TaskPage) {
	t.Helper()
	var out []models.Task
	var first models.TaskPage
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("search %q: more than 1000 pages", f.Search)
		}
		page, err := s.Query(ctx(t), f)
		if err != nil {
			t.Fatalf("search %q sort %s desc %v limit %d: %v", f.Search, f.Sort, f.Descending, f.Limit, err)
		}
		if pages == 0 {
			first = page
		}
		if len(page.Items) > f.Limit {
			t.Fatalf("page of %d items, limit %d", len(page.Items), f.Limit)
		}
		out = append(out, page.Items...)
		if page.NextCursor == "" {
			return out, first
		}
		f.Cursor, f.IncludeTotal = page.NextCursor, false
	}
}

func searchTitles(items []models.Task) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Title
	}
	return out
}
