package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// Authenticator resolves a bearer token to the actor it speaks for. Every refusal wraps
// models.ErrUnauthorized. *auth.Verifier satisfies it.
type Authenticator interface {
	Actor(ctx context.Context, bearerToken string) (models.Actor, error)
}

// SessionAuthenticator resolves a request by its browser session cookie, checking origin and
// CSRF token on state-changing requests. *websession.Manager satisfies it.
type SessionAuthenticator interface {
	RequestActor(r *http.Request) (models.Actor, error)
}

// actorKey is where authenticate leaves the actor in the echo context.
const actorKey = "usertasks.actor"

// authenticate requires a caller on every JSON API route: `Authorization: Bearer <jwt>`,
// resolved by auth. A missing, malformed, expired or unverifiable token is 401 unauthenticated;
// the reason is not told (it only helps someone probing tokens).
//
// This is the one place a credential becomes an actor.
func authenticate(auth Authenticator) echo.MiddlewareFunc { return authenticateOr(auth, nil) }

// authenticateOr is authenticate that also accepts the browser session cookie (SPEC 5.1) on a
// request without an Authorization header; a request with the header always goes through
// bearer. Without either, the answer is 401.
func authenticateOr(auth Authenticator, sessions SessionAuthenticator) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			a, err := requestActor(c.Request(), auth, sessions)
			if err != nil {
				return err
			}
			c.Set(actorKey, a)
			// Answers are the caller's own and may hold protected content: never cache them.
			c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
			return next(c)
		}
	}
}

// requestActor resolves the request's credential: the session when there is no Authorization
// header and sessions are accepted, else the bearer token.
func requestActor(r *http.Request, auth Authenticator, sessions SessionAuthenticator) (models.Actor, error) {
	if sessions != nil && r.Header.Get(echo.HeaderAuthorization) == "" {
		return sessions.RequestActor(r)
	}
	token, ok := bearerToken(r)
	if !ok || auth == nil {
		return models.Actor{}, models.ErrUnauthorized
	}
	a, err := auth.Actor(r.Context(), token)
	if errors.Is(err, models.ErrUnauthorized) {
		return models.Actor{}, models.ErrUnauthorized // drop the verifier's reason
	}
	return a, err
}

// bearerToken reads the token of an `Authorization: Bearer <token>` header; the scheme is
// case-insensitive (RFC 9110 11.1).
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get(echo.HeaderAuthorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// actorOf returns the actor authenticate resolved. Routes without authenticate get the zero
// actor, which every service call refuses.
func actorOf(c echo.Context) models.Actor {
	a, _ := c.Get(actorKey).(models.Actor)
	return a
}
