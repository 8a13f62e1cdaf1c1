package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"usertasks/keyring"
	"usertasks/repository"
	"usertasks/stress"
	"usertasks/stress/seed"
)

// benchOptions configure `web stress bench`.
type benchOptions struct {
	Scale          string   `json:"scale"`
	Tasks          int      `json:"tasks"`
	Writers        int      `json:"writers"`
	Open           int      `json:"open"`
	Terminal       int      `json:"terminal"`
	Reps           int      `json:"reps"`
	DeepRows       int      `json:"deepRows"`
	ProfileSeconds int      `json:"profileSeconds"`
	Dialects       []string `json:"dialects"`

	dir string // scratch directory: SQLite files, profiles
}

// benchScales are the presets of --scale: the target, a tenth of it, and a toy for tests.
var benchScales = map[string]benchOptions{
	"full":  {Tasks: 3000, Writers: 8, Open: 100_000, Terminal: 1_000_000, Reps: 5, DeepRows: 1000, ProfileSeconds: 30},
	"small": {Tasks: 1000, Writers: 8, Open: 10_000, Terminal: 100_000, Reps: 5, DeepRows: 1000, ProfileSeconds: 10},
	"tiny":  {Tasks: 30, Writers: 3, Open: 300, Terminal: 600, Reps: 2, DeepRows: 20, ProfileSeconds: 1},
}

// benchWriteModes are the write modes measured, over HTTP and against the store.
var benchWriteModes = []string{"burst", "claim", "mixed"}

