package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// steps renders a decision's reasons as "rule:effect" for comparison.
func steps(d AccessDecision) []string {
	out := make([]string, len(d.Because))
	for i, r := range d.Because {
		out[i] = string(r.Rule) + ":" + string(r.Effect)
	}
	return out
}

// explainFor is ExplainAccess for actor a with known grants.
func explainFor(task Task, a Actor, past bool) Access {
	return ExplainAccess(task, AccessSubject{Actor: a, PastActor: past})
}

// TestExplainAccessRules: every rule of the explanation, table-driven over the relationships a
// participant can have to the fixture task (candidate user alice, candidate group approvers,
// excluded mallory).
func TestExplainAccessRules(t *testing.T) {
	snapshotTask := func(t *testing.T, status Status) Task {
		return newTask(t, &taskOpts{status: status, projection: func(p *Projection) {
			p.Mode = MembershipSnapshot
			g := ParticipantRef{ID: "approvers", DisplayName: "Approvers"}
			p.SnapshotMembers = []Candidate{{Participant: ParticipantRef{ID: "sam"}, Source: SourceSnapshotMember, SourceGroup: &g}}
		}})
	}
	overrideTask := func(t *testing.T, status Status) Task {
		return newTask(t, &taskOpts{status: status, projection: func(p *Projection) { p.AllowExclusionOverride = true }})
	}
	tests := []struct {
		name  string
		task  func(t *testing.T) Task
		actor Actor
		past  bool
		// the steps each decision must show, in order, and its answer
		view, claim, complete       []string
		viewOK, claimOK, completeOK bool
	}{
		{
			name:  "CandidateUser",
			task:  func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAvailable}) },
			actor: withPerms(person("alice")),
			view:  []string{"tenant:allow", "permission:allow", "candidate-user:allow"}, viewOK: true,
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "candidate-user:allow", "status:allow"},
			claimOK:  true,
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name:  "LiveGroup",
			task:  func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAvailable}) },
			actor: withPerms(person("gina", "approvers")),
			view:  []string{"tenant:allow", "permission:allow", "candidate-group:allow"}, viewOK: true,
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "candidate-group:allow", "status:allow"},
			claimOK:  true,
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name:  "SnapshotMember",
			task:  func(t *testing.T) Task { return snapshotTask(t, StatusAvailable) },
			actor: withPerms(person("sam")),
			view:  []string{"tenant:allow", "permission:allow", "snapshot-member:allow"}, viewOK: true,
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "snapshot-member:allow", "status:allow"},
			claimOK:  true,
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name:     "GroupClaimInSnapshotMode",
			task:     func(t *testing.T) Task { return snapshotTask(t, StatusAvailable) },
			actor:    withPerms(person("gina", "approvers")),
			view:     []string{"tenant:allow", "permission:allow", "snapshot-group-ignored:note", "not-candidate:deny", "no-relationship:deny"},
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "snapshot-group-ignored:note", "not-candidate:deny", "status:allow"},
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name:     "Excluded",
			task:     func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAvailable}) },
			actor:    withPerms(person("mallory", "approvers")),
			view:     []string{"tenant:allow", "permission:allow", "excluded:deny", "no-exclusion-override:note", "no-relationship:deny"},
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "excluded:deny", "no-exclusion-override:note", "status:allow"},
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name:     "ExcludedWithOverride",
			task:     func(t *testing.T) Task { return overrideTask(t, StatusAvailable) },
			actor:    withPerms(person("mallory")),
			view:     []string{"tenant:allow", "permission:allow", "excluded:deny", "exclusion-override:note", "no-relationship:deny"},
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "excluded:deny", "exclusion-override:note", "status:allow"},
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name: "OverriddenAssignee",
			task: func(t *testing.T) Task {
				ref := userRef("mallory")
				return newTask(t, &taskOpts{status: StatusAssigned, assignee: &ref, projection: func(p *Projection) { p.AllowExclusionOverride = true }})
			},
			actor: withPerms(person("mallory")),
			view:  []string{"tenant:allow", "permission:allow", "assignee:allow"}, viewOK: true,
			claim:      []string{"tenant:allow", "permission:allow", "permission:allow", "excluded:deny", "exclusion-override:note", "status-denies:deny"},
			complete:   []string{"tenant:allow", "permission:allow", "permission:allow", "assignee:allow", "exclusion-overridden:note", "status:allow"},
			completeOK: true,
		},
		{
			name:  "Assignee",
			task:  func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAssigned}) },
			actor: withPerms(person("alice")),
			view:  []string{"tenant:allow", "permission:allow", "assignee:allow"}, viewOK: true,
			claim:      []string{"tenant:allow", "permission:allow", "permission:allow", "candidate-user:allow", "status-denies:deny"},
			complete:   []string{"tenant:allow", "permission:allow", "permission:allow", "assignee:allow", "status:allow"},
			completeOK: true,
		},
		{
			name:  "WrongStatus",
			task:  func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusCompleting}) },
			actor: withPerms(person("alice")),
			view:  []string{"tenant:allow", "permission:allow", "assignee:allow"}, viewOK: true,
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "candidate-user:allow", "status-denies:deny"},
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "assignee:allow", "status-denies:deny"},
		},
		{
			name: "BlockingHealth",
			task: func(t *testing.T) Task {
				task := newTask(t, &taskOpts{status: StatusAvailable})
				task.Health = Health{Severity: SeverityBlocking, Code: HealthFormResolutionFailed, Message: "x"}
				return task
			},
			actor:    withPerms(person("alice")),
			view:     []string{"tenant:allow", "permission:allow", "health-blocking:deny", "candidate-user:allow"},
			claim:    []string{"tenant:allow", "permission:allow", "health-blocking:deny", "permission:allow", "candidate-user:allow", "status:allow"},
			complete: []string{"tenant:allow", "permission:allow", "health-blocking:deny", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name: "BlockingHealthManager",
			task: func(t *testing.T) Task {
				task := newTask(t, &taskOpts{status: StatusAvailable})
				task.Health = Health{Severity: SeverityBlocking, Code: HealthFormResolutionFailed, Message: "x"}
				return task
			},
			actor: withPerms(manager("boss")),
			view:  []string{"tenant:allow", "permission:allow", "health-blocking-manager:note", "manager:allow"}, viewOK: true,
			claim:    []string{"tenant:allow", "permission:allow", "health-blocking-manager:note", "permission:allow", "not-candidate:deny", "status:allow"},
			complete: []string{"tenant:allow", "permission:allow", "health-blocking-manager:note", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name: "CrossTenant",
			task: func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAvailable}) },
			actor: func() Actor {
				a := withPerms(person("alice", "approvers"))
				a.Tenant, a.Subject.Tenant = "other", "other"
				return a
			}(),
			view:     []string{"other-tenant:deny"},
			claim:    []string{"other-tenant:deny"},
			complete: []string{"other-tenant:deny"},
		},
		{
			name:     "PermissionMissing",
			task:     func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAvailable}) },
			actor:    func() Actor { a := person("alice"); a.Permissions = []string{"read:user-tasks"}; return a }(),
			view:     []string{"tenant:allow", "permission-missing:deny", "candidate-user:allow"},
			claim:    []string{"tenant:allow", "permission-missing:deny", "permission-missing:deny", "candidate-user:allow", "status:allow"},
			complete: []string{"tenant:allow", "permission-missing:deny", "permission-missing:deny", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name: "Completer",
			task: func(t *testing.T) Task {
				task := newTask(t, &taskOpts{status: StatusCompleted})
				task.Assignee = refPtr(userRef("carl")) // the completer relation alone
				task.Assignment.Candidates = nil
				return task
			},
			actor: withPerms(person("alice")),
			view:  []string{"tenant:allow", "permission:allow", "completer:allow"}, viewOK: true,
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "not-candidate:deny", "status-denies:deny"},
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name:  "PastActor",
			task:  func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAvailable}) },
			actor: withPerms(person("olga")),
			past:  true,
			view:  []string{"tenant:allow", "permission:allow", "past-actor:allow"}, viewOK: true,
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "not-candidate:deny", "status:allow"},
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
		{
			name:     "Stranger",
			task:     func(t *testing.T) Task { return newTask(t, &taskOpts{status: StatusAvailable}) },
			actor:    withPerms(person("nobody")),
			view:     []string{"tenant:allow", "permission:allow", "not-candidate:deny", "no-relationship:deny"},
			claim:    []string{"tenant:allow", "permission:allow", "permission:allow", "not-candidate:deny", "status:allow"},
			complete: []string{"tenant:allow", "permission:allow", "permission:allow", "not-assignee:deny", "status-denies:deny"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			task := tc.task(t)
			got := explainFor(task, tc.actor, tc.past)
			for _, d := range []struct {
				op    string
				got   AccessDecision
				steps []string
				ok    bool
			}{{"view", got.View, tc.view, tc.viewOK}, {"claim", got.Claim, tc.claim, tc.claimOK}, {"complete", got.Complete, tc.complete, tc.completeOK}} {
				if !slices.Equal(steps(d.got), d.steps) {
					t.Errorf("%s steps = %v, want %v", d.op, steps(d.got), d.steps)
				}
				if d.got.Allowed != d.ok {
					t.Errorf("%s allowed = %v, want %v", d.op, d.got.Allowed, d.ok)
				}
			}
		})
	}
}

