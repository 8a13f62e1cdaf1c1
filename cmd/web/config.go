package main

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"usertasks/auth"
	"usertasks/keyring"
	"usertasks/models"
	"usertasks/oidclogin"
)

// config is the validated configuration of the server and tools, read once from the
// environment (settings) and handed down as typed values: no other package reads USERTASKS_*
// variables.
type config struct {
	DatabaseURL string
	ListenAddr  string
	Dev         bool
	BaseURL     string
	Keys        *keyring.Keyring

	HTTP           httpTimeouts
	Session        sessionTimes
	Auth           auth.Config
	SessionSecrets [][]byte
	OIDC           oidclogin.Config

	RuntimeURL    string
	RuntimeSecret string
	DirectoryFile string
	DirectoryURL  string
	FormsDir      string

	Cadence     cadence
	Invitations invitationConfig
	Notify      notifyConfig
	Retention   retention
	// Metrics: /metrics on the main listener for callers presenting MetricsToken, and/or
	// without a token on the separate MetricsAddr (config_metrics.go).
	Metrics metricsConfig
	// Tracing: OpenTelemetry spans to an OTLP/HTTP collector, when one is configured
	// (config_tracing.go).
	Tracing tracingConfig
	// PprofAddr, when set, serves net/http/pprof on this loopback address (config_pprof.go).
	PprofAddr string
	// UnassignedAttentionAfter: an open task without an assignee for longer than this, from
	// its creation, needs attention.
	UnassignedAttentionAfter time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the remote address.
	TrustedProxies []*net.IPNet
	// ReconcileTenants are reconciled besides the tenants the store knows (config_reconcile.go).
	ReconcileTenants []string
	// AttachmentMaxSize is the most bytes one attachment holds (config_attachments.go).
	AttachmentMaxSize int64
}

const (
	defaultDatabaseURL = "sqlite:./data/usertasks.db"
	defaultListenAddr  = "127.0.0.1:8080"
)

// defaultConfig is the configuration of an empty environment, before the checks.
func defaultConfig() config {
	return config{
		DatabaseURL: defaultDatabaseURL,
		ListenAddr:  defaultListenAddr,
		HTTP:        defaultHTTPTimeouts(),
		Session:     defaultSessionTimes(),
		Auth:        auth.DefaultConfig(),
		Cadence:     defaultCadence(),
		Retention:   defaultRetention(),
		Notify:      defaultNotify(),

		UnassignedAttentionAfter: models.DefaultUnassignedAttentionAfter,
		AttachmentMaxSize:        defaultAttachmentMaxSize,
	}
}

// loadConfig reads the USERTASKS_* variables (and NAME_FILE for secrets) and validates them.
// serve is false for tools (migrate), which read only the database and dev settings.
func loadConfig(env environment, serve bool) (config, error) {
	c := defaultConfig()
	if err := c.read(env, !serve); err != nil {
		return c, err
	}
	c.Invitations.baseURLSet = c.BaseURL != ""
	if c.BaseURL == "" {
		c.BaseURL = "http://" + c.ListenAddr
	}
	if !serve {
		return c, nil
	}
	return c, c.check()
}

// loadToolConfig is loadConfig for an operator command, with the command's logger, which
// warns about unknown USERTASKS_* variables first.
func loadToolConfig(env environment, stderr io.Writer) (config, *slog.Logger, error) {
	cfg, err := loadConfig(env, false)
	if err != nil {
		return cfg, nil, err
	}
	log := newLogger(cfg, stderr)
	warnUnknown(env, log)
	return cfg, log, nil
}

// requireKeys settles the encryption keys: the configured ring, or in dev mode the one kept
// beside the dev database. Tools that open sealed columns (rekey) need it too.
func (c *config) requireKeys() error {
	if c.Keys == nil && c.Dev {
		spec, err := devKeys(c.DatabaseURL)
		if err != nil {
			return err
		}
		if c.Keys, err = keyring.Parse(spec); err != nil {
			return fmt.Errorf("USERTASKS_ENCRYPTION_KEYS: %w", err)
		}
	}
	if c.Keys == nil {
		return errNoKeys
	}
	return nil
}

// check decides what the variables decide together: the dev-mode fallbacks, what is required
// outside dev mode, and the bounds between related values.
func (c *config) check() error {
	if err := c.requireKeys(); err != nil {
		return err
	}
	if err := c.HTTP.check(); err != nil {
		return err
	}
	if err := c.checkAuth(); err != nil {
		return err
	}
	if err := c.Session.check(); err != nil {
		return err
	}
	if c.SessionSecrets == nil && c.Dev {
		secrets, err := devSecret(c.DatabaseURL, "session-secret")
		if err != nil {
			return err
		}
		if err := c.setSessionSecrets("USERTASKS_SESSION_SECRETS", secrets); err != nil {
			return err
		}
	}
	if c.SessionSecrets == nil {
		return errNoSessionSecrets
	}
	if err := c.checkOIDC(); err != nil {
		return err
	}
	if c.RuntimeURL != "" && c.RuntimeSecret == "" {
		return fmt.Errorf("USERTASKS_RUNTIME_SECRET is required with USERTASKS_RUNTIME_URL")
	}
	if err := c.checkInvitations(); err != nil {
		return err
	}
	return c.checkNotify()
}

// checkAuth checks how tokens are verified. Outside dev mode a key source, the issuer and the
// audience are required (each check may be skipped on purpose) and tokens without a tenant
// claim are refused unless USERTASKS_DEFAULT_TENANT names one; dev mode keeps "default".
func (c *config) checkAuth() error {
	if err := c.Auth.Validate(); err != nil {
		return err
	}
	if c.Dev {
		if c.Auth.DefaultTenant == "" {
			c.Auth.DefaultTenant = auth.DefaultTenant
		}
		return nil
	}
	return c.Auth.ValidateStrict()
}

// checkOIDC completes the OIDC sign-in when an issuer is configured, with the callback and the
// post-logout redirect (unless configured) under the base URL and the claim mapping of bearer
// tokens, and keeps its ID tokens from passing as bearer tokens; without an issuer there is none.
func (c *config) checkOIDC() error {
	if c.OIDC.Issuer == "" {
		c.OIDC = oidclogin.Config{}
		return nil
	}
	if c.OIDC.ClientID == "" {
		return fmt.Errorf("USERTASKS_OIDC_CLIENT_ID is required with USERTASKS_OIDC_ISSUER")
	}
	// The provider issues the sign-in's ID tokens to the client id: bearer tokens naming it
	// are refused, and an API audience equal to it would accept them, so it stops the start.
	c.Auth.RefusedAudience = c.OIDC.ClientID
	if err := c.Auth.Validate(); err != nil {
		return err
	}
	c.OIDC.RedirectURL = strings.TrimRight(c.BaseURL, "/") + "/login/oidc/callback"
	if c.OIDC.PostLogoutRedirectURL == "" {
		c.OIDC.PostLogoutRedirectURL = strings.TrimRight(c.BaseURL, "/") + "/login"
	}
	c.OIDC.Mapping = c.Auth
	return nil
}
