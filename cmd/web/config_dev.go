package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/repository"
	"usertasks/websession"
)

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
	if t, err := repository.ParseURL(databaseURL); err == nil && t.Dialect == migrations.SQLite {
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
	if err := os.MkdirAll(dir, 0o700); err != nil { // the database and its secrets: the owner's only
		return "", err
	}
	if err := os.WriteFile(path, []byte(spec+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write dev %s: %w", name, err)
	}
	return spec, nil
}
