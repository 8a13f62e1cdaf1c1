package docstore

import "usertasks/models"

// notifierRef boxes the change notifier so it can be swapped atomically while the store is in
// use (the workers it wakes are built after the store).
type notifierRef struct{ n models.ChangeNotifier }

// NotifyChanges makes the store tell n, after each committed write that changes what a task
// looks like, as repository.Store.NotifyChanges: a Mutate that is not a replay, a Create that
// created the task, and a SetHealth or ClearHealth that wrote the finding. A write that lost
// its claim, was refused or replayed tells nothing. nil stops the notifications. n must not
// block.
func (s *Store) NotifyChanges(n models.ChangeNotifier) {
	if n == nil {
		s.notify.Store(nil)
		return
	}
	s.notify.Store(&notifierRef{n: n})
}

// changed tells the notifier, if any, about one committed write.
func (s *Store) changed(tenant, taskID string, revision int) {
	if ref := s.notify.Load(); ref != nil {
		ref.n.Changed(tenant, taskID, revision)
	}
}
