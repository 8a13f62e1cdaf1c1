package websession

import (
	"sync"
	"time"

	"usertasks/models"
)

// Session is the signed-in person of a request, as the handlers see it.
type Session struct {
	Tenant      string
	Provider    string
	Subject     string
	Name        string // display name, may be empty
	Groups      []string
	Permissions []string
	Manager     bool
	Via         string // models.WebViaDev or models.WebViaOIDC
	// TimeZone is the IANA zone the browser reported; empty until it does.
	TimeZone string

	idHash string // the store's key; binds the CSRF token
}

// sessionOf is the handlers' view of a stored session.
func sessionOf(ws models.WebSession) Session {
	return Session{
		Tenant: ws.Tenant, Provider: ws.Provider, Subject: ws.Subject, Name: ws.DisplayName,
		Groups: ws.Groups, Permissions: ws.Permissions, Manager: ws.Manager, Via: ws.Via,
		TimeZone: ws.TimeZone, idHash: ws.IDHash,
	}
}

// Identity is who the session speaks for.
func (s Session) Identity() models.WebIdentity {
	return models.WebIdentity{Tenant: s.Tenant, Provider: s.Provider, Subject: s.Subject, DisplayName: s.Name,
		Groups: s.Groups, Permissions: s.Permissions, Manager: s.Manager}
}

// Actor is the actor the session speaks for.
func (s Session) Actor() models.Actor { return s.Identity().Actor() }

// Location is the person's time zone for rendering times: the zone the browser reported, UTC
// until it has (or if the zone is no longer known to this binary).
func (s Session) Location() *time.Location {
	if s.TimeZone == "" {
		return time.UTC
	}
	if loc, ok := LoadTimeZone(s.TimeZone); ok {
		return loc
	}
	return time.UTC
}

// locations caches loaded zones: time.LoadLocation reads and parses zone data on every call.
var locations sync.Map // name → *time.Location

// LoadTimeZone returns the location of an IANA zone name as a browser reports it
// (Intl.DateTimeFormat().resolvedOptions().timeZone), refusing anything else: names longer
// than models.MaxTimeZoneLength, characters outside the zone database's names (letters,
// digits, "_", "+", "-" and single "/" between parts: no dots, so no paths), and "Local" (the server's own zone, which says nothing about the
// person).
func LoadTimeZone(name string) (*time.Location, bool) {
	if loc, ok := locations.Load(name); ok {
		return loc.(*time.Location), true
	}
	if !plausibleZoneName(name) {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	locations.Store(name, loc)
	return loc, true
}

// plausibleZoneName checks the shape of a zone name before the zone database is asked.
func plausibleZoneName(name string) bool {
	if name == "" || len(name) > models.MaxTimeZoneLength || name == "Local" || name[0] == '/' {
		return false
	}
	prev := byte('/')
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_', c == '+', c == '-':
		case c == '/' && prev != '/':
		default:
			return false
		}
		prev = c
	}
	return prev != '/'
}
