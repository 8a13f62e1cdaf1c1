package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"

	"usertasks/directory"
	"usertasks/forms"
	"usertasks/formsource"
	"usertasks/models"
	"usertasks/tasks"
)

// Safe messages of the resolution findings (SPEC 3.8). The cause goes to the log, never to the
// task: it may name hosts or paths.
const (
	msgDirectoryMissing = "No participant directory is configured to expand the task's groups."
	msgSnapshotFailed   = "The task's candidate groups could not be expanded."
)

// ResolverOptions say where snapshot groups and form references are resolved.
type ResolverOptions struct {
	// Directory expands snapshot groups; nil means none is configured.
	Directory directory.Directory
	// Forms are the form providers by the name a reference uses (`{provider: "files", …}`).
	Forms map[string]formsource.Provider
	// Logger receives the causes of failed resolutions. Default: discarded.
	Logger *slog.Logger
}

// Resolver expands snapshot groups and pins form references, for projection and for a
// manager's retry-resolution. Failures never refuse anything: they become a blocking health
// finding on the task (SPEC 3.6, 3.7). It is safe for concurrent use.
type Resolver struct {
	dir   directory.Directory
	forms map[string]formsource.Provider
	log   *slog.Logger
}

// NewResolver builds a Resolver.
func NewResolver(o ResolverOptions) *Resolver {
	r := &Resolver{dir: o.Directory, forms: make(map[string]formsource.Provider, len(o.Forms)), log: o.Logger}
	if nilOrTypedNil(r.dir) {
		r.dir = nil
	}
	for name, p := range o.Forms {
		if !nilOrTypedNil(p) {
			r.forms[name] = p
		}
	}
	if r.log == nil {
		r.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return r
}

// nilOrTypedNil reports whether an interface holds nothing, or a nil pointer (a typed nil would
// otherwise pass a nil check and panic on the first call).
func nilOrTypedNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Interface, reflect.Slice, reflect.Chan:
		return rv.IsNil()
	}
	return false
}

// Resolve implements tasks.Resolver for retry-resolution. It retries what failed and keeps what
// is pinned: snapshot groups are expanded again when the task carries a snapshot finding; a form
// reference that was never pinned is resolved again from the original reference (Requested); a
// pinned form stays pinned (a newer `latest` would change the form under the assignee) and is
// only checked to still be a valid form. The answer's Health is the first finding that remains,
// or zero, which clears the task's finding.
func (r *Resolver) Resolve(ctx context.Context, t models.Task) (tasks.Resolution, error) {
	var res tasks.Resolution
	var findings []models.Health

	if t.Assignment.Mode == models.MembershipSnapshot &&
		(t.Health.Code == models.HealthSnapshotResolutionFailed || t.Health.Code == models.HealthSnapshotDirectoryMissing) {
		var groups []models.ParticipantRef
		kept := len(t.Assignment.Exclusions)
		for _, c := range t.Assignment.Candidates {
			if c.Source != models.SourceSnapshotMember {
				kept++
			}
			if c.Source == models.SourceDirectGroup {
				groups = append(groups, c.Participant)
			}
		}
		members, h := r.expand(ctx, t.Tenant, groups, models.MaxParticipantsPerTask-kept)
		if h.Severity == models.SeverityNone {
			res.Snapshot = members
		} else {
			findings = append(findings, h)
		}
	}

	if f := t.Protected.Form; f != nil {
		switch {
		case f.Resolved():
			if _, err := forms.Parse(f.Schema); err != nil {
				r.log.WarnContext(ctx, "pinned form is not a valid form", "tenant", t.Tenant, "task", t.ID, "error", err)
				findings = append(findings, models.FormInvalid.Finding())
			}
		case f.Requested != nil:
			pinned, h := r.resolveForm(ctx, t.Tenant, *f.Requested)
			if h.Severity == models.SeverityNone {
				res.Form = pinned
			} else {
				findings = append(findings, h)
			}
		default:
			findings = append(findings, models.FormNotFound.Finding())
		}
	}
	if err := ctx.Err(); err != nil {
		return tasks.Resolution{}, err // a cancelled caller is not a failed resolution
	}
	if len(findings) > 0 {
		res.Health = findings[0]
	}
	return res, nil
}

func blockingFinding(code, message string) models.Health {
	return models.Health{Severity: models.SeverityBlocking, Code: code, Message: message}
}

// groupRef normalizes a wire or stored group reference of tenant.
func groupRef(tenant string, g models.ParticipantRef) models.ParticipantRef {
	g.Tenant, g.Type = tenant, models.GroupParticipant
	if g.Provider == "" {
		g.Provider = models.DefaultProvider
	}
	return g
}

