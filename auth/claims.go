package auth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/models"
)

// MaxGroups bounds the groups one token may carry; more is refused rather than cut, so a
// token never silently loses memberships.
const MaxGroups = 1000

// ActorFromClaims maps verified claims (a bearer token's, or an OIDC ID token's) to the actor
// of SPEC 3.1 with the configured claim names, manager role and tenant rules. Malformed or
// overlong claims refuse the credential; an overlong display name is shortened, since it is
// only a snapshot. Every refusal wraps models.ErrUnauthorized.
func (cfg Config) ActorFromClaims(claims map[string]any) (models.Actor, error) {
	c := jwt.MapClaims(claims)
	names := cfg.Claims

	sub, err := idClaim(c, names.Subject, "subject", "", models.MaxParticipantIDLength)
	if err != nil {
		return models.Actor{}, err
	}
	tenant, err := idClaim(c, names.Tenant, "tenant", cfg.DefaultTenant, models.MaxTenantLength)
	if err != nil {
		return models.Actor{}, err
	}
	provider, err := idClaim(c, names.Provider, "provider", models.DefaultProvider, models.MaxProviderLength)
	if err != nil {
		return models.Actor{}, err
	}

	name, err := stringClaim(c, names.Name)
	if err != nil {
		return models.Actor{}, unauthorized(err.Error())
	}
	name = models.Truncate(strings.TrimSpace(name), models.MaxDisplayNameLength)
	if models.TextProblem(name, models.Label) != "" {
		// Control or bidirectional formatting characters would reach pages, events and logs:
		// the name is only cosmetic, so it is dropped (the id shows) rather than the token refused.
		name = ""
	}

	email := emailClaim(c, names.Email)

	groupIDs, err := listClaim(c, names.Groups, false)
	if err != nil {
		return models.Actor{}, unauthorized(err.Error())
	}
	if len(groupIDs) > MaxGroups {
		return models.Actor{}, unauthorized(fmt.Sprintf("more than %d groups", MaxGroups))
	}
	var groups []models.ParticipantRef
	for _, id := range groupIDs {
		if err := checkID("group", id, models.MaxParticipantIDLength); err != nil {
			return models.Actor{}, err
		}
		groups = append(groups, models.ParticipantRef{Tenant: tenant, Provider: provider, Type: models.GroupParticipant, ID: id})
	}

	perms, err := listClaim(c, names.Permissions, true)
	if err != nil {
		return models.Actor{}, unauthorized(err.Error())
	}
	roles, err := listClaim(c, names.Roles, false)
	if err != nil {
		return models.Actor{}, unauthorized(err.Error())
	}

	return models.Actor{
		Tenant: tenant,
		Subject: models.ParticipantRef{
			Tenant: tenant, Provider: provider, Type: models.UserParticipant, ID: sub, DisplayName: name,
		},
		Groups:      groups,
		DisplayName: name,
		Email:       email,
		Permissions: perms,
		Manager:     slices.Contains(roles, cfg.ManagerRole) && models.HasPermission(perms, models.PermSupervise),
	}, nil
}

// lookup finds a claim by its exact name or, failing that, by a dotted path into nested objects.
func lookup(c jwt.MapClaims, name string) (any, bool) {
	if v, ok := c[name]; ok {
		return v, true
	}
	if !strings.Contains(name, ".") {
		return nil, false
	}
	var cur any = map[string]any(c)
	for part := range strings.SplitSeq(name, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// stringClaim returns a string claim, "" when absent or null.
func stringClaim(c jwt.MapClaims, name string) (string, error) {
	v, ok := lookup(c, name)
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s claim is not a string", name)
	}
	return s, nil
}

// listClaim returns a list claim given as an array of strings or as one string (split on
// spaces when spaced is set); empty entries and duplicates are dropped.
func listClaim(c jwt.MapClaims, name string, spaced bool) ([]string, error) {
	v, ok := lookup(c, name)
	if !ok || v == nil {
		return nil, nil
	}
	var items []string
	switch v := v.(type) {
	case string:
		if spaced {
			items = strings.Fields(v)
		} else {
			items = []string{v}
		}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s claim is not a list of strings", name)
			}
			items = append(items, s)
		}
	default:
		return nil, fmt.Errorf("%s claim is not a list of strings", name)
	}
	var out []string
	seen := make(map[string]bool, len(items))
	for _, s := range items {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// idClaim reads the identifier claim name: an absent one is def, and refused as missing when
// there is no default; then it must be an identifier of at most maxLen bytes (checkID).
func idClaim(c jwt.MapClaims, name, what, def string, maxLen int) (string, error) {
	v, err := stringClaim(c, name)
	if err != nil {
		return "", unauthorized(err.Error())
	}
	if v == "" {
		v = def
	}
	if v == "" {
		return "", unauthorized("missing " + what + " claim")
	}
	return v, checkID(what, v, maxLen)
}

// checkID refuses identifiers the store cannot hold or that could blur a ParticipantRef key:
// the identifier rule of models.TextProblem (no control or bidirectional formatting
// characters, valid UTF-8), as for every identifier a command or projection carries.
func checkID(what, s string, maxLen int) error {
	if len(s) > maxLen {
		return unauthorized(fmt.Sprintf("%s claim longer than %d bytes", what, maxLen))
	}
	if models.TextProblem(s, models.Identifier) != "" {
		return unauthorized(what + " claim contains invalid characters")
	}
	return nil
}

// maxEmailLength is the longest address a path may hold (RFC 5321 4.5.3.1.3).
const maxEmailLength = 254

// emailClaim reads the email claim for notifications. Like the display name it only
// decorates the credential: an absent, malformed or implausible value is dropped ("") rather
// than the token refused. Plausible: one "@" with text on both sides, no spaces, control or
// formatting characters, at most 254 bytes. Its owner proves nothing by it; the mail
// goes to the address the identity provider vouched for.
func emailClaim(c jwt.MapClaims, name string) string {
	if name == "" {
		return ""
	}
	v, err := stringClaim(c, name)
	if err != nil || v == "" || len(v) > maxEmailLength || strings.ContainsAny(v, " <>,;\"\\") {
		return ""
	}
	local, domain, ok := strings.Cut(v, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") || models.TextProblem(v, models.Identifier) != "" {
		return ""
	}
	return v
}
