package main

import (
	"fmt"
	"strings"
	"time"
)

// httpTimeouts bound each phase of an HTTP connection, so a client that trickles its request
// or reads the answer slowly cannot hold a connection for long.
type httpTimeouts struct {
	ReadHeader time.Duration // request line and headers
	Read       time.Duration // the whole request, body included
	Write      time.Duration // from the end of the headers to the end of the answer
	Idle       time.Duration // a kept-alive connection between requests
}

// minHTTPTimeout refuses values that would cut ordinary requests (and unit slips like 60ms).
const minHTTPTimeout = time.Second

func defaultHTTPTimeouts() httpTimeouts {
	return httpTimeouts{ReadHeader: 10 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute}
}

// loadHTTPTimeouts reads USERTASKS_HTTP_READ_HEADER_TIMEOUT, _READ_TIMEOUT, _WRITE_TIMEOUT and
// _IDLE_TIMEOUT (Go durations of at least a second).
func (c *config) loadHTTPTimeouts(getenv func(string) string) error {
	c.HTTP = defaultHTTPTimeouts()
	for _, v := range []struct {
		name string
		dst  *time.Duration
	}{
		{"USERTASKS_HTTP_READ_HEADER_TIMEOUT", &c.HTTP.ReadHeader},
		{"USERTASKS_HTTP_READ_TIMEOUT", &c.HTTP.Read},
		{"USERTASKS_HTTP_WRITE_TIMEOUT", &c.HTTP.Write},
		{"USERTASKS_HTTP_IDLE_TIMEOUT", &c.HTTP.Idle},
	} {
		raw := strings.TrimSpace(getenv(v.name))
		if raw == "" {
			continue
		}
		d, err := time.ParseDuration(raw)
		if err != nil || d < minHTTPTimeout {
			return fmt.Errorf("%s=%q is not a duration of at least %s (e.g. 30s, 2m)", v.name, raw, minHTTPTimeout)
		}
		*v.dst = d
	}
	if c.HTTP.ReadHeader > c.HTTP.Read {
		return fmt.Errorf("USERTASKS_HTTP_READ_HEADER_TIMEOUT (%s) must not exceed USERTASKS_HTTP_READ_TIMEOUT (%s)", c.HTTP.ReadHeader, c.HTTP.Read)
	}
	return nil
}
