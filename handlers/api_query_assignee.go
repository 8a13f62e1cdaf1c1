package handlers

import (
	"errors"

	"usertasks/models"
)

// assignee reads the list's `assignee` parameter ("none", or "<type>:<id>" with an optional
// `assigneeProvider`) in tenant; problems join the others (422).
func (r *queryReader) assignee(tenant string) models.AssigneeFilter {
	a, err := models.ParseAssigneeFilter(tenant, r.str("assignee"), r.str("assigneeProvider"))
	var ve *models.ValidationError
	switch {
	case errors.As(err, &ve):
		r.problems = append(r.problems, ve.Fields...)
	case err != nil:
		r.fail("assignee", "is invalid")
	}
	return a
}
