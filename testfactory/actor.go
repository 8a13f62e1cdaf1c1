package testfactory

import "usertasks/models"

// WorkerPermissions are a candidate's or assignee's grants.
var WorkerPermissions = []string{models.PermView, models.PermClaim, models.PermComplete}

// AllPermissions grants every user-tasks permission (but not the manager role).
var AllPermissions = []string{"user-tasks:*"}

// User is the default provider's user id of tenant, as a token or session resolves it.
func User(tenant, id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id}
}

// Group is the default provider's group id of tenant.
func Group(tenant, id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: tenant, Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: id}
}

// Person is user id of tenant, member of groups, holding every user-tasks permission; DisplayName
// is the id.
func Person(tenant, id string, groups ...string) models.Actor {
	a := models.Actor{Tenant: tenant, Subject: User(tenant, id), DisplayName: id, Permissions: AllPermissions}
	for _, g := range groups {
		a.Groups = append(a.Groups, Group(tenant, g))
	}
	return a
}

// Worker is a person who may view, claim, release and complete tasks.
func Worker(tenant, id string, groups ...string) models.Actor {
	a := Person(tenant, id, groups...)
	a.DisplayName, a.Permissions = "Worker "+id, WorkerPermissions
	return a
}

// Manager holds every user-tasks permission and the manager role.
func Manager(tenant, id string) models.Actor {
	a := Person(tenant, id)
	a.DisplayName, a.Manager = "Manager "+id, true
	return a
}

// Guest is the holder of invitation invitationID to task taskID, allowed actions.
func Guest(tenant, invitationID, taskID string, actions ...string) models.Actor {
	return models.Actor{Tenant: tenant, Subject: models.GuestRef(tenant, invitationID),
		Guest: &models.GuestGrant{TaskID: taskID, InvitationID: invitationID, AllowedActions: actions}}
}

// RuntimeUser is a workflow runtime of tenant: it may call the runtime protocol only.
func RuntimeUser(tenant string) models.Actor {
	return models.Actor{Tenant: tenant, Subject: User(tenant, "runtime"), DisplayName: "Workflow runtime",
		Permissions: []string{models.PermRuntimeWrite}}
}
