package storekit

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"usertasks/keyring"
	"usertasks/models"
)

// The sealed columns of an OIDC web session (SPEC 5.4): the refresh token and the ID token, each
// sealed with the session's id hash and its column as associated data.
const (
	ColRefreshToken = "refresh_token_enc"
	ColIDToken      = "id_token_enc"
)

// WebSessionTouchEvery is how stale a session's last_seen_at may get before a read moves it (and
// the idle expiry) forward: at most one write a minute per session instead of one per request.
const WebSessionTouchEvery = time.Minute

// IsSessionHash reports whether h is a web session's id hash: 64 hex digits.
func IsSessionHash(h string) bool {
	b, err := hex.DecodeString(h)
	return err == nil && len(b) == 32
}

// IdleExpiry is when a session seen at now ends without another request: never past its
// absolute expiry.
func IdleExpiry(now time.Time, idle time.Duration, expires time.Time) time.Time {
	if t := now.Add(idle); t.Before(expires) {
		return t
	}
	return expires
}

// CheckWebSession refuses a session a store cannot keep: a malformed id hash, an unknown
// sign-in, no lifetime or idle timeout (programming errors), or an identity the fields cannot
// hold (CheckWebIdentity).
func CheckWebSession(ws models.WebSession, lifetime time.Duration) error {
	if !IsSessionHash(ws.IDHash) {
		return errors.New("storekit: a web session id hash is 64 hex digits")
	}
	if ws.Via != models.WebViaDev && ws.Via != models.WebViaOIDC {
		return fmt.Errorf("storekit: unknown web session sign-in %q", ws.Via)
	}
	if lifetime <= 0 || ws.IdleTimeout < time.Second {
		return errors.New("storekit: a web session needs a lifetime and an idle timeout")
	}
	return CheckWebIdentity(ws.WebIdentity)
}

// CheckWebIdentity refuses identities the stored fields cannot hold, before the database does.
func CheckWebIdentity(id models.WebIdentity) error {
	switch {
	case id.Tenant == "" || len(id.Tenant) > models.MaxTenantLength:
		return models.InvalidField("tenant", fmt.Sprintf("must have 1 to %d characters", models.MaxTenantLength))
	case id.Provider == "" || len(id.Provider) > models.MaxProviderLength:
		return models.InvalidField("provider", fmt.Sprintf("must have 1 to %d characters", models.MaxProviderLength))
	case id.Subject == "" || len(id.Subject) > models.MaxParticipantIDLength:
		return models.InvalidField("subject", fmt.Sprintf("must have 1 to %d characters", models.MaxParticipantIDLength))
	}
	return nil
}

// CheckWebTimeZone refuses a zone name the stored field cannot hold; whether it names an IANA
// zone is the caller's check.
func CheckWebTimeZone(zone string) error {
	if zone == "" || len(zone) > models.MaxTimeZoneLength || !utf8.ValidString(zone) {
		return models.InvalidField("timeZone", fmt.Sprintf("must be an IANA time zone name of at most %d characters", models.MaxTimeZoneLength))
	}
	return nil
}

// IdentityJSON encodes groups and permissions as JSON arrays ("[]" when empty: the SQL columns
// are NOT NULL and Oracle would store "" as NULL), each bounded by models.MaxWebIdentityBytes.
func IdentityJSON(id models.WebIdentity) (groups, perms string, err error) {
	enc := func(field string, v []string) (string, error) {
		if v == nil {
			v = []string{}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		if len(b) > models.MaxWebIdentityBytes {
			return "", models.InvalidField(field, fmt.Sprintf("must fit in %d bytes as JSON", models.MaxWebIdentityBytes))
		}
		return string(b), nil
	}
	if groups, err = enc("groups", id.Groups); err != nil {
		return "", "", err
	}
	perms, err = enc("permissions", id.Permissions)
	return groups, perms, err
}

// DecodeIdentityJSON reads what IdentityJSON wrote into id; anything else is models.ErrCorrupt.
func DecodeIdentityJSON(groups, perms string, id *models.WebIdentity) error {
	if json.Unmarshal([]byte(groups), &id.Groups) != nil || json.Unmarshal([]byte(perms), &id.Permissions) != nil {
		return fmt.Errorf("%w: a web session's groups or permissions do not decode", models.ErrCorrupt)
	}
	return nil
}

// OpenWebSessionToken opens a sealed token of the session with that id hash; "" when none is
// stored. A token that does not decrypt is models.ErrCorrupt naming the column only.
func (s Sealer) OpenWebSessionToken(idHash, column string, sealed *string) (string, error) {
	if sealed == nil || *sealed == "" {
		return "", nil
	}
	plain, err := s.Keys.Open(*sealed, AAD(idHash, column))
	if errors.Is(err, keyring.ErrUndecodable) {
		return "", fmt.Errorf("%w: a web session's %s does not decrypt", models.ErrCorrupt, column)
	}
	if err != nil {
		return "", err
	}
	return string(plain), nil
}

// TruncateRunes shortens s to at most n characters (display names are shown, not matched).
func TruncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
