package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"usertasks/keyring"
	"usertasks/repository"
)

// config is the validated configuration of the server and tools.
type config struct {
	DatabaseURL string
	ListenAddr  string
	Dev         bool
	BaseURL     string
	Keys        *keyring.Keyring
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
	return c, nil
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
	dir := "./data"
	if t, err := repository.ParseURL(databaseURL); err == nil && strings.HasPrefix(databaseURL, "sqlite:") {
		dir = filepath.Dir(t.DSN)
	}
	path := filepath.Join(dir, "encryption-keys")
	if b, err := os.ReadFile(path); err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	spec, err := keyring.Generate("dev1")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(spec+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write dev keys: %w", err)
	}
	return spec, nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
