package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/stress"
	"usertasks/stress/seed"
)

// matrixTenant is the tenant the bench seeds for the inbox matrix.
const matrixTenant = "bench"

// matrixCase is one page of the inbox matrix: a scope for its actor, a sort, a direction and a
// variant (plain, search, workflow filter), first page or a deep cursor.
type matrixCase struct {
	name  string
	scope models.Scope
	actor models.Actor
	f     models.TaskFilter // for the raw side, without cursor and limit
	query url.Values        // for the API, without cursor and limit
}

// MatrixSize is the number of the inbox matrix's pages, each measured first and deep.
func MatrixSize() int { return len(cases()) }

// cases is every scope (assigned, available for a user in 5 groups, history, all, needs
// attention) × every sort × both directions × plain, with a search, with a workflow filter:
// the matrix of repository/scale_lists_test.go, over the API.
func cases() []matrixCase {
	person, _ := seed.Person(7)
	worker := models.Actor{Tenant: matrixTenant, DisplayName: person,
		Subject:     models.ParticipantRef{Tenant: matrixTenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: person},
		Permissions: []string{models.PermView, models.PermClaim, models.PermComplete}}
	for _, g := range []string{"g00", "g03", "g06", "g01", "g02"} {
		worker.Groups = append(worker.Groups, models.ParticipantRef{Tenant: matrixTenant, Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: g})
	}
	manager := models.Actor{Tenant: matrixTenant, DisplayName: "bench-manager", Manager: true, Permissions: []string{"user-tasks:*"},
		Subject: models.ParticipantRef{Tenant: matrixTenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "bench-manager"}}
	scopes := []struct {
		scope models.Scope
		actor models.Actor
	}{
		{models.ScopeAssigned, worker}, {models.ScopeAvailable, worker}, {models.ScopeHistory, worker},
		{models.ScopeAll, manager}, {models.ScopeNeedsAttention, manager},
	}
	variants := []struct {
		name  string
		apply func(*models.TaskFilter, url.Values)
	}{
		{"", func(*models.TaskFilter, url.Values) {}},
		{" search", func(f *models.TaskFilter, q url.Values) { f.Search = "review"; q.Set("search", "review") }},
		{" workflow", func(f *models.TaskFilter, q url.Values) {
			f.WorkflowDefinitionID = seed.WorkflowID(1)
			q.Set("workflowDefinitionId", seed.WorkflowID(1))
		}},
	}
	var out []matrixCase
	for _, sc := range scopes {
		for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortPriority, models.SortTitle,
			models.SortUpdated, models.SortCompleted} {
			for _, desc := range []bool{false, true} {
				for _, v := range variants {
					dir := map[bool]string{false: "asc", true: "desc"}[desc]
					f := models.TaskFilter{Tenant: matrixTenant, Actor: sc.actor, Scope: sc.scope, Sort: sort, Descending: desc}
					q := url.Values{"scope": {string(sc.scope)}, "sort": {string(sort)}, "direction": {dir}}
					v.apply(&f, q)
					out = append(out, matrixCase{fmt.Sprintf("%s %s %s%s", sc.scope, sort, dir, v.name), sc.scope, sc.actor, f, q})
				}
			}
		}
	}
	return out
}

// Page is one measured page: the server's p95 over the repetitions and the raw SELECTs' (both
// read-only), and the server's p95 beside the paced and beside the unthrottled mixed load (0
// where that pass did not reach the page).
type Page struct {
	Page        string  `json:"page"` // "<scope> <sort> <dir>[ variant] (first|deep)"
	Scope       string  `json:"scope"`
	P95         float64 `json:"p95Ms"`
	RawP95      float64 `json:"rawP95Ms"`
	Ratio       float64 `json:"ratio"`
	P95Paced    float64 `json:"p95PacedMs"`
	P95Loaded   float64 `json:"p95LoadedMs"`
	Status      int     `json:"status"`
	ours, raw   []float64
	paced, load []float64
}

