package repository_test

import (
	"context"
	"sync"
	"testing"

	"usertasks/testfactory"
)

// The store's PostgreSQL connections start with JIT off and PostgreSQL's own plan cache mode
// (postgres_conn.go), unless the database URL sets them; and connections returned to the pool stay open, so a
// burst of concurrent requests does not start a new backend per request.
func TestPostgresSessionDefaultsAndIdleConnections(t *testing.T) {
	url := testfactory.Database(t, testfactory.Postgres)
	ctx := context.Background()
	show := func(t *testing.T, url string) (jit, plans string) {
		t.Helper()
		db, err := testfactory.OpenSQL(t, url, nil).DB()
		if err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRowContext(ctx, "SELECT current_setting('jit'), current_setting('plan_cache_mode')").Scan(&jit, &plans); err != nil {
			t.Fatal(err)
		}
		return jit, plans
	}
	if jit, plans := show(t, url); jit != "off" || plans != "auto" {
		t.Errorf("jit=%s plan_cache_mode=%s, want off and auto", jit, plans)
	}
	if jit, plans := show(t, url+"&jit=on&plan_cache_mode=force_custom_plan"); jit != "on" || plans != "force_custom_plan" {
		t.Errorf("with the URL's own settings: jit=%s plan_cache_mode=%s, want on and force_custom_plan", jit, plans)
	}

	s := testfactory.OpenSQL(t, url, nil)
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	// Eight statements hold eight connections at once (each waits until all eight run), then
	// all return to the pool: every one of them stays idle for the next burst.
	const n = 8
	var started, release sync.WaitGroup
	started.Add(n)
	release.Add(1)
	errs := make(chan error, n)
	for range n {
		go func() {
			conn, err := db.Conn(ctx)
			started.Done()
			if err != nil {
				errs <- err
				return
			}
			release.Wait()
			errs <- conn.Close()
		}()
	}
	started.Wait()
	release.Done()
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if st := db.Stats(); st.Idle < n || st.MaxIdleClosed != 0 {
		t.Errorf("after %d concurrent connections returned: %d idle, %d closed for want of idle room; want %d idle, none closed", n, st.Idle, st.MaxIdleClosed, n)
	}
}
