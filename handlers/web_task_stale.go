package handlers

import (
	"usertasks/formsource"
	"usertasks/models"
	"usertasks/views"
)

// staleConflict is the conflict banner of a refused post, said from the task as it is now:
// when the task has left its open states, who closed it and when (in the reader's zone) —
// whatever the refusal's code, that is why the post failed; when it is still open, the
// refusal's own sentence, which promises the posted input only when the page shows it again.
func staleConflict(k views.Clock, nm namer, a models.Actor, t models.Task, said string, kept bool) string {
	L := k.T.Labels
	if !t.Status.IsOpen() {
		when := t.CompletedAt
		if when == nil {
			when = t.TransitionedAt
		}
		if when != nil {
			at := k.Absolute(*when)
			by := L.StaleBySomeone
			if p := t.Outcome.CompletedBy; p != nil {
				by = nm.label(*p)
				if a.Guest == nil && p.Same(a.Subject) {
					by = L.StaleByYou
				}
			}
			var what string
			switch t.Status {
			case models.StatusCompleting, models.StatusCompleted:
				what = k.T.Format(L.StaleCompleted, by, at)
			case models.StatusCancelling, models.StatusCancelled:
				what = k.T.Format(L.StaleCancelled, by, at)
			default: // timing out, timed out
				what = k.T.Format(L.StaleTimedOut, at)
			}
			return what + " " + L.StaleNothingSaved
		}
	}
	if kept && said == k.T.ConflictRevision {
		return L.ConflictKept
	}
	return said
}

// formsDirVariable is the configuration variable that sets up the built-in form provider in
// `web serve` (cmd/web/config_table.go); the health review names it so a manager can pass it on.
const formsDirVariable = "USERTASKS_FORMS_DIR"

// formTrouble is the form reference of a task whose form did not resolve, for the health
// review; nil for any other finding.
func formTrouble(t models.Task) *views.FormTrouble {
	if t.Health.Code != models.HealthFormProviderMissing && t.Health.Code != models.HealthFormResolutionFailed {
		return nil
	}
	f := t.Protected.Form
	if f == nil || f.Requested == nil {
		return nil
	}
	return &views.FormTrouble{Provider: f.Requested.Provider, Key: f.Requested.Key, Version: f.Requested.Version,
		Builtin: formsource.FilesProvider, Variable: formsDirVariable, Failure: models.FormFailureOf(t.Health)}
}