// besideLoads returns the read-only pages with the p95 (and requests) of the same pages of the
// paced and the unthrottled passes beside each.
func besideLoads(readOnly, paced, loaded []Page) []Page {
	out := slices.Clone(readOnly)
	byName := func(pages []Page) map[string]*Page {
		m := map[string]*Page{}
		for i := range pages {
			m[pages[i].Page] = &pages[i]
		}
		return m
	}
	p, l := byName(paced), byName(loaded)
	for i := range out {
		if x := p[out[i].Page]; x != nil {
			out[i].P95Paced, out[i].paced = x.P95, x.ours
		}
		if x := l[out[i].Page]; x != nil {
			out[i].P95Loaded, out[i].load = x.P95, x.ours
		}
	}
	return out
}

// matrix requests every page of the matrix reps times over HTTP, timed by the server's
// request log, and runs the same page's statements raw on db; the deep page lies deepRows down
// the list's cursor (skipped where the list is shorter).
func matrix(ctx context.Context, o Options, srv *server, target *stress.HTTPTarget, store *repository.Store,
	db *sql.DB, rec *statementRecorder, prog *matrixProgress) ([]Page, error) {
	var pages []Page
	var next atomic.Int64
	all := cases()
	prog.begin(2 * len(all))
	for _, c := range all {
		for _, deep := range []bool{false, true} {
			q, f := cloneValues(c.query), c.f
			label := " (first)"
			if deep {
				label = " (deep)"
				cursor, ok, err := deepCursor(ctx, o, target, c, q)
				if err != nil || !ok {
					if err != nil {
						return nil, fmt.Errorf("%s deep cursor: %w", c.name, err)
					}
					prog.step(nil)
					continue
				}
				q.Set("cursor", cursor)
				if f.Cursor, ok, err = deepStoreCursor(ctx, o, store, f); err != nil || !ok {
					if err != nil {
						return nil, fmt.Errorf("%s deep cursor (store): %w", c.name, err)
					}
					prog.step(nil)
					continue
				}
			} else {
				q.Set("includeTotalCount", "true")
				f.IncludeTotal = true
			}
			q.Set("limit", strconv.Itoa(models.DefaultPageSize))
			f.Limit = models.DefaultPageSize
			p := Page{Page: c.name + label, Scope: string(c.scope)}
			// One untimed request first: the timed requests and the raw statements after them
			// then both meet the page's rows in the database's cache. Without it the first
			// request alone read them from disk (PostgreSQL: into shared_buffers), and with 5
			// repetitions the p95 is the slowest, so the server was timed cold and raw warm.
			if status, body, err := target.Get(ctx, c.actor, "/api/v1/user-tasks", q, nil); err != nil || status != http.StatusOK {
				return nil, fmt.Errorf("%s: warming: HTTP %d %v: %.300s", p.Page, status, err, body)
			}
			var ids []string
			for range o.Reps {
				id := "bench-" + strconv.FormatInt(next.Add(1), 10)
				status, body, err := target.Get(ctx, c.actor, "/api/v1/user-tasks", q, http.Header{"X-Request-Id": {id}})
				if err != nil {
					return nil, fmt.Errorf("%s: %w", p.Page, err)
				}
				if status != http.StatusOK {
					return nil, fmt.Errorf("%s: HTTP %d: %.300s", p.Page, status, body)
				}
				p.Status = status
				ids = append(ids, id)
			}
			stmts, err := rec.record(func() error { _, err := store.Query(ctx, f); return err })
			if err != nil {
				return nil, fmt.Errorf("%s (store): %w", p.Page, err)
			}
			for range o.Reps {
				took, err := runRaw(ctx, db, stmts)
				if err != nil {
					return nil, fmt.Errorf("%s (raw): %w", p.Page, err)
				}
				p.raw = append(p.raw, took)
			}
			for _, id := range ids {
				d, err := srv.waitDuration(ctx, id)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", p.Page, err)
				}
				p.ours = append(p.ours, d)
			}
			p.P95, p.RawP95 = percentile(p.ours, 95), percentile(p.raw, 95)
			if p.RawP95 > 0 {
				p.Ratio = p.P95 / p.RawP95
			}
			pages = append(pages, p)
			prog.step(&p)
		}
	}
	return pages, nil
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, x := range v {
		out[k] = slices.Clone(x)
	}
	return out
}