// TestExplainAccessDetails: the reasons name what matched — the grant and the permission, the
// group by its display name, the snapshot member's source group, the status and health code.
func TestExplainAccessDetails(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) {
		p.CandidateGroups = []ParticipantRef{{ID: "approvers", DisplayName: "Invoice approvers"}}
	}})
	a := person("gina", "approvers")
	a.Permissions = []string{"user-tasks/*:view", "user-tasks:*"}
	got := explainFor(task, a, false)
	want := []Reason{
		NewReason(RuleTenant, EffectAllow),
		NewReason(RulePermission, EffectAllow, PermView, "user-tasks/*:view"),
		NewReason(RulePermission, EffectAllow, PermClaim, "user-tasks:*"),
		NewReason(RuleCandidateGroup, EffectAllow, "Invoice approvers"),
		NewReason(RuleStatusDenies, EffectDeny, "Assigned", "Available"),
	}
	if fmt.Sprint(got.Claim.Because) != fmt.Sprint(want) {
		t.Fatalf("claim reasons\n got %v\nwant %v", got.Claim.Because, want)
	}
	if d := got.Claim.Because[1].Detail; d != "Needs user-tasks:view; the grant user-tasks/*:view covers it." {
		t.Errorf("permission detail %q", d)
	}
	if d := got.Claim.Because[4].Detail; d != "The status is Assigned; this needs Available." {
		t.Errorf("status detail %q", d)
	}

	assumed := ExplainAccess(task, AccessSubject{Actor: Actor{Tenant: testTenant, Subject: userRef("alice"), Permissions: AccessPermissions}, PermissionsAssumed: true})
	if got := steps(assumed.Complete); !slices.Equal(got, []string{"tenant:allow", "permission-assumed:note", "permission-assumed:note", "assignee:allow", "status:allow"}) || !assumed.Complete.Allowed {
		t.Errorf("assumed complete steps %v (allowed %v)", got, assumed.Complete.Allowed)
	}
}

