package docstore

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// The audit's rules: repository/audit_rules.go's, rule for rule, on the aggregate and its
// documents (change both together; the codes, tables and checks both read are storekit's). A
// store the real transitions wrote passes every one.

func sortEvents(evs []eventDoc) {
	slices.SortFunc(evs, func(a, b eventDoc) int { return cmp.Compare(a.Seq, b.Seq) })
}

// docAuditor checks the tasks of one page.
type docAuditor struct {
	store *Store
	now   time.Time
	page  *store.AuditPage
}

// docCheck is the context of one task's checks.
type docCheck struct {
	a    *docAuditor
	d    *taskDoc
	rows *auditRows
}

func (c docCheck) report(row, invariant, format string, args ...any) {
	c.a.page.Findings = append(c.a.page.Findings, store.AuditFinding{Tenant: c.d.TenantID, TaskID: c.d.ID, Row: row,
		Invariant: invariant, Message: fmt.Sprintf(format, args...)})
}

func (a *docAuditor) task(d *taskDoc, rows *auditRows) error {
	c := docCheck{a: a, d: d, rows: rows}
	c.events()
	c.status()
	c.candidates()
	c.projections()
	c.operations()
	c.childTenants()
	c.invitations()
	return c.ciphertexts()
}

// events: the sequence is 1..n without gaps and ends at last_event_seq; revisions never
// decrease, start at 1 and end at the task's revision.
func (c docCheck) events() {
	evs := c.rows.events
	for i, e := range evs {
		if e.Seq != i+1 {
			c.report(e.ID, storekit.InvEventSequence, "event sequence %d where %d was expected", e.Seq, i+1)
			break
		}
	}
	if n := len(evs); n == 0 || evs[n-1].Seq != c.d.LastEventSeq || n != c.d.LastEventSeq {
		last := 0
		if n > 0 {
			last = evs[n-1].Seq
		}
		c.report("", storekit.InvEventSequence, "last_event_seq is %d, the task has %d events ending at sequence %d", c.d.LastEventSeq, n, last)
	}
	prev := 0
	for _, e := range evs {
		if e.Revision < prev || e.Revision > c.d.Revision || e.Revision < 1 {
			c.report(e.ID, storekit.InvEventRevision, "event %d has revision %d after %d, task revision %d", e.Seq, e.Revision, prev, c.d.Revision)
			return
		}
		prev = e.Revision
	}
	if len(evs) > 0 && prev != c.d.Revision {
		c.report("", storekit.InvEventRevision, "the last event has revision %d, the task %d", prev, c.d.Revision)
	}
}

// lastStatusEvent returns the index of the last event that changes the status, or -1.
func (c docCheck) lastStatusEvent() int {
	for i := len(c.rows.events) - 1; i >= 0; i-- {
		if _, ok := storekit.ImpliedStatuses[models.EventType(c.rows.events[i].EventType)]; ok {
			return i
		}
	}
	return -1
}

// status: the last status-changing event implies the status; the times and the assignee agree.
func (c docCheck) status() {
	st := models.Status(c.d.Status)
	if i := c.lastStatusEvent(); i < 0 {
		c.report("", storekit.InvStatusEvent, "no event records how the task reached %s", st)
	} else if e := c.rows.events[i]; !slices.Contains(storekit.ImpliedStatuses[models.EventType(e.EventType)], st) {
		c.report(e.ID, storekit.InvStatusEvent, "status %s, but the last status-changing event is %s", st, e.EventType)
	}
	assigned := c.d.AssigneeProvider != nil && c.d.AssigneeID != nil
	switch {
	case !st.Valid():
		c.report("", storekit.InvStatusFields, "unknown status %q", c.d.Status)
	case st.IsTerminal() != (c.d.CompletedAt != nil):
		c.report("", storekit.InvStatusFields, "status %s with completed_at %s", st, storekit.SetOrNot(c.d.CompletedAt != nil))
	case st.IsTransitional() && c.d.TransitionedAt == nil:
		c.report("", storekit.InvStatusFields, "status %s without transitioned_at", st)
	case st.IsOpen() && (st == models.StatusAssigned) != assigned:
		c.report("", storekit.InvStatusFields, "status %s with the assignee %s", st, storekit.SetOrNot(assigned))
	case st == models.StatusCompleting && !assigned:
		c.report("", storekit.InvStatusFields, "status %s without an assignee", st)
	case assigned != (c.d.AssignedAt != nil):
		c.report("", storekit.InvStatusFields, "assignee %s but assigned_at %s", storekit.SetOrNot(assigned), storekit.SetOrNot(c.d.AssignedAt != nil))
	}
}

