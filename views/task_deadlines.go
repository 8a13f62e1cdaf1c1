package views

import (
	"time"

	"usertasks/models"
)

// DeadlineRow is one deadline on the task page (SPEC 10.4): its kind, when it is due, whether
// it fired, and its actions already in words (they count participants, never name them).
type DeadlineRow struct {
	Number  int // its position in the workflow's list, from 1 (History says the same number)
	Kind    models.DeadlineKind
	Due     time.Time
	State   models.DeadlineState
	Settled *time.Time // when it fired or was found not needed; nil while pending
	Actions []string
}
