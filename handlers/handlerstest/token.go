package handlerstest

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/models"
	"usertasks/testfactory"
)

// User is whom a token speaks for: the claims of SPEC 9 (sub, tenant, name, groups,
// permissions, roles).
type User struct {
	Tenant      string
	ID          string
	Name        string
	Groups      []string
	Permissions []string
	Roles       []string
	Email       string // the email claim; none when empty
}

// WorkerPermissions are a candidate's or assignee's grants.
var WorkerPermissions = testfactory.WorkerPermissions

// Worker is a person who may view, claim, release and complete tasks.
func Worker(tenant, id string, groups ...string) User {
	return UserOf(testfactory.Worker(tenant, id, groups...))
}

// Manager holds every user-tasks permission and the manager role.
func Manager(tenant, id string) User { return UserOf(testfactory.Manager(tenant, id)) }

// RuntimeUser is a workflow runtime of tenant: it may call the runtime protocol only.
func RuntimeUser(tenant string) User { return UserOf(testfactory.RuntimeUser(tenant)) }

// UserOf is the token claims that resolve to actor a (a person, not a guest).
func UserOf(a models.Actor) User {
	u := User{Tenant: a.Tenant, ID: a.Subject.ID, Name: a.DisplayName, Permissions: a.Permissions}
	for _, g := range a.Groups {
		u.Groups = append(u.Groups, g.ID)
	}
	if a.Manager {
		u.Roles = []string{"user-tasks:manager"}
	}
	return u
}

// Ref is the participant the user's token resolves to.
func (u User) Ref() models.ParticipantRef {
	return models.ParticipantRef{Tenant: u.Tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: u.ID, DisplayName: u.Name}
}

// Token mints a valid HS256 token for u, good for an hour.
func (e *Env) Token(t testing.TB, u User) string {
	return e.sign(t, u, time.Now().Add(time.Hour))
}

// ExpiredToken mints a token for u that expired an hour ago (well past the verifier's leeway).
func (e *Env) ExpiredToken(t testing.TB, u User) string {
	return e.sign(t, u, time.Now().Add(-time.Hour))
}

func (e *Env) sign(t testing.TB, u User, exp time.Time) string {
	t.Helper()
	claims := jwt.MapClaims{
		"sub": u.ID, "name": u.Name, "exp": exp.Unix(), "iat": exp.Add(-2 * time.Hour).Unix(),
		"permissions": u.Permissions, "groups": u.Groups, "roles": u.Roles,
	}
	if u.Tenant != "" {
		claims["tenant"] = u.Tenant
	}
	if u.Email != "" {
		claims["email"] = u.Email
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(e.secret)
	if err != nil {
		t.Fatalf("sign token: %v", err)
	}
	return s
}

// TokenWithSecret mints a valid-looking token signed with secret instead of the server's.
func TokenWithSecret(t testing.TB, secret []byte, u User) string {
	e := &Env{secret: secret}
	return e.Token(t, u)
}
