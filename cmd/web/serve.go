package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"usertasks/handlers"
)

// serveCommand runs `web serve [--migrate] [--listen ADDR]` until ctx ends, then shuts down
// gracefully, letting in-flight requests finish.
func serveCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	migrate := fs.Bool("migrate", false, "apply pending migrations before serving (implied in dev mode)")
	listen := fs.String("listen", "", "listen address (default USERTASKS_LISTEN_ADDR or "+defaultListenAddr+")")
	fs.Usage = commandUsage(fs, "web serve [--migrate] [--listen ADDR]",
		"Run the HTTP server (pages, JSON API, runtime protocol, /healthz, /readyz, /metrics) and the\nbackground workers until interrupted; then finish in-flight requests and release leases.\nRefuses to start on a schema that is not this binary's unless --migrate (or dev mode) is given.",
		"  every USERTASKS_* variable of docs/configuration.md; at least USERTASKS_DATABASE_URL,\n  USERTASKS_ENCRYPTION_KEYS, a token key source and USERTASKS_SESSION_SECRETS outside dev mode")
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	cfg, err := loadConfig(env, true)
	if err != nil {
		return err
	}
	if *listen != "" {
		cfg.ListenAddr = *listen
	}
	log := newLogger(cfg, stderr)
	warnUnknown(env, log)
	logDefaultTenant(cfg, log)

	store, err := openStore(ctx, cfg.DatabaseURL, storeUse{migrate: *migrate || cfg.Dev, keys: cfg.Keys,
		pending: "run 'web migrate up' or 'web serve --migrate'"})
	if err != nil {
		return err
	}
	defer store.Close()

	a, err := buildApp(ctx, cfg, store, log)
	if err != nil {
		return err
	}
	defer a.close()

	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := newHTTPServer(handlers.New(a.deps), cfg.HTTP)

	// Background work stops with ctx; the broker's streams end first so Shutdown does not wait.
	work, stopWork := context.WithCancel(context.Background())
	defer stopWork()
	brokerDone := make(chan error, 1)
	go func() { brokerDone <- a.broker.Run(work) }()
	workersDone := make(chan error, 1)
	go func() { workersDone <- a.workers.Run(work) }()
	if store.run != nil {
		go store.run(work, log)
	}
	if a.digest != nil {
		go a.digest.Run(work, time.Minute)
	}

	if cfg.Metrics.Addr != "" {
		addr, err := serveMetrics(work, cfg.Metrics.Addr, a.metrics.Handler(), cfg.HTTP, log)
		if err != nil {
			ln.Close()
			return err
		}
		log.Info("metrics are served on their own address", "url", "http://"+addr.String()+"/metrics")
	}
	if cfg.PprofAddr != "" {
		addr, err := servePprof(work, cfg.PprofAddr, log)
		if err != nil {
			ln.Close()
			return err
		}
		log.Info("profiles are served on a loopback address", "url", "http://"+addr.String()+"/debug/pprof/")
	}
	fmt.Fprintf(stdout, "User Tasks is listening on http://%s (database: %s, dev mode: %v)\n", ln.Addr(), store.name, cfg.Dev)
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case err = <-serveErr:
	case <-ctx.Done():
	}
	log.Info("shutting down")
	stopWork()
	<-brokerDone
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if shutdownErr := srv.Shutdown(shutdownCtx); shutdownErr != nil && err == nil {
		err = fmt.Errorf("shutdown: %w", shutdownErr)
	}
	if workErr := <-workersDone; workErr != nil && !errors.Is(workErr, context.Canceled) {
		log.Warn("background work ended with an error", "error", workErr)
	}
	a.flushTracing(shutdownCtx, log) // after the last request and delivery made its spans
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// maxHeaderBytes bounds a request's line and headers (431 beyond): room for the largest bearer
// token the verifier reads (auth.MaxTokenBytes, 32 KiB), the session cookies and a browser's
// usual headers, instead of net/http's 1 MiB default per connection.
const maxHeaderBytes = 64 << 10

// newHTTPServer is the server of `web serve` with every phase of a connection bounded. The
// live-update stream outlives the read and write timeouts by design: it lifts them for itself
// and bounds each of its writes instead.
func newHTTPServer(h http.Handler, t httpTimeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// serveBeside runs srv on a listener of its own at addr until ctx ends (metrics, pprof); it
// returns once listening, or the listen error. name tells the listener apart in errors and logs.
func serveBeside(ctx context.Context, name, addr string, srv *http.Server, log *slog.Logger) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s listen: %w", name, err)
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn(name+" listener stopped", "error", err.Error())
		}
	}()
	context.AfterFunc(ctx, func() {
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	})
	return ln.Addr(), nil
}

// logDefaultTenant says at start which tenant tokens without a tenant claim act in, since
// that is a decision the operator made.
func logDefaultTenant(cfg config, log *slog.Logger) {
	if t := cfg.Auth.DefaultTenant; t != "" && (cfg.Auth.Configured() || cfg.OIDC.Issuer != "") {
		log.Info("tokens without a tenant claim act in tenant "+t, "tenant", t)
	}
}

// newLogger logs JSON in production and text in dev mode.
func newLogger(cfg config, w io.Writer) *slog.Logger {
	if cfg.Dev {
		return slog.New(slog.NewTextHandler(w, nil))
	}
	return slog.New(slog.NewJSONHandler(w, nil))
}
