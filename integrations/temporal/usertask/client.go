package usertask

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TokenSource returns a bearer token with the permission user-tasks/runtime:write for the
// tenant the tasks belong to.
type TokenSource func(ctx context.Context) (string, error)

// HS256Tokens mints short-lived runtime tokens under a shared HS256 secret, for a User Tasks
// configured with USERTASKS_JWT_HS256_SECRET. With an identity provider, use a TokenSource
// that fetches a client-credentials token instead.
func HS256Tokens(secret []byte, issuer, audience, tenant, subject string) TokenSource {
	return func(context.Context) (string, error) {
		now := time.Now()
		return jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
			"iss": issuer, "aud": audience, "sub": subject, "tenant": tenant,
			"permissions": []string{"user-tasks/runtime:write"},
			"iat":         now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		}).SignedString(secret)
	}
}

// Client calls the runtime API of User Tasks.
type Client struct {
	BaseURL string // e.g. https://tasks.example.com (a path prefix is kept)
	Token   TokenSource
	HTTP    *http.Client // http.DefaultClient when nil
}

// refusal is an answer User Tasks will give again on a retry (a 4xx other than 408 and 429).
type refusal struct {
	status int
	code   string
	fields []string // the members a validation refusal names, e.g. task.deadlines[0].after
}

func (r *refusal) Error() string {
	if len(r.fields) > 0 {
		return fmt.Sprintf("user tasks refused the call: %d %s (%s)", r.status, r.code, strings.Join(r.fields, ", "))
	}
	return fmt.Sprintf("user tasks refused the call: %d %s", r.status, r.code)
}

// post sends body as JSON to the runtime endpoint path and decodes a 2xx answer into out.
func (c *Client) post(ctx context.Context, path string, body, out any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	token, err := c.Token(ctx)
	if err != nil {
		return fmt.Errorf("runtime token: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.BaseURL, "/")+path, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		var problem struct {
			Code   string `json:"code"`
			Errors []struct {
				Field string `json:"field"`
			} `json:"errors"`
		}
		_ = json.Unmarshal(answer, &problem)
		if resp.StatusCode/100 == 4 && resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests {
			r := &refusal{status: resp.StatusCode, code: problem.Code}
			for _, e := range problem.Errors {
				// A workflow's failure shows this: the member names only, bounded.
				if e.Field != "" && len(r.fields) < 10 {
					r.fields = append(r.fields, e.Field)
				}
			}
			return r
		}
		return fmt.Errorf("user tasks answered %d %s", resp.StatusCode, problem.Code)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(answer, out)
}

// ProjectionResult is User Tasks' answer to a projection.
type ProjectionResult struct {
	TaskID   string `json:"taskId"`
	Status   string `json:"status"`
	Revision int64  `json:"revision"`
	Created  bool   `json:"created"`
}

// Project posts one bookmark; a repeat returns the existing task.
func (c *Client) Project(ctx context.Context, p Projection) (ProjectionResult, error) {
	var r ProjectionResult
	err := c.post(ctx, "/api/v1/runtime/bookmarks", p, &r)
	return r, err
}

// Remove finalizes the tasks of the bookmarks (repeating it is harmless).
func (c *Client) Remove(ctx context.Context, bookmarkIDs ...string) error {
	return c.post(ctx, "/api/v1/runtime/bookmarks/removed", map[string][]string{"bookmarkIds": bookmarkIDs}, nil)
}
