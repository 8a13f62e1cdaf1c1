package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"usertasks/attachments"
	"usertasks/auth"
	"usertasks/demo"
	"usertasks/directory"
	"usertasks/formsource"
	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/live"
	"usertasks/metrics"
	"usertasks/migrations"
	"usertasks/notify"
	"usertasks/oidclogin"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/tracing"
	"usertasks/websession"
	"usertasks/workers"
	"usertasks/workflow"
)

// app is the wired application: the store, the services, the workers and the router.
type app struct {
	store    store.Store
	broker   *live.Broker
	relay    *live.PostgresRelay
	verifier *auth.Verifier
	workers  *workers.Workers
	metrics  *metrics.Metrics
	// tracer is nil unless an OTLP endpoint is configured (config_tracing.go).
	tracer *tracing.Tracer
	deps   handlers.Deps
	// mailer sends notification email and digest sends the digests; both nil without SMTP
	// (notify_mail.go).
	mailer notify.Mailer
	digest *notify.Digester
}

// buildApp wires every part from the configuration: each part takes the one store.Store as the
// small interface it declares. The caller runs the broker and the workers and closes the app.
func buildApp(ctx context.Context, cfg config, opened *openedStore, log *slog.Logger) (*app, error) {
	store := opened.Store
	sqlStore := opened.sql // nil on the document store
	a := &app{store: store, metrics: metrics.New()}
	if err := a.startTracing(cfg, sqlStore, log); err != nil {
		return nil, err
	}
	brokerOpts := live.Options{Logger: log}
	if sqlStore != nil && sqlStore.Dialect() == migrations.Postgres {
		relay, err := live.NewPostgresRelay(ctx, cfg.DatabaseURL, live.PostgresRelayOptions{Logger: log})
		if err != nil {
			return nil, fmt.Errorf("live updates: %w", err)
		}
		a.relay, brokerOpts.Relay = relay, relay
	}
	a.broker = live.NewBroker(store, brokerOpts)

	resolverOpts, err := resolverOptions(cfg, log)
	if err != nil {
		return nil, err
	}
	resolver := workflow.NewResolver(resolverOpts)

	var runtime workflow.RuntimeClient = workflow.NewLoopback(store)
	if cfg.RuntimeURL != "" {
		if runtime, err = workflow.NewHTTPRuntime(cfg.RuntimeURL, cfg.RuntimeSecret, a.runtimeOptions()); err != nil {
			return nil, err
		}
	} else if !cfg.Dev {
		log.Warn("USERTASKS_RUNTIME_URL is not set: the built-in loopback runtime acknowledges every transition itself")
	}
	projector := workflow.NewProjector(store, resolver)
	workerOpts := workersOptions(cfg)
	workerOpts.Projector, workerOpts.Logger, workerOpts.Observer = projector.Bodies(), log, a.metrics
	mailbox := devMailbox(cfg)
	if workerOpts.Dispatchers, err = cfg.invitationDispatchers(mailbox); err != nil {
		return nil, err
	}
	workerOpts.Deliveries.BaseURL = cfg.BaseURL
	workerOpts.Owner = workers.NodeID()
	unsubscribe, err := a.notifyEmail(cfg, store, resolverOpts.Directory, log)
	if err != nil {
		return nil, err
	}
	if err := a.notifyWorkers(cfg, store, resolverOpts.Directory, &workerOpts, log); err != nil {
		return nil, err
	}
	a.workers = workers.New(store, runtime, workerOpts)
	// Every committed change leaves through the store's post-commit hook, whoever made it.
	store.NotifyChanges(kickingNotifier{broker: a.broker, workers: a.workers})
	store.NotifyDeliveries(a.workers.KickDeliveries)
	// The resolver's directory (the demo one in dev mode) also answers the people picker,
	// checks assignees, names participants and tells the access explanation a person's groups.
	svc := tasks.New(store, tasks.Options{Resolver: resolver, Directory: resolverOpts.Directory, UnassignedAfter: cfg.UnassignedAttentionAfter, Commands: a.metrics, Tracer: a.commandTracer()})

	if cfg.Auth.Configured() {
		if a.verifier, err = auth.NewVerifier(ctx, cfg.Auth); err != nil {
			return nil, err
		}
	}
	sessions, err := websession.New(websession.Config{Store: store, Secrets: cfg.SessionSecrets, BaseURL: cfg.BaseURL,
		Insecure: cfg.Dev, Logger: log, Lifetime: cfg.Session.Lifetime, IdleTimeout: cfg.Session.Idle, RefreshInterval: cfg.Session.Refresh})
	if err != nil {
		return nil, err
	}
	inbox := tasks.NewInbox(store)
	invites := invitations.NewIssuer(store, invitations.IssuerOptions{Dispatcher: cfg.Invitations.Dispatcher})
	web := handlers.WebDeps{Tasks: svc, Sessions: sessions, Logger: log, Dashboard: tasks.NewDashboard(store, 0), Inbox: inbox, Invitations: invites}
	if mailbox != nil {
		web.DevMailbox = mailbox
	}
	web.Unsubscribe = unsubscribe
	if cfg.Dev {
		for _, u := range demo.Users {
			web.DevUsers = append(web.DevUsers, handlers.DevUser(u))
		}
	}
	if cfg.OIDC.Issuer != "" {
		if web.OIDC, err = oidclogin.New(ctx, cfg.OIDC); err != nil {
			return nil, err
		}
	}
	a.deps = handlers.Deps{
		Store: store, Logger: log, Tasks: svc, Web: &web, Inbox: inbox, Invitations: invites,
		Runtime:        &handlers.RuntimeDeps{Projector: projector, Finalizer: workflow.NewFinalizer(store)},
		Live:           a.broker,
		Reconciliation: a.workers.Reconciler,
		Watchers:       svc,
		Metrics:        &handlers.MetricsDeps{Requests: a.metrics, Handler: a.metrics.Handler(), Token: cfg.Metrics.Token},
		Guests:         invitations.NewGuests(store),
		IPExtractor:    cfg.ipExtractor(),
		Tracer:         a.requestTracer(),
		Notifications:  store, // the bell, /notifications, /api/v1/me/notifications, who signs in
		Attachments:    attachments.New(store, svc, attachments.Options{MaxSize: cfg.AttachmentMaxSize}),
		// Default deadline policies per workflow definition (issue 30 item 4).
		DeadlinePolicies: tasks.NewDeadlinePolicies(store),
	}
	a.metrics.WatchBacklog(store, 0, log)
	if sqlStore != nil {
		a.metrics.WatchPools(sqlStore.Pools())
	}
	a.metrics.WatchSubscribers(a.broker.Subscribers)
	if a.verifier != nil {
		a.deps.Auth = a.verifier
	}
	if cfg.Dev {
		if err := seedDemo(ctx, cfg, store, projector); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// workersOptions are the workers' options the configuration decides: their cadence, and the
// tenants reconciled besides those the store knows.
func workersOptions(cfg config) workers.Options {
	return workers.Options{
		DispatchEvery:  cfg.Cadence.Dispatch,
		Dispatcher:     workers.DispatcherOptions{LeaseFor: cfg.Cadence.DispatchLease},
		SweepEvery:     cfg.Cadence.DueSweep,
		ReconcileEvery: cfg.Cadence.Reconcile,
		ReconcileAfter: cfg.Cadence.ReconcileDelay,
		Reconcile:      workers.ReconcilerOptions{SkipTouchedWithin: cfg.Cadence.ReconcileQuiet, Tenants: cfg.ReconcileTenants},
		PurgeEvery:     cfg.Retention.workerEvery(),
		Purge:          workers.PurgeOptions{Policy: cfg.Retention.policy(0)},
	}
}

// close releases what buildApp opened (not the store).
func (a *app) close() {
	if a.verifier != nil {
		a.verifier.Close()
	}
	if a.relay != nil {
		a.relay.Close()
	}
}

// resolverOptions picks the participant directory and form providers: the demo ones in dev
// mode, else the configured file or HTTP directory and form folder.
func resolverOptions(cfg config, log *slog.Logger) (workflow.ResolverOptions, error) {
	if cfg.Dev && cfg.DirectoryFile == "" && cfg.DirectoryURL == "" && cfg.FormsDir == "" {
		o := demo.ResolverOptions()
		o.Logger = log
		return o, nil
	}
	o := workflow.ResolverOptions{Logger: log, Forms: map[string]formsource.Provider{}}
	switch {
	case cfg.DirectoryFile != "":
		dir, err := directory.LoadStatic(cfg.DirectoryFile)
		if err != nil {
			return o, fmt.Errorf("USERTASKS_DIRECTORY_FILE: %w", err)
		}
		o.Directory = dir
	case cfg.DirectoryURL != "":
		dir, err := directory.NewHTTP(cfg.DirectoryURL, directory.HTTPOptions{})
		if err != nil {
			return o, fmt.Errorf("USERTASKS_DIRECTORY_URL: %w", err)
		}
		o.Directory = dir
	}
	if cfg.FormsDir != "" {
		if _, err := os.Stat(cfg.FormsDir); err != nil {
			return o, fmt.Errorf("USERTASKS_FORMS_DIR: %w", err)
		}
		o.Forms[formsource.FilesProvider] = formsource.NewFileProvider(os.DirFS(cfg.FormsDir))
	}
	return o, nil
}

// kickingNotifier tells the live broker about a change and wakes this node's outbox
// dispatcher, so an accepted completion goes out at once instead of on the next poll.
type kickingNotifier struct {
	broker  *live.Broker
	workers *workers.Workers
}

func (k kickingNotifier) Changed(tenant, taskID string, revision int) {
	k.broker.Changed(tenant, taskID, revision)
	k.workers.Kick()
	k.workers.KickNotifications() // the change may have written notification rows
}
