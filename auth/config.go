// Package auth turns a bearer JWT into a models.Actor (SPEC 4 and 5.1): it verifies the
// signature against an HS256 secret, RS256/ES256 public keys or a JWKS URL, checks the
// registered claims, and maps the configurable claims to the actor's tenant, subject, groups,
// permissions and manager flag.
package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
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

// ConfigFromEnv reads the USERTASKS_JWT_*, USERTASKS_CLAIM_*, USERTASKS_MANAGER_ROLE and
// USERTASKS_DEFAULT_TENANT variables of SPEC 9. The key sources
// (USERTASKS_JWT_HS256_SECRET, USERTASKS_JWT_PUBLIC_KEYS, USERTASKS_JWT_JWKS_URL) may instead
// name a file through NAME_FILE; NAME wins when both are set. An unconfigured result
// (Configured false) is not an error here: whether it is allowed is the caller's decision.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	override := func(dst *string, name string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	override(&c.Claims.Subject, "USERTASKS_CLAIM_SUBJECT")
	override(&c.Claims.Tenant, "USERTASKS_CLAIM_TENANT")
	override(&c.Claims.Provider, "USERTASKS_CLAIM_PROVIDER")
	override(&c.Claims.Name, "USERTASKS_CLAIM_NAME")
	override(&c.Claims.Groups, "USERTASKS_CLAIM_GROUPS")
	override(&c.Claims.Permissions, "USERTASKS_CLAIM_PERMISSIONS")
	override(&c.Claims.Roles, "USERTASKS_CLAIM_ROLES")
	override(&c.ManagerRole, "USERTASKS_MANAGER_ROLE")
	override(&c.DefaultTenant, "USERTASKS_DEFAULT_TENANT")
	override(&c.Issuer, "USERTASKS_JWT_ISSUER")
	override(&c.Audience, "USERTASKS_JWT_AUDIENCE")

	if err := c.tokenPolicyFromEnv(getenv); err != nil {
		return c, err
	}

	secret, err := secretFromEnv(getenv, "USERTASKS_JWT_HS256_SECRET")
	if err != nil {
		return c, err
	}
	if secret != "" {
		c.HS256Secret = []byte(secret)
	}
	keys, err := secretFromEnv(getenv, "USERTASKS_JWT_PUBLIC_KEYS")
	if err != nil {
		return c, err
	}
	if keys != "" {
		if c.PublicKeys, err = ParsePublicKeys([]byte(keys)); err != nil {
			return c, fmt.Errorf("USERTASKS_JWT_PUBLIC_KEYS: %w", err)
		}
	}
	if c.JWKSURL, err = secretFromEnv(getenv, "USERTASKS_JWT_JWKS_URL"); err != nil {
		return c, err
	}
	if err := c.validate(); err != nil {
		return c, err
	}
	return c, nil
}

// tokenPolicyFromEnv reads the lifetime bound and the explicit skips of the issuer and
// audience checks.
func (c *Config) tokenPolicyFromEnv(getenv func(string) string) error {
	if v := strings.TrimSpace(getenv("USERTASKS_REQUIRE_TENANT")); v != "" {
		// Its "false" used to mean "act in tenant default": refuse rather than change
		// meaning silently.
		return errors.New("USERTASKS_REQUIRE_TENANT is no longer read: tokens without a tenant claim are refused unless USERTASKS_DEFAULT_TENANT names their tenant")
	}
	if v := strings.TrimSpace(getenv("USERTASKS_JWT_MAX_LIFETIME")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("USERTASKS_JWT_MAX_LIFETIME=%q is not a positive duration (e.g. 24h, 90m)", v)
		}
		c.MaxLifetime = d
	}
	for _, skip := range []struct {
		name string
		dst  *bool
	}{
		{"USERTASKS_JWT_SKIP_ISSUER_CHECK", &c.SkipIssuerCheck},
		{"USERTASKS_JWT_SKIP_AUDIENCE_CHECK", &c.SkipAudienceCheck},
	} {
		if v := strings.TrimSpace(getenv(skip.name)); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s=%q is not a boolean", skip.name, v)
			}
			*skip.dst = b
		}
	}
	return nil
}

// secretFromEnv reads NAME, or the file named by NAME_FILE, trimmed of surrounding space.
func secretFromEnv(getenv func(string) string, name string) (string, error) {
	if v := strings.TrimSpace(getenv(name)); v != "" {
		return v, nil
	}
	path := strings.TrimSpace(getenv(name + "_FILE"))
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s_FILE: %w", name, err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return "", fmt.Errorf("%s_FILE: %s is empty", name, path)
	}
	return v, nil
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

// validate checks a configuration whose defaults are filled.
func (c Config) validate() error {
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
	if c.Leeway < 0 {
		return errors.New("auth: leeway must not be negative")
	}
	if c.JWKSRefreshInterval < 0 || c.JWKSUnknownKIDInterval < 0 {
		return errors.New("auth: JWKS intervals must not be negative")
	}
	return nil
}

// ValidateStrict checks the rules outside dev mode, besides ConfigFromEnv's: a key source is
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

// ParsePublicKeys reads one or more PEM blocks: PKIX public keys ("PUBLIC KEY"), PKCS #1 RSA
// public keys ("RSA PUBLIC KEY") or X.509 certificates ("CERTIFICATE", whose public key is
// used). Each key must be RSA of at least MinRSAKeyBits or ECDSA on P-256; private keys and
// other block types are refused.
func ParsePublicKeys(data []byte) ([]crypto.PublicKey, error) {
	var keys []crypto.PublicKey
	rest := data
	for n := 1; ; n++ {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		key, err := parsePEMBlock(block)
		if err != nil {
			return nil, fmt.Errorf("PEM block %d: %w", n, err)
		}
		if err := checkPublicKey(key); err != nil {
			return nil, fmt.Errorf("PEM block %d: %w", n, err)
		}
		keys = append(keys, key)
	}
	if strings.TrimSpace(string(rest)) != "" {
		return nil, errors.New("unparseable PEM (text outside or after the PEM blocks)")
	}
	if len(keys) == 0 {
		return nil, errors.New("no PEM block found")
	}
	return keys, nil
}

func parsePEMBlock(block *pem.Block) (crypto.PublicKey, error) {
	switch block.Type {
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("unparseable public key: %w", err)
		}
		return k, nil
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("unparseable RSA public key: %w", err)
		}
		return k, nil
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("unparseable certificate: %w", err)
		}
		return cert.PublicKey, nil
	}
	if strings.Contains(block.Type, "PRIVATE KEY") {
		return nil, fmt.Errorf("%q is a private key; give the public key", block.Type)
	}
	return nil, fmt.Errorf("unsupported PEM block type %q", block.Type)
}

// checkPublicKey accepts the key types and sizes that RS256 and ES256 verify with.
func checkPublicKey(k crypto.PublicKey) error {
	switch k := k.(type) {
	case *rsa.PublicKey:
		if k.N.BitLen() < MinRSAKeyBits {
			return fmt.Errorf("RSA key of %d bits; at least %d are required", k.N.BitLen(), MinRSAKeyBits)
		}
		return nil
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return fmt.Errorf("ECDSA key on %s; ES256 needs P-256", k.Curve.Params().Name)
		}
		return nil
	}
	return fmt.Errorf("unsupported key type %T (RSA or ECDSA P-256 only)", k)
}