// stressBenchCommand runs `web stress bench`: the benchmark set of issue 13 (write path over
// HTTP beside the raw baseline, startup, the inbox matrix at the scale target under load, RSS,
// a CPU profile) on fresh databases, and writes the report (docs/benchmarks.md, "make bench").
func stressBenchCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stress bench", flag.ContinueOnError)
	scale := fs.String("scale", "full", "full (100,000 open + 1,000,000 terminal), small (a tenth) or tiny (a test's)")
	tasks := fs.Int("tasks", 0, "tasks per write mode (default by --scale: 3,000 full, 1,000 small)")
	writers := fs.Int("writers", 0, "concurrent clients (default 8)")
	open := fs.Int("open", -1, "open tasks to seed (default by --scale)")
	terminal := fs.Int("terminal", -1, "terminal tasks to seed (default by --scale)")
	reps := fs.Int("reps", 0, "requests of each matrix page (default 5)")
	dialects := fs.String("dialects", "", "comma-separated: sqlite, postgres, mariadb (default sqlite and every one with a URL)")
	write := fs.String("write", "", "splice the report into this Markdown file between <!-- bench:begin --> and <!-- bench:end -->")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of Markdown")
	dir := fs.String("dir", "", "scratch directory for SQLite files and profiles (default a temporary one, removed after)")
	fs.Usage = commandUsage(fs, "web stress bench [--scale full|small|tiny] [--dialects LIST] [--write FILE] [--json]", `
Runs the benchmark set on fresh databases, one dialect after the other: the write path over
HTTP (burst, claim, mixed through to Completed; 8 clients) beside the raw-SQL baseline, with
a CPU profile of the server (USERTASKS_PPROF_ADDR); then the scale target seeded, the
server's startup to ready, every inbox page of the matrix (5 scopes × 6 sorts × 2 directions
× plain/search/workflow × first/deep) timed by the server's request log while the mixed load
runs in another tenant, beside the same statements run raw; and the server's peak RSS. The
servers are this binary's 'serve' as child processes. Timings are reported, never judged:
exit 0 when the run completed (targets missed included), 1 when it could not.`,
		"  USERTASKS_BENCH_POSTGRES_URL (else USERTASKS_TEST_POSTGRES_URL): a PostgreSQL server to create scratch databases on\n"+
			"  USERTASKS_BENCH_MYSQL_URL (else USERTASKS_TEST_MYSQL_URL): the same for MariaDB/MySQL")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: stress bench takes no arguments, got %q", errUsage, fs.Arg(0))
	}
	o, ok := benchScales[*scale]
	if !ok {
		return fmt.Errorf("%w: --scale must be full, small or tiny", errUsage)
	}
	o.Scale = *scale
	for _, f := range []struct {
		dst *int
		v   int
	}{{&o.Tasks, *tasks}, {&o.Writers, *writers}, {&o.Reps, *reps}} {
		if f.v != 0 {
			*f.dst = f.v
		}
	}
	if *open >= 0 {
		o.Open = *open
	}
	if *terminal >= 0 {
		o.Terminal = *terminal
	}
	if err := checkStressBounds(o.Tasks, o.Writers, 1); err != nil {
		return err
	}
	if o.Reps < 1 || o.Reps > 100 || o.Open > seedMaxTerminal || o.Terminal > seedMaxTerminal || o.Open+o.Terminal == 0 {
		return fmt.Errorf("%w: --reps must be 1 to 100 and --open/--terminal 0 to %d, not both 0", errUsage, seedMaxTerminal)
	}
	servers := map[string]string{
		"postgres": firstNonEmpty(env.value("USERTASKS_BENCH_POSTGRES_URL"), env.value("USERTASKS_TEST_POSTGRES_URL")),
		"mariadb":  firstNonEmpty(env.value("USERTASKS_BENCH_MYSQL_URL"), env.value("USERTASKS_TEST_MYSQL_URL")),
	}
	if *dialects == "" {
		o.Dialects = []string{"sqlite"}
		for _, d := range []string{"postgres", "mariadb"} {
			if servers[d] != "" {
				o.Dialects = append(o.Dialects, d)
			}
		}
	} else {
		for _, d := range strings.Split(*dialects, ",") {
			d = strings.TrimSpace(d)
			if d != "sqlite" && d != "postgres" && d != "mariadb" {
				return fmt.Errorf("%w: --dialects takes sqlite, postgres and mariadb, got %q", errUsage, d)
			}
			if d != "sqlite" && servers[d] == "" {
				return fmt.Errorf("%w: --dialects %s needs USERTASKS_BENCH_%s_URL", errUsage, d, map[string]string{"postgres": "POSTGRES", "mariadb": "MYSQL"}[d])
			}
			o.Dialects = append(o.Dialects, d)
		}
	}
	o.dir = *dir
	if o.dir == "" {
		tmp, err := os.MkdirTemp("", "usertasks-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		o.dir = tmp
	} else if err := os.MkdirAll(o.dir, 0o700); err != nil {
		return err
	}

	stderr = benchProgress{w: stderr, start: time.Now()}
	rep := benchReport{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Machine: benchMachineInfo(), Settings: o}
	started := time.Now()
	for _, d := range o.Dialects {
		fmt.Fprintf(stderr, "bench: %s\n", d)
		dr, err := benchDialectRun(ctx, o, d, servers[d], stderr)
		if err != nil {
			return fmt.Errorf("bench %s: %w", d, err)
		}
		rep.Dialects = append(rep.Dialects, dr)
	}
	rep.Seconds = time.Since(started).Seconds()
	if *write != "" {
		if err := spliceBenchReport(*write, rep.markdown()); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bench: the report is in %s (%s)\n", *write, time.Since(started).Round(time.Second))
	}
	if *asJSON {
		return rep.writeJSON(stdout)
	}
	if *write == "" {
		_, err := io.WriteString(stdout, rep.markdown())
		return err
	}
	return nil
}

// benchProgress prefixes each progress line with the time since the run began.
type benchProgress struct {
	w     io.Writer
	start time.Time
}

