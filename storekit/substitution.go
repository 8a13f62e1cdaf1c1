package storekit

import (
	"time"

	"usertasks/models"
)

// AbsenceLookup reads user's absence in tenant inside the caller's write (nil without one),
// whatever its times: models.Substitute decides whether it is active.
type AbsenceLookup func(tenant string, user models.ParticipantRef) (*models.Absence, error)

// ApplySubstitution forwards c to the substitute of the user it assigns the task to while that
// user's absence is active at now (models.Substitute, SPEC 10.5). Both stores call it between
// the decision and the write, in the change's transaction, so the absence read and the
// assignment are one decision on one database clock. It reads at most one absence: the
// target's (one hop), and none for a change that assigns nobody new.
func ApplySubstitution(before *models.Task, c *models.Change, now time.Time, lookup AbsenceLookup) error {
	target, ok := models.SubstitutionTarget(before, c)
	if !ok {
		return nil
	}
	abs, err := lookup(c.Task.Tenant, target)
	if err != nil || abs == nil {
		return err
	}
	_, err = models.Substitute(before, c, *abs, now)
	return err
}

// StandingIn is whom a substitute stands in for, from their absence rows not yet ended: the
// absent users of those active at now, at most models.MaxStandsInFor, in the rows' order.
func StandingIn(c Codec, rows []AbsenceRow, now time.Time) []models.ParticipantRef {
	var out []models.ParticipantRef
	for i := range rows {
		a := c.Absence(&rows[i])
		if a.ActiveAt(now) && len(out) < models.MaxStandsInFor {
			out = append(out, a.User)
		}
	}
	return out
}
