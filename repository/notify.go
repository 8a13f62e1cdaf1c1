package repository

import "usertasks/models"

// NotifyChanges makes the store tell n, after each commit, about every write that changes
// what a task looks like: a Mutate that is not a replay, a Create that created the task, and a
// SetHealth or ClearHealth that wrote the task's finding. A rolled-back or retried transaction
// tells nothing. nil stops the notifications. n must not block.
func (s *Store) NotifyChanges(n models.ChangeNotifier) { s.notify.Set(n) }

// changed tells the notifier, if any, about one committed change. Call it only after the
// transaction committed.
func (s *Store) changed(tenant, taskID string, revision int) {
	s.notify.Changed(tenant, taskID, revision)
}
