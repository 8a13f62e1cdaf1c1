package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// metricsConfig says where /metrics is served. Both unset: nowhere (the default).
type metricsConfig struct {
	// Token, when set, serves GET /metrics on the main listener to callers presenting it as
	// their bearer token (USERTASKS_METRICS_TOKEN, or _FILE).
	Token string
	// Addr, when set, serves GET /metrics without a token on a listener of its own, meant for a
	// private interface a scraper reaches (USERTASKS_METRICS_ADDR, e.g. 127.0.0.1:9090).
	Addr string
}

// serveMetrics serves h at /metrics on addr until ctx ends; it returns once listening, or the
// listen error.
func serveMetrics(ctx context.Context, addr string, h http.Handler, t httpTimeouts, log *slog.Logger) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	srv := newHTTPServer(mux, t)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("metrics listener stopped", "error", err.Error())
		}
	}()
	context.AfterFunc(ctx, func() {
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	})
	return ln.Addr(), nil
}
