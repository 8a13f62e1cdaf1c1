package directory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"usertasks/models"
)

// HTTP is a participant directory behind an HTTP service:
//
//	GET {base}/groups/{groupId}/members?tenant=T   → 200 {"members": [{"id", "displayName"?, "provider"?}]}
//	GET {base}/participants?tenant=T&search=Q&type=user|group&limit=N
//	                                               → 200 {"items": [{"type", "id", "displayName"?, "provider"?}]}
//	GET {base}/users/{userId}?tenant=T&provider=P  → 200 {"id", "displayName"?, "email"?}  (notifications)
//
// A 404 of the members call means the group is unknown, of the users call the user. A member without a provider has its
// group's provider. Requests carry the configured headers (for example an Authorization header)
// and are bounded by a timeout; answers are bounded in size.
type HTTP struct {
	base    *url.URL
	client  *http.Client
	header  http.Header
	timeout time.Duration
}

// HTTPOptions tune an HTTP.
type HTTPOptions struct {
	// Timeout bounds each request. Default 10s.
	Timeout time.Duration
	// Client sends the requests. Default a new http.Client.
	Client *http.Client
	// Header is added to every request.
	Header http.Header
}

// maxDirectoryAnswer bounds a directory answer: 1,000 members with long names fit easily.
const maxDirectoryAnswer = 4 << 20

// NewHTTP checks the base URL (absolute http or https) and builds the directory.
func NewHTTP(baseURL string, o HTTPOptions) (*HTTP, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("directory: base URL %q must be an absolute http or https URL without a query", baseURL)
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Client == nil {
		o.Client = &http.Client{}
	}
	return &HTTP{base: u, client: o.Client, header: o.Header.Clone(), timeout: o.Timeout}, nil
}

// directoryMember is one participant of a directory answer.
type directoryMember struct {
	Type        models.ParticipantType `json:"type"`
	Provider    string                 `json:"provider"`
	ID          string                 `json:"id"`
	DisplayName string                 `json:"displayName"`
}

// Expand implements Directory.
func (d *HTTP) Expand(ctx context.Context, tenant string, group models.ParticipantRef) ([]models.ParticipantRef, error) {
	path := "/groups/" + url.PathEscape(group.ID) + "/members"
	var answer struct {
		Members []directoryMember `json:"members"`
	}
	if err := d.get(ctx, path, url.Values{"tenant": {tenant}}, &answer); err != nil {
		return nil, fmt.Errorf("directory: members of group %q: %w", group.ID, err)
	}
	if answer.Members == nil {
		return nil, fmt.Errorf("directory: members of group %q: the answer has no members array", group.ID)
	}
	out := make([]models.ParticipantRef, 0, len(answer.Members))
	for i, m := range answer.Members {
		if m.Type != "" && m.Type != models.UserParticipant {
			return nil, fmt.Errorf("directory: members of group %q: member %d is not a user", group.ID, i)
		}
		if m.ID == "" {
			return nil, fmt.Errorf("directory: members of group %q: member %d has no id", group.ID, i)
		}
		provider := m.Provider
		if provider == "" {
			provider = group.Provider
		}
		out = append(out, models.ParticipantRef{Tenant: tenant, Provider: provider, Type: models.UserParticipant, ID: m.ID, DisplayName: m.DisplayName})
	}
	return out, nil
}

// Contact implements Contacts through GET {base}/users/{id}: the user's email, "" when the
// answer has none. A directory service without the call answers 404, which is an unknown user:
// the caller falls back to the address of the last sign-in. An address that is not one plain
// address is refused rather than mailed.
func (d *HTTP) Contact(ctx context.Context, tenant string, user models.ParticipantRef) (string, error) {
	var answer struct {
		ID    string `json:"id"`
		Email string `json:"email"`
	}
	q := url.Values{"tenant": {tenant}, "provider": {user.Provider}}
	if err := d.get(ctx, "/users/"+url.PathEscape(user.ID), q, &answer); err != nil {
		return "", fmt.Errorf("directory: user %q: %w", user.ID, err)
	}
	if answer.ID != "" && answer.ID != user.ID {
		return "", fmt.Errorf("directory: user %q: the answer is about another user", user.ID)
	}
	if err := checkEmail(answer.Email); err != nil {
		return "", fmt.Errorf("directory: user %q: %w", user.ID, err)
	}
	return answer.Email, nil
}

// Search implements Directory.
func (d *HTTP) Search(ctx context.Context, tenant, query string, typ models.ParticipantType, limit int) ([]models.ParticipantRef, error) {
	q := url.Values{"tenant": {tenant}, "search": {query}, "limit": {strconv.Itoa(searchLimit(limit))}}
	if typ != "" {
		q.Set("type", string(typ))
	}
	var answer struct {
		Items []directoryMember `json:"items"`
	}
	if err := d.get(ctx, "/participants", q, &answer); err != nil {
		return nil, fmt.Errorf("directory: search: %w", err)
	}
	out := make([]models.ParticipantRef, 0, len(answer.Items))
	for i, m := range answer.Items {
		if m.ID == "" || (m.Type != models.UserParticipant && m.Type != models.GroupParticipant) {
			return nil, fmt.Errorf("directory: search: item %d needs an id and a type user or group", i)
		}
		if typ != "" && m.Type != typ {
			continue
		}
		provider := m.Provider
		if provider == "" {
			provider = models.DefaultProvider
		}
		out = append(out, models.ParticipantRef{Tenant: tenant, Provider: provider, Type: m.Type, ID: m.ID, DisplayName: m.DisplayName})
	}
	if n := searchLimit(limit); len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// get sends one GET of escapedPath (below the base URL) and decodes a 200 JSON answer into dst.
// The error names the status, never the answer's body (it may echo anything).
func (d *HTTP) get(ctx context.Context, escapedPath string, query url.Values, dst any) error {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	target := d.base.String() + escapedPath + "?" + query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	for k, vs := range d.header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := d.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return fmt.Errorf("no answer within %s", d.timeout)
		}
		return fmt.Errorf("request failed: %w", err)
	}
	defer resp.Body.Close()
	body := io.LimitReader(resp.Body, maxDirectoryAnswer+1)
	switch {
	case resp.StatusCode == http.StatusNotFound:
		_, _ = io.Copy(io.Discard, body)
		return models.ErrNotFound
	case resp.StatusCode != http.StatusOK:
		_, _ = io.Copy(io.Discard, body)
		return fmt.Errorf("the directory answered %d", resp.StatusCode)
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	if len(raw) > maxDirectoryAnswer {
		return fmt.Errorf("the answer is larger than %d bytes", maxDirectoryAnswer)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("the answer is not the expected JSON: %w", err)
	}
	return nil
}
