package handlers

import (
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"usertasks/live"
)

// TestStreamOutlivesServerTimeouts runs the stream behind a server whose read and write
// timeouts are far shorter than the stream: its heartbeats keep flowing past them.
func TestStreamOutlivesServerTimeouts(t *testing.T) {
	const timeout = 300 * time.Millisecond
	env := newStreamEnvServer(t, live.Options{Heartbeat: 50 * time.Millisecond}, func(s *http.Server) {
		s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout = timeout, timeout, timeout
	})
	ann := env.open(t, "ann")
	opened := time.Now()
	var lastPing time.Time
	for time.Since(opened) < 5*timeout {
		select {
		case f := <-ann.frames:
			if f.comment == "ping" {
				lastPing = time.Now()
			}
		case <-ann.ended:
			t.Fatalf("the stream ended %s after it opened; the server's timeouts are %s", time.Since(opened).Round(time.Millisecond), timeout)
		case <-time.After(timeout):
		}
	}
	if lastPing.Sub(opened) < 4*timeout {
		t.Fatalf("last heartbeat %s after opening, want one past %s", lastPing.Sub(opened).Round(time.Millisecond), 4*timeout)
	}
}

// TestStreamEndsForClientThatStopsReading opens a stream from a client that never reads: once
// the socket buffers are full, a write blocks and its own deadline ends the stream, freeing
// the subscription.
func TestStreamEndsForClientThatStopsReading(t *testing.T) {
	old := streamWriteTimeout
	streamWriteTimeout = 200 * time.Millisecond
	t.Cleanup(func() { streamWriteTimeout = old })
	// Small socket buffers on both ends, so the heartbeats fill them within a second or two.
	env := newStreamEnvServer(t, live.Options{Heartbeat: time.Millisecond}, func(s *http.Server) {
		s.ConnState = func(c net.Conn, state http.ConnState) {
			if tc, ok := c.(*net.TCPConn); ok && state == http.StateNew {
				_ = tc.SetWriteBuffer(4096)
			}
		}
	})

	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) {
			_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024)
		})
	}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(env.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /api/v1/user-tasks/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ann\r\nAccept: text/event-stream\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	streamWaitFor(t, "the stream to subscribe", func() bool { return env.broker.Subscribers() == 1 })
	deadline := time.Now().Add(20 * time.Second)
	for env.broker.Subscribers() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("a stream whose client stopped reading still holds its subscription after 20 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
