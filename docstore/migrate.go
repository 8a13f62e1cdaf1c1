package docstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/migrations"
	"usertasks/migrations/logical"
)

// VersionCollection holds the schema-version document {_id: "logical", version, applied_at}; it
// has the name of the SQL providers' version table.
const VersionCollection = migrations.VersionTable

const versionID = "logical"

// Change is one step a migration took, for the progress lines of `web migrate up`.
type Change struct {
	Collection string
	Index      string // empty: the collection was created
	Dropped    bool   // the index was dropped (no longer in the schema, or its keys changed)
}

func (c Change) String() string {
	switch {
	case c.Index == "":
		return "created collection " + c.Collection
	case c.Dropped:
		return "dropped index " + c.Collection + "." + c.Index
	}
	return "created index " + c.Collection + "." + c.Index
}

// Version reads the database's schema version: 0 when it was never migrated.
func Version(ctx context.Context, db *mongo.Database) (int64, error) {
	var doc struct {
		Version int64 `bson:"version"`
	}
	err := db.Collection(VersionCollection).FindOne(ctx, bson.D{{Key: "_id", Value: versionID}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("docstore: read the schema version: %w", err)
	}
	return doc.Version, nil
}

// Check compares the database's schema version with this binary's, like migrations.Check:
// migrations.ErrUnknownSchema when the database is newer, migrations.ErrPending when older.
func Check(ctx context.Context, db *mongo.Database) (current, latest int64, err error) {
	current, err = Version(ctx, db)
	if err != nil {
		return 0, 0, err
	}
	switch latest = logical.Version; {
	case current > latest:
		return current, latest, migrations.ErrUnknownSchema
	case current < latest:
		return current, latest, migrations.ErrPending
	}
	return current, latest, nil
}

// Up brings the database to the logical schema: it creates the missing collections, then the
// missing indexes, drops the indexes the schema no longer lists (or whose keys changed), and
// records the version. Every step is idempotent, so a second run, or two nodes at once, change
// nothing more. A database newer than this binary is refused before anything is touched.
func Up(ctx context.Context, db *mongo.Database) ([]Change, error) {
	if _, _, err := Check(ctx, db); err != nil && !errors.Is(err, migrations.ErrPending) {
		return nil, err
	}
	layout, err := Layout(logical.Schema())
	if err != nil {
		return nil, err
	}
	var changes []Change
	names, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		return nil, fmt.Errorf("docstore: list collections: %w", err)
	}
	for _, c := range layout {
		if slices.Contains(names, c.Name) {
			continue
		}
		if err := db.CreateCollection(ctx, c.Name); err != nil && !isNamespaceExists(err) {
			return changes, fmt.Errorf("docstore: create %s: %w", c.Name, err)
		}
		changes = append(changes, Change{Collection: c.Name})
	}
	for _, c := range layout {
		done, err := syncIndexes(ctx, db.Collection(c.Name), c)
		changes = append(changes, done...)
		if err != nil {
			return changes, err
		}
	}
	if err := recordVersion(ctx, db); err != nil {
		return changes, err
	}
	return changes, nil
}

// recordVersion raises the version document to this binary's; a concurrent newer binary's
// version is never lowered (the filter misses it and the upsert's insert hits _id).
func recordVersion(ctx context.Context, db *mongo.Database) error {
	_, err := db.Collection(VersionCollection).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: versionID}, {Key: "version", Value: bson.D{{Key: "$lte", Value: logical.Version}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "version", Value: logical.Version}, {Key: "applied_at", Value: time.Now().UTC()}}}},
		options.UpdateOne().SetUpsert(true))
	if mongo.IsDuplicateKeyError(err) {
		return migrations.ErrUnknownSchema
	}
	if err != nil {
		return fmt.Errorf("docstore: record the schema version: %w", err)
	}
	return nil
}

// storedIndex is one index as listIndexes reports it.
type storedIndex struct {
	Name   string `bson:"name"`
	Key    bson.D `bson:"key"`
	Unique bool   `bson:"unique"`
}

