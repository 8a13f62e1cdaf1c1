package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"usertasks/stress/bench"
)

// stressBenchCommand runs `web stress bench`: the benchmark set of issue 13 (stress/bench) on
// fresh databases, its servers this binary's `serve` in child processes, and writes the report
// (docs/benchmarks.md, "make bench").
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
× plain/search/workflow × first/deep) timed by the server's request log, three times: read-only,
beside a busy tenant (the mixed load paced: 100 writes and 100 page reads a second), and
while the mixed load runs unthrottled in other tenants, beside the same statements run raw;
and the server's peak RSS. The
servers are this binary's 'serve' as child processes. Timings are reported, never judged:
exit 0 when the run completed (targets missed included), 1 when it could not.`,
		"  USERTASKS_BENCH_POSTGRES_URL (else USERTASKS_TEST_POSTGRES_URL): a PostgreSQL server to create scratch databases on\n"+
			"  USERTASKS_BENCH_MYSQL_URL (else USERTASKS_TEST_MYSQL_URL): the same for MariaDB/MySQL")
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	o, ok := bench.Scales[*scale]
	if !ok {
		return fmt.Errorf("%w: --scale must be full, small or tiny", errUsage)
	}
	o.Scale, o.Dir, o.Markdown = *scale, *dir, *write
	o.Tasks, o.Writers, o.Reps = cmp.Or(*tasks, o.Tasks), cmp.Or(*writers, o.Writers), cmp.Or(*reps, o.Reps)
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
	o.Servers = map[string]string{
		"postgres": cmp.Or(env.value("USERTASKS_BENCH_POSTGRES_URL"), env.value("USERTASKS_TEST_POSTGRES_URL")),
		"mariadb":  cmp.Or(env.value("USERTASKS_BENCH_MYSQL_URL"), env.value("USERTASKS_TEST_MYSQL_URL")),
	}
	var err error
	if o.Dialects, err = benchDialects(*dialects, o.Servers); err != nil {
		return err
	}
	if o.Web, err = os.Executable(); err != nil {
		return err
	}
	rep, err := bench.Run(ctx, o, stderr)
	switch {
	case err != nil:
		return err
	case *asJSON:
		return rep.WriteJSON(stdout)
	case *write == "":
		_, err = io.WriteString(stdout, rep.Markdown())
	}
	return err
}

// benchDialects are the dialects of --dialects, each with a server where it needs one; by
// default SQLite and every dialect whose server is configured.
func benchDialects(list string, servers map[string]string) ([]string, error) {
	if list == "" {
		return slices.DeleteFunc(slices.Clone(bench.DialectNames), func(d string) bool { return d != "sqlite" && servers[d] == "" }), nil
	}
	var out []string
	for _, d := range strings.Split(list, ",") {
		d = strings.TrimSpace(d)
		if !slices.Contains(bench.DialectNames, d) {
			return nil, fmt.Errorf("%w: --dialects takes sqlite, postgres and mariadb, got %q", errUsage, d)
		}
		if d != "sqlite" && servers[d] == "" {
			return nil, fmt.Errorf("%w: --dialects %s needs USERTASKS_BENCH_%s_URL", errUsage, d, map[string]string{"postgres": "POSTGRES", "mariadb": "MYSQL"}[d])
		}
		out = append(out, d)
	}
	return out, nil
}
