package workflow

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"usertasks/models"
)

// RuntimeClient is the workflow runtime as the background workers see it (SPEC 5.2, outgoing):
// it takes resumption stimuli and lists the committed user-task bookmarks for reconciliation.
type RuntimeClient interface {
	// Deliver hands one stimulus to the runtime; nil means the runtime acknowledged it. The
	// runtime must treat the stimulus's IdempotencyKey as the identity of the delivery: the
	// outbox delivers at least once.
	Deliver(ctx context.Context, s Stimulus) error
	// ListBookmarks returns one page of the tenant's committed user-task bookmarks as
	// projection bodies, and the cursor of the next page ("" after the last).
	ListBookmarks(ctx context.Context, tenant, cursor string, limit int) (items []json.RawMessage, next string, err error)
	// GetBookmark returns the projection body of one committed bookmark. found is false with a
	// nil error only when the runtime said the bookmark no longer exists (SPEC 5.2's exact
	// bookmark-not-found answer); any answer that is not clear is an error, never "gone".
	GetBookmark(ctx context.Context, tenant, bookmarkID string) (found bool, body json.RawMessage, err error)
}

// BookmarkNotFoundCode is the code of the runtime's answer to a GET of a bookmark that no longer
// exists: 404, application/json, {"code":"bookmark-not-found"}.
const BookmarkNotFoundCode = "bookmark-not-found"

// Stimulus is the body of POST {runtimeURL}/user-task-stimuli: the decision a transitional
// task carries back to its workflow. Data is protected content; it is sent to the runtime and
// never logged.
type Stimulus struct {
	Tenant             string          `json:"tenant"`
	TaskID             string          `json:"taskId"`
	BookmarkID         string          `json:"bookmarkId"`
	WorkflowInstanceID string          `json:"workflowInstanceId"`
	OperationID        string          `json:"operationId"`
	ActionKey          string          `json:"actionKey"` // the chosen action, Timeout or Cancelled
	Data               json.RawMessage `json:"data,omitempty"`
	// CompletedBy is the completer, the cancelling manager, or null for a timeout.
	CompletedBy *models.WireParticipant `json:"completedBy"`
	// OnBehalfOf is the delegator when a delegate completed the task (SPEC 10.5).
	OnBehalfOf  *models.WireParticipant `json:"onBehalfOf,omitempty"`
	CompletedAt time.Time               `json:"completedAt"` // when the transition was accepted
	Reason      string                  `json:"reason,omitempty"`
}

// IdempotencyKey identifies the delivery: every retry of the same operation carries the same key.
func (s Stimulus) IdempotencyKey() string { return s.TaskID + ":" + s.OperationID }

// NewStimulus builds the stimulus of a transitional task from its accepted operation: the data
// of a completion, the completer (none for a timeout), the reason of a cancellation and the
// time the transition was accepted.
func NewStimulus(t models.Task, op models.Operation) (Stimulus, error) {
	s := Stimulus{
		Tenant: t.Tenant, TaskID: t.ID, BookmarkID: t.Workflow.BookmarkID, WorkflowInstanceID: t.Workflow.InstanceID,
		OperationID: op.OperationID, CompletedAt: op.CreatedAt.UTC(),
	}
	switch op.Kind {
	case models.OpComplete:
		s.ActionKey = op.ActionKey
		s.CompletedBy = op.Actor.Wire()
		s.OnBehalfOf = t.Outcome.OnBehalfOf.Wire()
		if len(op.Payload) > 0 {
			s.Data = bytes.Clone(op.Payload)
		}
	case models.OpTimeout:
		s.ActionKey = models.ActionTimeout
	case models.OpCancel:
		s.ActionKey = models.ActionCancelled
		s.CompletedBy = op.Actor.Wire()
		s.Reason = op.Reason
	default:
		return Stimulus{}, &models.CorruptError{TaskID: t.ID, Reason: fmt.Sprintf("operation %s of kind %q has no stimulus", op.OperationID, op.Kind)}
	}
	if s.ActionKey == "" {
		return Stimulus{}, &models.CorruptError{TaskID: t.ID, Reason: "operation " + op.OperationID + " has no action key"}
	}
	return s, nil
}

// Headers of the runtime protocol.
const (
	SignatureHeader      = "X-UserTasks-Signature"
	IdempotencyKeyHeader = "Idempotency-Key"
)

