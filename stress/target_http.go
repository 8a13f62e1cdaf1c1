package stress

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/auth"
	"usertasks/models"
	"usertasks/workflow"
)

// HTTPConfig is how the harness reaches a running server: its base URL and what it needs to
// mint bearer tokens the server accepts (the server's USERTASKS_JWT_HS256_SECRET, issuer and
// audience).
type HTTPConfig struct {
	BaseURL     string
	Secret      []byte
	Issuer      string
	Audience    string
	ManagerRole string        // default auth.DefaultManagerRole
	Lifetime    time.Duration // of each minted token; at most (and by default) 30 minutes
	Client      *http.Client  // default: one with a pool as wide as the load
}

// maxTokenLifetime bounds the tokens the harness mints: long enough for a long run, short
// enough that a token copied out of a trace is soon useless.
const maxTokenLifetime = 30 * time.Minute

// HTTPTarget drives a server through its JSON API: the runtime protocol for projections, the
// task commands and the inbox for people, the live stream for subscribers. As an Inspector it
// reads each task and its events as a manager (outbox rows are not visible over HTTP).
type HTTPTarget struct {
	cfg    HTTPConfig
	base   *url.URL
	tokens sync.Map // tenant + "\x00" + subject → minted
}

// NewHTTPTarget checks the configuration and builds the target.
func NewHTTPTarget(cfg HTTPConfig) (*HTTPTarget, error) {
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("stress: the server URL must be http(s)://host[:port], got %q", cfg.BaseURL)
	}
	if len(cfg.Secret) < auth.MinHS256SecretBytes {
		return nil, fmt.Errorf("stress: minting tokens needs the server's HS256 secret (at least %d bytes)", auth.MinHS256SecretBytes)
	}
	if cfg.ManagerRole == "" {
		cfg.ManagerRole = auth.DefaultManagerRole
	}
	if cfg.Lifetime <= 0 || cfg.Lifetime > maxTokenLifetime {
		cfg.Lifetime = maxTokenLifetime
	}
	if cfg.Client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 256
		cfg.Client = &http.Client{Transport: tr, Timeout: time.Minute}
	}
	return &HTTPTarget{cfg: cfg, base: u}, nil
}

// Name is "http".
func (*HTTPTarget) Name() string { return "http" }

// runtimeActor is the tenant's workflow runtime.
func runtimeActor(tenant string) models.Actor {
	return models.Actor{Tenant: tenant, Subject: models.ParticipantRef{Tenant: tenant, Provider: models.DefaultProvider,
		Type: models.UserParticipant, ID: "stress-runtime"}, Permissions: []string{models.PermRuntimeWrite}}
}

// minted is a token and when it is to be replaced: halfway through its lifetime, so a long
// run never sends one about to expire.
type minted struct {
	token   string
	renewAt time.Time
}

// token is a's bearer token, minted on first use and again halfway through its lifetime.
func (h *HTTPTarget) token(a models.Actor) (string, error) {
	key := a.Tenant + "\x00" + a.Subject.ID
	now := time.Now()
	if t, ok := h.tokens.Load(key); ok && now.Before(t.(minted).renewAt) {
		return t.(minted).token, nil
	}
	claims := jwt.MapClaims{"sub": a.Subject.ID, "tenant": a.Tenant, "name": a.DisplayName,
		"permissions": a.Permissions, "iat": now.Unix(), "exp": now.Add(h.cfg.Lifetime).Unix()}
	groups := []string{}
	for _, g := range a.Groups {
		groups = append(groups, g.ID)
	}
	claims["groups"] = groups
	if a.Manager {
		claims["roles"] = []string{h.cfg.ManagerRole}
	}
	if h.cfg.Issuer != "" {
		claims["iss"] = h.cfg.Issuer
	}
	if h.cfg.Audience != "" {
		claims["aud"] = h.cfg.Audience
	}
	t, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(h.cfg.Secret)
	if err != nil {
		return "", err
	}
	h.tokens.Store(key, minted{token: t, renewAt: now.Add(h.cfg.Lifetime / 2)})
	return t, nil
}

// statusError is an answer the harness did not expect.
type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.status, e.body) }

// call sends a request as a and decodes a 2xx answer into out. A 409 is a conflict.
func (h *HTTPTarget) call(ctx context.Context, a models.Actor, method, path string, query url.Values, body, out any) (int, Outcome, error) {
	u := *h.base
	u.Path += path
	u.RawQuery = query.Encode()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, Failed, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return 0, Failed, err
	}
	tok, err := h.token(a)
	if err != nil {
		return 0, Failed, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := h.cfg.Client.Do(req)
	if err != nil {
		return 0, Failed, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return res.StatusCode, Failed, err
	}
	switch {
	case res.StatusCode == http.StatusConflict:
		return res.StatusCode, Conflict, &statusError{res.StatusCode, string(data)}
	case res.StatusCode < 200 || res.StatusCode > 299:
		return res.StatusCode, Failed, &statusError{res.StatusCode, strings.TrimSpace(string(data[:min(len(data), 300)]))}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return res.StatusCode, Failed, fmt.Errorf("decode %s %s: %w", method, path, err)
		}
	}
	return res.StatusCode, Applied, nil
}

// Project posts the bookmark to the runtime protocol: 201 created, 200 a repeat.
func (h *HTTPTarget) Project(ctx context.Context, tenant string, req workflow.ProjectionRequest) (Item, Outcome, error) {
	var out struct {
		TaskID   string        `json:"taskId"`
		Status   models.Status `json:"status"`
		Revision int           `json:"revision"`
	}
	status, o, err := h.call(ctx, runtimeActor(tenant), http.MethodPost, "/api/v1/runtime/bookmarks", nil, req, &out)
	if o == Applied && status == http.StatusOK {
		o = Repeated
	}
	return Item{ID: out.TaskID, Revision: out.Revision, Status: out.Status}, o, err
}

