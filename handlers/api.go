package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/live"
	"usertasks/models"
)

// taskAPI holds the handlers of /api/v1/user-tasks. Each handler parses its request, calls the
// service once and renders the answer; every error goes to the one error handler.
type taskAPI struct {
	tasks TaskService
	live  *live.Broker // nil: comments are not announced (api_comments.go)
}

// runCommand is the whole of a command handler: decode the body strictly (decodeBody), parse it
// into the service's input, call the service once for the caller and the task in the path, and
// answer status with the rendered outcome.
func runCommand[Req, In, Out, Body any](c echo.Context, parse func(Req) (In, error),
	call func(context.Context, models.Actor, string, In) (Out, error), status int, render func(Out) Body) error {
	var req Req
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	in, err := parse(req)
	if err != nil {
		return err
	}
	out, err := call(c.Request().Context(), actorOf(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(status, render(out))
}

// runQuery is the whole of a list handler: parse the query string into the service's input,
// call the service once for the caller, and answer 200 with the rendered page.
func runQuery[Q, Out, Body any](c echo.Context, parse func(echo.Context) (Q, error),
	call func(context.Context, models.Actor, Q) (Out, error), render func(Out) Body) error {
	q, err := parse(c)
	if err != nil {
		return err
	}
	out, err := call(c.Request().Context(), actorOf(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, render(out))
}