// Sign returns the signature header value of data: "sha256=" and the hex HMAC-SHA256 of data
// under secret. Stimuli sign their body; reconciliation requests sign the request path with
// its query string.
func Sign(secret, data []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(data)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// VerifySignature checks a signature header value against data in constant time.
func VerifySignature(secret, data []byte, header string) bool {
	return hmac.Equal([]byte(Sign(secret, data)), []byte(header))
}

// RuntimeError is a failed call to the runtime, with a short code that is safe to store and
// show: "http-503", "timeout", "connect", "transport", "cancelled", "bad-response". It never
// carries the runtime's answer.
type RuntimeError struct {
	Code   string
	Status int // the HTTP status, when the runtime answered
}

func (e *RuntimeError) Error() string { return "workflow runtime: " + e.Code }

// RuntimeErrorCode returns the safe code of a delivery error: the RuntimeError's, or
// "internal" for anything else.
func RuntimeErrorCode(err error) string {
	var re *RuntimeError
	if errors.As(err, &re) {
		return re.Code
	}
	if code := models.ErrorCode(err); code != "" {
		return string(code)
	}
	return "internal"
}

// HTTPRuntime speaks the runtime protocol of SPEC 5.2 to an engine over HTTP.
type HTTPRuntime struct {
	// origin is the runtime URL's scheme and host; basePath its path, escaped as configured,
	// without a trailing slash. Endpoints are built as text from both so that nothing
	// re-escapes or unescapes a bookmark id on the way.
	origin   string
	basePath string
	secret   []byte
	client   *http.Client
}

// HTTPRuntimeOptions tune an HTTPRuntime.
type HTTPRuntimeOptions struct {
	// Timeout bounds each request. Default 10 s.
	Timeout time.Duration
	// Transport replaces http.DefaultTransport (tests, proxies).
	Transport http.RoundTripper
}

// Bounds on what the runtime may answer.
const (
	maxStimulusAnswer = 64 << 10
	// A bookmark-not-found answer is a few bytes; a bigger 404 body is someone else's page.
	maxNotFoundAnswer = 4 << 10
	maxBookmarkAnswer = 2 * models.MaxRequestBodyBytes
	maxBookmarkPage   = 100 * models.MaxRequestBodyBytes
)

// NewHTTPRuntime builds the client of the runtime at baseURL (http or https), signing with secret.
func NewHTTPRuntime(baseURL, secret string, o HTTPRuntimeOptions) (*HTTPRuntime, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("workflow: the runtime URL must be an absolute http(s) URL without query or fragment")
	}
	if secret == "" {
		return nil, errors.New("workflow: the runtime secret is required")
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	client := &http.Client{
		Timeout:   o.Timeout,
		Transport: o.Transport,
		// A redirect would carry a signed body somewhere else: report it as the answer it is.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	origin := (&url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host}).String()
	return &HTTPRuntime{origin: origin, basePath: u.EscapedPath(), secret: []byte(secret), client: client}, nil
}

// Deliver posts the stimulus, signed, with its idempotency key. Any 2xx acknowledges it.
func (r *HTTPRuntime) Deliver(ctx context.Context, s Stimulus) error {
	body, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("workflow: encode stimulus: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.endpoint("user-task-stimuli"), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(r.secret, body))
	req.Header.Set(IdempotencyKeyHeader, s.IdempotencyKey())
	res, err := r.client.Do(req)
	if err != nil {
		return runtimeTransportError(ctx, err)
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, maxStimulusAnswer)) // lets the connection be reused
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return runtimeStatusError(res.StatusCode)
	}
	return nil
}

// bookmarkPage is the answer of GET /user-task-bookmarks.
type bookmarkPage struct {
	Items      []json.RawMessage `json:"items"`
	NextCursor string            `json:"nextCursor"`
}

// ListBookmarks gets GET {runtimeURL}/user-task-bookmarks?tenant=&cursor=&limit=.
func (r *HTTPRuntime) ListBookmarks(ctx context.Context, tenant, cursor string, limit int) ([]json.RawMessage, string, error) {
	q := url.Values{"tenant": {tenant}, "limit": {strconv.Itoa(limit)}}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	a, err := r.get(ctx, r.endpoint("user-task-bookmarks"), q, maxBookmarkPage)
	if err != nil {
		return nil, "", err
	}
	status := a.status
	if status != http.StatusOK {
		return nil, "", runtimeStatusError(status)
	}
	var page bookmarkPage
	if err := json.Unmarshal(a.body, &page); err != nil {
		return nil, "", &RuntimeError{Code: "bad-response", Status: status}
	}
	for _, item := range page.Items {
		if !jsonObjectBody(item) {
			return nil, "", &RuntimeError{Code: "bad-response", Status: status}
		}
	}
	if page.NextCursor == cursor && page.NextCursor != "" {
		// The same cursor again would page forever.
		return nil, "", &RuntimeError{Code: "bad-response", Status: status}
	}
	return page.Items, page.NextCursor, nil
}

// GetBookmark gets GET {runtimeURL}/user-task-bookmarks/{bookmarkId}?tenant=. Only 200 with a
// projection body is found, and only the exact bookmark-not-found answer is gone; every other
// answer, 404s included, is a RuntimeError.
func (r *HTTPRuntime) GetBookmark(ctx context.Context, tenant, bookmarkID string) (bool, json.RawMessage, error) {
	a, err := r.get(ctx, r.endpoint("user-task-bookmarks", bookmarkID), url.Values{"tenant": {tenant}}, maxBookmarkAnswer)
	switch {
	case err != nil:
		return false, nil, err
	case a.bookmarkNotFound():
		return false, nil, nil
	case a.status != http.StatusOK:
		return false, nil, runtimeStatusError(a.status)
	case !jsonObjectBody(a.body):
		return false, nil, &RuntimeError{Code: "bad-response", Status: a.status}
	}
	return true, a.body, nil
}

// answer is what the runtime said to a GET: the body of a 200 (up to the endpoint's limit) or
// of a 404 (up to maxNotFoundAnswer); other bodies are dropped.
type answer struct {
	status      int
	contentType string
	body        []byte
	truncated   bool // the 404 body was longer than maxNotFoundAnswer
}

// bookmarkNotFound reports whether a is exactly SPEC 5.2's "the bookmark no longer exists":
// 404, Content-Type application/json, one JSON object whose code is bookmark-not-found.
// Anything else — a proxy's page, an empty body, another code — is not this answer.
func (a answer) bookmarkNotFound() bool {
	if a.status != http.StatusNotFound || a.truncated || !jsonObjectBody(a.body) {
		return false
	}
	if mediaType, _, err := mime.ParseMediaType(a.contentType); err != nil || mediaType != "application/json" {
		return false
	}
	var v struct {
		Code string `json:"code"`
	}
	return json.Unmarshal(a.body, &v) == nil && v.Code == BookmarkNotFoundCode
}

// get runs a signed GET: the signature covers the request target exactly as it is sent, the
// path with its query string.
func (r *HTTPRuntime) get(ctx context.Context, endpoint string, q url.Values, limit int64) (answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"?"+q.Encode(), nil)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set(SignatureHeader, Sign(r.secret, []byte(req.URL.RequestURI())))
	res, err := r.client.Do(req)
	if err != nil {
		return answer{}, runtimeTransportError(ctx, err)
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode, contentType: res.Header.Get("Content-Type")}
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		limit = maxNotFoundAnswer
	default:
		io.Copy(io.Discard, io.LimitReader(res.Body, maxStimulusAnswer)) // lets the connection be reused
		return a, nil
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return answer{}, runtimeTransportError(ctx, err)
	}
	if int64(len(body)) > limit {
		if res.StatusCode == http.StatusNotFound {
			return answer{status: a.status, truncated: true}, nil
		}
		return answer{}, &RuntimeError{Code: "too-large", Status: res.StatusCode}
	}
	a.body = body
	return a, nil
}