// candidates: the summary counts the embedded candidates.
func (c docCheck) candidates() {
	var users, groups int
	for _, cd := range c.d.Candidates {
		switch models.CandidateSource(cd.Source) {
		case models.SourceDirectUser, models.SourceSnapshotMember:
			users++
		case models.SourceDirectGroup:
			groups++
		}
	}
	if users != c.d.CandidateUsers || groups != c.d.CandidateGroups {
		c.report("", storekit.InvCandidateSummary, "summary says %d users and %d groups, the candidates %d and %d",
			c.d.CandidateUsers, c.d.CandidateGroups, users, groups)
	}
}

// projections: the tag keys, the search text and the overdue flag are copies of other fields.
func (c docCheck) projections() {
	t, err := c.a.store.fromDoc(c.d, 0)
	if err != nil {
		c.report("", storekit.InvTagRows, "the safe fields do not decode")
		return
	}
	want, got := map[string]bool{}, map[string]bool{}
	for _, tg := range tagDocs(&t) {
		want[tg.Tag] = true
	}
	for _, tg := range c.d.TagKeys {
		got[tg.Tag] = true
	}
	if len(want) != len(got) || len(c.d.TagKeys) != len(got) || !containsAll(got, want) {
		c.report("", storekit.InvTagRows, "%d tags in the tags field, %d tag keys, and they differ", len(want), len(c.d.TagKeys))
	}
	if storekit.SearchText(&t) != c.d.SearchText {
		c.report("", storekit.InvSearchText, "search_text is not the projection of the safe fields")
	}
	if c.d.IsOverdue && (c.d.DueAt == nil || c.d.DueAt.After(c.a.now)) {
		c.report("", storekit.InvOverdueFlag, "flagged overdue without a due date that has passed")
	}
}

func containsAll(have, want map[string]bool) bool {
	for k := range want {
		if !have[k] {
			return false
		}
	}
	return true
}

// operations: a transitional task has exactly one accepted operation, of the kind its status
// waits on, and a resumption for it that finalization has not settled; no other task has an
// accepted operation or a pending resumption.
func (c docCheck) operations() {
	st := models.Status(c.d.Status)
	var accepted []operationDoc
	for _, op := range c.rows.operations {
		if models.OperationState(op.State) == models.OperationAccepted {
			accepted = append(accepted, op)
		}
	}
	kind, transitional := storekit.TransitionKind[st]
	switch {
	case !transitional && len(accepted) > 0:
		c.report(accepted[0].ID, storekit.InvOperationState, "accepted %s operation on a task in status %s", accepted[0].Kind, st)
	case transitional && len(accepted) != 1:
		c.report("", storekit.InvOperationState, "status %s with %d accepted operations", st, len(accepted))
	case transitional && models.OperationKind(accepted[0].Kind) != kind:
		c.report(accepted[0].ID, storekit.InvOperationState, "status %s waits on an accepted %s operation, not %s", st, kind, accepted[0].Kind)
	}
	for _, res := range c.rows.resumptions {
		if !transitional && models.DeliveryState(res.State) == models.DeliveryPending {
			c.report(res.ID, storekit.InvResumption, "pending resumption on a task in status %s", st)
		}
	}
	if !transitional || len(accepted) != 1 {
		return
	}
	for _, res := range c.rows.resumptions {
		if res.OperationID == accepted[0].OperationID && models.DeliveryState(res.State) != models.DeliverySettled {
			return
		}
	}
	c.report("", storekit.InvResumption, "status %s without an unsettled resumption for its operation", st)
}

