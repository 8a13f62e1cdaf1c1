package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"usertasks/formsource"
	"usertasks/models"
	"usertasks/workflow"
)

// Store is what the seed needs from the store besides projection; store.Store
// satisfies it.
type Store interface {
	Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error)
}

// demoTenants are the tenants the seed writes to.
var demoTenants = []string{"acme", "globex"}

// Seed projects the demo tasks through p, once: when a demo tenant already holds a task it
// writes nothing (the projections are idempotent besides, on fixed bookmark ids). p should
// resolve with ResolverOptions so the snapshot groups expand and the demo forms pin.
func Seed(ctx context.Context, store Store, p *workflow.Projector) error {
	return SeedWithHistory(ctx, store, p, nil)
}

// SeedWithHistory is Seed, with HistoryDays of closed tasks written through h first (see
// History) when h is not nil, so the dashboard's trends and percentiles have data on the
// first look. h must be a handle on store's database.
func SeedWithHistory(ctx context.Context, store Store, p *workflow.Projector, h *History) error {
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
	if h != nil {
		if err := seedHistory(ctx, h, now); err != nil {
			return err
		}
		now = time.Now().UTC()
	}
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
	req    workflow.ProjectionRequest
}

// demoExpenseForm is an inline form with a masked field.
const demoExpenseForm = `{
 "type": "object",
 "required": ["decision"],
 "properties": {
  "decision": {"type": "string", "oneOf": [{"const": "approve", "title": "Approve"}, {"const": "reject", "title": "Reject"}], "x-ui": {"label": "Decision", "widget": "radio", "order": 1}},
  "cardNumber": {"type": "string", "maxLength": 19, "x-ui": {"label": "Corporate card number", "masked": true, "order": 2}},
  "total": {"type": "number", "minimum": 0, "x-ui": {"label": "Total (EUR)", "order": 3}},
  "note": {"type": "string", "maxLength": 300, "x-ui": {"label": "Note", "widget": "textarea", "order": 4}}
 }
}`