// expand turns groups into snapshot-member candidate rows through the directory. At most budget
// distinct rows fit the task's participant limit. Any failure — no directory, a directory error,
// a member that is not a valid user of the tenant, too many members — answers the finding and no
// rows: a partial snapshot would silently leave people out.
func (r *Resolver) expand(ctx context.Context, tenant string, groups []models.ParticipantRef, budget int) ([]models.Candidate, models.Health) {
	rows := []models.Candidate{}
	if len(groups) == 0 {
		return rows, models.Health{}
	}
	if r.dir == nil {
		return nil, blockingFinding(models.HealthSnapshotDirectoryMissing, msgDirectoryMissing)
	}
	seen := map[string]bool{}
	for _, g := range groups {
		g = groupRef(tenant, g)
		members, err := r.dir.Expand(ctx, tenant, g)
		if err == nil {
			err = checkMembers(tenant, members)
		}
		if err != nil {
			r.log.WarnContext(ctx, "snapshot group expansion failed", "tenant", tenant, "group", g.ID, "error", err)
			return nil, blockingFinding(models.HealthSnapshotResolutionFailed, msgSnapshotFailed)
		}
		for _, m := range members {
			m = memberRef(tenant, m)
			key := m.Key() + "\x01" + g.Key()
			if seen[key] {
				continue
			}
			seen[key] = true
			group := g
			rows = append(rows, models.Candidate{Participant: m, Source: models.SourceSnapshotMember, SourceGroup: &group})
		}
		if len(rows) > budget {
			r.log.WarnContext(ctx, "snapshot groups exceed the participant limit", "tenant", tenant, "group", g.ID, "limit", models.MaxParticipantsPerTask)
			return nil, blockingFinding(models.HealthSnapshotResolutionFailed, msgSnapshotFailed)
		}
	}
	return rows, models.Health{}
}

// memberRef normalizes a member the directory returned.
func memberRef(tenant string, m models.ParticipantRef) models.ParticipantRef {
	m.Tenant = tenant
	if m.Type == "" {
		m.Type = models.UserParticipant
	}
	if m.Provider == "" {
		m.Provider = models.DefaultProvider
	}
	return m
}

// checkMembers refuses an expansion the task could not store.
func checkMembers(tenant string, members []models.ParticipantRef) error {
	for i, m := range members {
		switch {
		case m.Tenant != "" && m.Tenant != tenant:
			return fmt.Errorf("member %d belongs to another tenant", i)
		case m.Type != "" && m.Type != models.UserParticipant:
			return fmt.Errorf("member %d is not a user", i)
		case m.Provider == models.GuestProvider:
			return fmt.Errorf("member %d has the reserved provider %q", i, models.GuestProvider)
		case !memberRef(tenant, m).Valid():
			return fmt.Errorf("member %d is not a valid participant", i)
		}
	}
	return nil
}

// resolveForm pins ref through its provider. The answer always carries Requested, so a failed
// resolution can be retried; the finding says why it failed.
func (r *Resolver) resolveForm(ctx context.Context, tenant string, ref models.FormRef) (*models.PinnedForm, models.Health) {
	requested := ref
	unresolved := &models.PinnedForm{Requested: &requested, Provider: ref.Provider, Key: ref.Key}
	p, ok := r.forms[ref.Provider]
	if !ok {
		r.log.WarnContext(ctx, "form provider is not configured", "tenant", tenant, "provider", ref.Provider, "key", ref.Key)
		return unresolved, models.FormProviderUnknown.Finding()
	}
	pinned, err := p.Resolve(ctx, tenant, ref)
	failure := formFailure(err)
	if err == nil {
		if err = checkPinned(pinned); err != nil {
			failure = models.FormInvalid
		}
	}
	if err != nil {
		r.log.WarnContext(ctx, "form resolution failed", "tenant", tenant, "provider", ref.Provider, "key", ref.Key,
			"version", ref.Version, "class", string(failure), "error", err)
		return unresolved, failure.Finding()
	}
	pinned.Provider, pinned.Requested = ref.Provider, &requested
	return &pinned, models.Health{}
}

// formFailure classes a provider's error for the finding; the error itself stays in the log.
func formFailure(err error) models.FormFailure {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, models.ErrNotFound):
		return models.FormNotFound
	case errors.Is(err, formsource.ErrInvalidForm):
		return models.FormInvalid
	}
	return models.FormUnavailable
}

// checkPinned holds a provider to its contract: a concrete version and a valid form.
func checkPinned(f models.PinnedForm) error {
	if f.Version == "" || f.Version == formsource.LatestVersion || !formsource.ValidVersion(f.Version) {
		return fmt.Errorf("the provider answered version %q, not a concrete version", f.Version)
	}
	if _, err := forms.Parse(f.Schema); err != nil {
		return fmt.Errorf("the provider answered an invalid form: %w", err)
	}
	return nil
}
