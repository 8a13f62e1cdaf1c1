package repository

// NotifyDeliveries makes the store call fn after each commit that queued an invitation
// delivery (IssueInvitation), so the delivery worker sends it at once rather than on its next
// poll. Other writes do not call it: they have nothing for that worker. nil stops it. fn must
// not block.
func (s *Store) NotifyDeliveries(fn func()) { s.issued.Set(fn) }

// deliveryQueued calls the NotifyDeliveries hook, if any. Call it only after the commit.
func (s *Store) deliveryQueued() { s.issued.Call() }