// deepCursor follows the list's cursor over the API through o.DeepRows rows (pages of
// MaxPageSize); ok is false when the list is shorter.
func deepCursor(ctx context.Context, o Options, target *stress.HTTPTarget, c matrixCase, q url.Values) (string, bool, error) {
	q = cloneValues(q)
	q.Set("limit", strconv.Itoa(models.MaxPageSize))
	walked := 0
	for walked < o.DeepRows {
		status, body, err := target.Get(ctx, c.actor, "/api/v1/user-tasks", q, nil)
		if err != nil {
			return "", false, err
		}
		if status != http.StatusOK {
			return "", false, fmt.Errorf("HTTP %d: %.300s", status, body)
		}
		var page struct {
			Items      []json.RawMessage `json:"items"`
			NextCursor *string           `json:"nextCursor"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return "", false, err
		}
		walked += len(page.Items)
		if page.NextCursor == nil || *page.NextCursor == "" {
			return "", false, nil
		}
		q.Set("cursor", *page.NextCursor)
	}
	return q.Get("cursor"), true, nil
}

// deepStoreCursor is deepCursor through the store, for the raw side.
func deepStoreCursor(ctx context.Context, o Options, store *repository.Store, f models.TaskFilter) (string, bool, error) {
	f.Limit = models.MaxPageSize
	walked := 0
	for walked < o.DeepRows {
		got, err := store.Query(ctx, f)
		if err != nil {
			return "", false, err
		}
		walked += len(got.Items)
		if got.NextCursor == "" {
			return "", false, nil
		}
		f.Cursor = got.NextCursor
	}
	return f.Cursor, true, nil
}

// statementRecorder records the statements the bench's own store runs (repository.Config.OnSQL).
type statementRecorder struct {
	mu    sync.Mutex
	on    bool
	stmts []string
}

func (r *statementRecorder) hear(stmt string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.stmts = append(r.stmts, stmt)
	}
}

// record runs fn and returns the SELECTs it ran.
func (r *statementRecorder) record(fn func() error) ([]string, error) {
	r.mu.Lock()
	r.on, r.stmts = true, nil
	r.mu.Unlock()
	err := fn()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	var out []string
	for _, s := range r.stmts {
		if readStatement(s) {
			out = append(out, s)
		}
	}
	return out, err
}

// readStatement reports whether a recorded statement reads: a SELECT or WITH after any leading
// "/* … */" comments, or an EXPLAIN. PostgreSQL's search probe names its planner settings in
// one; a raw side that dropped it timed a search page without its probe. Its estimate is an
// EXPLAIN (FORMAT JSON) of the sample read (repository.SearchEstimatePrefix), which the raw
// side replays too: planning it is part of the page's cost.
func readStatement(s string) bool {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "/*") {
		end := strings.Index(s, "*/")
		if end < 0 {
			return false
		}
		s = strings.TrimSpace(s[end+2:])
	}
	word, _, _ := strings.Cut(s, " ")
	return strings.EqualFold(word, "SELECT") || strings.EqualFold(word, "WITH") || strings.EqualFold(word, "EXPLAIN")
}

// runRaw runs the statements one after the other through database/sql in one transaction, as
// the store reads a page (a planner setting the store sets with set_config(…, true) holds for
// the statements after it only inside one), reading every row, and returns the time in ms.
func runRaw(ctx context.Context, db *sql.DB, stmts []string) (float64, error) {
	start := time.Now()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }() // read only: nothing to keep
	for _, s := range stmts {
		rows, err := tx.QueryContext(ctx, s)
		if err != nil {
			return 0, err
		}
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return 0, err
		}
		vals := make([]any, len(cols))
		for i := range vals {
			vals[i] = new(sql.RawBytes)
		}
		for rows.Next() {
			if err := rows.Scan(vals...); err != nil {
				rows.Close()
				return 0, err
			}
		}
		if err := rows.Close(); err != nil {
			return 0, err
		}
	}
	return float64(time.Since(start).Microseconds()) / 1000, nil
}

// percentile is the nearest-rank p-th percentile of xs (0 for none).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}
