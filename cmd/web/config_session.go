package main

import (
	"fmt"
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

// defaultSessionTimes are websession's defaults.
func defaultSessionTimes() sessionTimes {
	return sessionTimes{Lifetime: websession.DefaultLifetime, Idle: websession.DefaultIdleTimeout, Refresh: websession.DefaultRefreshInterval}
}

// check keeps the lifetime within a week and the other two within the lifetime.
func (s sessionTimes) check() error {
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
