package handlers

import (
	"net/url"
	"time"

	"github.com/labstack/echo/v4"
)

// revealFlash carries a revealed masked value from POST /tasks/:id/reveal to the next GET of
// the task page (Post/Redirect/Get). It lives in a sealed cookie — encrypted and signed with
// the session keys, HttpOnly, at most revealLifetime — and is deleted by the first page that
// reads it, so a refresh shows the field masked again and a new reveal is audited again.
type revealFlash struct {
	TaskID   string     `json:"id"`
	Key      string     `json:"k"`
	Value    string     `json:"v"`
	Revision int        `json:"r,omitempty"` // from the editable form: the revision the person saw
	Values   url.Values `json:"in,omitempty"`
	Expires  int64      `json:"exp"`
}

const (
	revealCookieName = "ut_reveal"
	revealLifetime   = time.Minute
	// maxRevealCookie keeps the cookie under the 4 KiB browsers promise per cookie.
	maxRevealCookie = 3800
)

// setRevealFlash stores f for the next page. Input in progress that would not fit is left out;
// false means even the value alone does not fit.
func (w *web) setRevealFlash(c echo.Context, f revealFlash) bool {
	f.Expires = w.now().Add(revealLifetime).Unix()
	for range 2 {
		if value, err := w.sessions.Seal(revealCookieName, f); err == nil && len(value) <= maxRevealCookie {
			c.SetCookie(w.sessions.Cookie(revealCookieName, value, revealLifetime))
			return true
		}
		f.Values, f.Revision = nil, 0
	}
	return false
}

// takeRevealFlash reads and deletes the pending reveal of task id.
func (w *web) takeRevealFlash(c echo.Context, id string) (revealFlash, bool) {
	var f revealFlash
	if !w.sessions.Open(c.Request(), revealCookieName, &f) {
		return f, false
	}
	c.SetCookie(w.sessions.Cookie(revealCookieName, "", -1))
	return f, f.TaskID == id && w.now().Unix() < f.Expires
}
