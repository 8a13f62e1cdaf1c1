package storetest

import "testing"

// testNotificationRows is the contract of store.Notifications (SPEC 10.3): the rows changes
// write, exactly once per key, the delivery worker's leases and outcomes, group expansion, the
// in-app list, digests, the due-soon scan and retention.
func testNotificationRows(t *testing.T, h Harness) {
	t.Run("Derive", func(t *testing.T) { testNotificationDerive(t, h) })
	t.Run("Once", func(t *testing.T) { testNotificationOnce(t, h) })
}
