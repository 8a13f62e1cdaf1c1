package docstore_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// searchMeasureEnv lists the sizes (tasks of one tenant, ascending) at which
// TestSearchMeasure times the document store's list pages: a plain page, 3+ character
// searches (the $regex filter) and 1–2 character ones (storekit.ShortSearch's window), each
// the median of 5, printed for docs/document-store.md ("What serves a search"). Unset, the
// test is skipped; it asserts nothing about time.
const searchMeasureEnv = "USERTASKS_DOCSTORE_SEARCH_MEASURE"

func TestSearchMeasure(t *testing.T) {
	v := os.Getenv(searchMeasureEnv)
	if v == "" {
		t.Skipf("set %s=2000,10000 to time the document store's search", searchMeasureEnv)
	}
	ctx := context.Background()
	s := docStore(t, testfactory.OpenStore(t, testfactory.Mongo, nil))
	boss := testfactory.Manager("t1", "boss")
	// One real aggregate is the template of the copies inserted behind the store's back: the
	// fields a list reads differ per copy (id, keys, title, search text, times, priority).
	tmpl := createTask(t, s, &testfactory.TaskOpts{Title: "template"})
	var raw bson.M
	if err := s.Database().Collection("user_tasks").FindOne(ctx, bson.D{{Key: "_id", Value: tmpl.ID}}).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	words := []string{"invoice", "review", "approve", "contract", "onboarding", "purchase", "travel", "expense"}
	have := 1
	var b strings.Builder
	fmt.Fprintf(&b, "\ndocument store (FerretDB 1.24, SQLite), median ms of 5, first page of 50 with total / page 5 cursors deep:\n")
	fmt.Fprintf(&b, "| tasks | plain | search \"review\" | search \"zzz-none\" | search \"e\" | search \"ß\" |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, sz := range strings.Split(v, ",") {
		n, err := strconv.Atoi(sz)
		if err != nil {
			t.Fatal(err)
		}
		var batch []any
		base := time.Now().UTC().Add(-time.Duration(n) * time.Second)
		for ; have < n; have++ {
			d := bson.M{}
			for k, v := range raw {
				d[k] = v
			}
			id := models.NewID()
			title := fmt.Sprintf("%s %s task %d", words[have%len(words)], words[(have/8)%len(words)], have)
			at := base.Add(time.Duration(have) * time.Second)
			d["_id"], d["title"], d["priority"], d["created_at"], d["updated_at"] = id, title, have%101, at, at
			d["materialization_key"], d["bookmark_id"], d["workflow_instance_id"] = "mk-"+id, "bm-"+id, "wf-"+id
			d["search_text"] = strings.ToLower(title + "\n\nref-" + strconv.Itoa(have) + "\napproval\nwf-" + id)
			batch = append(batch, d)
			if len(batch) == 1000 {
				if _, err := s.Database().Collection("user_tasks").InsertMany(ctx, batch); err != nil {
					t.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		if len(batch) > 0 {
			if _, err := s.Database().Collection("user_tasks").InsertMany(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		row := []string{strconv.Itoa(n)}
		for _, search := range []string{"", "review", "zzz-none", "e", "ß"} {
			f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: models.SortCreated, Descending: true,
				Search: search, Limit: models.DefaultPageSize}
			row = append(row, measureDocPages(t, s, f))
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
	}
	t.Logf("%s(short search window %d rows)", b.String(), storekit.ShortSearchWindow)
}

func measureDocPages(t *testing.T, s interface {
	Query(context.Context, models.TaskFilter) (models.TaskPage, error)
}, f models.TaskFilter) string {
	t.Helper()
	ctx := context.Background()
	median := func(f models.TaskFilter) float64 {
		var runs []time.Duration
		for range 5 {
			start := time.Now()
			if _, err := s.Query(ctx, f); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, time.Since(start))
		}
		slices.Sort(runs)
		return float64(runs[2].Microseconds()) / 1000
	}
	deep := f
	for range 5 {
		p, err := s.Query(ctx, deep)
		if err != nil {
			t.Fatal(err)
		}
		if p.NextCursor == "" {
			deep.Cursor = ""
			break
		}
		deep.Cursor = p.NextCursor
	}
	first := f
	first.IncludeTotal = true
	d := "-"
	if deep.Cursor != "" {
		d = fmt.Sprintf("%.0f", median(deep))
	}
	return fmt.Sprintf("%.0f / %s", median(first), d)
}
