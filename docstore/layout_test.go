package docstore_test

import (
	"slices"
	"strings"
	"testing"

	"usertasks/docstore"
	"usertasks/migrations/logical"
)

func mustLayout(t *testing.T) []docstore.Collection {
	t.Helper()
	layout, err := docstore.Layout(logical.Schema())
	if err != nil {
		t.Fatal(err)
	}
	return layout
}

func collectionOf(t *testing.T, layout []docstore.Collection, name string) docstore.Collection {
	t.Helper()
	i := slices.IndexFunc(layout, func(c docstore.Collection) bool { return c.Name == name })
	if i < 0 {
		t.Fatalf("the layout has no collection %s", name)
	}
	return layout[i]
}

func indexOf(t *testing.T, c docstore.Collection, name string) docstore.Index {
	t.Helper()
	i := slices.IndexFunc(c.Indexes, func(ix docstore.Index) bool { return ix.Name == name })
	if i < 0 {
		t.Fatalf("%s has no index %s", c.Name, name)
	}
	return c.Indexes[i]
}

// TestLayoutCoversTheLogicalSchema: every table is a collection or embedded in the aggregate,
// and every index of a collection's table is there with its name, keys and uniqueness.
func TestLayoutCoversTheLogicalSchema(t *testing.T) {
	layout := mustLayout(t)
	for _, table := range logical.Schema() {
		if _, ok := docstore.Embedded[table.Name]; ok {
			if slices.ContainsFunc(layout, func(c docstore.Collection) bool { return c.Name == table.Name }) {
				t.Errorf("%s is embedded in the aggregate and has a collection too", table.Name)
			}
			continue
		}
		c := collectionOf(t, layout, table.Name)
		for _, want := range table.Indexes {
			got := indexOf(t, c, want.Name)
			if got.Unique != want.Unique || len(got.Keys) != len(want.Columns) {
				t.Errorf("%s.%s = %+v, want the logical %+v", c.Name, want.Name, got, want)
			}
			for i, col := range want.Columns {
				if got.Keys[i] != col && !(got.Keys[i] == "_id" && slices.Equal(table.PrimaryKey, []string{col})) {
					t.Errorf("%s.%s key %d = %s, want %s", c.Name, want.Name, i, got.Keys[i], col)
				}
			}
		}
		if len(table.PrimaryKey) > 1 {
			if pk := indexOf(t, c, "pk_"+table.Name); !pk.Unique || !slices.Equal(pk.Keys, table.PrimaryKey) {
				t.Errorf("%s: composite primary key index %+v, want unique %v", c.Name, pk, table.PrimaryKey)
			}
		}
	}
	// Plus the document store's own: the version claims.
	collectionOf(t, layout, docstore.ClaimCollection)
	collectionOf(t, layout, docstore.DailyCountCollection)
	if len(layout)+len(docstore.Embedded) != len(logical.Schema())+2 {
		t.Errorf("%d collections and %d embedded tables for %d logical tables", len(layout), len(docstore.Embedded), len(logical.Schema()))
	}
}

// TestLayoutAggregate: the embedded tables' lookups and the open operations' stale scan are
// multikey indexes of the aggregate, and the relay has its index.
func TestLayoutAggregate(t *testing.T) {
	agg := collectionOf(t, mustLayout(t), docstore.Aggregate)
	for name, keys := range map[string][]string{
		"ix_candidates_lookup":  {"tenant_id", "candidates.provider", "candidates.participant_type", "candidates.participant_id", "status", "candidates.source"},
		"ix_exclusions_lookup":  {"tenant_id", "exclusions.provider", "exclusions.participant_type", "exclusions.participant_id"},
		"ix_tags_tenant_tag":    {"tenant_id", "tag_keys.tag"},
		"ix_operations_pending": {"operations.state", "operations.updated_at"},
		"ix_tasks_relay":        {"relay_due"},
		"ix_tasks_status_due":   {"tenant_id", "status", "due_at", "_id"},
	} {
		if got := indexOf(t, agg, name); got.Unique || !slices.Equal(got.Keys, keys) {
			t.Errorf("%s = %+v, want non-unique %v", name, got, keys)
		}
	}
	for _, name := range []string{"ux_candidates_identity", "ux_exclusions_identity", "ix_candidates_task"} {
		if slices.ContainsFunc(agg.Indexes, func(ix docstore.Index) bool { return ix.Name == name }) {
			t.Errorf("%s is derived onto the aggregate; the CAS write keeps it, no query needs it", name)
		}
	}
}

// TestLayoutNeverIndexesProtectedFields: sealed payloads (*_enc) are in no index.
func TestLayoutNeverIndexesProtectedFields(t *testing.T) {
	for _, c := range mustLayout(t) {
		for _, ix := range c.Indexes {
			for _, k := range ix.Keys {
				if strings.HasSuffix(k, "_enc") {
					t.Errorf("%s.%s indexes the protected field %s", c.Name, ix.Name, k)
				}
			}
		}
	}
}

// TestLayoutErrCollidingIndexes: two indexes with the same keys are refused before MongoDB would.
func TestLayoutErrCollidingIndexes(t *testing.T) {
	schema := logical.Schema()
	schema[0].Indexes = append(schema[0].Indexes, logical.Index{Name: "ix_again", Columns: schema[0].Indexes[2].Columns})
	if _, err := docstore.Layout(schema); err == nil || !strings.Contains(err.Error(), "ix_again") {
		t.Fatalf("Layout = %v, want the collision of ix_again named", err)
	}
}
