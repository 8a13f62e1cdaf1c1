package handlers

import (
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/views"
	"usertasks/views/i18n"
)

// The language of the pages: the language cookie when it names a supported language, else the
// browser's Accept-Language. Every page's header has the switcher (views/language.templ),
// which posts here.

// languageCookie is the base name of the language cookie ("__Host-" outside dev, as every
// cookie of ours). It holds "en" or "de" and nothing else is read from it.
const languageCookie = "ut_lang"

// languageCookieLifetime is how long a choice of language is kept.
const languageCookieLifetime = 365 * 24 * time.Hour

// catalog picks the request's language: the cookie's, else Accept-Language's.
func catalog(c echo.Context) *i18n.Catalog {
	for _, name := range []string{"__Host-" + languageCookie, languageCookie} {
		if ck, err := c.Cookie(name); err == nil {
			if t := i18n.ByLang(ck.Value); t != nil {
				return t
			}
		}
	}
	return i18n.Match(c.Request().Header.Get("Accept-Language"))
}

// setLanguage handles POST /language: the switcher's choice goes into the language cookie and
// the browser back to the page it came from (a same-site path only; anything else goes home).
// The form's token is the session's, or the anonymous binding's on pages without a session
// (sign-in, guest pages: those send Origin "null", as their referrer policy is no-referrer).
func (w *web) setLanguage(c echo.Context) error {
	r := c.Request()
	token := r.PostFormValue(views.CSRFField)
	ok := w.sessions.CheckGuestVerifyCSRF(r, token)
	if s, signedIn := w.sessions.Current(r); signedIn && !ok {
		ok = w.sessions.CheckCSRF(r, &s, token, true)
	}
	if !ok {
		return errCSRF
	}
	t := i18n.ByLang(r.PostFormValue("lang"))
	if t == nil {
		return errBadForm
	}
	c.SetCookie(w.sessions.Cookie(languageCookie, t.Lang, languageCookieLifetime))
	back, valid := sameSitePath(r.PostFormValue("return"))
	if !valid {
		back = "/"
	}
	if tok := r.PostFormValue("t"); back == "/guest" && tok != "" && len(tok) <= maxReturnBytes {
		back += "?t=" + url.QueryEscape(tok) // the guest link's token, as the verification form holds it
	}
	return c.Redirect(http.StatusSeeOther, back)
}

// languageSwitch is the switcher of the page being rendered: it comes back to this page, or,
// for a page that answers a post, to the page the form was on where that is known.
func languageSwitch(c echo.Context, csrf string) views.LanguageSwitch {
	r := c.Request()
	back, token := r.URL.RequestURI(), ""
	if r.URL.Path == "/guest" && r.Method == http.MethodGet {
		// The verification screen is the same for every token: the token goes in a field of
		// its own, as in the verification form, never into the return path.
		back, token = "/guest", r.URL.Query().Get("t")
	} else if r.Method != http.MethodGet {
		back = "/"
		switch p := r.URL.Path; {
		case p == "/guest/verify":
			back, token = "/guest", r.PostFormValue("t")
		case strings.HasPrefix(p, "/guest/"):
			back = "/guest/task"
		case strings.HasPrefix(p, "/tasks/") && strings.Count(p, "/") == 3:
			back = path.Dir(p) // /tasks/{id}/complete → /tasks/{id}
		}
	}
	if p, ok := sameSitePath(back); ok {
		back = p
	} else {
		back = "/"
	}
	return views.LanguageSwitch{Return: back, CSRF: csrf, GuestToken: token}
}
