package docstore

import (
	"fmt"
	"slices"
	"strings"

	"usertasks/migrations/logical"
)

// Aggregate is the collection of the task aggregates: one document per task.
const Aggregate = "user_tasks"

// ClaimCollection holds the version claims: a writer of a contended document first inserts
// {_id: "<tenant>/<document>/<next version>"}, and only the one whose insert succeeds writes that
// version (docs/document-store.md, "What FerretDB 1.x does not make atomic").
const ClaimCollection = "user_task_claims"

// embedded names the logical tables whose rows live only inside the task aggregate, and the
// aggregate's array field that holds them.
var embedded = map[string]string{
	"user_task_tags":       "tag_keys",
	"user_task_candidates": "candidates",
	"user_task_exclusions": "exclusions",
	"user_task_deadlines":  "deadlines",
}

// alsoOnAggregate names the indexes of tables with their own collection that also exist on the
// aggregate, over the field holding the entries still inside it: open operations stay in the
// aggregate until finalized, so the stale-operation scan reads them there.
var alsoOnAggregate = map[string]string{
	"ix_operations_pending": "operations",
}

// relayIndex serves the relay: aggregates with entries waiting to move to their collections.
var relayIndex = Index{Name: "ix_tasks_relay", Keys: []string{"relay_due"}}

// ownIndexes are the document store's own indexes of collections the logical schema lists,
// for invariants SQL keeps with a transaction: a saved view holds one of its owner's numbered
// slots, so the per-owner cap holds without one (saved_view.go).
var ownIndexes = map[string][]Index{
	"user_task_saved_views": {{Name: "ux_saved_views_slot", Keys: []string{"tenant_id", "owner_provider", "owner_type", "owner_id", "slot"}, Unique: true}},
	// An attachment holds one of its task's slots when finished (attachment.go).
	"user_task_attachments": {{Name: "ux_attachments_slot", Keys: []string{"tenant_id", "task_id", "slot"}, Unique: true}},
}

// Index is one index of a collection: its name, its key fields in order (ascending) and whether
// it is unique.
type Index struct {
	Name   string
	Keys   []string
	Unique bool
}

// Collection is one collection and its indexes (the implicit _id index aside).
type Collection struct {
	Name    string
	Indexes []Index
}

// Layout derives the document store's collections and indexes from the logical schema
// (docs/document-store.md, "Schema"): a table embedded in the aggregate has no collection and
// its non-unique indexes become multikey indexes of the aggregate; every other table has its
// collection with its indexes under the same names (a single-column primary key is _id, a
// composite one the unique index pk_<table>). The claim and daily count collections are the
// document store's own.
func Layout(schema []logical.Table) ([]Collection, error) {
	var out []Collection
	var onAggregate []Index
	for _, t := range schema {
		if field, ok := embedded[t.Name]; ok {
			for _, ix := range t.Indexes {
				if ix.Unique {
					continue // uniqueness inside one aggregate is the CAS write's; across aggregates the task differs
				}
				if keys := embeddedKeys(field, ix.Columns); len(keys) > 0 {
					onAggregate = append(onAggregate, Index{Name: ix.Name, Keys: keys})
				}
			}
			continue
		}
		c := Collection{Name: t.Name}
		if len(t.PrimaryKey) > 1 {
			c.Indexes = append(c.Indexes, Index{Name: "pk_" + t.Name, Keys: slices.Clone(t.PrimaryKey), Unique: true})
		}
		for _, ix := range t.Indexes {
			c.Indexes = append(c.Indexes, Index{Name: ix.Name, Keys: ownKeys(t, ix.Columns), Unique: ix.Unique})
			if field, ok := alsoOnAggregate[ix.Name]; ok {
				onAggregate = append(onAggregate, Index{Name: ix.Name, Keys: embeddedKeys(field, ix.Columns)})
			}
		}
		c.Indexes = append(c.Indexes, ownIndexes[t.Name]...)
		out = append(out, c)
	}
	i := slices.IndexFunc(out, func(c Collection) bool { return c.Name == Aggregate })
	if i < 0 {
		return nil, fmt.Errorf("docstore: the logical schema has no %s table", Aggregate)
	}
	out[i].Indexes = append(out[i].Indexes, onAggregate...)
	out[i].Indexes = append(out[i].Indexes, relayIndex)
	out = append(out, Collection{Name: ClaimCollection}, Collection{Name: DailyCountCollection, Indexes: []Index{dailyCountIndex}})
	for _, c := range out {
		if err := distinct(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ownKeys maps a table's index columns to document fields: a single-column primary key is _id.
func ownKeys(t logical.Table, columns []string) []string {
	keys := slices.Clone(columns)
	if len(t.PrimaryKey) == 1 {
		for i, c := range keys {
			if c == t.PrimaryKey[0] {
				keys[i] = "_id"
			}
		}
	}
	return keys
}

// embeddedKeys maps an embedded table's index columns to the aggregate's fields: tenant_id is
// the aggregate's own, task_id is the aggregate itself (dropped), task_status is the
// aggregate's status, and every other column is a field of the embedded entries.
func embeddedKeys(field string, columns []string) []string {
	var keys []string
	for _, c := range columns {
		switch c {
		case "tenant_id":
			keys = append(keys, "tenant_id")
		case "task_id":
		case "task_status":
			keys = append(keys, "status")
		default:
			keys = append(keys, field+"."+c)
		}
	}
	return keys
}

// distinct refuses two indexes of one collection with the same name or the same keys: MongoDB
// refuses the second.
func distinct(c Collection) error {
	seen := map[string]string{}
	for _, ix := range c.Indexes {
		key := strings.Join(ix.Keys, ",")
		for _, k := range []string{"name:" + ix.Name, "keys:" + key} {
			if other, ok := seen[k]; ok {
				return fmt.Errorf("docstore: %s: indexes %s and %s collide (%s)", c.Name, other, ix.Name, k)
			}
			seen[k] = ix.Name
		}
	}
	return nil
}
