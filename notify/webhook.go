package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"usertasks/models"
	"usertasks/webhooksig"
)

// Webhook POSTs each notification as signed JSON to the tenant-wide URL
// (USERTASKS_NOTIFY_WEBHOOK_URL), signed and keyed like the invitation webhook: the header
// X-UserTasks-Signature is sha256=HMAC-SHA256(body, secret) in hex, and Idempotency-Key is the
// notification id, the same on every retry. Any 2xx acknowledges; anything else, a redirect
// included (never followed), is a failed attempt.
type Webhook struct{ webhooksig.Endpoint }

// WebhookOptions tune a Webhook.
type WebhookOptions struct {
	// Timeout bounds one attempt. Default 10 s.
	Timeout time.Duration
	// Client sends the requests; default a client with Timeout that follows no redirect.
	Client *http.Client
}

// NewWebhook checks the URL (absolute http or https, a path allowed, no credentials or
// fragment) and the secret (at least webhooksig.MinSecret characters).
func NewWebhook(rawURL, secret string, o WebhookOptions) (*Webhook, error) {
	e, err := webhooksig.NewEndpoint(rawURL, secret, o.Timeout, o.Client)
	if err != nil {
		return nil, err
	}
	return &Webhook{e}, nil
}

// WebhookBody is the JSON the receiver gets: safe fields only (SPEC 10.3), never an address,
// instructions, data or comment text.
type WebhookBody struct {
	ID         string           `json:"id"`
	Tenant     string           `json:"tenant"`
	Trigger    string           `json:"trigger"`
	Recipient  WebhookRecipient `json:"recipient"`
	TaskID     string           `json:"taskId"`
	Title      string           `json:"title"`
	Link       string           `json:"link"`
	OccurredAt time.Time        `json:"occurredAt"`
}

// WebhookRecipient names the person told: their provider, id and display name.
type WebhookRecipient struct {
	Provider    string `json:"provider"`
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"`
}

// bodyOf is the webhook body of n; link is the task's page.
func bodyOf(n models.Notification, link string) WebhookBody {
	return WebhookBody{ID: n.ID, Tenant: n.Tenant, Trigger: string(n.Trigger),
		Recipient: WebhookRecipient{Provider: n.Recipient.Provider, ID: n.Recipient.ID, DisplayName: n.Recipient.DisplayName},
		TaskID:    n.TaskID, Title: n.Title, Link: link, OccurredAt: n.OccurredAt.UTC()}
}

// Send posts one attempt. A failure is a *SendError with a safe code: webhook-status-<code>,
// webhook-unreachable or webhook-timeout; the response body is never read into an error.
func (w *Webhook) Send(ctx context.Context, b WebhookBody) error {
	body, err := json.Marshal(b)
	if err != nil {
		return &SendError{Code: "webhook-failed"}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return &SendError{Code: "webhook-failed"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "usertasks-notifications")
	req.Header.Set(webhooksig.Header, webhooksig.Sign(body, w.Secret))
	req.Header.Set("Idempotency-Key", b.ID)
	resp, err := w.Client.Do(req)
	if err != nil {
		// The error names the URL and maybe the transport's words; keep only what kind it was.
		var ne net.Error
		if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
			return &SendError{Code: "webhook-timeout"}
		}
		return &SendError{Code: "webhook-unreachable"}
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &SendError{Code: "webhook-status-" + strconv.Itoa(resp.StatusCode)}
	}
	return nil
}

// SendError is a failed send reduced to a safe code: never an address, a URL or a server's
// own words.
type SendError struct{ Code string }

func (e *SendError) Error() string { return "notify: send failed: " + e.Code }
