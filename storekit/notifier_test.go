package storekit

import "testing"

type recordingNotifier struct{ got []string }

func (r *recordingNotifier) Changed(tenant, taskID string, revision int) {
	r.got = append(r.got, tenant+"/"+taskID)
}

// TestNotifierAndHook: nothing is told before Set or after Set(nil); in between, every change
// and every call reaches what was set.
func TestNotifierAndHook(t *testing.T) {
	var n Notifier
	n.Changed("t1", "a", 1) // no notifier: nothing happens
	r := &recordingNotifier{}
	n.Set(r)
	n.Changed("t1", "b", 2)
	n.Set(nil)
	n.Changed("t1", "c", 3)
	if len(r.got) != 1 || r.got[0] != "t1/b" {
		t.Fatalf("notifier told %v, want [t1/b]", r.got)
	}

	var h Hook
	calls := 0
	h.Call()
	h.Set(func() { calls++ })
	h.Call()
	h.Call()
	h.Set(nil)
	h.Call()
	if calls != 2 {
		t.Fatalf("hook called %d times, want 2", calls)
	}
}