func (p benchProgress) Write(b []byte) (int, error) {
	if _, err := fmt.Fprintf(p.w, "[%s] ", time.Since(p.start).Round(time.Second)); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// benchServerVars are the settings of the bench's servers: fresh secrets for the run, the
// loopback runtime, JSON logs.
func benchServerVars() (map[string]string, error) {
	keys, err := keyring.Generate("bench")
	if err != nil {
		return nil, err
	}
	secret, session := make([]byte, 32), make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	if _, err := rand.Read(session); err != nil {
		return nil, err
	}
	return map[string]string{
		"USERTASKS_ENCRYPTION_KEYS":  keys,
		"USERTASKS_JWT_HS256_SECRET": hex.EncodeToString(secret),
		"USERTASKS_JWT_ISSUER":       "https://bench.invalid",
		"USERTASKS_JWT_AUDIENCE":     "user-tasks",
		"USERTASKS_SESSION_SECRETS":  base64.StdEncoding.EncodeToString(session),
		"USERTASKS_RUNTIME_URL":      "",
	}, nil
}

// benchDatabase creates a fresh database for one phase: a new SQLite file, or a new database on
// the server of serverURL (dropped by the returned func).
func benchDatabase(ctx context.Context, o benchOptions, dialect, serverURL, phase string) (string, func(), error) {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	name := "usertasks_bench_" + phase + "_" + hex.EncodeToString(b)
	if dialect == "sqlite" {
		path := filepath.Join(o.dir, name+".db")
		return "sqlite:" + path, func() {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(path + suffix)
			}
		}, nil
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", nil, fmt.Errorf("the %s server URL does not parse", dialect)
	}
	create, drop := `CREATE DATABASE "`+name+`"`, `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`
	if dialect == "mariadb" {
		create, drop = "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", "DROP DATABASE IF EXISTS `"+name+"`"
	}
	admin, _, err := repository.OpenSQL(serverURL)
	if err != nil {
		return "", nil, err
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, create); err != nil {
		return "", nil, fmt.Errorf("create the scratch database: %w", err)
	}
	u.Path = "/" + name
	return u.String(), func() {
		if admin, _, err := repository.OpenSQL(serverURL); err == nil {
			_, _ = admin.ExecContext(context.WithoutCancel(ctx), drop)
			admin.Close()
		}
	}, nil
}

// benchDialectRun runs the whole set on one dialect.
func benchDialectRun(ctx context.Context, o benchOptions, dialect, serverURL string, progress io.Writer) (benchDialect, error) {
	dr := benchDialect{Dialect: dialect}
	vars, err := benchServerVars()
	if err != nil {
		return dr, err
	}
	keys, err := keyring.Parse(vars["USERTASKS_ENCRYPTION_KEYS"])
	if err != nil {
		return dr, err
	}
	start := time.Now()
	if err := benchWritePhase(ctx, o, dialect, serverURL, vars, keys, &dr, progress); err != nil {
		return dr, fmt.Errorf("write phase: %w", err)
	}
	dr.WriteSeconds = time.Since(start).Seconds()
	if err := benchScalePhase(ctx, o, dialect, serverURL, vars, keys, &dr, progress); err != nil {
		return dr, fmt.Errorf("scale phase: %w", err)
	}
	return dr, nil
}

// benchTarget is the HTTP target of a server with the bench's token settings.
func benchTarget(srv *benchServer, vars map[string]string) (*stress.HTTPTarget, error) {
	return stress.NewHTTPTarget(stress.HTTPConfig{BaseURL: srv.base(), Secret: []byte(vars["USERTASKS_JWT_HS256_SECRET"]),
		Issuer: vars["USERTASKS_JWT_ISSUER"], Audience: vars["USERTASKS_JWT_AUDIENCE"]})
}

