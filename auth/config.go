// Package auth turns a bearer JWT into a models.Actor (SPEC 4 and 5.1): it verifies the
// signature against an HS256 secret, RS256/ES256 public keys or a JWKS URL, checks the
// registered claims, and maps the configurable claims to the actor's tenant, subject, groups,
// permissions and manager flag. It reads no environment: cmd/web parses the USERTASKS_*
// variables into a Config.
package auth

import (
	"crypto"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"usertasks/models"
)

// Defaults of SPEC 9.
const (
	DefaultManagerRole = "user-tasks:manager"
	// DefaultTenant is the tenant of tokens without a tenant claim in dev mode; elsewhere
	// none is assumed unless configured.
	DefaultTenant = "default"
	DefaultLeeway = 30 * time.Second
	// DefaultMaxLifetime bounds how far ahead a token's exp may lie.
	DefaultMaxLifetime = 24 * time.Hour

	// DefaultJWKSRefreshInterval is how often the JWKS is fetched in the background.
	DefaultJWKSRefreshInterval = time.Hour
	// DefaultJWKSUnknownKIDInterval is the least time between two fetches caused by a token
	// naming a key id the verifier does not hold (a rotation at the identity provider).
	DefaultJWKSUnknownKIDInterval = time.Minute

	// MinHS256SecretBytes is the shortest accepted HS256 secret (RFC 7518 3.2: at least the
	// size of the hash output).
	MinHS256SecretBytes = 32
	// MinRSAKeyBits is the smallest accepted RSA modulus.
	MinRSAKeyBits = 2048
)

// ClaimNames are the token claims the actor is read from. A name that is not a top-level
// claim and contains dots is looked up as a path into nested objects (`realm_access.roles`).
type ClaimNames struct {
	Subject     string // user id; required
	Tenant      string
	Provider    string // provider of the subject and its groups
	Name        string // display name
	Email       string // the notification address (SPEC 10.3); optional
	Groups      string // array of group ids, or one id
	Permissions string // array, or a space-separated string
	Roles       string // array, or one role
}

// DefaultClaimNames returns the SPEC 9 defaults.
func DefaultClaimNames() ClaimNames {
	return ClaimNames{
		Subject:     "sub",
		Tenant:      "tenant",
		Provider:    "idp",
		Name:        "name",
		Email:       "email",
		Groups:      "groups",
		Permissions: "permissions",
		Roles:       "roles",
	}
}

// Config is how bearer tokens are verified and mapped. Zero-valued claim names, manager role,
// maximum lifetime, leeway and JWKS intervals take their defaults in NewVerifier.
type Config struct {
	Claims      ClaimNames
	ManagerRole string
	// DefaultTenant is the tenant of tokens without a tenant claim; empty refuses them. It has
	// no default: acting in a tenant the token does not name must be configured on purpose.
	DefaultTenant string

	// Issuer and Audience are checked when set; the token must then carry them. Outside dev
	// mode each must be set or its check skipped on purpose (ValidateStrict).
	Issuer            string
	Audience          string
	SkipIssuerCheck   bool
	SkipAudienceCheck bool
	// RefusedAudience is the OIDC sign-in client (USERTASKS_OIDC_CLIENT_ID): a bearer token
	// whose aud names it was issued to the sign-in client (an ID token, say), not to the API,
	// and is refused. It must differ from Audience.
	RefusedAudience string
	// MaxLifetime refuses tokens whose exp lies further ahead than now + MaxLifetime (beyond
	// the leeway): a leaked long-lived token stays useful only that long.
	MaxLifetime time.Duration

	// Key sources; at least one is needed to verify anything. Each algorithm is verified only
	// against keys of its own type: HS256 against HS256Secret, RS256 against RSA keys, ES256
	// against P-256 keys (from PublicKeys or the JWKS).
	HS256Secret []byte
	PublicKeys  []crypto.PublicKey // *rsa.PublicKey or *ecdsa.PublicKey (P-256)
	JWKSURL     string             // https, or http on a loopback host

	// Leeway is the clock skew allowed on exp, nbf and iat.
	Leeway time.Duration
	// JWKSRefreshInterval and JWKSUnknownKIDInterval tune the JWKS cache.
	JWKSRefreshInterval    time.Duration
	JWKSUnknownKIDInterval time.Duration
	// HTTPClient fetches the JWKS; nil means a client with a 10 second timeout.
	HTTPClient *http.Client
	// Now is the clock for exp, nbf and iat; nil means time.Now.
	Now func() time.Time
}

// DefaultConfig returns a configuration with every default of SPEC 9 and no key source.
func DefaultConfig() Config {
	return Config{
		Claims:                 DefaultClaimNames(),
		ManagerRole:            DefaultManagerRole,
		MaxLifetime:            DefaultMaxLifetime,
		Leeway:                 DefaultLeeway,
		JWKSRefreshInterval:    DefaultJWKSRefreshInterval,
		JWKSUnknownKIDInterval: DefaultJWKSUnknownKIDInterval,
	}
}

// Configured reports whether at least one key source is set.
func (c Config) Configured() bool {
	return len(c.HS256Secret) > 0 || len(c.PublicKeys) > 0 || c.JWKSURL != ""
}

