package workflow

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"time"

	"usertasks/models"
)

// This file is the dev-mode demo (SPEC 9: "demo tenants/users/tasks seeded once"): two tenants,
// their users and groups, a small form folder, and a dozen tasks projected through the real
// Projector.

// DemoFormProvider is the provider name of the embedded demo forms.
const DemoFormProvider = "demo"

// DemoMissingFormProvider is a provider the demo references but never configures, so one demo
// task shows the blocking form-provider-missing finding.
const DemoMissingFormProvider = "legacy-forms"

//go:embed devseed_forms
var demoFormFiles embed.FS

// DemoForms is the embedded demo form folder (`<key>/<version>.json`).
var DemoForms = func() fs.FS {
	sub, err := fs.Sub(demoFormFiles, "devseed_forms")
	if err != nil {
		panic(err) // the folder is embedded: cannot fail
	}
	return sub
}()

// DemoUser is a person of the demo, for the dev login page.
type DemoUser struct {
	ID          string
	DisplayName string
	Tenant      string
	Groups      []string
	Manager     bool
	Permissions []string
}

// Actor is the actor a dev login as u acts as (provider "default").
func (u DemoUser) Actor() models.Actor {
	a := models.Actor{
		Tenant:      u.Tenant,
		Subject:     models.ParticipantRef{Tenant: u.Tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: u.ID, DisplayName: u.DisplayName},
		DisplayName: u.DisplayName,
		Permissions: append([]string(nil), u.Permissions...),
		Manager:     u.Manager,
	}
	for _, g := range u.Groups {
		a.Groups = append(a.Groups, models.ParticipantRef{Tenant: u.Tenant, Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: g})
	}
	return a
}

var (
	demoWorkerPermissions = []string{
		models.PermView, models.PermClaim, models.PermComplete, models.PermParticipantsView,
	}
	demoManagerPermissions = []string{"user-tasks:*", models.PermParticipantsView}
)

// DemoUsers are the demo's people: a manager per tenant, candidates in groups, a member of a
// snapshot group (dan, jon) and a user the demo tasks exclude (eve).
var DemoUsers = []DemoUser{
	{ID: "ava", DisplayName: "Ava Adams (manager)", Tenant: "acme", Groups: []string{"managers"}, Manager: true, Permissions: demoManagerPermissions},
	{ID: "ben", DisplayName: "Ben Brooks", Tenant: "acme", Groups: []string{"finance"}, Permissions: demoWorkerPermissions},
	{ID: "cara", DisplayName: "Cara Cole", Tenant: "acme", Groups: []string{"finance", "purchasing"}, Permissions: demoWorkerPermissions},
	{ID: "dan", DisplayName: "Dan Diaz (auditor)", Tenant: "acme", Groups: []string{"auditors"}, Permissions: demoWorkerPermissions},
	{ID: "eve", DisplayName: "Eve Evans (excluded)", Tenant: "acme", Groups: []string{"finance"}, Permissions: demoWorkerPermissions},
	{ID: "gina", DisplayName: "Gina Gray (manager)", Tenant: "globex", Groups: []string{"managers"}, Manager: true, Permissions: demoManagerPermissions},
	{ID: "hal", DisplayName: "Hal Hughes", Tenant: "globex", Groups: []string{"support"}, Permissions: demoWorkerPermissions},
	{ID: "ida", DisplayName: "Ida Ivers", Tenant: "globex", Groups: []string{"support"}, Permissions: demoWorkerPermissions},
	{ID: "jon", DisplayName: "Jon Jensen (legal)", Tenant: "globex", Groups: []string{"legal"}, Permissions: demoWorkerPermissions},
}

// demoGroups are the demo's groups with display names, by tenant.
var demoGroups = map[string][]StaticGroup{
	"acme": {
		{ID: "finance", DisplayName: "Finance"}, {ID: "purchasing", DisplayName: "Purchasing"},
		{ID: "auditors", DisplayName: "Auditors"}, {ID: "managers", DisplayName: "Managers"},
	},
	"globex": {
		{ID: "support", DisplayName: "Support"}, {ID: "legal", DisplayName: "Legal"},
		{ID: "managers", DisplayName: "Managers"},
	},
}