// commandResult is a command's answer.
type commandResult struct {
	Revision int `json:"revision"`
	Task     struct {
		ID     string        `json:"id"`
		Status models.Status `json:"status"`
	} `json:"task"`
}

func (h *HTTPTarget) command(ctx context.Context, a models.Actor, id, verb string, body map[string]any) (Item, Outcome, error) {
	var out commandResult
	_, o, err := h.call(ctx, a, http.MethodPost, "/api/v1/user-tasks/"+url.PathEscape(id)+"/"+verb, nil, body, &out)
	return Item{ID: out.Task.ID, Revision: out.Revision, Status: out.Task.Status}, o, err
}

// Claim posts claim.
func (h *HTTPTarget) Claim(ctx context.Context, a models.Actor, id string, revision int, operationID string) (Item, Outcome, error) {
	return h.command(ctx, a, id, "claim", map[string]any{"expectedRevision": revision, "operationId": operationID})
}

// Complete posts complete with the default action and no data.
func (h *HTTPTarget) Complete(ctx context.Context, a models.Actor, id string, revision int, operationID string) (Item, Outcome, error) {
	return h.command(ctx, a, id, "complete", map[string]any{"expectedRevision": revision, "operationId": operationID, "actionKey": models.ActionComplete})
}

// listAnswer is a list page.
type listAnswer struct {
	Items []struct {
		ID       string        `json:"id"`
		Status   models.Status `json:"status"`
		Revision int           `json:"revision"`
	} `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

// List gets one inbox page.
func (h *HTTPTarget) List(ctx context.Context, a models.Actor, q ListQuery) (Page, error) {
	v := url.Values{"scope": {string(q.Scope)}, "limit": {strconv.Itoa(q.Limit)}}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	set("search", q.Search)
	set("tag", q.Tag)
	set("sort", string(q.Sort))
	set("cursor", q.Cursor)
	if q.PriorityFrom != nil {
		v.Set("priorityFrom", strconv.Itoa(*q.PriorityFrom))
	}
	if q.Descending {
		v.Set("direction", "desc")
	} else {
		v.Set("direction", "asc")
	}
	var out listAnswer
	if _, _, err := h.call(ctx, a, http.MethodGet, "/api/v1/user-tasks", v, nil, &out); err != nil {
		return Page{}, err
	}
	p := Page{}
	if out.NextCursor != nil {
		p.Next = *out.NextCursor
	}
	for _, it := range out.Items {
		p.Items = append(p.Items, Item{ID: it.ID, Revision: it.Revision, Status: it.Status})
	}
	return p, nil
}

// Subscribe opens the live stream as a and counts the invalidations it receives; it returns
// once the server has answered with the stream's headers (from then on it hears every change).
func (h *HTTPTarget) Subscribe(ctx context.Context, a models.Actor) (func() int, error) {
	tok, err := h.token(a)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.base.String()+"/api/v1/user-tasks/stream", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "text/event-stream")
	client := *h.cfg.Client
	client.Timeout = 0 // the stream stays open until ctx ends
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, &statusError{res.StatusCode, "live stream refused"}
	}
	var n atomic.Int64
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data:") {
				n.Add(1)
			}
		}
	}()
	return func() int { return int(n.Load()) }, nil
}

// Inspect reads the task and its events as a manager; outbox rows are not visible (-1).
func (h *HTTPTarget) Inspect(ctx context.Context, tenant, id string) (Facts, error) {
	m := manager(tenant)
	var detail struct {
		Status   models.Status `json:"status"`
		Assignee *struct {
			ID string `json:"id"`
		} `json:"assignee"`
	}
	path := "/api/v1/user-tasks/" + url.PathEscape(id)
	if _, _, err := h.call(ctx, m, http.MethodGet, path, nil, nil, &detail); err != nil {
		return Facts{}, err
	}
	f := Facts{Status: detail.Status, Events: map[models.EventType]int{}, Outbox: -1}
	if detail.Assignee != nil {
		f.Assignee = detail.Assignee.ID
	}
	cursor := ""
	for {
		var page struct {
			Items []struct {
				Type models.EventType `json:"type"`
			} `json:"items"`
			NextCursor *string `json:"nextCursor"`
		}
		q := url.Values{"limit": {strconv.Itoa(models.MaxPageSize)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		if _, _, err := h.call(ctx, m, http.MethodGet, path+"/events", q, nil, &page); err != nil {
			return Facts{}, err
		}
		for _, e := range page.Items {
			f.Events[e.Type]++
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			return f, nil
		}
		cursor = *page.NextCursor
	}
}

// Transitional asks the manager's "all" list for one task in a transitional status.
func (h *HTTPTarget) Transitional(ctx context.Context, tenant string) (bool, error) {
	v := url.Values{"scope": {string(models.ScopeAll)}, "limit": {"1"}}
	for _, st := range models.TransitionalStatuses {
		v.Add("status", string(st))
	}
	var out listAnswer
	if _, _, err := h.call(ctx, manager(tenant), http.MethodGet, "/api/v1/user-tasks", v, nil, &out); err != nil {
		return false, err
	}
	return len(out.Items) > 0, nil
}

// Count pages the tenant's "all" list as a manager.
func (h *HTTPTarget) Count(ctx context.Context, tenant string) (int, error) {
	n, cursor := 0, ""
	for {
		p, err := h.List(ctx, manager(tenant), ListQuery{Scope: models.ScopeAll, Cursor: cursor, Limit: models.MaxPageSize, Descending: true})
		if err != nil {
			return 0, err
		}
		n += len(p.Items)
		if cursor = p.Next; cursor == "" {
			return n, nil
		}
	}
}
