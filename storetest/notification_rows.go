package storetest

import "testing"

// testNotificationRows is the contract of store.Notifications (SPEC 10.3): the rows changes
// write, exactly once per key, the delivery worker's leases and outcomes, group expansion, the
// in-app list, digests, the due-soon scan and retention.
func testNotificationRows(t *testing.T, h Harness) {
	t.Run("Derive", func(t *testing.T) { testNotificationDerive(t, h) })
	t.Run("Once", func(t *testing.T) { testNotificationOnce(t, h) })
	t.Run("Leases", func(t *testing.T) { testNotificationLeases(t, h) })
	t.Run("Settle", func(t *testing.T) { testNotificationSettle(t, h) })
	t.Run("Expand", func(t *testing.T) { testNotificationExpand(t, h) })
	t.Run("List", func(t *testing.T) { testNotificationList(t, h) })
	t.Run("Digest", func(t *testing.T) { testNotificationDigest(t, h) })
	t.Run("DigestLarge", func(t *testing.T) { testNotificationDigestLarge(t, h) })
	t.Run("DueSoon", func(t *testing.T) { testNotificationDueSoon(t, h) })
	t.Run("Purge", func(t *testing.T) { testNotificationPurge(t, h) })
}
