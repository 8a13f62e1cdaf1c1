package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"usertasks/integrations/temporal/endpoint"
	"usertasks/integrations/temporal/usertask"
)

const taskQueue = "invoices"

// runtimePath is where the endpoint is served: a path with a space, as a runtime behind a
// reverse proxy may have.
const runtimePath = "/temporal rt"

// stack is a Temporal server, the worker process (workers and the runtime endpoint) and a User
// Tasks server wired together.
type stack struct {
	temporal *temporaltest.TestServer
	client   client.Client
	ut       *userTasks

	addr     string // the endpoint's address, kept across restarts
	endpoint *endpoint.Handler
	mu       sync.Mutex
	httpSrv  *http.Server
	worker   worker.Worker
	// dropProjection, when it returns true for a bookmark, swallows the projection call (the
	// activity believes it succeeded): a lost projection.
	dropProjection func(usertask.Projection) bool
	// deliveries counts the stimuli the endpoint received (duplicates included).
	deliveries int
	// duplicateDeliveries makes every stimulus arrive twice.
	duplicateDeliveries bool
	// lastStimulus is the body of the last stimulus received.
	lastStimulus []byte
}

// newStack starts everything; dev turns on User Tasks' dev mode (the demo login).
func newStack(t *testing.T, dev bool) *stack {
	t.Helper()
	s := &stack{}
	s.temporal = temporaltest.NewServer(temporaltest.WithT(t))
	s.client = s.temporal.GetDefaultClient()
	s.addr = freeAddr(t)
	s.endpoint = endpoint.New(endpoint.Config{Temporal: s.client, Tenant: tenant, Secret: []byte(runtimeSecret), TaskQueue: taskQueue})
	s.ut = startUserTasks(t, "http://"+s.addr+"/temporal%20rt", dev, nil)
	s.startWorkerProcess(t)
	t.Cleanup(s.stopWorkerProcess)
	return s
}

// startWorkerProcess starts the worker and the runtime endpoint, as a worker process would.
func (s *stack) startWorkerProcess(t *testing.T) {
	t.Helper()
	api := &usertask.Client{
		BaseURL: s.ut.URL,
		Token:   usertask.HS256Tokens([]byte(jwtSecret), jwtIssuer, jwtAudience, tenant, "temporal-worker"),
		HTTP:    &http.Client{Timeout: 10 * time.Second, Transport: &dropper{s: s, next: http.DefaultTransport}},
	}
	w := worker.New(s.client, taskQueue, worker.Options{})
	w.RegisterWorkflow(approval)
	usertask.Register(w, &usertask.Activities{Client: api})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	var l net.Listener
	eventually(t, 10*time.Second, "listen on "+s.addr, func() bool {
		var err error
		l, err = net.Listen("tcp", s.addr)
		return err == nil
	})
	// Not a ServeMux: its patterns read a space as the end of a method.
	handler := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, runtimePath+"/") {
			http.NotFound(rw, r)
			return
		}
		s.mu.Lock()
		twice := s.duplicateDeliveries && r.Method == http.MethodPost
		if r.Method == http.MethodPost {
			s.deliveries++
		}
		s.mu.Unlock()
		if r.Method == http.MethodPost {
			replayed := replayable(t, r)
			body, _ := io.ReadAll(replayed.Body)
			s.mu.Lock()
			s.lastStimulus = body
			s.mu.Unlock()
			if twice {
				s.endpoint.ServeHTTP(discard{}, replayable(t, r))
			}
		}
		s.endpoint.ServeHTTP(rw, r)
	})
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	s.mu.Lock()
	s.httpSrv, s.worker = srv, w
	s.mu.Unlock()
}

// stopWorkerProcess stops the worker and the endpoint, as if the worker process died.
func (s *stack) stopWorkerProcess() {
	s.mu.Lock()
	srv, w := s.httpSrv, s.worker
	s.httpSrv, s.worker = nil, nil
	s.mu.Unlock()
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
	if w != nil {
		w.Stop()
	}
}

// start starts an approval workflow with the id.
func (s *stack) start(t *testing.T, id string, in approvalInput) client.WorkflowRun {
	t.Helper()
	run, err := s.client.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, approval, in)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// result waits for the workflow's result.
func result(t *testing.T, run client.WorkflowRun) (approvalResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var r approvalResult
	err := run.Get(ctx, &r)
	return r, err
}
