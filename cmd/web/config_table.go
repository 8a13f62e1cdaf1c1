package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"usertasks/auth"
	"usertasks/docstore"
	"usertasks/keyring"
	"usertasks/repository"
	"usertasks/websession"
)

// setting is one USERTASKS_* variable (or one of OpenTelemetry's standard OTEL_* ones): how its value goes into the configuration. The table
// below is the only place a variable is read, and the list of known names (for the warning
// about unknown ones, and for docs/configuration.md) is derived from it.
type setting struct {
	name string
	// file: the value may instead come from the file NAME_FILE names (environment.secret).
	file bool
	// tools: every command reads it; the others only `web serve` reads.
	tools bool
	// set stores a value (trimmed, never empty) or refuses it with a one-line reason that
	// repeats no secret. An unset variable keeps the default already in the configuration.
	set func(name, value string) error
}

// settings is the table of every variable, in the order they are read, bound to c.
func (c *config) settings() []setting {
	a := &c.Auth
	return append([]setting{
		{name: "USERTASKS_DATABASE_URL", tools: true, set: c.setDatabaseURL},
		{name: "USERTASKS_LISTEN_ADDR", tools: true, set: text(&c.ListenAddr)},
		{name: "USERTASKS_BASE_URL", tools: true, set: text(&c.BaseURL)},
		{name: "USERTASKS_DEV", tools: true, set: boolean(&c.Dev)},
		{name: "USERTASKS_ENCRYPTION_KEYS", tools: true, file: true, set: c.setKeys},

		{name: "USERTASKS_HTTP_READ_HEADER_TIMEOUT", set: duration(&c.HTTP.ReadHeader, minHTTPTimeout, "30s, 2m")},
		{name: "USERTASKS_HTTP_READ_TIMEOUT", set: duration(&c.HTTP.Read, minHTTPTimeout, "30s, 2m")},
		{name: "USERTASKS_HTTP_WRITE_TIMEOUT", set: duration(&c.HTTP.Write, minHTTPTimeout, "30s, 2m")},
		{name: "USERTASKS_HTTP_IDLE_TIMEOUT", set: duration(&c.HTTP.Idle, minHTTPTimeout, "30s, 2m")},
		{name: "USERTASKS_TRUSTED_PROXIES", set: c.setTrustedProxies},

		{name: "USERTASKS_REQUIRE_TENANT", set: retired},
		{name: "USERTASKS_JWT_MAX_LIFETIME", set: duration(&a.MaxLifetime, time.Nanosecond, "24h, 90m")},
		{name: "USERTASKS_JWT_SKIP_ISSUER_CHECK", set: boolean(&a.SkipIssuerCheck)},
		{name: "USERTASKS_JWT_SKIP_AUDIENCE_CHECK", set: boolean(&a.SkipAudienceCheck)},
		{name: "USERTASKS_JWT_HS256_SECRET", file: true, set: func(_, v string) error { a.HS256Secret = []byte(v); return nil }},
		{name: "USERTASKS_JWT_PUBLIC_KEYS", file: true, set: c.setPublicKeys},
		{name: "USERTASKS_JWT_JWKS_URL", file: true, set: text(&a.JWKSURL)},
		{name: "USERTASKS_JWT_ISSUER", set: text(&a.Issuer)},
		{name: "USERTASKS_JWT_AUDIENCE", set: text(&a.Audience)},
		{name: "USERTASKS_CLAIM_SUBJECT", set: text(&a.Claims.Subject)},
		{name: "USERTASKS_CLAIM_TENANT", set: text(&a.Claims.Tenant)},
		{name: "USERTASKS_CLAIM_PROVIDER", set: text(&a.Claims.Provider)},
		{name: "USERTASKS_CLAIM_NAME", set: text(&a.Claims.Name)},
		{name: "USERTASKS_CLAIM_EMAIL", set: text(&a.Claims.Email)},
		{name: "USERTASKS_CLAIM_GROUPS", set: text(&a.Claims.Groups)},
		{name: "USERTASKS_CLAIM_PERMISSIONS", set: text(&a.Claims.Permissions)},
		{name: "USERTASKS_CLAIM_ROLES", set: text(&a.Claims.Roles)},
		{name: "USERTASKS_MANAGER_ROLE", set: text(&a.ManagerRole)},
		{name: "USERTASKS_DEFAULT_TENANT", set: text(&a.DefaultTenant)},

		{name: "USERTASKS_SESSION_LIFETIME", set: duration(&c.Session.Lifetime, 5*time.Minute, "30m, 8h")},
		{name: "USERTASKS_SESSION_IDLE_TIMEOUT", set: duration(&c.Session.Idle, websession.MinIdleTimeout, "30m, 8h")},
		{name: "USERTASKS_SESSION_REFRESH_INTERVAL", set: duration(&c.Session.Refresh, time.Minute, "30m, 8h")},
		{name: "USERTASKS_SESSION_SECRETS", file: true, set: c.setSessionSecrets},

		{name: "USERTASKS_OIDC_ISSUER", set: text(&c.OIDC.Issuer)},
		{name: "USERTASKS_OIDC_CLIENT_ID", set: text(&c.OIDC.ClientID)},
		{name: "USERTASKS_OIDC_CLIENT_SECRET", file: true, set: text(&c.OIDC.ClientSecret)},
		{name: "USERTASKS_OIDC_POST_LOGOUT_REDIRECT_URL", set: text(&c.OIDC.PostLogoutRedirectURL)},

		{name: "USERTASKS_RUNTIME_URL", set: text(&c.RuntimeURL)},
		{name: "USERTASKS_RUNTIME_SECRET", file: true, set: text(&c.RuntimeSecret)},
		{name: "USERTASKS_DIRECTORY_FILE", set: text(&c.DirectoryFile)},
		{name: "USERTASKS_DIRECTORY_URL", set: text(&c.DirectoryURL)},
		{name: "USERTASKS_FORMS_DIR", set: text(&c.FormsDir)},

		{name: "USERTASKS_DISPATCH_INTERVAL", set: duration(&c.Cadence.Dispatch, minCadence, "")},
		{name: "USERTASKS_DISPATCH_LEASE", set: duration(&c.Cadence.DispatchLease, minDispatchLease, "")},
		{name: "USERTASKS_DUE_SWEEP_INTERVAL", set: duration(&c.Cadence.DueSweep, minCadence, "")},
		{name: "USERTASKS_RECONCILE_INTERVAL", set: duration(&c.Cadence.Reconcile, minCadence, "")},
		{name: "USERTASKS_RECONCILE_QUIET_PERIOD", set: duration(&c.Cadence.ReconcileQuiet, minCadence, "")},
		{name: "USERTASKS_RECONCILE_DELAY", set: duration(&c.Cadence.ReconcileDelay, minCadence, "")},
		{name: "USERTASKS_RETENTION_TERMINAL_AGE", tools: true, set: duration(&c.Retention.TerminalAge, minRetentionAge, "2160h, 8760h")},
		{name: "USERTASKS_RETENTION_INVITATION_AGE", tools: true, set: duration(&c.Retention.InvitationAge, minRetentionAge, "720h, 168h")},
		{name: "USERTASKS_RETENTION_GUEST_SESSION_AGE", tools: true, set: duration(&c.Retention.GuestSessionAge, minRetentionAge, "168h, 24h")},
		{name: "USERTASKS_RETENTION_OUTBOX_AGE", tools: true, set: duration(&c.Retention.OutboxAge, minRetentionAge, "168h, 24h")},
		{name: "USERTASKS_PURGE_INTERVAL", set: duration(&c.Retention.Interval, time.Minute, "1h, 30m")},
		{name: "USERTASKS_UNASSIGNED_ATTENTION_AFTER", set: duration(&c.UnassignedAttentionAfter, time.Minute, "24h, 90m")},
		{name: "USERTASKS_METRICS_TOKEN", file: true, set: text(&c.Metrics.Token)},
		{name: "USERTASKS_METRICS_ADDR", set: text(&c.Metrics.Addr)},
	}, slices.Concat(c.invitationSettings(), c.notifySettings(), c.attachmentSettings(), c.tracingSettings(), c.pprofSettings(), c.reconcileSettings())...)
}

