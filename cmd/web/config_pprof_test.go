package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// TestPprofAddrLoopbackOnly: the profiling listener takes loopback addresses only.
func TestPprofAddrLoopbackOnly(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:6060", "[::1]:6060", "localhost:0", "127.0.0.2:1"} {
		c := defaultConfig()
		if err := c.read(environ([]string{"USERTASKS_PPROF_ADDR=" + ok}), false); err != nil || c.PprofAddr != ok {
			t.Errorf("%q: refused (%v) or not kept (%q)", ok, err, c.PprofAddr)
		}
	}
	for _, bad := range []string{":6060", "0.0.0.0:6060", "[::]:6060", "10.0.0.1:6060", "example.com:6060",
		"127.0.0.1", "localhost", "127.0.0.1:6060/x?y#z", "läufer:1", "127.0.0.1:\x00", strings.Repeat("a", 5000) + ":1"} {
		c := defaultConfig()
		err := c.read(environ([]string{"USERTASKS_PPROF_ADDR=" + bad}), false)
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		if len(err.Error()) > 300 {
			t.Errorf("%q: the refusal repeats the whole value: %d bytes", bad[:10], len(err.Error()))
		}
	}
	c := defaultConfig()
	if err := c.read(environ(nil), false); err != nil || c.PprofAddr != "" {
		t.Fatalf("default: %v %q, want off", err, c.PprofAddr)
	}
}

// TestServePprof: the listener answers the index and stops with its context.
func TestServePprof(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := servePprof(ctx, "127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + addr.String() + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine") {
		t.Fatalf("index: %d %.200s", res.StatusCode, body)
	}
	res, err = http.Post("http://"+addr.String()+"/debug/pprof/symbol", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST symbol: %d, want 405 (GET only)", res.StatusCode)
	}
}