// demoTasks are the seeded tasks, with due times relative to now.
func demoTasks(now time.Time) []demoTask {
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	named := func(ids ...string) []workflow.Participant {
		out := make([]workflow.Participant, len(ids))
		for i, id := range ids {
			out[i] = workflow.Participant{ID: id}
		}
		return out
	}
	data := func(v map[string]any) json.RawMessage {
		raw, _ := json.Marshal(v) // plain maps: cannot fail
		return raw
	}
	prio := func(p int) *int { return &p }
	version := func(v int) *int { return &v }
	step := func(tenant, definition, instance, activity string, t workflow.TaskDefinition) demoTask {
		return demoTask{tenant: tenant, req: workflow.ProjectionRequest{
			BookmarkLink: workflow.BookmarkLink{WorkflowDefinitionID: definition, WorkflowDefinitionName: demoDefinitionNames[definition],
				WorkflowDefinitionVersion: version(3), WorkflowInstanceID: instance, WorkflowInstanceReference: "demo:" + instance,
				ActivityInstanceID: activity, BookmarkID: "demo-" + tenant + "-" + instance + "-" + activity},
			Task: t,
		}}
	}
	approveReject := []models.Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}}

	return []demoTask{
		step("acme", "invoice-approval", "inv-1042", "approve", workflow.TaskDefinition{
			Title: "Approve invoice INV-1042", Summary: "Office furniture from Nordic Desk AB, 4,820.00 EUR",
			Reference: "INV-1042", Tags: []string{"finance", "invoice"}, TaskType: "approval", Priority: prio(70),
			Requester: &workflow.Participant{ID: "cara", DisplayName: "Cara Cole"}, DueAt: at(48 * time.Hour),
			CandidateGroups: named("finance"), ExcludedUsers: named("eve"),
			Instructions: "Check the **amount** and the payee IBAN against the purchase order before approving.",
			TaskData:     data(map[string]any{"iban": "DE89370400440532013000", "amount": 4820}),
			Form:         &workflow.FormSpec{Provider: FormProvider, Key: "invoice-approval", Version: formsource.LatestVersion},
			Actions:      approveReject, CancellationEnabled: true,
		}),
		step("acme", "expense-report", "exp-311", "review", workflow.TaskDefinition{
			Title: "Review expense report of March", Summary: "Conference travel, 3 receipts",
			Reference: "EXP-311", Tags: []string{"expenses"}, TaskType: "review", Priority: prio(60),
			Assignee: &workflow.Participant{ID: "ben", DisplayName: "Ben Brooks"}, DueAt: at(3 * time.Hour),
			Instructions: "The hotel receipt is in the attachment folder of the report.",
			TaskData:     data(map[string]any{"cardNumber": "4111111111111111", "total": 1312.4}),
			Form:         &workflow.FormSpec{Schema: json.RawMessage(demoExpenseForm)}, CancellationEnabled: true,
		}),
		step("acme", "vendor-onboarding", "ven-77", "confirm-bank", workflow.TaskDefinition{
			Title: "Confirm bank details of Blue Harbor Ltd", Summary: "New vendor, first payment pending",
			Reference: "VEN-77", Tags: []string{"vendors", "compliance"}, TaskType: "verification", Priority: prio(85),
			DueAt: at(-26 * time.Hour), CandidateUsers: named("ben", "cara"),
			TaskData: data(map[string]any{"accountNumber": "GB29NWBK60161331926819", "contactEmail": "ap@blueharbor.example"}),
			Form:     &workflow.FormSpec{Provider: FormProvider, Key: "vendor-onboarding", Version: "1"},
			Invitations: []models.InvitationDefinition{
				{VerifierName: "code", AllowedActions: []string{models.ActionComplete}, Lifetime: "P2D", Recipient: "ap@blueharbor.example"},
			},
		}),
		step("acme", "annual-audit", "aud-2026", "sign-off", workflow.TaskDefinition{
			Title: "Quarterly audit sign-off", Summary: "Sign off the Q3 ledger review",
			Tags: []string{"audit"}, TaskType: "sign-off", Priority: prio(80), DueAt: at(7 * 24 * time.Hour),
			CandidateGroups: named("auditors"), MembershipMode: string(models.MembershipSnapshot),
			Instructions: "Only the auditors at the time the audit started may sign off.",
		}),
		step("acme", "customer-escalation", "esc-5150", "respond", workflow.TaskDefinition{
			Title: "Respond to customer escalation #5150", Summary: "Late delivery, customer asks for a refund",
			Reference: "ESC-5150", Tags: []string{"support", "urgent"}, TaskType: "response", Priority: prio(95),
			DueAt: at(2 * time.Hour), CandidateGroups: named("finance", "purchasing"),
			TimeoutEnabled: true, CancellationEnabled: true,
			Actions: []models.Action{{Key: "Refund", Label: "Refund"}, {Key: "Replace", Label: "Send a replacement"}},
		}),
		step("acme", "travel-request", "trv-88", "approve", workflow.TaskDefinition{
			Title: "Approve travel request to Lisbon", Summary: "Trade fair, 3 nights",
			Reference: "TRV-88", Tags: []string{"travel"}, TaskType: "approval", DueAt: at(5 * 24 * time.Hour),
			CandidateGroups: named("finance"), ExcludedUsers: named("eve"), AllowManagerExclusionOverride: true,
			Actions: approveReject,
			Invitations: []models.InvitationDefinition{
				{VerifierName: "code", AllowedActions: []string{"Approve", "Reject"}, Lifetime: "P3D", Recipient: "travel-desk@partner.example"},
			},
		}),
		step("acme", "purchase-order", "po-9001", "approve", workflow.TaskDefinition{
			Title: "Approve purchase order PO-9001", Summary: "Migrated from the old system",
			Reference: "PO-9001", Tags: []string{"purchasing"}, TaskType: "approval",
			CandidateGroups: named("purchasing"),
			Form:            &workflow.FormSpec{Provider: MissingFormProvider, Key: "purchase-order", Version: "4"},
		}),
		step("acme", "inbox-triage", "tri-12", "triage", workflow.TaskDefinition{
			Title: "Triage unrouted request", Summary: "Nobody was assigned by the workflow",
			Tags: []string{"triage"}, TaskType: "triage", Priority: prio(40),
		}),
		// Two more overdue tasks, so a manager's Needs attention list has several to reschedule
		// at once (the browser test bulk-reschedules three).
		step("acme", "bank-reconciliation", "rec-10", "reconcile", workflow.TaskDefinition{
			Title: "Reconcile the October bank statement", Summary: "Two payments without a matching invoice",
			Reference: "REC-10", Tags: []string{"finance", "month-end"}, TaskType: "reconciliation", Priority: prio(55),
			Assignee: &workflow.Participant{ID: "cara", DisplayName: "Cara Cole"}, DueAt: at(-50 * time.Hour),
			CandidateGroups: named("finance"),
		}),
		step("acme", "insurance-renewal", "ins-4", "renew", workflow.TaskDefinition{
			Title: "Renew the warehouse insurance", Summary: "The broker needs the signed form back",
			Reference: "INS-4", Tags: []string{"purchasing"}, TaskType: "renewal", Priority: prio(65),
			DueAt: at(-5 * time.Hour), CandidateGroups: named("purchasing"), CancellationEnabled: true,
			Invitations: []models.InvitationDefinition{
				{VerifierName: "code", AllowedActions: []string{models.ActionComplete}, Lifetime: "P3D", Recipient: "renewals@harbor-insurance.example"},
			},
		}),
		step("globex", "contract-renewal", "ctr-204", "renew", workflow.TaskDefinition{
			Title: "Renew support contract with Initech", Summary: "Contract ends next month",
			Reference: "CTR-204", Tags: []string{"contracts"}, TaskType: "approval", DueAt: at(24 * time.Hour),
			CandidateGroups: named("support"),
			Form:            &workflow.FormSpec{Provider: FormProvider, Key: "invoice-approval", Version: "1"},
			Actions:         approveReject, CancellationEnabled: true,
		}),
		step("globex", "nda-review", "nda-19", "review", workflow.TaskDefinition{
			Title: "Legal review of the Umbrella NDA", Summary: "Mutual NDA, 3 years",
			Reference: "NDA-19", Tags: []string{"legal"}, TaskType: "review", Priority: prio(65), DueAt: at(4 * 24 * time.Hour),
			CandidateGroups: named("legal"), MembershipMode: string(models.MembershipSnapshot),
			Invitations: []models.InvitationDefinition{
				{VerifierName: "code", AllowedActions: []string{models.ActionComplete}, Lifetime: "P7D", Recipient: "counsel@outside-law.example"},
			},
		}),
		step("globex", "discount-approval", "dsc-3", "approve", workflow.TaskDefinition{
			Title: "Approve 15% discount for Hooli", Summary: "Sales asks for an exception",
			Reference: "DSC-3", Tags: []string{"sales"}, TaskType: "approval", Priority: prio(75),
			Assignee: &workflow.Participant{ID: "hal", DisplayName: "Hal Hughes"}, DueAt: at(-3 * time.Hour),
			Actions: approveReject,
		}),
		step("globex", "employee-onboarding", "onb-58", "it-setup", workflow.TaskDefinition{
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
	"bank-reconciliation": "Bank reconciliation",
	"insurance-renewal":   "Insurance renewal",
	"contract-renewal":    "Contract renewal",
	"nda-review":          "NDA review",
	"discount-approval":   "Discount approval",
	"employee-onboarding": "Employee onboarding",
}
