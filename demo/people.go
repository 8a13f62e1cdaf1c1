package demo

import (
	"usertasks/directory"
	"usertasks/models"
)

// User is a person of the demo, for the dev login page.
type User struct {
	ID          string
	DisplayName string
	Tenant      string
	Groups      []string
	Manager     bool
	Permissions []string
	// Shows is the key of what signing in as the user shows, for the dev login's label (the
	// page's language catalogue words it: i18n.DemoUsersText).
	Shows string
}

// Actor is the actor a dev login as u acts as (provider "default").
func (u User) Actor() models.Actor {
	a := models.Actor{
		Tenant:      u.Tenant,
		Subject:     models.ParticipantRef{Tenant: u.Tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: u.ID, DisplayName: u.DisplayName},
		DisplayName: u.DisplayName,
		Permissions: append([]string(nil), u.Permissions...),
		Manager:     u.Manager,
	}
	for _, g := range u.Groups {
		a.Groups = append(a.Groups, models.ParticipantRef{Tenant: u.Tenant, Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: g})
	}
	return a
}

var (
	demoWorkerPermissions = []string{
		models.PermView, models.PermClaim, models.PermComplete, models.PermParticipantsView,
	}
	demoManagerPermissions = []string{"user-tasks:*", models.PermParticipantsView}
)

// Users are the demo's people: a manager per tenant, candidates in groups, a member of a
// snapshot group (dan, jon) and a user the demo tasks exclude (eve).
var Users = []User{
	{ID: "ava", DisplayName: "Ava Adams (manager)", Tenant: "acme", Groups: []string{"managers"}, Manager: true, Permissions: demoManagerPermissions, Shows: "manager"},
	{ID: "ben", DisplayName: "Ben Brooks", Tenant: "acme", Groups: []string{"finance"}, Permissions: demoWorkerPermissions, Shows: "assignee"},
	{ID: "cara", DisplayName: "Cara Cole", Tenant: "acme", Groups: []string{"finance", "purchasing"}, Permissions: demoWorkerPermissions, Shows: "two-groups"},
	{ID: "dan", DisplayName: "Dan Diaz (auditor)", Tenant: "acme", Groups: []string{"auditors"}, Permissions: demoWorkerPermissions, Shows: "snapshot-member"},
	{ID: "eve", DisplayName: "Eve Evans (excluded)", Tenant: "acme", Groups: []string{"finance"}, Permissions: demoWorkerPermissions, Shows: "excluded"},
	{ID: "gina", DisplayName: "Gina Gray (manager)", Tenant: "globex", Groups: []string{"managers"}, Manager: true, Permissions: demoManagerPermissions, Shows: "second-tenant"},
	{ID: "hal", DisplayName: "Hal Hughes", Tenant: "globex", Groups: []string{"support"}, Permissions: demoWorkerPermissions, Shows: "overdue-assignee"},
	{ID: "ida", DisplayName: "Ida Ivers", Tenant: "globex", Groups: []string{"support"}, Permissions: demoWorkerPermissions, Shows: "named-candidate"},
	{ID: "jon", DisplayName: "Jon Jensen (legal)", Tenant: "globex", Groups: []string{"legal"}, Permissions: demoWorkerPermissions, Shows: "snapshot-legal"},
}

// demoGroups are the demo's groups with display names, by tenant.
var demoGroups = map[string][]directory.StaticGroup{
	"acme": {
		{ID: "finance", DisplayName: "Finance"}, {ID: "purchasing", DisplayName: "Purchasing"},
		{ID: "auditors", DisplayName: "Auditors"}, {ID: "managers", DisplayName: "Managers"},
	},
	"globex": {
		{ID: "support", DisplayName: "Support"}, {ID: "legal", DisplayName: "Legal"},
		{ID: "managers", DisplayName: "Managers"},
	},
}

// Directory is the participant directory of the demo users and groups.
var Directory = func() directory.Static {
	d := directory.Static{Tenants: map[string]directory.StaticTenant{}}
	for tenant, groups := range demoGroups {
		d.Tenants[tenant] = directory.StaticTenant{Groups: groups}
	}
	for _, u := range Users {
		t := d.Tenants[u.Tenant]
		// Reserved example domains: a dev SMTP server shows notification mail, nothing reaches anyone.
		t.Users = append(t.Users, directory.StaticUser{ID: u.ID, DisplayName: u.DisplayName, Email: u.ID + "@" + u.Tenant + ".example", Groups: u.Groups})
		d.Tenants[u.Tenant] = t
	}
	return d
}()
