package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/auth"
	"usertasks/models"
)

// crashActor is who calls the server in the crash test: a person, the manager or the engine.
type crashActor struct {
	id          string
	permissions []string
	manager     bool
}

// crashTenant is the tenant the crash test works in.
const crashTenant = "crash"

var (
	crashEngine  = crashActor{id: "crash-engine", permissions: []string{models.PermRuntimeWrite}}
	crashManager = crashActor{id: "crash-manager", permissions: []string{models.PermView, models.PermSupervise}, manager: true}
)

// crashPerson is the i-th person of the workload: a candidate of every task.
func crashPerson(i int) crashActor {
	return crashActor{id: fmt.Sprintf("person-%d", i), permissions: []string{models.PermView, models.PermClaim, models.PermComplete}}
}

// crashClient calls the server's JSON API with bearer tokens it mints with the server's secret.
type crashClient struct {
	base                     string
	secret, issuer, audience string
	http                     *http.Client

	mu     sync.Mutex
	tokens map[string]string
}

func newCrashClient(base string, vars map[string]string) *crashClient {
	return &crashClient{base: base, secret: vars["USERTASKS_JWT_HS256_SECRET"], issuer: vars["USERTASKS_JWT_ISSUER"],
		audience: vars["USERTASKS_JWT_AUDIENCE"], http: &http.Client{Timeout: 20 * time.Second}, tokens: map[string]string{}}
}

// token is a's bearer token, valid for the test's length.
func (c *crashClient) token(a crashActor) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.tokens[a.id]; ok {
		return t, nil
	}
	now := time.Now()
	claims := jwt.MapClaims{"sub": a.id, "tenant": crashTenant, "name": a.id, "permissions": a.permissions,
		"iss": c.issuer, "aud": c.audience, "iat": now.Unix(), "exp": now.Add(30 * time.Minute).Unix()}
	if a.manager {
		claims["roles"] = []string{auth.DefaultManagerRole}
	}
	t, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(c.secret))
	if err != nil {
		return "", err
	}
	c.tokens[a.id] = t
	return t, nil
}

// do sends one request as a and decodes a 2xx answer into out. err is a transport error (the
// server down, the connection cut): the command's outcome is unknown. Any answer is a status.
func (c *crashClient) do(ctx context.Context, a crashActor, method, path string, query url.Values, body, out any) (int, error) {
	rd, err := encodeBody(body)
	if err != nil {
		return 0, err
	}
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, err
	}
	tok, err := c.token(a)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		return 0, err // cut mid-answer: as unknown as no answer
	}
	if res.StatusCode/100 == 2 && out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s %s: %d %w", method, path, res.StatusCode, err)
		}
	}
	return res.StatusCode, nil
}

// crashTask is a task as a list shows it.
type crashTask struct {
	ID       string        `json:"id"`
	Status   models.Status `json:"status"`
	Revision int           `json:"revision"`
}

// list reads one page of a list as a.
func (c *crashClient) list(ctx context.Context, a crashActor, scope models.Scope, cursor string, limit int) ([]crashTask, string, error) {
	q := url.Values{"scope": {string(scope)}, "limit": {strconv.Itoa(limit)}}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var page struct {
		Items      []crashTask `json:"items"`
		NextCursor *string     `json:"nextCursor"`
	}
	status, err := c.do(ctx, a, http.MethodGet, "/api/v1/user-tasks", q, nil, &page)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("list %s: HTTP %d", scope, status)
	}
	next := ""
	if page.NextCursor != nil {
		next = *page.NextCursor
	}
	return page.Items, next, err
}

// allTasks is every task of the tenant, as the manager's "all" list shows them.
func (c *crashClient) allTasks(ctx context.Context) ([]crashTask, error) {
	var all []crashTask
	cursor := ""
	for {
		items, next, err := c.list(ctx, crashManager, models.ScopeAll, cursor, models.MaxPageSize)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if cursor = next; cursor == "" {
			return all, nil
		}
	}
}

// crashEvent is one entry of a task's timeline.
type crashEvent struct {
	Seq         int              `json:"seq"`
	Revision    int              `json:"revision"`
	Type        models.EventType `json:"type"`
	OperationID *string          `json:"operationId"`
}

// events is a task's whole timeline, read as the manager.
func (c *crashClient) events(ctx context.Context, id string) ([]crashEvent, error) {
	var all []crashEvent
	cursor := ""
	for {
		q := url.Values{"limit": {strconv.Itoa(models.MaxPageSize)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page struct {
			Items      []crashEvent `json:"items"`
			NextCursor *string      `json:"nextCursor"`
		}
		status, err := c.do(ctx, crashManager, http.MethodGet, "/api/v1/user-tasks/"+url.PathEscape(id)+"/events", q, nil, &page)
		if err == nil && status != http.StatusOK {
			err = fmt.Errorf("events of %s: HTTP %d", id, status)
		}
		if err != nil {
			return nil, err
		}
		all = append(all, page.Items...)
		if page.NextCursor == nil || *page.NextCursor == "" {
			return all, nil
		}
		cursor = *page.NextCursor
	}
}