// benchWritePhase: a fresh database, a server, the burst, claim and mixed modes over HTTP with
// the raw baseline, a CPU profile of the server meanwhile, its peak RSS.
func benchWritePhase(ctx context.Context, o benchOptions, dialect, serverURL string, vars map[string]string, keys *keyring.Keyring,
	dr *benchDialect, progress io.Writer) error {
	dbURL, drop, err := benchDatabase(ctx, o, dialect, serverURL, "write")
	if err != nil {
		return err
	}
	defer drop()
	if err := repository.Migrate(ctx, dbURL); err != nil {
		return err
	}
	srv, err := startBenchServer(ctx, dbURL, vars)
	if err != nil {
		return err
	}
	defer srv.stop()
	store, err := repository.Open(ctx, repository.Config{URL: dbURL, Keys: keys})
	if err != nil {
		return err
	}
	defer store.Close()
	target, err := benchTarget(srv, vars)
	if err != nil {
		return err
	}
	profiles := map[string]string{}
	for _, mode := range benchWriteModes {
		fmt.Fprintf(progress, "bench: %s: %s, %d tasks × %d clients over HTTP\n", dialect, mode, o.Tasks, o.Writers)
		profile := filepath.Join(o.dir, "cpu-"+dialect+"-"+mode+".pprof")
		profiled := make(chan error, 1)
		go func() { profiled <- srv.cpuProfile(ctx, o.ProfileSeconds, profile) }()
		reports, err := stress.Run(ctx, mode, stress.Options{Tasks: o.Tasks, Writers: o.Writers, Rounds: 1, Target: target, Store: store, SQL: store})
		if err != nil {
			return err
		}
		dr.Stress = append(dr.Stress, reports...)
		if err := <-profiled; err != nil {
			dr.Notes = append(dr.Notes, mode+": no CPU profile: "+err.Error())
		} else {
			profiles[mode] = profile
		}
	}
	// The server has nothing more to do; the same modes run against the store in this process,
	// so each write figure can be split into what HTTP adds and what the store costs.
	if err := benchStorePhase(ctx, o, dialect, serverURL, keys, dr, progress); err != nil {
		return fmt.Errorf("store-direct: %w", err)
	}
	worst := dr.addWriteFigures()
	dr.add(benchFigure{Name: "peak RSS, write phase", Unit: "MB", Ours: srv.memory(), Target: "≤ 150 MB", Met: benchMet(srv.memory() <= 150)})
	if profiles[worst] == "" {
		return nil
	}
	top, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=25", profiles[worst]).Output()
	if err != nil {
		dr.Notes = append(dr.Notes, "go tool pprof failed: "+err.Error())
		return nil
	}
	dr.ProfileMode, dr.ProfileSeconds, dr.Profile = worst, o.ProfileSeconds, benchProfileTop(string(top))
	return nil
}

// benchStorePhase runs the write modes against repository.Store in this process (stress's store
// target, the service and projector the handlers call) on a fresh database of the dialect, so
// the HTTP phase's tasks and its server's runtime never meet these. The raw baselines ran in
// the HTTP phase and are not repeated.
func benchStorePhase(ctx context.Context, o benchOptions, dialect, serverURL string, keys *keyring.Keyring, dr *benchDialect, progress io.Writer) error {
	dbURL, drop, err := benchDatabase(ctx, o, dialect, serverURL, "store")
	if err != nil {
		return err
	}
	defer drop()
	if err := repository.Migrate(ctx, dbURL); err != nil {
		return err
	}
	store, err := repository.Open(ctx, repository.Config{URL: dbURL, Keys: keys})
	if err != nil {
		return err
	}
	defer store.Close()
	for _, mode := range benchWriteModes {
		fmt.Fprintf(progress, "bench: %s: %s, %d tasks × %d clients against the store in process\n", dialect, mode, o.Tasks, o.Writers)
		reports, err := stress.Run(ctx, mode, stress.Options{Tasks: o.Tasks, Writers: o.Writers, Rounds: 1,
			Target: stress.NewStoreTarget(store), Inspector: stress.StoreInspector{Store: store}, Store: store, SQL: store, NoBaseline: true})
		if err != nil {
			return err
		}
		dr.StoreStress = append(dr.StoreStress, reports...)
	}
	return nil
}

