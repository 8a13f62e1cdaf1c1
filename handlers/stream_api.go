package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	sse "github.com/tmaxmax/go-sse"

	"usertasks/live"
	"usertasks/models"
	"usertasks/tasks"
)

// The stream's wire format comes from github.com/tmaxmax/go-sse (its Upgrade and Message: field
// encoding, multi-line data, comments, retry). Its own pub/sub (Server, Joe) is not used: a
// change must be decided per subscriber with the read policy against one loaded task, which
// live.Broker does.

// StreamAuthorizer decides who may open a stream and which changed tasks it may hear of, by the
// read policy of the task queries; *tasks.Service satisfies it.
type StreamAuthorizer interface {
	Watch(a models.Actor) (*tasks.Watch, error)
}

// streamRetry is the reconnect delay the stream asks EventSource to use.
const streamRetry = 3 * time.Second

// streamWriteTimeout bounds each write of a stream. A stream outlives the server's write
// timeout by design, so it replaces that deadline before every write (net/http already lifts
// the read deadline once the request is read); the bound keeps a client that stops reading
// from holding a stream forever. A variable for tests.
var streamWriteTimeout = 30 * time.Second

// RegisterStream adds GET /user-tasks/stream to g (the /api/v1 group). mw authenticates the
// caller (bearer token or session cookie); without it every request is 401.
func RegisterStream(g *echo.Group, b *live.Broker, svc StreamAuthorizer, mw ...echo.MiddlewareFunc) {
	h := &streamAPI{broker: b, watchers: svc}
	g.GET("/user-tasks/stream", h.streamTasks, mw...)
}

// streamAPI serves the invalidation stream.
type streamAPI struct {
	broker   *live.Broker
	watchers StreamAuthorizer
}

// invalidation is one event of the stream: what changed, never content.
type invalidation struct {
	Kind       live.Kind `json:"kind"`
	TaskID     string    `json:"taskId,omitempty"`
	Revision   int       `json:"revision,omitempty"`
	OccurredAt string    `json:"occurredAt"`
}

// streamTasks handles GET /api/v1/user-tasks/stream: a text/event-stream of invalidations of
// the tasks the caller may see, with heartbeats, until the client leaves, the stream reaches
// its maximum age or the server stops.
func (h *streamAPI) streamTasks(c echo.Context) error {
	a := actorOf(c)
	watch, err := h.watchers.Watch(a)
	if err != nil {
		return err
	}
	sub, err := h.broker.Subscribe(a.Tenant, a.Subject.Key())
	switch {
	case errors.Is(err, live.ErrTooManySubscriptions):
		return errTooManyStreams
	case errors.Is(err, live.ErrClosed):
		return models.ErrBusy // shutting down: the client retries elsewhere or later
	case err != nil:
		return err
	}
	defer sub.Close()

	// Subscribed before the headers go out: once the client sees them, it hears every change.
	res := c.Response()
	hdr := res.Header()
	hdr.Set(echo.HeaderContentType, "text/event-stream")
	hdr.Set(echo.HeaderCacheControl, "no-store")
	hdr.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	res.WriteHeader(http.StatusOK)
	sess, err := sse.Upgrade(res, c.Request())
	if err != nil {
		return nil // the status is out; nothing more can be said
	}
	w := &streamWriter{sess: sess, rc: http.NewResponseController(res)}
	w.send(&sse.Message{Retry: streamRetry})

	ctx := c.Request().Context()
	beat := time.NewTicker(h.broker.Heartbeat())
	defer beat.Stop()
	maxAge := time.NewTimer(h.broker.MaxAge())
	defer maxAge.Stop()
	for w.err == nil {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Done():
			return nil
		case <-maxAge.C:
			return nil
		case <-beat.C:
			m := &sse.Message{}
			m.AppendComment("ping")
			w.send(m)
		case <-sub.Lost():
			w.event(invalidation{Kind: live.KindResync, OccurredAt: streamTime(time.Now())})
		case ev := <-sub.Events():
			if ev.Kind() == live.KindNotification {
				// Only this caller's own streams hear it (live.Broker.Notify); the page fetches
				// its unread count itself.
				w.event(invalidation{Kind: live.KindNotification, OccurredAt: streamTime(ev.OccurredAt)})
				continue
			}
			if ev.Task == nil || !watch.Sees(ctx, *ev.Task) {
				continue // invisible now: say nothing, not even that something changed
			}
			if k := ev.Kind(); k == live.KindComment || k == live.KindAttachment {
				// Comments and files are not for guests (SPEC 10.1): not even that they changed.
				if a.Guest == nil {
					w.event(invalidation{Kind: k, TaskID: ev.TaskID, OccurredAt: streamTime(ev.OccurredAt)})
				}
				continue
			}
			w.event(invalidation{Kind: ev.Kind(), TaskID: ev.TaskID, Revision: ev.Revision, OccurredAt: streamTime(ev.OccurredAt)})
		}
	}
	return nil // a write failed: the client is gone
}

// errTooManyStreams refuses a caller over the per-caller stream cap: 429 rate-limited, with
// Retry-After, from the one error table.
var errTooManyStreams = fmt.Errorf("too many open live-update streams: %w", models.Invalid(models.CodeRateLimited))

// streamTime renders an event time in UTC, RFC 3339.
func streamTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// streamWriter sends messages, each within streamWriteTimeout, and keeps the first write error.
type streamWriter struct {
	sess *sse.Session
	rc   *http.ResponseController
	err  error
}

func (w *streamWriter) send(m *sse.Message) {
	if w.err != nil {
		return
	}
	// Unsupported only by writers without a connection (recorders): nothing to replace there.
	_ = w.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	if w.err = w.sess.Send(m); w.err == nil {
		w.err = w.sess.Flush()
	}
}

func (w *streamWriter) event(inv invalidation) {
	data, err := json.Marshal(inv)
	if err != nil {
		w.err = err
		return
	}
	m := &sse.Message{}
	m.AppendData(string(data))
	w.send(m)
}