// ListIndexes reads a collection's indexes back (the _id index aside), keys in order.
func ListIndexes(ctx context.Context, coll *mongo.Collection) ([]Index, error) {
	cur, err := coll.Indexes().List(ctx)
	if err != nil {
		return nil, fmt.Errorf("docstore: list indexes of %s: %w", coll.Name(), err)
	}
	var stored []storedIndex
	if err := cur.All(ctx, &stored); err != nil {
		return nil, fmt.Errorf("docstore: list indexes of %s: %w", coll.Name(), err)
	}
	var out []Index
	for _, s := range stored {
		if s.Name == "_id_" {
			continue
		}
		ix := Index{Name: s.Name, Unique: s.Unique}
		for _, e := range s.Key {
			ix.Keys = append(ix.Keys, e.Key)
		}
		out = append(out, ix)
	}
	return out, nil
}

// syncIndexes makes a collection's indexes exactly the wanted ones.
func syncIndexes(ctx context.Context, coll *mongo.Collection, want Collection) ([]Change, error) {
	have, err := ListIndexes(ctx, coll)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, h := range have {
		i := slices.IndexFunc(want.Indexes, func(w Index) bool { return w.Name == h.Name })
		if i >= 0 && sameIndex(h, want.Indexes[i]) {
			continue
		}
		if err := coll.Indexes().DropOne(ctx, h.Name); err != nil {
			return changes, fmt.Errorf("docstore: drop index %s.%s: %w", want.Name, h.Name, err)
		}
		changes = append(changes, Change{Collection: want.Name, Index: h.Name, Dropped: true})
	}
	var create []mongo.IndexModel
	for _, w := range want.Indexes {
		if slices.ContainsFunc(have, func(h Index) bool { return sameIndex(h, w) }) {
			continue
		}
		keys := bson.D{}
		for _, k := range w.Keys {
			keys = append(keys, bson.E{Key: k, Value: 1})
		}
		opts := options.Index().SetName(w.Name)
		if w.Unique {
			opts.SetUnique(true)
		}
		create = append(create, mongo.IndexModel{Keys: keys, Options: opts})
		changes = append(changes, Change{Collection: want.Name, Index: w.Name})
	}
	if len(create) == 0 {
		return changes, nil
	}
	if _, err := coll.Indexes().CreateMany(ctx, create); err != nil {
		return changes, fmt.Errorf("docstore: create the indexes of %s: %w", want.Name, err)
	}
	return changes, nil
}

func sameIndex(a, b Index) bool {
	return a.Name == b.Name && a.Unique == b.Unique && slices.Equal(a.Keys, b.Keys)
}

// isNamespaceExists: a concurrent migration created the collection first.
func isNamespaceExists(err error) bool {
	var ce mongo.CommandError
	return errors.As(err, &ce) && ce.Code == 48
}

// CollectionStatus is how one collection of the layout stands in the database.
type CollectionStatus struct {
	Name    string
	Exists  bool
	Missing []string // indexes of the layout the collection lacks
	Extra   []string // indexes the collection has that the layout does not list (or lists otherwise)
}

// Status compares the database's collections and indexes with the layout, for `web migrate
// status`; it changes nothing.
func Status(ctx context.Context, db *mongo.Database) ([]CollectionStatus, error) {
	layout, err := Layout(logical.Schema())
	if err != nil {
		return nil, err
	}
	names, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		return nil, fmt.Errorf("docstore: list collections: %w", err)
	}
	var out []CollectionStatus
	for _, c := range layout {
		st := CollectionStatus{Name: c.Name, Exists: slices.Contains(names, c.Name)}
		var have []Index
		if st.Exists {
			if have, err = ListIndexes(ctx, db.Collection(c.Name)); err != nil {
				return nil, err
			}
		}
		for _, w := range c.Indexes {
			if !slices.ContainsFunc(have, func(h Index) bool { return sameIndex(h, w) }) {
				st.Missing = append(st.Missing, w.Name)
			}
		}
		for _, h := range have {
			if !slices.ContainsFunc(c.Indexes, func(w Index) bool { return sameIndex(h, w) }) {
				st.Extra = append(st.Extra, h.Name)
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// Migrate connects to the document store at rawURL and applies Up, as repository.Migrate does
// for SQL.
func Migrate(ctx context.Context, rawURL string) error {
	conn, err := Connect(ctx, rawURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = Up(ctx, conn.DB)
	return err
}
