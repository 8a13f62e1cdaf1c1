// Package stress is the load harness behind `web stress`: it drives the store directly, or a
// running server over its HTTP API, with contended writes (cas, claim), a mixed inbox workload
// and projection bursts, then checks exact invariants (counts, the store's audit) and reports
// throughput and latency beside a raw-SQL baseline run at the same concurrency on the same
// database. The store may be either store of the contract (store.Store); the raw baseline runs
// on a SQL database only. Timings are observations: only the invariants decide success.
package stress

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"

	"usertasks/repository"
	"usertasks/store"
)

// Modes are the workloads in the order `all` runs them.
var Modes = []string{"cas", "claim", "mixed", "burst"}

// NotifyMode is the notification storm (issue 28): run on its own, never by `all` (it needs
// a scratch database and compares with itself, not the raw baseline).
const NotifyMode = "notify"

// Options configure one run.
type Options struct {
	Tasks   int // tasks per round (T)
	Writers int // concurrent writers (W); readers in the mixed mode are half as many, at least one
	Rounds  int // repetitions, each in a fresh tenant
	// Members is the size of the notify mode's candidate group (G); default 50.
	Members int
	// Pace makes the mixed mode a busy tenant's steady load, beside which lists are measured:
	// its writes (projections, claims and completions, each task in turn) at this many a
	// second across all writers, and its readers' pages at as many; 0 is unthrottled (every
	// task projected first, the readers as fast as they go). The other modes ignore it.
	Pace int
	// Target is the system under load: the store directly (NewStoreTarget) or a server (NewHTTPTarget).
	Target Target
	// Inspector reads the facts the invariants are checked against. Nil: the Target, when it
	// is also an Inspector.
	Inspector Inspector
	// Store, when set, runs the store's audit after each round, on either store. Without it the
	// report says the audit and the raw baseline were skipped.
	Store store.Store
	// SQL, when set, is the SQL store behind Store (the same database): the raw-SQL baselines
	// run on it. Without it (a document store) the report says they were skipped.
	SQL *repository.Store
	// Database names the store in the report (the SQL dialect, "mongodb"); by default SQL's
	// dialect.
	Database string
	// NoBaseline skips the raw baselines though SQL is set (the audit still runs): a caller
	// that measures them once beside another target keeps its run short.
	NoBaseline bool
	// Progress receives a line per phase; nil discards them.
	Progress io.Writer
}

func (o Options) withDefaults() Options {
	if o.Tasks <= 0 {
		o.Tasks = 50
	}
	if o.Writers <= 0 {
		o.Writers = 4
	}
	if o.Rounds <= 0 {
		o.Rounds = 1
	}
	if o.Members <= 0 {
		o.Members = 50
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.Inspector == nil {
		o.Inspector, _ = o.Target.(Inspector)
	}
	if o.Database == "" && o.SQL != nil {
		o.Database = string(o.SQL.Dialect())
	}
	return o
}

// ErrUnknownMode names a mode that is not one of Modes (nor "all").
var ErrUnknownMode = errors.New("stress: unknown mode")

// Run runs mode ("all" runs every one of Modes) and returns one report per mode. An error
// means the run could not be carried out; failed invariants are in the reports (Report.OK).
func Run(ctx context.Context, mode string, o Options) ([]Report, error) {
	if o.Target == nil {
		return nil, errors.New("stress: no target")
	}
	if o.Pace < 0 {
		return nil, ErrPace
	}
	o = o.withDefaults()
	if o.Inspector == nil {
		return nil, errors.New("stress: no inspector for the invariants")
	}
	modes := []string{mode}
	if mode == "all" {
		modes = Modes
	} else if !slices.Contains(Modes, mode) && mode != NotifyMode {
		return nil, fmt.Errorf("%w %q", ErrUnknownMode, mode)
	}
	run, err := runID()
	if err != nil {
		return nil, err
	}
	var reports []Report
	for _, m := range modes {
		rep, err := runMode(ctx, m, run, o)
		if err != nil {
			return reports, fmt.Errorf("%s: %w", m, err)
		}
		reports = append(reports, rep)
	}
	return reports, nil
}

// runID names one run's tenants, so runs never see each other's tasks.
func runID() (string, error) {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// workload is one mode: it loads a round's tenant through the target and checks its invariants.
type workload func(ctx context.Context, r *round) error

var workloads = map[string]workload{
	"cas":    casRound,
	"claim":  claimRound,
	"mixed":  mixedRound,
	"burst":  burstRound,
	"notify": notifyRound,
}

func runMode(ctx context.Context, mode, run string, o Options) (Report, error) {
	rep := newReport(mode, o)
	var raw *baseline
	var full *fullBaseline
	switch {
	case o.Store == nil:
		rep.Notes = append(rep.Notes, "no database configured: the store's audit and the raw baseline were skipped")
	case o.SQL == nil:
		rep.Notes = append(rep.Notes, "the raw baseline runs on a SQL database only: skipped on "+cmp.Or(o.Database, "this store"))
	case mode == NotifyMode:
		rep.Notes = append(rep.Notes, "the notify mode compares the projection with notifications on to the same without them (two phases, fresh tenants), not to the raw baseline")
	case o.NoBaseline:
		rep.Notes = append(rep.Notes, "the raw baseline was not run (NoBaseline)")
	default:
		b, err := openBaseline(ctx, o.SQL, run+mode)
		if err != nil {
			return rep, fmt.Errorf("baseline: %w", err)
		}
		defer b.close(context.WithoutCancel(ctx))
		raw = b
		if full, err = openFullBaseline(o.SQL); err != nil {
			return rep, fmt.Errorf("baseline: %w", err)
		}
	}
	if mode == "mixed" && o.Pace > 0 {
		rep.Pace = o.Pace
		rep.Notes = append(rep.Notes, fmt.Sprintf("the writes (projections, claims, completions) were paced at %d a second across the %d writers "+
			"and the readers' pages at %d a second (--pace): the write figures measure the pace, the page figures the reads beside it", o.Pace, o.Writers, o.Pace))
	}
	for i := 1; i <= o.Rounds; i++ {
		r := &round{opts: o, rep: &rep, tenant: fmt.Sprintf("stress-%s-%s-%d", run, mode, i), raw: raw, full: full}
		fmt.Fprintf(o.Progress, "stress %s: round %d of %d in tenant %s\n", mode, i, o.Rounds, r.tenant)
		if err := workloads[mode](ctx, r); err != nil {
			return rep, err
		}
		if err := r.audit(ctx); err != nil {
			return rep, err
		}
	}
	rep.notifyRatio()
	rep.finish()
	return rep, nil
}
