package bench

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"usertasks/keyring"
	"usertasks/repository"
	"usertasks/stress"
)

// dialectRun is the set on one dialect: its phases share the settings of its servers.
type dialectRun struct {
	o        Options
	dialect  string
	server   string            // the database server's URL; "" for SQLite
	vars     map[string]string // the servers' settings (serverVars)
	keys     *keyring.Keyring  // the servers' key ring, for the bench's own stores
	progress io.Writer
	out      *Dialect
}

// runDialect runs the whole set on one dialect.
func runDialect(ctx context.Context, o Options, dialect string, progress io.Writer) (Dialect, error) {
	dr := Dialect{Dialect: dialect}
	vars, err := serverVars()
	if err != nil {
		return dr, err
	}
	keys, err := keyring.Parse(vars["USERTASKS_ENCRYPTION_KEYS"])
	if err != nil {
		return dr, err
	}
	r := &dialectRun{o: o, dialect: dialect, server: o.Servers[dialect], vars: vars, keys: keys, progress: progress, out: &dr}
	start := time.Now()
	if err := r.writePhase(ctx); err != nil {
		return dr, fmt.Errorf("write phase: %w", err)
	}
	dr.WriteSeconds = time.Since(start).Seconds()
	if err := r.scalePhase(ctx); err != nil {
		return dr, fmt.Errorf("scale phase: %w", err)
	}
	return dr, nil
}

// serverVars are the settings of the bench's servers: fresh secrets for the run, the
// loopback runtime, JSON logs.
func serverVars() (map[string]string, error) {
	keys, err := keyring.Generate("bench")
	if err != nil {
		return nil, err
	}
	secret, session := make([]byte, 32), make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	if _, err := rand.Read(session); err != nil {
		return nil, err
	}
	return map[string]string{
		"USERTASKS_ENCRYPTION_KEYS":  keys,
		"USERTASKS_JWT_HS256_SECRET": hex.EncodeToString(secret),
		"USERTASKS_JWT_ISSUER":       "https://bench.invalid",
		"USERTASKS_JWT_AUDIENCE":     "user-tasks",
		"USERTASKS_SESSION_SECRETS":  base64.StdEncoding.EncodeToString(session),
		"USERTASKS_RUNTIME_URL":      "",
	}, nil
}

// migratedDatabase creates a fresh database for one phase, migrated: a new SQLite file, or a
// new database on the dialect's server (dropped by the returned func).
func (r *dialectRun) migratedDatabase(ctx context.Context, phase string) (string, func(), error) {
	dbURL, drop, err := r.scratchDatabase(ctx, phase)
	if err != nil {
		return "", nil, err
	}
	if err := repository.Migrate(ctx, dbURL); err != nil {
		drop()
		return "", nil, err
	}
	return dbURL, drop, nil
}

func (r *dialectRun) scratchDatabase(ctx context.Context, phase string) (string, func(), error) {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	name := "usertasks_bench_" + phase + "_" + hex.EncodeToString(b)
	if r.dialect == "sqlite" {
		path := filepath.Join(r.o.Dir, name+".db")
		return "sqlite:" + path, func() {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(path + suffix)
			}
		}, nil
	}
	u, err := url.Parse(r.server)
	if err != nil {
		return "", nil, fmt.Errorf("the %s server URL does not parse", r.dialect)
	}
	create, drop := `CREATE DATABASE "`+name+`"`, `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`
	if r.dialect == "mariadb" {
		create, drop = "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", "DROP DATABASE IF EXISTS `"+name+"`"
	}
	admin, _, err := repository.OpenSQL(r.server)
	if err != nil {
		return "", nil, err
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, create); err != nil {
		return "", nil, fmt.Errorf("create the scratch database: %w", err)
	}
	u.Path = "/" + name
	return u.String(), func() {
		if admin, _, err := repository.OpenSQL(r.server); err == nil {
			_, _ = admin.ExecContext(context.WithoutCancel(ctx), drop)
			admin.Close()
		}
	}, nil
}

// openStore opens the bench's own store on a phase's database, with the servers' keys.
func (r *dialectRun) openStore(ctx context.Context, dbURL string, onSQL func(string)) (*repository.Store, error) {
	return repository.Open(ctx, repository.Config{URL: dbURL, Keys: r.keys, OnSQL: onSQL})
}

// openDB opens the bench's own store on a phase's database (openStore) with its SQL handle,
// for what writes or reads past the store (the seed, the matrix's raw reads).
func (r *dialectRun) openDB(ctx context.Context, dbURL string, onSQL func(string)) (*repository.Store, *sql.DB, error) {
	store, err := r.openStore(ctx, dbURL, onSQL)
	if err != nil {
		return nil, nil, err
	}
	db, err := store.DB()
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return store, db, nil
}

// startServer starts `web serve` on a phase's database.
func (r *dialectRun) startServer(ctx context.Context, dbURL string) (*server, error) {
	return startServer(ctx, r.o.Web, dbURL, r.vars)
}

// httpTarget is the HTTP target of a server with the bench's token settings.
func (r *dialectRun) httpTarget(srv *server) (*stress.HTTPTarget, error) {
	return stress.NewHTTPTarget(stress.HTTPConfig{BaseURL: srv.Base(), Secret: []byte(r.vars["USERTASKS_JWT_HS256_SECRET"]),
		Issuer: r.vars["USERTASKS_JWT_ISSUER"], Audience: r.vars["USERTASKS_JWT_AUDIENCE"]})
}
