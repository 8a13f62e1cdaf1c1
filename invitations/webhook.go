package invitations

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"usertasks/webhooksig"
)

// MinWebhookSecret is the shortest USERTASKS_INVITATION_WEBHOOK_SECRET accepted.
const MinWebhookSecret = webhooksig.MinSecret

// Webhook POSTs each invitation as signed JSON to one URL (SPEC 6). Any 2xx acknowledges;
// everything else, a redirect included, is a failed attempt retried with the same
// Idempotency-Key, so the receiver can drop a repeat.
type Webhook struct{ webhooksig.Endpoint }

// WebhookOptions tune a Webhook.
type WebhookOptions struct {
	// Timeout bounds one attempt. Default 10 s.
	Timeout time.Duration
	// Client sends the requests; default a client with Timeout that follows no redirect.
	Client *http.Client
}

// NewWebhook checks the URL (absolute http or https, a path allowed) and the secret.
func NewWebhook(rawURL, secret string, o WebhookOptions) (*Webhook, error) {
	e, err := webhooksig.NewEndpoint(rawURL, secret, o.Timeout, o.Client)
	if err != nil {
		return nil, err
	}
	return &Webhook{e}, nil
}

// webhookBody is the JSON the receiver gets.
type webhookBody struct {
	Tenant       string    `json:"tenant"`
	TaskID       string    `json:"taskId"`
	InvitationID string    `json:"invitationId"`
	Recipient    string    `json:"recipient"`
	Link         string    `json:"link"`
	Code         string    `json:"code,omitempty"`
	ExpiresAt    time.Time `json:"expiresAt"`
}

// Sign is the X-UserTasks-Signature value of body under secret (webhooksig.Sign).
func Sign(body, secret []byte) string { return webhooksig.Sign(body, secret) }

// Dispatch sends one attempt. Failures carry webhook-status-<code>, webhook-unreachable or
// dispatch-timeout; the response body is never read into an error.
func (w *Webhook) Dispatch(ctx context.Context, m Message) error {
	body, err := json.Marshal(webhookBody{Tenant: m.Tenant, TaskID: m.TaskID, InvitationID: m.InvitationID,
		Recipient: m.Recipient, Link: m.Link, Code: m.Code, ExpiresAt: m.ExpiresAt.UTC()})
	if err != nil {
		return failed(CodeFailed)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return failed(CodeFailed)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "usertasks-invitations")
	req.Header.Set(webhooksig.Header, Sign(body, w.Secret))
	req.Header.Set("Idempotency-Key", m.InvitationID)
	resp, err := w.Client.Do(req)
	if err != nil {
		// The error names the URL and maybe the transport's words; keep only what kind it was.
		if ErrorCode(err) == CodeTimeout {
			return failed(CodeTimeout)
		}
		return failed("webhook-unreachable")
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return failed("webhook-status-" + strconv.Itoa(resp.StatusCode))
	}
	return nil
}
