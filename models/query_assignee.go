package models

// AssigneeFilter narrows a list by assignee: tasks assigned to one participant, or, with
// Unassigned, tasks without an assignee. The zero value does not narrow. It only ever narrows
// what the scope authorizes, so it is open to every scope.
type AssigneeFilter struct {
	Unassigned  bool
	Participant ParticipantRef // Provider, Type and ID; set unless Unassigned
}

// Set reports whether the filter narrows the list.
func (a AssigneeFilter) Set() bool { return a.Unassigned || a.Participant.ID != "" }

// String is the filter as the `assignee` parameter writes it: "none" or "<type>:<id>" (the
// provider travels apart, see ParseAssigneeFilter).
func (a AssigneeFilter) String() string {
	switch {
	case a.Unassigned:
		return AssigneeNone
	case a.Participant.ID != "":
		return string(a.Participant.Type) + ":" + a.Participant.ID
	}
	return ""
}

// AssigneeNone is the `assignee` parameter's value for unassigned tasks.
const AssigneeNone = "none"

// ParseAssigneeFilter reads the `assignee` list parameter of tenant: "none" for unassigned
// tasks, or "<type>:<id>" with an optional provider (DefaultProvider when empty), written like
// the access explanation's participant. Empty is no filter. Refusals are 422 validation-failed
// naming the parameter.
func ParseAssigneeFilter(tenant, raw, provider string) (AssigneeFilter, error) {
	switch raw {
	case "":
		if provider != "" {
			return AssigneeFilter{}, InvalidField("assigneeProvider", "needs an assignee")
		}
		return AssigneeFilter{}, nil
	case AssigneeNone:
		if provider != "" {
			return AssigneeFilter{}, InvalidField("assigneeProvider", "an unassigned task has no provider")
		}
		return AssigneeFilter{Unassigned: true}, nil
	}
	p, err := parseParticipantParam(tenant, raw, provider, "assignee", "assigneeProvider")
	if err != nil {
		return AssigneeFilter{}, err
	}
	return AssigneeFilter{Participant: p}, nil
}
