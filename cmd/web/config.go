package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"usertasks/auth"
	"usertasks/handlers"
	"usertasks/keyring"
	"usertasks/repository"
	"usertasks/websession"
)

// config is the validated configuration of the server and tools.
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
	OIDC           handlers.OIDCConfig

	RuntimeURL    string
	RuntimeSecret string
	DirectoryFile string
	DirectoryURL  string
	FormsDir      string

	Cadence cadence
}

const (
	defaultDatabaseURL = "sqlite:./data/usertasks.db"
	defaultListenAddr  = "127.0.0.1:8080"
)

// loadConfig reads USERTASKS_* variables (and their _FILE variants for secrets) and validates
// them. needKeys is false for tools that never touch protected columns.
func loadConfig(getenv func(string) string, needKeys bool) (config, error) {
	c := config{
		DatabaseURL: or(getenv("USERTASKS_DATABASE_URL"), defaultDatabaseURL),
		ListenAddr:  or(getenv("USERTASKS_LISTEN_ADDR"), defaultListenAddr),
		BaseURL:     getenv("USERTASKS_BASE_URL"),
	}
	if v := getenv("USERTASKS_DEV"); v != "" {
		dev, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("USERTASKS_DEV=%q is not a boolean", v)
		}
		c.Dev = dev
	}
	if _, err := repository.ParseURL(c.DatabaseURL); err != nil {
		return c, fmt.Errorf("USERTASKS_DATABASE_URL: %w", err)
	}
	if c.BaseURL == "" {
		c.BaseURL = "http://" + c.ListenAddr
	}
	if !needKeys {
		return c, nil
	}
	spec, err := secret(getenv, "USERTASKS_ENCRYPTION_KEYS")
	if err != nil {
		return c, err
	}
	if spec == "" && c.Dev {
		spec, err = devKeys(c.DatabaseURL)
		if err != nil {
			return c, err
		}
	}
	if spec == "" {
		return c, fmt.Errorf("USERTASKS_ENCRYPTION_KEYS is required outside dev mode (kid:base64-32-byte-key,...)")
	}
	if c.Keys, err = keyring.Parse(spec); err != nil {
		return c, fmt.Errorf("USERTASKS_ENCRYPTION_KEYS: %w", err)
	}
	return c, c.loadServe(getenv)
}

// loadServe reads what only the server needs: token verification, browser sessions, OIDC, the
// workflow side and the workers' cadence.
func (c *config) loadServe(getenv func(string) string) error {
	if err := c.loadHTTPTimeouts(getenv); err != nil {
		return err
	}
	if err := c.loadAuth(getenv); err != nil {
		return err
	}
	if err := c.loadSessionTimes(getenv); err != nil {
		return err
	}
	sessions, err := secret(getenv, "USERTASKS_SESSION_SECRETS")
	if err != nil {
		return err
	}
	if sessions == "" && c.Dev {
		sessions, err = devSecret(c.DatabaseURL, "session-secret")
		if err != nil {
			return err
		}
	}
	if sessions == "" {
		return fmt.Errorf("USERTASKS_SESSION_SECRETS is required outside dev mode (at least %d random bytes, base64; comma-separated to rotate)", websession.MinSecretBytes)
	}
	for i, part := range strings.Split(sessions, ",") {
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(part))
		if err != nil || len(b) < websession.MinSecretBytes {
			return fmt.Errorf("USERTASKS_SESSION_SECRETS: secret %d is not base64 of at least %d bytes", i+1, websession.MinSecretBytes)
		}
		c.SessionSecrets = append(c.SessionSecrets, b)
	}
	if issuer := getenv("USERTASKS_OIDC_ISSUER"); issuer != "" {
		clientSecret, err := secret(getenv, "USERTASKS_OIDC_CLIENT_SECRET")
		if err != nil {
			return err
		}
		c.OIDC = handlers.OIDCConfig{Issuer: issuer, ClientID: getenv("USERTASKS_OIDC_CLIENT_ID"), ClientSecret: clientSecret,
			RedirectURL: strings.TrimRight(c.BaseURL, "/") + "/login/oidc/callback", Mapping: c.Auth}
		if c.OIDC.ClientID == "" {
			return fmt.Errorf("USERTASKS_OIDC_CLIENT_ID is required with USERTASKS_OIDC_ISSUER")
		}
	}
	c.RuntimeURL = getenv("USERTASKS_RUNTIME_URL")
	if c.RuntimeSecret, err = secret(getenv, "USERTASKS_RUNTIME_SECRET"); err != nil {
		return err
	}
	if c.RuntimeURL != "" && c.RuntimeSecret == "" {
		return fmt.Errorf("USERTASKS_RUNTIME_SECRET is required with USERTASKS_RUNTIME_URL")
	}
	c.DirectoryFile = getenv("USERTASKS_DIRECTORY_FILE")
	c.DirectoryURL = getenv("USERTASKS_DIRECTORY_URL")
	c.FormsDir = getenv("USERTASKS_FORMS_DIR")
	c.Cadence, err = loadCadence(getenv)
	return err
}

// loadAuth reads how tokens are verified. Outside dev mode a key source, the issuer and the
// audience are required (each check may be skipped on purpose) and tokens without a tenant
// claim are refused unless USERTASKS_DEFAULT_TENANT names one; dev mode keeps "default".
func (c *config) loadAuth(getenv func(string) string) error {
	var err error
	if c.Auth, err = auth.ConfigFromEnv(getenv); err != nil {
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

// secret reads NAME, or the file named by NAME_FILE.
func secret(getenv func(string) string, name string) (string, error) {
	if v := getenv(name); v != "" {
		return v, nil
	}
	path := getenv(name + "_FILE")
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s_FILE: %w", name, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// devKeys keeps a generated key ring beside the dev database so restarts can read old data.
func devKeys(databaseURL string) (string, error) {
	return devFile(databaseURL, "encryption-keys", func() (string, error) { return keyring.Generate("dev1") })
}

// devSecret keeps a generated random secret beside the dev database.
func devSecret(databaseURL, name string) (string, error) {
	return devFile(databaseURL, name, func() (string, error) {
		return base64.StdEncoding.EncodeToString(websession.GenerateSecret()), nil
	})
}

// devFile reads a dev-mode secret from the data folder, generating it on first use.
func devFile(databaseURL, name string, generate func() (string, error)) (string, error) {
	dir := "./data"
	if t, err := repository.ParseURL(databaseURL); err == nil && strings.HasPrefix(databaseURL, "sqlite:") {
		dir = filepath.Dir(t.DSN)
	}
	path := filepath.Join(dir, name)
	if b, err := os.ReadFile(path); err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	spec, err := generate()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(spec+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write dev %s: %w", name, err)
	}
	return spec, nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
