package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
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
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	return serveBeside(ctx, "metrics", addr, newHTTPServer(mux, t), log)
}
