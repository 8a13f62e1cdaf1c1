package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"strconv"
	"time"
)

// pprofSettings is the opt-in profiling listener (USERTASKS_PPROF_ADDR): Go's net/http/pprof
// handlers on a listener of their own, for `web bench` and an operator chasing a hot spot.
// Off by default; only a loopback address is accepted, since a profile shows code paths and
// timings to whoever can reach it.
func (c *config) pprofSettings() []setting {
	return []setting{{name: "USERTASKS_PPROF_ADDR", set: loopbackAddr(&c.PprofAddr)}}
}

// loopbackAddr stores host:port when host is a loopback IP address or localhost.
func loopbackAddr(dst *string) func(name, v string) error {
	return func(name, v string) error {
		host, port, err := net.SplitHostPort(v)
		if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
			return fmt.Errorf("%s=%s is not host:port", name, quoteShort(v))
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("%s=%s: only a loopback address (127.0.0.1, [::1], localhost) is accepted", name, quoteShort(v))
		}
		*dst = v
		return nil
	}
}

// servePprof serves the profiling endpoints under /debug/pprof/ on addr until ctx ends; it
// returns once listening, or the listen error.
func servePprof(ctx context.Context, addr string, log *slog.Logger) (net.Addr, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	// A CPU profile or trace runs for its ?seconds=, so no write timeout; the rest is bounded.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: maxHeaderBytes}
	return serveBeside(ctx, "pprof", addr, srv, log)
}
