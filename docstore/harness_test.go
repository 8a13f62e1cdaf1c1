package docstore

import (
	"context"
	"os"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/docstore/docstoretest"
)

// The tests run on docstoretest's server: USERTASKS_TEST_MONGODB_URL (a real MongoDB) when set,
// else an embedded FerretDB started once for the package.
func TestMain(m *testing.M) {
	code := m.Run()
	docstoretest.Stop()
	os.Exit(code)
}

// testDB connects to a fresh database of its own, dropped when the test ends.
func testDB(t *testing.T) *mongo.Database {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := Connect(ctx, docstoretest.DatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = conn.DB.Drop(ctx)
		_ = conn.Close(ctx)
	})
	return conn.DB
}