// TestRulesHaveSentences: every rule has an English sentence whose placeholders are the args.
func TestRulesHaveSentences(t *testing.T) {
	for _, r := range Rules() {
		if strings.ToLower(string(r)) != string(r) || strings.ContainsAny(string(r), " _") {
			t.Errorf("rule %q is not kebab-case", r)
		}
		args := make([]string, RuleArgs(r))
		for i := range args {
			args[i] = "X"
		}
		if d := NewReason(r, EffectNote, args...).Detail; strings.Contains(d, "%!") || d == string(r) {
			t.Errorf("rule %s detail %q", r, d)
		}
	}
}

// TestExplainAccessAgreesWithPolicy is the property the explanation rests on: for every
// relationship, status, health and a random sample of grants, each decision's Allowed equals the
// policy's own answer (CanReadSummary; claim and complete offered by AllowedActions), and a
// denied decision always shows a deny step while an allowed one shows none.
func TestExplainAccessAgreesWithPolicy(t *testing.T) {
	grantPool := []string{PermView, PermClaim, PermComplete, "user-tasks:*", "*", "*:view", "user-tasks/*:view", "read:user-tasks", "user-tasks:claim:x"}
	rng := rand.New(rand.NewPCG(10, 6))
	checked := 0
	for _, rc := range relationships() {
		for _, status := range AllStatuses {
			for _, blocking := range []bool{false, true} {
				for _, override := range []bool{false, true} {
					task := fixture(t, rc, status, blocking)
					task.Assignment.AllowExclusionOverride = override
					for range 12 {
						a := rc.actor(task)
						if a.Guest == nil {
							a.Permissions = nil
							for _, g := range grantPool {
								if rng.IntN(2) == 0 {
									a.Permissions = append(a.Permissions, g)
								}
							}
						}
						r := Relate(task, a, rc.past)
						offered := AllowedActions(task, a, r)
						got := explainFor(task, a, rc.past)
						for _, d := range []struct {
							op   string
							got  AccessDecision
							want bool
						}{
							{"view", got.View, CanReadSummary(task, a, r)},
							{"claim", got.Claim, slices.Contains(offered, ActClaim)},
							{"complete", got.Complete, slices.Contains(offered, ActComplete)},
						} {
							checked++
							if d.got.Allowed != d.want {
								t.Fatalf("%s/%s/blocking=%v grants %v: %s allowed = %v, policy says %v\n%v",
									rc.name, status, blocking, a.Permissions, d.op, d.got.Allowed, d.want, steps(d.got))
							}
							denied := slices.ContainsFunc(d.got.Because, func(r Reason) bool { return r.Effect == EffectDeny })
							if denied == d.want {
								t.Fatalf("%s/%s: %s allowed = %v but steps %v", rc.name, status, d.op, d.want, steps(d.got))
							}
						}
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d decisions checked", checked)
	}
}

func TestParseAccessParticipant(t *testing.T) {
	ok := []struct {
		raw, provider string
		want          ParticipantRef
	}{
		{"user:ann", "", ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: "ann"}},
		{"group:fin/ance?x#y", "corp", ParticipantRef{Tenant: testTenant, Provider: "corp", Type: GroupParticipant, ID: "fin/ance?x#y"}},
		{"user:a b:c", "", ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: "a b:c"}},
		{"user:Jürgen 名前", "", ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: "Jürgen 名前"}},
	}
	for _, c := range ok {
		got, err := ParseAccessParticipant(testTenant, c.raw, c.provider)
		if err != nil || got != c.want {
			t.Errorf("ParseAccessParticipant(%q, %q) = %+v, %v; want %+v", c.raw, c.provider, got, err, c.want)
		}
	}
	for name, c := range map[string][2]string{
		"Empty":        {"", ""},
		"NoColon":      {"ann", ""},
		"UnknownType":  {"robot:ann", ""},
		"TypeCase":     {"User:ann", ""},
		"EmptyID":      {"user:", ""},
		"BlankID":      {"user:   ", ""},
		"ControlChar":  {"user:a\x00b", ""},
		"BidiOverride": {"user:a\u202eb", ""},
		"InvalidUTF8":  {"user:a\xffb", ""},
		"Oversized":    {"user:" + strings.Repeat("x", MaxParticipantIDLength+1), ""},
		"GuestProv":    {"user:invitation:1", GuestProvider},
		"BadProvider":  {"user:ann", "a\nb"},
	} {
		_, err := ParseAccessParticipant(testTenant, c[0], c[1])
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a validation error", name, err)
		}
	}
}

func TestAccessExplainedEvent(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusAvailable})
	ann := ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: "ann", DisplayName: "Ann"}
	ev, err := AccessExplained(task, withPerms(manager("boss")), ann, now)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type != EventAccessExplained || ev.Revision != task.Revision || ev.Seq != task.LastEventSeq+1 || ev.Actor == nil || ev.Actor.ID != "boss" {
		t.Fatalf("event %+v", ev)
	}
	var meta map[string]any
	if err := json.Unmarshal(ev.Metadata, &meta); err != nil {
		t.Fatal(err)
	}
	if got, want := string(ev.Metadata), `{"participant":{"provider":"default","type":"user","id":"ann"}}`; got != want {
		t.Errorf("metadata %s, want %s", got, want)
	}
	for _, a := range []Actor{withPerms(person("alice")), SystemActor(testTenant), func() Actor { m := withPerms(manager("boss")); m.Tenant = "other"; return m }()} {
		if _, err := AccessExplained(task, a, ann, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("%+v: err = %v, want not found", a.Subject, err)
		}
	}
}
