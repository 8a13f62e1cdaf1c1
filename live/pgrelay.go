package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgxlisten"
)

// DefaultChannel is the PostgreSQL notification channel of task changes.
const DefaultChannel = "usertasks_task_changes"

// maxNotifyPayload keeps a NOTIFY payload under PostgreSQL's 8,000-byte limit.
const maxNotifyPayload = 7000

// PostgresRelay carries changes between nodes through PostgreSQL LISTEN/NOTIFY: each node
// publishes its changes with pg_notify and listens on one dedicated connection. A notification
// carries only tenant, task id, revision and time. Notifications sent while a listener was
// disconnected are lost; on reconnecting it asks every stream of its node to resync.
type PostgresRelay struct {
	url     string
	channel string
	pool    *pgxpool.Pool
	log     *slog.Logger
	// ReconnectDelay is how long the listener waits before reconnecting after losing its
	// connection.
	reconnect time.Duration
}

// PostgresRelayOptions tune a PostgresRelay; zero values take defaults.
type PostgresRelayOptions struct {
	Channel        string        // DefaultChannel
	ReconnectDelay time.Duration // 2 s
	Logger         *slog.Logger
}

// NewPostgresRelay connects the publishing pool to the database at url (a postgres:// URL or
// keyword/value string). Close it when done.
func NewPostgresRelay(ctx context.Context, url string, o PostgresRelayOptions) (*PostgresRelay, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("live: postgres relay: %w", err)
	}
	cfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("live: postgres relay: %w", err)
	}
	r := &PostgresRelay{url: url, channel: o.Channel, pool: pool, log: o.Logger, reconnect: o.ReconnectDelay}
	if r.channel == "" {
		r.channel = DefaultChannel
	}
	if r.reconnect <= 0 {
		r.reconnect = 2 * time.Second
	}
	if r.log == nil {
		r.log = slog.Default()
	}
	return r, nil
}

// Close releases the publishing pool.
func (r *PostgresRelay) Close() { r.pool.Close() }

// wireChange is a change in a notification payload; short names keep payloads small.
type wireChange struct {
	Tenant   string `json:"t"`
	TaskID   string `json:"id"`
	Revision int    `json:"r"`
	At       int64  `json:"at"` // Unix microseconds
	// Recipient is set on a notification change (Change.Recipient); a node that predates it
	// reads such an entry as a change without a task id and skips it.
	Recipient string `json:"u,omitempty"`
	// Activity is set on a change of a task's comments or files (Change.Activity); a node that
	// predates it reads such an entry as a task change of revision 0, which its pages ignore.
	Activity Kind `json:"k,omitempty"`
}

// Publish sends the changes with one pg_notify per payload of at most maxNotifyPayload bytes.
func (r *PostgresRelay) Publish(ctx context.Context, changes ...Change) error {
	for len(changes) > 0 {
		payload, n := encodeChanges(changes)
		if n == 0 {
			return errors.New("live: a change does not fit a notification")
		}
		if _, err := r.pool.Exec(ctx, "SELECT pg_notify($1, $2)", r.channel, payload); err != nil {
			return fmt.Errorf("live: notify: %w", err)
		}
		changes = changes[n:]
	}
	return nil
}

// encodeChanges encodes as many leading changes as fit one payload and says how many.
func encodeChanges(changes []Change) (string, int) {
	var wire []wireChange
	var payload []byte
	for i, c := range changes {
		wire = append(wire, wireChange{Tenant: c.Tenant, TaskID: c.TaskID, Revision: c.Revision, At: c.OccurredAt.UnixMicro(), Recipient: c.Recipient, Activity: c.Activity})
		next, err := json.Marshal(wire)
		if err != nil || len(next) > maxNotifyPayload {
			return string(payload), i
		}
		payload = next
	}
	return string(payload), len(changes)
}

func decodeChanges(payload string) ([]Change, error) {
	var wire []wireChange
	if err := json.Unmarshal([]byte(payload), &wire); err != nil {
		return nil, err
	}
	out := make([]Change, 0, len(wire))
	for _, w := range wire {
		if w.Tenant == "" || (w.TaskID == "") == (w.Recipient == "") {
			continue // neither a task's change nor a person's (or both at once)
		}
		if w.Activity != "" && ((w.Activity != KindComment && w.Activity != KindAttachment) || w.TaskID == "") {
			continue // an activity kind this node does not know, or one without its task
		}
		out = append(out, Change{Tenant: w.Tenant, TaskID: w.TaskID, Revision: w.Revision, OccurredAt: time.UnixMicro(w.At).UTC(), Recipient: w.Recipient, Activity: w.Activity})
	}
	return out, nil
}

// Listen delivers every change published on the channel until ctx ends. It reconnects after a
// lost connection and then calls resync, since notifications sent meanwhile are gone.
func (r *PostgresRelay) Listen(ctx context.Context, deliver func(Change), resync func()) error {
	l := &pgxlisten.Listener{
		Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, r.url) },
		LogError: func(ctx context.Context, err error) {
			if ctx.Err() == nil {
				r.log.Warn("live: postgres listener", "error", err)
			}
		},
		ReconnectDelay: r.reconnect,
	}
	l.Handle(r.channel, &notificationHandler{deliver: deliver, resync: resync, log: r.log})
	err := l.Listen(ctx)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// notificationHandler decodes notifications; its backlog hook runs after every (re)connect.
type notificationHandler struct {
	deliver   func(Change)
	resync    func()
	log       *slog.Logger
	connected bool
}

func (h *notificationHandler) HandleNotification(_ context.Context, n *pgconn.Notification, _ *pgx.Conn) error {
	changes, err := decodeChanges(n.Payload)
	if err != nil {
		return fmt.Errorf("undecodable payload: %w", err)
	}
	for _, c := range changes {
		h.deliver(c)
	}
	return nil
}

// HandleBacklog runs once LISTEN is in place on a new connection. After a reconnect, changes
// may have been missed: streams resync.
func (h *notificationHandler) HandleBacklog(context.Context, string, *pgx.Conn) error {
	if h.connected && h.resync != nil {
		h.resync()
	}
	h.connected = true
	return nil
}
