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

// actorKey is where authenticate leaves the actor in the echo context.
const actorKey = "usertasks.actor"

// authenticate requires a caller on every JSON API route: `Authorization: Bearer <jwt>`,
// resolved by auth. A missing, malformed, expired or unverifiable token is 401 unauthenticated;
// the reason is not told (it only helps someone probing tokens).
//
// This is the one place a credential becomes an actor. The browser session cookie (SPEC 5.1)
// will be a second source here: try the cookie when no Authorization header is present.
func authenticate(auth Authenticator) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			token, ok := bearerToken(c.Request())
			if !ok || auth == nil {
				return models.ErrUnauthorized
			}
			a, err := auth.Actor(c.Request().Context(), token)
			if errors.Is(err, models.ErrUnauthorized) {
				return models.ErrUnauthorized // drop the verifier's reason
			}
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
