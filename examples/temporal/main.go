// Command temporal is the worked example of the Temporal integration (docs/temporal.md): a
// worker process that runs the invoice approval workflow, serves the runtime endpoint User
// Tasks calls, and starts an invoice when asked to.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"usertasks/examples/temporal/invoice"
	"usertasks/integrations/temporal/endpoint"
	"usertasks/integrations/temporal/usertask"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "temporal example:", err)
		os.Exit(1)
	}
}

func run() error {
	userTasks := flag.String("usertasks", "http://127.0.0.1:8080", "User Tasks' address")
	listen := flag.String("listen", "127.0.0.1:8233", "where the runtime endpoint listens (USERTASKS_RUNTIME_URL is http://<listen>/temporal)")
	tenant := flag.String("tenant", "acme", "the User Tasks tenant of the invoices")
	embedded := flag.Bool("embedded", false, "run a Temporal server in this process instead of dialling TEMPORAL_ADDRESS")
	start := flag.String("start", "", "start the approval of this invoice number once running")
	amount := flag.Float64("amount", 1200, "the amount of the invoice -start starts")
	escalate := flag.Duration("escalate-after", 4*time.Hour, "escalate the started invoice to the finance leads if nobody takes it within this (0: never)")
	flag.Parse()

	jwtSecret, runtimeSecret := os.Getenv("USERTASKS_JWT_HS256_SECRET"), os.Getenv("USERTASKS_RUNTIME_SECRET")
	if jwtSecret == "" || runtimeSecret == "" {
		return errors.New("set USERTASKS_JWT_HS256_SECRET and USERTASKS_RUNTIME_SECRET to the values User Tasks runs with")
	}
	c, stop, err := temporalClient(*embedded)
	if err != nil {
		return err
	}
	defer stop()

	api := &usertask.Client{BaseURL: *userTasks, Token: usertask.HS256Tokens([]byte(jwtSecret),
		env("USERTASKS_JWT_ISSUER", "https://idp.example"), env("USERTASKS_JWT_AUDIENCE", "user-tasks"), *tenant, "invoice-worker")}
	w := worker.New(c, invoice.TaskQueue, worker.Options{})
	w.RegisterWorkflow(invoice.Approval)
	usertask.Register(w, &usertask.Activities{Client: api})
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	mux := http.NewServeMux()
	mux.Handle("/temporal/", endpoint.New(endpoint.Config{Temporal: c, Tenant: *tenant, Secret: []byte(runtimeSecret), TaskQueue: invoice.TaskQueue}))
	srv := &http.Server{Addr: *listen, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("runtime endpoint", "error", err)
			os.Exit(1)
		}
	}()
	slog.Info("runtime endpoint up", "USERTASKS_RUNTIME_URL", "http://"+*listen+"/temporal")

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if *start != "" {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "invoice-" + *start, TaskQueue: invoice.TaskQueue},
			invoice.Approval, invoice.Invoice{Number: *start, Supplier: "ACME GmbH", Amount: *amount, ApproveWithin: 72 * time.Hour, EscalateAfter: *escalate})
		if err != nil {
			return err
		}
		slog.Info("invoice waiting for finance", "workflow", run.GetID())
		go func() {
			var d invoice.Decision
			if err := run.Get(ctx, &d); err != nil {
				slog.Error("invoice workflow", "error", err)
				return
			}
			slog.Info("invoice decided", "outcome", d.Outcome, "by", d.By, "comment", d.Comment, "payOn", d.PayOn)
		}()
	}
	<-ctx.Done()
	shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	return srv.Shutdown(shutdown)
}

// temporalClient dials TEMPORAL_ADDRESS (default localhost:7233, namespace TEMPORAL_NAMESPACE or
// "default"), or starts a Temporal server in this process.
func temporalClient(embedded bool) (client.Client, func(), error) {
	if embedded {
		ts := temporaltest.NewServer()
		slog.Info("embedded Temporal server", "address", ts.GetFrontendHostPort(), "namespace", ts.GetDefaultNamespace())
		return ts.GetDefaultClient(), ts.Stop, nil
	}
	c, err := client.Dial(client.Options{HostPort: env("TEMPORAL_ADDRESS", "localhost:7233"), Namespace: env("TEMPORAL_NAMESPACE", "default")})
	if err != nil {
		return nil, nil, err
	}
	return c, c.Close, nil
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