// DemoDirectory is the participant directory of the demo users and groups.
var DemoDirectory = func() StaticDirectory {
	d := StaticDirectory{Tenants: map[string]StaticTenant{}}
	for tenant, groups := range demoGroups {
		d.Tenants[tenant] = StaticTenant{Groups: groups}
	}
	for _, u := range DemoUsers {
		t := d.Tenants[u.Tenant]
		t.Users = append(t.Users, StaticUser{ID: u.ID, DisplayName: u.DisplayName, Groups: u.Groups})
		d.Tenants[u.Tenant] = t
	}
	return d
}()

// DemoResolverOptions are the resolution sources of the demo: DemoDirectory and the embedded
// forms under DemoFormProvider. DemoMissingFormProvider is left out on purpose.
func DemoResolverOptions() ResolverOptions {
	return ResolverOptions{
		Directory: DemoDirectory,
		Forms:     map[string]FormProvider{DemoFormProvider: NewFileFormProvider(DemoForms)},
	}
}

// SeedStore is what the seed needs from the store besides projection; *repository.Store
// satisfies it.
type SeedStore interface {
	Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error)
}

// demoTenants are the tenants the seed writes to.
var demoTenants = []string{"acme", "globex"}

// SeedDemo projects the demo tasks through p, once: when a demo tenant already holds a task it
// writes nothing (the projections are idempotent besides, on fixed bookmark ids). p should
// resolve with DemoResolverOptions so the snapshot groups expand and the demo forms pin.
func SeedDemo(ctx context.Context, store SeedStore, p *Projector) error {
	for _, tenant := range demoTenants {
		page, err := store.Query(ctx, models.TaskFilter{
			Tenant: tenant, Scope: models.ScopeAll, Limit: 1,
			Actor: models.Actor{Tenant: tenant, Manager: true},
		})
		if err != nil {
			return fmt.Errorf("seed: look for tasks: %w", err)
		}
		if len(page.Items) > 0 {
			return nil
		}
	}
	now := time.Now().UTC()
	for _, d := range demoTasks(now) {
		if _, _, err := p.Project(ctx, d.tenant, d.req); err != nil {
			return fmt.Errorf("seed: project %s: %w", d.req.BookmarkID, err)
		}
	}
	return nil
}

// demoTask is one seeded projection.
type demoTask struct {
	tenant string
	req    ProjectionRequest
}

// demoExpenseForm is an inline form with a masked field.
const demoExpenseForm = `{
 "type": "object",
 "required": ["decision"],
 "properties": {
  "decision": {"type": "string", "enum": ["approve", "reject"], "x-ui": {"label": "Decision", "widget": "radio", "order": 1}},
  "cardNumber": {"type": "string", "maxLength": 19, "x-ui": {"label": "Corporate card number", "masked": true, "order": 2}},
  "total": {"type": "number", "minimum": 0, "x-ui": {"label": "Total (EUR)", "order": 3}},
  "note": {"type": "string", "maxLength": 300, "x-ui": {"label": "Note", "widget": "textarea", "order": 4}}
 }
}`

