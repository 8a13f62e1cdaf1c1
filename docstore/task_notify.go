package docstore

import "usertasks/models"

// NotifyChanges makes the store tell n, after each committed write that changes what a task
// looks like, as repository.Store.NotifyChanges: a Mutate that is not a replay, a Create that
// created the task, and a SetHealth or ClearHealth that wrote the finding. A write that lost
// its claim, was refused or replayed tells nothing. nil stops the notifications. n must not
// block.
func (s *Store) NotifyChanges(n models.ChangeNotifier) { s.notify.Set(n) }

// changed tells the notifier, if any, about one committed write.
func (s *Store) changed(tenant, taskID string, revision int) {
	s.notify.Changed(tenant, taskID, revision)
}
