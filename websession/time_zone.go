package websession

import (
	"net/http"
	"time"
)

// TimeZoneCookie holds the browser's own IANA zone. static/timezone.js writes it on every page
// (so it is not HttpOnly, and has no __Host- prefix to stay simple for the script); it is no
// secret and grants nothing. The pages fall back to it where no session zone is known yet: the
// first page after a sign-in, a session started without the sign-in form, guest pages.
const TimeZoneCookie = "ut_tz"

// BrowserTimeZone is the zone of the request's TimeZoneCookie, when it names a zone this binary
// knows.
func BrowserTimeZone(r *http.Request) (name string, loc *time.Location, ok bool) {
	ck, err := r.Cookie(TimeZoneCookie)
	if err != nil {
		return "", nil, false
	}
	if loc, ok := LoadTimeZone(ck.Value); ok {
		return ck.Value, loc, true
	}
	return "", nil, false
}