// demoTasks are the seeded tasks, with due times relative to now.
func demoTasks(now time.Time) []demoTask {
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	named := func(ids ...string) []Participant {
		out := make([]Participant, len(ids))
		for i, id := range ids {
			out[i] = Participant{ID: id}
		}
		return out
	}
	data := func(v map[string]any) json.RawMessage {
		raw, _ := json.Marshal(v) // plain maps: cannot fail
		return raw
	}
	prio := func(p int) *int { return &p }
	version := func(v int) *int { return &v }
	step := func(tenant, definition, instance, activity string, t TaskDefinition) demoTask {
		return demoTask{tenant: tenant, req: ProjectionRequest{
			WorkflowDefinitionID: definition, WorkflowDefinitionName: demoDefinitionNames[definition], WorkflowDefinitionVersion: version(3),
			WorkflowInstanceID: instance, WorkflowInstanceReference: "demo:" + instance, ActivityInstanceID: activity,
			BookmarkID: "demo-" + tenant + "-" + instance + "-" + activity, Task: t,
		}}
	}
	approveReject := []models.Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}}

	return []demoTask{
		step("acme", "invoice-approval", "inv-1042", "approve", TaskDefinition{
			Title: "Approve invoice INV-1042", Summary: "Office furniture from Nordic Desk AB, 4,820.00 EUR",
			Reference: "INV-1042", Tags: []string{"finance", "invoice"}, TaskType: "approval", Priority: prio(70),
			Requester: &Participant{ID: "cara", DisplayName: "Cara Cole"}, DueAt: at(48 * time.Hour),
			CandidateGroups: named("finance"), ExcludedUsers: named("eve"),
			Instructions: "Check the **amount** and the payee IBAN against the purchase order before approving.",
			TaskData:     data(map[string]any{"decision": "approve", "iban": "DE89370400440532013000", "amount": 4820}),
			Form:         &FormSpec{Provider: DemoFormProvider, Key: "invoice-approval", Version: LatestVersion},
			Actions:      approveReject, CancellationEnabled: true,
		}),
		step("acme", "expense-report", "exp-311", "review", TaskDefinition{
			Title: "Review expense report of March", Summary: "Conference travel, 3 receipts",
			Reference: "EXP-311", Tags: []string{"expenses"}, TaskType: "review", Priority: prio(60),
			Assignee: &Participant{ID: "ben", DisplayName: "Ben Brooks"}, DueAt: at(3 * time.Hour),
			Instructions: "The hotel receipt is in the attachment folder of the report.",
			TaskData:     data(map[string]any{"cardNumber": "4111111111111111", "total": 1312.4}),
			Form:         &FormSpec{Schema: json.RawMessage(demoExpenseForm)}, CancellationEnabled: true,
		}),
		step("acme", "vendor-onboarding", "ven-77", "confirm-bank", TaskDefinition{
			Title: "Confirm bank details of Blue Harbor Ltd", Summary: "New vendor, first payment pending",
			Reference: "VEN-77", Tags: []string{"vendors", "compliance"}, TaskType: "verification", Priority: prio(85),
			DueAt: at(-26 * time.Hour), CandidateUsers: named("ben", "cara"),
			TaskData: data(map[string]any{"accountNumber": "GB29NWBK60161331926819", "contactEmail": "ap@blueharbor.example"}),
			Form:     &FormSpec{Provider: DemoFormProvider, Key: "vendor-onboarding", Version: "1"},
		}),
		step("acme", "annual-audit", "aud-2026", "sign-off", TaskDefinition{
			Title: "Quarterly audit sign-off", Summary: "Sign off the Q3 ledger review",
			Tags: []string{"audit"}, TaskType: "sign-off", Priority: prio(80), DueAt: at(7 * 24 * time.Hour),
			CandidateGroups: named("auditors"), MembershipMode: string(models.MembershipSnapshot),
			Instructions: "Only the auditors at the time the audit started may sign off.",
		}),
		step("acme", "customer-escalation", "esc-5150", "respond", TaskDefinition{
			Title: "Respond to customer escalation #5150", Summary: "Late delivery, customer asks for a refund",
			Reference: "ESC-5150", Tags: []string{"support", "urgent"}, TaskType: "response", Priority: prio(95),
			DueAt: at(2 * time.Hour), CandidateGroups: named("finance", "purchasing"),
			TimeoutEnabled: true, CancellationEnabled: true,
			Actions: []models.Action{{Key: "Refund", Label: "Refund"}, {Key: "Replace", Label: "Send a replacement"}},
		}),
		step("acme", "travel-request", "trv-88", "approve", TaskDefinition{
			Title: "Approve travel request to Lisbon", Summary: "Trade fair, 3 nights",
			Reference: "TRV-88", Tags: []string{"travel"}, TaskType: "approval", DueAt: at(5 * 24 * time.Hour),
			CandidateGroups: named("finance"), ExcludedUsers: named("eve"), AllowManagerExclusionOverride: true,
			Actions: approveReject,
			Invitations: []models.InvitationDefinition{
				{VerifierName: "code", AllowedActions: []string{"Approve", "Reject"}, Lifetime: "P3D", Recipient: "travel-desk@partner.example"},
			},
		}),
		step("acme", "purchase-order", "po-9001", "approve", TaskDefinition{
			Title: "Approve purchase order PO-9001", Summary: "Migrated from the old system",
			Reference: "PO-9001", Tags: []string{"purchasing"}, TaskType: "approval",
			CandidateGroups: named("purchasing"),
			Form:            &FormSpec{Provider: DemoMissingFormProvider, Key: "purchase-order", Version: "4"},
		}),
		step("acme", "inbox-triage", "tri-12", "triage", TaskDefinition{
			Title: "Triage unrouted request", Summary: "Nobody was assigned by the workflow",
			Tags: []string{"triage"}, TaskType: "triage", Priority: prio(40),
		}),
		step("globex", "contract-renewal", "ctr-204", "renew", TaskDefinition{
			Title: "Renew support contract with Initech", Summary: "Contract ends next month",
			Reference: "CTR-204", Tags: []string{"contracts"}, TaskType: "approval", DueAt: at(24 * time.Hour),
			CandidateGroups: named("support"),
			Form:            &FormSpec{Provider: DemoFormProvider, Key: "invoice-approval", Version: "1"},
			Actions:         approveReject, CancellationEnabled: true,
		}),
		step("globex", "nda-review", "nda-19", "review", TaskDefinition{
			Title: "Legal review of the Umbrella NDA", Summary: "Mutual NDA, 3 years",
			Reference: "NDA-19", Tags: []string{"legal"}, TaskType: "review", Priority: prio(65), DueAt: at(4 * 24 * time.Hour),
			CandidateGroups: named("legal"), MembershipMode: string(models.MembershipSnapshot),
		}),
		step("globex", "discount-approval", "dsc-3", "approve", TaskDefinition{
			Title: "Approve 15% discount for Hooli", Summary: "Sales asks for an exception",
			Reference: "DSC-3", Tags: []string{"sales"}, TaskType: "approval", Priority: prio(75),
			Assignee: &Participant{ID: "hal", DisplayName: "Hal Hughes"}, DueAt: at(-3 * time.Hour),
			Actions: approveReject,
		}),
		step("globex", "employee-onboarding", "onb-58", "it-setup", TaskDefinition{
			Title: "Set up laptop for the new hire", Summary: "Starts on Monday",
			Tags: []string{"onboarding", "it"}, TaskType: "setup", DueAt: at(30 * time.Minute),
			CandidateUsers: named("hal", "ida"), TimeoutEnabled: true,
			Instructions: "Order the standard developer laptop and enrol it before the due time, or the workflow escalates.",
		}),
	}
}

// demoDefinitionNames are the display names of the demo workflows.
var demoDefinitionNames = map[string]string{
	"invoice-approval":    "Invoice approval",
	"expense-report":      "Expense report",
	"vendor-onboarding":   "Vendor onboarding",
	"annual-audit":        "Annual audit",
	"customer-escalation": "Customer escalation",
	"travel-request":      "Travel request",
	"purchase-order":      "Purchase order",
	"inbox-triage":        "Inbox triage",
	"contract-renewal":    "Contract renewal",
	"nda-review":          "NDA review",
	"discount-approval":   "Discount approval",
	"employee-onboarding": "Employee onboarding",
}
