package migrations

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"usertasks/migrations/logical"
)

// TestLogicalVersionIsLatestMigration: the logical schema states the latest migration of every
// dialect, so its version is that migration's number.
func TestLogicalVersionIsLatestMigration(t *testing.T) {
	for _, d := range Dialects {
		fsys, err := Files(d)
		if err != nil {
			t.Fatal(err)
		}
		names, err := fs.Glob(fsys, "*.sql")
		if err != nil {
			t.Fatal(err)
		}
		var latest int64
		for _, n := range names {
			v, err := strconv.ParseInt(strings.SplitN(n, "_", 2)[0], 10, 64)
			if err != nil {
				t.Fatalf("%s/%s: %v", d, n, err)
			}
			latest = max(latest, v)
		}
		if latest != logical.Version {
			t.Errorf("%s: latest migration %d, logical.Version %d: raise logical.Version with the migration", d, latest, logical.Version)
		}
	}
}
