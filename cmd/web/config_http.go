package main

import (
	"fmt"
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

// check keeps the header timeout within the whole request's.
func (t httpTimeouts) check() error {
	if t.ReadHeader > t.Read {
		return fmt.Errorf("USERTASKS_HTTP_READ_HEADER_TIMEOUT (%s) must not exceed USERTASKS_HTTP_READ_TIMEOUT (%s)", t.ReadHeader, t.Read)
	}
	return nil
}
