package tasks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"usertasks/models"
	"usertasks/tasks"
)

// The fixture's task data prefills the masked field iban with this value.
const prefilledIBAN = "DE89370400440532013000"

// wantNoSecret fails when v, encoded as JSON the way any consumer could, carries secret.
func wantNoSecret(t *testing.T, what string, v any, secret string) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(secret)) {
		t.Errorf("%s carries the masked value %s", what, secret)
	}
}

// TestMaskedValuesLeaveOnlyThroughReveal covers SPEC 3.7 at the service: what Detail, the
// command results (replays included) and List hand to the JSON API and the pages never holds a
// masked member; Reveal returns it and records the audit event.
func TestMaskedValuesLeaveOnlyThroughReveal(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	task := f.project(t, nil)
	ann := person("ann")
	const submitted = "DE44SUBMITTED0532013111"

	claimed, err := f.svc.Claim(ctx, ann, task.ID, tasks.Common{ExpectedRevision: task.Revision, OperationID: "claim-1"})
	if err != nil {
		t.Fatal(err)
	}
	wantNoSecret(t, "the claim result", claimed, prefilledIBAN)

	for _, a := range []models.Actor{ann, boss()} {
		d, err := f.svc.Detail(ctx, a, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantNoSecret(t, "the detail for "+a.Subject.ID, d, prefilledIBAN)
		if got, want := string(d.Task.Protected.Data), `{"decision":"approve"}`; got != want {
			t.Errorf("detail data for %s = %s, want %s", a.Subject.ID, got, want)
		}
		if d.Task.Protected.Instructions != "Check the IBAN" || d.Form == nil {
			t.Errorf("detail for %s lost the unmasked protected parts: %+v", a.Subject.ID, d.Task.Protected)
		}
	}

	value, err := f.svc.Reveal(ctx, ann, task.ID, "iban")
	if err != nil || value != prefilledIBAN {
		t.Fatalf("reveal: %v, %v; want the prefilled value", value, err)
	}
	evs, _ := f.svc.Events(ctx, ann, task.ID, "", 50)
	if last := evs.Items[len(evs.Items)-1]; last.Type != models.EventFieldRevealed {
		t.Fatalf("last event %s, want field-revealed", last.Type)
	}
	wantNoSecret(t, "the events", evs, prefilledIBAN)

	in := tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: claimed.Revision, OperationID: "done-1"},
		ActionKey: "Complete", Data: json.RawMessage(`{"decision":"approve","iban":"` + submitted + `"}`)}
	for range 2 { // the second is the replay
		res, err := f.svc.Complete(ctx, ann, task.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		wantNoSecret(t, "the complete result", res, prefilledIBAN)
		wantNoSecret(t, "the complete result", res, submitted)
	}
	d, err := f.svc.Detail(ctx, boss(), task.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantNoSecret(t, "the detail after completion", d, prefilledIBAN)
	wantNoSecret(t, "the detail after completion", d, submitted)
	page, err := f.svc.List(ctx, boss(), models.TaskFilter{Scope: models.ScopeAll})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("list: %d items, %v", len(page.Items), err)
	}
	wantNoSecret(t, "the list", page, submitted)
}

// TestDetailWithholdsDataItCannotMask: when the task refers to a form the service cannot use
// (unresolved, or a schema forms cannot parse), nobody can tell which members are masked, so the
// detail shows no task data at all rather than guessing. Without a form nothing is masked.
func TestDetailWithholdsDataItCannotMask(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tests := []struct {
		name string
		form *models.PinnedForm
		want string
	}{
		{"NoForm", nil, `{"iban":"DE89370400440532013000","decision":"approve"}`},
		{"UnresolvedForm", &models.PinnedForm{Requested: &models.FormRef{Provider: "files", Key: "invoice"}}, `{}`},
		{"UnparseableForm", &models.PinnedForm{Schema: json.RawMessage(`{"type":"object","properties":{"iban":{"type":"array"}}}`)}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task := f.project(t, func(p *models.Projection) { p.Form = tt.form })
			d, err := f.svc.Detail(ctx, boss(), task.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(d.Task.Protected.Data); got != tt.want {
				t.Fatalf("data = %s, want %s", got, tt.want)
			}
		})
	}
}