// endpoint is the URL of an endpoint under the runtime URL's own path, each segment escaped as
// exactly one path segment.
func (r *HTTPRuntime) endpoint(segments ...string) string {
	var b strings.Builder
	b.WriteString(r.origin)
	b.WriteString(r.basePath)
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(escapeSegment(s))
	}
	return b.String()
}

// escapeSegment escapes s as one path segment: every byte but RFC 3986's unreserved characters
// is percent-encoded, so no router splits or reinterprets it, and "." and ".." are encoded
// whole, so no proxy resolves them as dot-segments.
func escapeSegment(s string) string {
	if s == "." || s == ".." {
		return strings.Repeat("%2E", len(s))
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if unreserved(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func runtimeStatusError(status int) error {
	return &RuntimeError{Code: "http-" + strconv.Itoa(status), Status: status}
}

// runtimeTransportError classifies a failed round trip without keeping its text, which may name
// hosts or echo an answer.
func runtimeTransportError(ctx context.Context, err error) error {
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return &RuntimeError{Code: "cancelled"}
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return &RuntimeError{Code: "timeout"}
	case errors.As(err, &netErr) && netErr.Timeout():
		return &RuntimeError{Code: "timeout"}
	case errors.As(err, &dnsErr), errors.As(err, &opErr) && opErr.Op == "dial":
		return &RuntimeError{Code: "connect"}
	}
	return &RuntimeError{Code: "transport"}
}

func jsonObjectBody(raw []byte) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed)
}
