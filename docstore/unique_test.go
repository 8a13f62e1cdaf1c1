package docstore_test

import (
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/docstore"
)

// TestUniqueIndexesRefuseDuplicates: for every unique index of the layout, a second document
// with the same key values is refused with E11000, and one that differs in a single key field
// (another tenant, another token) is accepted. Every other indexed field differs between the
// documents, so only the index under test can refuse (FerretDB's E11000 names no index).
func TestUniqueIndexesRefuseDuplicates(t *testing.T) {
	ctx, db := testContext(t), openStore(t, nil).Database()
	for _, c := range mustLayout(t) {
		for _, ix := range c.Indexes {
			if !ix.Unique {
				continue
			}
			t.Run(c.Name+"/"+ix.Name, func(t *testing.T) {
				coll := db.Collection(c.Name)
				// Every indexed field of the collection gets a value of its own per document, so
				// only the index under test can collide.
				doc := func(n int) bson.M {
					d := bson.M{"_id": fmt.Sprintf("%s-%d", ix.Name, n)}
					for _, other := range c.Indexes {
						for _, k := range other.Keys {
							if k != "_id" && !strings.Contains(k, ".") {
								d[k] = fmt.Sprintf("%s-%s-%d", ix.Name, k, n)
							}
						}
					}
					return d
				}
				first, dup, differs := doc(1), doc(2), doc(3)
				for _, k := range ix.Keys {
					dup[k] = first[k]
					differs[k] = first[k]
				}
				// Hostile but valid key values: the uniqueness is on the exact value.
				last := ix.Keys[len(ix.Keys)-1]
				first[last] = "ключ / ? # \u00a0" + ix.Name
				dup[last] = first[last]
				differs[last] = "ключ / ? # \u00a0" + ix.Name + " "
				if _, err := coll.InsertOne(ctx, first); err != nil {
					t.Fatal(err)
				}
				_, err := coll.InsertOne(ctx, dup)
				if !mongo.IsDuplicateKeyError(err) {
					t.Fatalf("duplicate %v: %v, want E11000", ix.Keys, err)
				}
				if _, err := coll.InsertOne(ctx, differs); err != nil {
					t.Fatalf("a document differing in %s only: %v", last, err)
				}
			})
		}
	}
	t.Run("user_tasks/TenantScoped", func(t *testing.T) {
		coll := db.Collection(docstore.Aggregate)
		for i, tenant := range []string{"acme", "globex"} {
			_, err := coll.InsertOne(ctx, bson.M{"_id": fmt.Sprintf("scoped-%d", i), "tenant_id": tenant,
				"materialization_key": "wf-1/act-1", "bookmark_id": "bm-1"})
			if err != nil {
				t.Fatalf("the same keys in tenant %s: %v", tenant, err)
			}
		}
		_, err := coll.InsertOne(ctx, bson.M{"_id": "scoped-2", "tenant_id": "acme",
			"materialization_key": "wf-1/act-2", "bookmark_id": "bm-1"})
		if !mongo.IsDuplicateKeyError(err) {
			t.Fatalf("a second task on acme's bookmark: %v, want E11000", err)
		}
	})
}
