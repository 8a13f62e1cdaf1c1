package live

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"usertasks/models"
)

func TestEncodeChangesSplitsPayloads(t *testing.T) {
	var cs []Change
	for i := range 300 {
		cs = append(cs, Change{Tenant: "tenant", TaskID: fmt.Sprintf("0190f0e2-7c1a-7000-8000-%012d", i), Revision: i + 1,
			OccurredAt: time.Date(2026, 12, 2, 10, 0, 0, i*1000, time.UTC)})
	}
	var got []Change
	for rest := cs; len(rest) > 0; {
		payload, n := encodeChanges(rest)
		if n == 0 || len(payload) > maxNotifyPayload {
			t.Fatalf("payload of %d bytes for %d changes", len(payload), n)
		}
		decoded, err := decodeChanges(payload)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, decoded...)
		rest = rest[n:]
	}
	if len(got) != len(cs) {
		t.Fatalf("%d changes round-tripped, want %d", len(got), len(cs))
	}
	for i := range cs {
		if got[i] != cs[i] {
			t.Fatalf("change %d: got %+v, want %+v", i, got[i], cs[i])
		}
	}
}

// postgresURL is the server of USERTASKS_TEST_POSTGRES_URL; without it the test is skipped,
// except under CI=true, where it fails.
func postgresURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("USERTASKS_TEST_POSTGRES_URL")
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("PostgreSQL is required under CI=true (USERTASKS_TEST_POSTGRES_URL unset)")
		}
		t.Skip("skipped provider PostgreSQL: USERTASKS_TEST_POSTGRES_URL is not set")
	}
	return u
}

type staticLoader map[string]models.Task

func (l staticLoader) Get(_ context.Context, tenant, id string) (models.Task, error) {
	if t, ok := l[tenant+"/"+id]; ok {
		return t, nil
	}
	return models.Task{}, models.ErrNotFound
}

// TestPostgresRelayAcrossNodes runs two brokers, each with its own relay on one database, as two
// nodes would: a change on one reaches the streams of both, and a listener that loses its
// connection asks its streams to resync.
func TestPostgresRelayAcrossNodes(t *testing.T) {
	url := postgresURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	channel := fmt.Sprintf("usertasks_test_%d", time.Now().UnixNano())
	tasks := staticLoader{"t1/a": {ID: "a", Tenant: "t1", Revision: 2}}

	var nodes []*Broker
	for range 2 {
		r, err := NewPostgresRelay(ctx, url, PostgresRelayOptions{Channel: channel, ReconnectDelay: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(r.Close)
		b := NewBroker(tasks, Options{Relay: r})
		done := make(chan struct{})
		go func() { _ = b.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
		nodes = append(nodes, b)
	}
	onA, _ := nodes[0].Subscribe("t1", "ann")
	onB, _ := nodes[1].Subscribe("t1", "bob")

	// LISTEN is in place only once each node's connection is up: publish until both hear one.
	heard := func(s *Subscription) bool {
		for {
			select {
			case ev := <-s.Events():
				if ev.TaskID != "a" || ev.Revision != 2 || ev.Task == nil {
					t.Fatalf("got %+v", ev.Change)
				}
				return true
			default:
				return false
			}
		}
	}
	heardA, heardB := false, false
	for deadline := time.Now().Add(10 * time.Second); !heardA || !heardB; {
		if time.Now().After(deadline) {
			t.Fatalf("within 10 s: node A heard its own change %v, node B heard it %v", heardA, heardB)
		}
		nodes[0].Changed("t1", "a", 2)
		time.Sleep(100 * time.Millisecond)
		heardA = heard(onA) || heardA
		heardB = heard(onB) || heardB
	}

	t.Run("ReconnectResyncs", func(t *testing.T) {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		// End every listener of this test's channel; they reconnect and ask for a resync.
		_, err = conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE pid <> pg_backend_pid() AND query ILIKE $1`, "%listen%"+strings.ToLower(channel)+"%")
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-onB.Lost():
		case <-time.After(10 * time.Second):
			t.Fatal("a reconnected listener did not ask for a resync")
		}
	})
}
