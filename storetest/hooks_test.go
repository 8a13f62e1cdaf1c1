package storetest

import (
	"errors"
	"sync/atomic"
	"testing"

	"usertasks/store"
)

// A provider without a hook a case needs gets the case skipped as not applicable and counted,
// never passed: the SQL-only cases without Harness.SQL, a storage hook left nil, a Tampering the
// provider refuses.
func TestNotApplicableIsReportedAndCounted(t *testing.T) {
	h := Harness{
		Name: "Fake",
		Tamper: func(t *testing.T, s store.Store, what Tampering, args ...any) error {
			return errors.New("the fake stores no " + string(what))
		},
		Open:        func(t *testing.T, opts Options) store.Store { return noStore{} },
		Unsupported: func(o Options) string { return map[bool]string{true: "no caps"}[o.TotalCap != 0] },
		Differs:     map[string]string{"Differs": "the fake differs"},
		na:          &atomic.Int64{},
	}
	for name, run := range map[string]func(t *testing.T){
		"Statements":     func(t *testing.T) { testStatements(t, h) },
		"QueryPlans":     func(t *testing.T) { testQueryPlans(t, h) },
		"ProtectedReads": func(t *testing.T) { testProtectedReads(t, h) },
		"Tamper":         func(t *testing.T) { h.tamper(t, nil, CorruptCandidateStatus, "task") },
		"CountRecords":   func(t *testing.T) { h.records(t, nil, "user_task_events", nil) },
		"Containing":     func(t *testing.T) { h.containing(t, nil, "user_task_events", "metadata", "x") },
		"Counter":        func(t *testing.T) { h.openCounted(t, nil, "t1") },
		"Unsupported":    func(t *testing.T) { h.open(t, Options{TotalCap: 3}) },
		"Differs":        func(t *testing.T) { h.differs(t) },
	} {
		var skipped bool
		t.Run(name, func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			run(t)
			t.Errorf("the case went on without what it needs")
		})
		if !skipped {
			t.Errorf("%s: not skipped", name)
		}
	}
	if n := h.na.Load(); n != 9 {
		t.Fatalf("%d cases counted not applicable, want 9", n)
	}
}

// noStore stands for a store whose methods are never called.
type noStore struct{ store.Store }
