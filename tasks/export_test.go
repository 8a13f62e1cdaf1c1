package tasks

import (
	"encoding/json"
	"sync/atomic"
	"testing"

	"usertasks/forms"
)

// CountFormParses counts the service's parses of pinned forms until the test ends. Tests that
// call it must not run in parallel: it swaps the package's parser.
func CountFormParses(t testing.TB) *atomic.Int32 {
	t.Helper()
	prev := parseForm
	var n atomic.Int32
	parseForm = func(schema json.RawMessage) (*forms.Form, error) {
		n.Add(1)
		return prev(schema)
	}
	t.Cleanup(func() { parseForm = prev })
	return &n
}
