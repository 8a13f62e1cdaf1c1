package main

import (
	"fmt"
	"strings"
	"time"

	"usertasks/websession"
)

// sessionTimes bound a browser sign-in: its absolute lifetime, the idle time after which it
// ends, and how old its identity (groups, permissions, manager flag) may get before it is
// read again from the identity provider.
type sessionTimes struct {
	Lifetime time.Duration // USERTASKS_SESSION_LIFETIME
	Idle     time.Duration // USERTASKS_SESSION_IDLE_TIMEOUT
	Refresh  time.Duration // USERTASKS_SESSION_REFRESH_INTERVAL
}

// maxSessionLifetime keeps a sign-in from outliving a working week by a typo ("720h").
const maxSessionLifetime = 7 * 24 * time.Hour

// loadSessionTimes reads the three durations; unset ones take websession's defaults.
func (c *config) loadSessionTimes(getenv func(string) string) error {
	c.Session = sessionTimes{Lifetime: websession.DefaultLifetime, Idle: websession.DefaultIdleTimeout, Refresh: websession.DefaultRefreshInterval}
	for _, v := range []struct {
		name string
		dst  *time.Duration
		min  time.Duration
	}{
		{"USERTASKS_SESSION_LIFETIME", &c.Session.Lifetime, 5 * time.Minute},
		{"USERTASKS_SESSION_IDLE_TIMEOUT", &c.Session.Idle, websession.MinIdleTimeout},
		{"USERTASKS_SESSION_REFRESH_INTERVAL", &c.Session.Refresh, time.Minute},
	} {
		raw := strings.TrimSpace(getenv(v.name))
		if raw == "" {
			continue
		}
		d, err := time.ParseDuration(raw)
		if err != nil || d < v.min {
			return fmt.Errorf("%s=%s is not a duration of at least %s (e.g. 30m, 8h)", v.name, quoteShort(raw), v.min)
		}
		*v.dst = d
	}
	s := c.Session
	switch {
	case s.Lifetime > maxSessionLifetime:
		return fmt.Errorf("USERTASKS_SESSION_LIFETIME (%s) must not exceed %s", s.Lifetime, maxSessionLifetime)
	case s.Idle > s.Lifetime:
		return fmt.Errorf("USERTASKS_SESSION_IDLE_TIMEOUT (%s) must not exceed USERTASKS_SESSION_LIFETIME (%s)", s.Idle, s.Lifetime)
	case s.Refresh > s.Lifetime:
		return fmt.Errorf("USERTASKS_SESSION_REFRESH_INTERVAL (%s) must not exceed USERTASKS_SESSION_LIFETIME (%s)", s.Refresh, s.Lifetime)
	}
	return nil
}