// benchProfileTop keeps pprof's header lines and table, without the file and build lines.
func benchProfileTop(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if strings.HasPrefix(l, "File:") || strings.HasPrefix(l, "Build ID:") || strings.HasPrefix(l, "Type:") || strings.HasPrefix(l, "Time:") {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// benchScalePhase: a fresh database seeded at the scale, a server on it (startup to ready), the
// inbox matrix while the mixed load runs in other tenants, the server's peak RSS.
func benchScalePhase(ctx context.Context, o benchOptions, dialect, serverURL string, vars map[string]string, keys *keyring.Keyring,
	dr *benchDialect, progress io.Writer) error {
	dbURL, drop, err := benchDatabase(ctx, o, dialect, serverURL, "scale")
	if err != nil {
		return err
	}
	defer drop()
	if err := repository.Migrate(ctx, dbURL); err != nil {
		return err
	}
	if err := benchSeed(ctx, dbURL, keys, o, dialect, dr, progress); err != nil {
		return err
	}
	srv, err := startBenchServer(ctx, dbURL, vars)
	if err != nil {
		return err
	}
	defer srv.stop()
	startup := float64(srv.startup().Microseconds()) / 1000
	dr.add(benchFigure{Name: "startup to ready (/readyz 200), loaded database", Unit: "ms", Ours: startup, Target: "≤ 1,000 ms", Met: benchMet(startup <= 1000)})
	rec := &benchSQL{}
	store, err := repository.Open(ctx, repository.Config{URL: dbURL, Keys: keys, OnSQL: rec.hear})
	if err != nil {
		return err
	}
	defer store.Close()
	db, err := store.DB()
	if err != nil {
		return err
	}
	target, err := benchTarget(srv, vars)
	if err != nil {
		return err
	}

	load, stopLoad := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var loadErr error
	rounds := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for load.Err() == nil {
			_, err := stress.Run(load, "mixed", stress.Options{Tasks: o.Tasks, Writers: o.Writers, Rounds: 1, Target: target})
			if err != nil && load.Err() == nil {
				loadErr = err
				return
			}
			rounds++
		}
	}()
	fmt.Fprintf(progress, "bench: %s: the inbox matrix, %d requests a page, under the mixed load\n", dialect, o.Reps)
	start := time.Now()
	pages, err := benchMatrix(ctx, o, srv, target, store, db, rec, &benchMatrixProgress{w: progress, dialect: dialect})
	dr.MatrixSeconds = time.Since(start).Seconds()
	stopLoad()
	wg.Wait()
	if err != nil {
		return err
	}
	if loadErr != nil {
		return fmt.Errorf("the mixed load: %w", loadErr)
	}
	dr.Notes = append(dr.Notes, fmt.Sprintf("the matrix ran beside %d complete rounds of the mixed load (%d tasks, %d clients each)", rounds, o.Tasks, o.Writers))
	dr.addMatrix(pages)
	dr.add(benchFigure{Name: "peak RSS, loaded database, matrix + mixed load", Unit: "MB", Ours: srv.memory(), Target: "≤ 150 MB", Met: benchMet(srv.memory() <= 150)})
	return nil
}

// benchSeed loads the scale tenant (stress/seed) and a second tenant of a hundredth.
func benchSeed(ctx context.Context, dbURL string, keys *keyring.Keyring, o benchOptions, dialect string, dr *benchDialect, progress io.Writer) error {
	store, err := repository.Open(ctx, repository.Config{URL: dbURL, Keys: keys})
	if err != nil {
		return err
	}
	defer store.Close()
	db, err := store.DB()
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "bench: %s: seeding %d open + %d terminal tasks\n", dialect, o.Open, o.Terminal)
	start := time.Now()
	_, err = seed.Load(ctx, db, store.Dialect(), seed.Options{Tenants: []seed.Tenant{{Name: benchTenant, Open: o.Open, Terminal: o.Terminal}}})
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	dr.SeedSeconds = time.Since(start).Seconds()
	return nil
}

// benchMachineInfo describes where the run happened.
func benchMachineInfo() benchMachine {
	m := benchMachine{Cores: runtime.NumCPU(), GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
				var kb int64
				fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
				m.MemoryMB = kb / 1024
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.LoadAverage = strings.Join(f[:3], " ")
		}
	}
	return m
}

var errBenchSplice = errors.New("bench: the report's markers are out of order")

// spliceBenchReport replaces the text between the markers of path, each on a line of its own,
// with section (markers included in section), or appends section when the file has none. A
// marker quoted inside a line (prose about it) is not one.
func spliceBenchReport(path, section string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(b)
	lines := strings.SplitAfter(doc, "\n")
	begin, end, at := -1, -1, 0
	for _, l := range lines {
		switch strings.TrimRight(l, "\r\n") {
		case benchBegin:
			if begin < 0 {
				begin = at
			}
		case benchEnd:
			if end < 0 {
				end = at + len(l)
			}
		}
		at += len(l)
	}
	switch {
	case begin < 0 && end < 0:
		doc = strings.TrimRight(doc, "\n") + "\n\n" + section
	case begin < 0 || end < begin:
		return errBenchSplice
	default:
		doc = doc[:begin] + section + doc[end:]
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}
