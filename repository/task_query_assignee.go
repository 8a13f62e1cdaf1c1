package repository

import "usertasks/models"

// assigneeCond is the assignee filter's conjunct, served by ix_tasks_assignee.
func assigneeCond(a models.AssigneeFilter) (cond, bool) {
	switch {
	case a.Unassigned:
		return cond{"assignee_id IS NULL", nil}, true
	case a.Participant.ID != "":
		p := a.Participant
		return cond{"assignee_provider = ? AND assignee_type = ? AND assignee_id = ?", []any{p.Provider, string(p.Type), p.ID}}, true
	}
	return cond{}, false
}