// knownVariables are the names the table reads, NAME_FILE variants included.
func knownVariables() []string {
	var names []string
	for _, s := range (&config{}).settings() {
		names = append(names, s.name)
		if s.file {
			names = append(names, s.name+"_FILE")
		}
	}
	return names
}

// read applies the table to the environment; with tools set, only what every command reads.
func (c *config) read(env environment, tools bool) error {
	for _, s := range c.settings() {
		if tools && !s.tools {
			continue
		}
		v := env.value(s.name)
		if s.file {
			var err error
			if v, err = env.secret(s.name); err != nil {
				return err
			}
		}
		if v == "" {
			continue
		}
		if err := s.set(s.name, v); err != nil {
			return err
		}
	}
	return nil
}

// retired refuses a variable that is no longer read rather than let it change meaning
// silently: USERTASKS_REQUIRE_TENANT's "false" used to mean "act in tenant default".
func retired(name, _ string) error {
	return fmt.Errorf("%s is no longer read: tokens without a tenant claim are refused unless USERTASKS_DEFAULT_TENANT names their tenant", name)
}

func (c *config) setDatabaseURL(name, v string) error {
	if docstore.IsURL(v) {
		if _, err := docstore.ParseURL(v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		c.DatabaseURL = v
		return nil
	}
	if _, err := repository.ParseURL(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	c.DatabaseURL = v
	return nil
}

func (c *config) setKeys(name, v string) (err error) {
	if c.Keys, err = keyring.Parse(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (c *config) setPublicKeys(name, v string) (err error) {
	if c.Auth.PublicKeys, err = auth.ParsePublicKeys([]byte(v)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// setSessionSecrets reads comma-separated base64 secrets; the first seals.
func (c *config) setSessionSecrets(name, v string) error {
	c.SessionSecrets = nil
	for i, part := range strings.Split(v, ",") {
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(part))
		if err != nil || len(b) < websession.MinSecretBytes {
			return fmt.Errorf("%s: secret %d is not base64 of at least %d bytes", name, i+1, websession.MinSecretBytes)
		}
		c.SessionSecrets = append(c.SessionSecrets, b)
	}
	return nil
}

// errNoSessionSecrets and errNoKeys are the refusals of a server without its secrets.
var (
	errNoKeys           = errors.New("USERTASKS_ENCRYPTION_KEYS is required outside dev mode (kid:base64-32-byte-key,...)")
	errNoSessionSecrets = fmt.Errorf("USERTASKS_SESSION_SECRETS is required outside dev mode (at least %d random bytes, base64; comma-separated to rotate)", websession.MinSecretBytes)
)