// withDefaults fills every zero-valued setting that has a default.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	fill := func(dst *string, def string) {
		if *dst == "" {
			*dst = def
		}
	}
	fill(&c.Claims.Subject, d.Claims.Subject)
	fill(&c.Claims.Tenant, d.Claims.Tenant)
	fill(&c.Claims.Provider, d.Claims.Provider)
	fill(&c.Claims.Name, d.Claims.Name)
	fill(&c.Claims.Email, d.Claims.Email)
	fill(&c.Claims.Groups, d.Claims.Groups)
	fill(&c.Claims.Permissions, d.Claims.Permissions)
	fill(&c.Claims.Roles, d.Claims.Roles)
	fill(&c.ManagerRole, d.ManagerRole)
	if c.MaxLifetime == 0 {
		c.MaxLifetime = d.MaxLifetime
	}
	if c.Leeway == 0 {
		c.Leeway = d.Leeway
	}
	if c.JWKSRefreshInterval == 0 {
		c.JWKSRefreshInterval = d.JWKSRefreshInterval
	}
	if c.JWKSUnknownKIDInterval == 0 {
		c.JWKSUnknownKIDInterval = d.JWKSUnknownKIDInterval
	}
	return c
}

// Validate checks a configuration whose defaults are filled (DefaultConfig's, or
// NewVerifier's). Its reasons name the USERTASKS_* variable each field is read from.
func (c Config) Validate() error {
	if n := len(c.HS256Secret); n > 0 && n < MinHS256SecretBytes {
		return fmt.Errorf("USERTASKS_JWT_HS256_SECRET is %d bytes; at least %d are required", n, MinHS256SecretBytes)
	}
	for i, k := range c.PublicKeys {
		if err := checkPublicKey(k); err != nil {
			return fmt.Errorf("USERTASKS_JWT_PUBLIC_KEYS: key %d: %w", i+1, err)
		}
	}
	if c.JWKSURL != "" {
		if err := checkJWKSURL(c.JWKSURL); err != nil {
			return fmt.Errorf("USERTASKS_JWT_JWKS_URL: %w", err)
		}
	}
	if len(c.DefaultTenant) > models.MaxTenantLength || !utf8.ValidString(c.DefaultTenant) || strings.ContainsFunc(c.DefaultTenant, unicode.IsControl) {
		return fmt.Errorf("USERTASKS_DEFAULT_TENANT must be at most %d bytes of text without control characters", models.MaxTenantLength)
	}
	if c.MaxLifetime < 0 {
		return errors.New("USERTASKS_JWT_MAX_LIFETIME must be positive")
	}
	if c.Issuer != "" && c.SkipIssuerCheck {
		return errors.New("USERTASKS_JWT_ISSUER and USERTASKS_JWT_SKIP_ISSUER_CHECK=true contradict each other; set one")
	}
	if c.Audience != "" && c.SkipAudienceCheck {
		return errors.New("USERTASKS_JWT_AUDIENCE and USERTASKS_JWT_SKIP_AUDIENCE_CHECK=true contradict each other; set one")
	}
	if c.RefusedAudience != "" && c.RefusedAudience == c.Audience {
		return errors.New("USERTASKS_JWT_AUDIENCE must differ from USERTASKS_OIDC_CLIENT_ID: the API's audience would accept the ID tokens of the sign-in as bearer tokens; register the API with an audience of its own")
	}
	if c.Leeway < 0 {
		return errors.New("auth: leeway must not be negative")
	}
	if c.JWKSRefreshInterval < 0 || c.JWKSUnknownKIDInterval < 0 {
		return errors.New("auth: JWKS intervals must not be negative")
	}
	return nil
}

// ValidateStrict checks the rules outside dev mode, besides Validate's: a key source is
// configured, and the issuer and the audience are each checked or their check is skipped on
// purpose (a token minted by any issuer for any service would otherwise be accepted).
func (c Config) ValidateStrict() error {
	if !c.Configured() {
		return errors.New("one of USERTASKS_JWT_HS256_SECRET, USERTASKS_JWT_PUBLIC_KEYS or USERTASKS_JWT_JWKS_URL is required outside dev mode")
	}
	if c.Issuer == "" && !c.SkipIssuerCheck {
		return errors.New("USERTASKS_JWT_ISSUER is required outside dev mode (or USERTASKS_JWT_SKIP_ISSUER_CHECK=true to accept any issuer)")
	}
	if c.Audience == "" && !c.SkipAudienceCheck {
		return errors.New("USERTASKS_JWT_AUDIENCE is required outside dev mode (or USERTASKS_JWT_SKIP_AUDIENCE_CHECK=true to accept any audience)")
	}
	return nil
}

// checkJWKSURL accepts an absolute https URL, or http on a loopback host (plain http elsewhere
// would let anyone on the path substitute the keys).
func checkJWKSURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URL", raw)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return nil
		}
		return fmt.Errorf("%q must use https (plain http is accepted on loopback hosts only)", raw)
	}
	return fmt.Errorf("%q must use https", raw)
}