// childTenants: every document of the task in another collection carries the task's tenant
// (the embedded rows are the aggregate's own).
func (c docCheck) childTenants() {
	check := func(row, tenant string) {
		if tenant != c.d.TenantID {
			c.report(row, storekit.InvChildTenant, "a document of the task carries another tenant")
		}
	}
	for _, r := range c.rows.events {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.rows.operations {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.rows.resumptions {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.rows.invitations {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.rows.deliveries {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.rows.sessions {
		check(r.ID, r.TenantID)
	}
}

// invitations (SPEC 6): a verified invitation's guest holds the task (or an event moved it on),
// one verification per sibling group, a live session only for a verified invitation, a pending
// delivery only while its invitation waits for it.
func (c docCheck) invitations() {
	byID := map[string]invitationDoc{}
	verifiedIn := map[string]int{}
	for _, inv := range c.rows.invitations {
		byID[inv.ID] = inv
		if !storekit.IsTokenHash(inv.TokenHash) {
			c.report(inv.ID, storekit.InvTokenHash, "invitation token hash is not 64 lowercase hex digits")
		}
		if !storekit.VerifiedInvitation(inv.Status) {
			continue
		}
		if g := inv.SiblingGroupID; g != nil && *g != "" {
			if verifiedIn[*g]++; verifiedIn[*g] > 1 {
				c.report(inv.ID, storekit.InvInvitationGroup, "a second verified invitation in one sibling group")
				continue
			}
		}
		if !storekit.GuestHolds(c.d.AssigneeProvider, c.d.AssigneeID, inv.ID) && !storekit.MovedOnFrom(inv.ID, len(c.rows.events), func(i int) (string, *string) {
			return c.rows.events[i].EventType, c.rows.events[i].Metadata
		}) {
			c.report(inv.ID, storekit.InvInvitationGuest, "invitation %s, but the task is not assigned to its guest and no event moved it on", inv.Status)
		}
	}
	if c.d.AssigneeProvider != nil && c.d.AssigneeID != nil {
		ref := models.ParticipantRef{Provider: *c.d.AssigneeProvider, ID: *c.d.AssigneeID}
		if ref.IsGuest() {
			inv, ok := byID[strings.TrimPrefix(ref.ID, "invitation:")]
			if !ok || inv.VerifiedAt == nil {
				c.report("", storekit.InvInvitationGuest, "assigned to a guest without a verified invitation of the task")
			}
		}
	}
	for _, dl := range c.rows.deliveries {
		inv, ok := byID[dl.InvitationID]
		switch {
		case !ok:
			c.report(dl.ID, storekit.InvDeliveryState, "delivery of an invitation of another task")
		case models.DeliveryState(dl.State) == models.DeliveryPending &&
			inv.Status != string(models.InvitationPending) && inv.Status != string(models.InvitationDispatched):
			c.report(dl.ID, storekit.InvDeliveryState, "pending delivery of an invitation in status %s", inv.Status)
		}
	}
	for _, gs := range c.rows.sessions {
		if !storekit.IsTokenHash(gs.TokenHash) {
			c.report(gs.ID, storekit.InvTokenHash, "guest session token hash is not 64 lowercase hex digits")
		}
		if gs.ParticipantProvider != models.GuestProvider || gs.ParticipantID != "invitation:"+gs.InvitationID {
			c.report(gs.ID, storekit.InvGuestSession, "session participant is not its invitation's guest")
			continue
		}
		if gs.RevokedAt != nil || !gs.ExpiresAt.After(c.a.now) {
			continue
		}
		if inv, ok := byID[gs.InvitationID]; !ok || !storekit.VerifiedInvitation(inv.Status) {
			c.report(gs.ID, storekit.InvGuestSession, "live session without a verified invitation of the task")
		}
	}
}

// ciphertexts: every sealed value of the task opens with the configured keys under its own
// row and field; the key ids are counted for the report.
func (c docCheck) ciphertexts() error {
	check := func(unit, row, findingRow, field string, env *string) error {
		st, _, err := c.a.store.checkSealed(row, field, str(env), c.a.page.ByKey)
		if err != nil || st != sealedUnreadable {
			return err
		}
		c.report(findingRow, storekit.InvCiphertext, "%s.%s does not open with the configured keys", unit, field)
		return nil
	}
	for _, col := range storekit.ProtectedColumns {
		if err := check(Aggregate, c.d.ID, "", col.Name, *c.d.SealedColumn(col.Name)); err != nil {
			return err
		}
	}
	for _, o := range c.rows.operations {
		if err := check(operationCollection, o.ID, o.ID, colPayload, o.PayloadEnc); err != nil {
			return err
		}
	}
	for _, inv := range c.rows.invitations {
		if err := check(invitationCollection, inv.ID, inv.ID, colRecipient, inv.RecipientEnc); err != nil {
			return err
		}
	}
	for _, dl := range c.rows.deliveries {
		if err := check(deliveryCollection, dl.ID, dl.ID, colPayload, &dl.PayloadEnc); err != nil {
			return err
		}
	}
	return nil
}
