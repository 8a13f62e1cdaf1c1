package repository

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// The audit's rules, each derived from the transitions in models (transition_*.go): a store the
// real code wrote passes every one of them.

// auditor checks the tasks of one page.
type auditor struct {
	store *Store
	now   time.Time
	page  *store.AuditPage
}

// taskCheck is the context of one task's checks.
type taskCheck struct {
	a    *auditor
	r    *taskRecord
	rows *taskRows
}

func (c taskCheck) report(row, invariant, format string, args ...any) {
	c.a.page.Findings = append(c.a.page.Findings, store.AuditFinding{Tenant: c.r.TenantID, TaskID: c.r.ID, Row: row,
		Invariant: invariant, Message: fmt.Sprintf(format, args...)})
}

func (a *auditor) task(r *taskRecord, rows *taskRows) error {
	c := taskCheck{a: a, r: r, rows: rows}
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
// decrease, start at 1 and end at the task's revision (every revision bump appends an event;
// reveals and invitation events keep the revision and take the next sequence).
func (c taskCheck) events() {
	evs := c.rows.events
	for i, e := range evs {
		if e.Seq != i+1 {
			c.report(e.ID, InvEventSequence, "event sequence %d where %d was expected", e.Seq, i+1)
			break
		}
	}
	if n := len(evs); n == 0 || evs[n-1].Seq != c.r.LastEventSeq || n != c.r.LastEventSeq {
		last := 0
		if n > 0 {
			last = evs[n-1].Seq
		}
		c.report("", InvEventSequence, "last_event_seq is %d, the task has %d events ending at sequence %d", c.r.LastEventSeq, n, last)
	}
	prev := 0
	for _, e := range evs {
		if e.Revision < prev || e.Revision > c.r.Revision || e.Revision < 1 {
			c.report(e.ID, InvEventRevision, "event %d has revision %d after %d, task revision %d", e.Seq, e.Revision, prev, c.r.Revision)
			return
		}
		prev = e.Revision
	}
	if len(evs) > 0 && prev != c.r.Revision {
		c.report("", InvEventRevision, "the last event has revision %d, the task %d", prev, c.r.Revision)
	}
}

// lastStatusEvent returns the index of the last event that changes the status, or -1.
func (c taskCheck) lastStatusEvent() int {
	for i := len(c.rows.events) - 1; i >= 0; i-- {
		if _, ok := storekit.ImpliedStatuses[models.EventType(c.rows.events[i].EventType)]; ok {
			return i
		}
	}
	return -1
}

// status: the last status-changing event implies the status column; the timestamps and the
// assignee agree with it.
func (c taskCheck) status() {
	st := models.Status(c.r.Status)
	if i := c.lastStatusEvent(); i < 0 {
		c.report("", InvStatusEvent, "no event records how the task reached %s", st)
	} else if e := c.rows.events[i]; !slices.Contains(storekit.ImpliedStatuses[models.EventType(e.EventType)], st) {
		c.report(e.ID, InvStatusEvent, "status %s, but the last status-changing event is %s", st, e.EventType)
	}
	assigned := c.r.AssigneeProvider != nil && c.r.AssigneeID != nil
	switch {
	case !st.Valid():
		c.report("", InvStatusFields, "unknown status %q", c.r.Status)
	case st.IsTerminal() != (c.r.CompletedAt != nil):
		c.report("", InvStatusFields, "status %s with completed_at %s", st, storekit.SetOrNot(c.r.CompletedAt != nil))
	case st.IsTransitional() && c.r.TransitionedAt == nil:
		c.report("", InvStatusFields, "status %s without transitioned_at", st)
	case st.IsOpen() && (st == models.StatusAssigned) != assigned:
		c.report("", InvStatusFields, "status %s with the assignee %s", st, storekit.SetOrNot(assigned))
	case st == models.StatusCompleting && !assigned:
		c.report("", InvStatusFields, "status %s without an assignee", st)
	case assigned != (c.r.AssignedAt != nil):
		c.report("", InvStatusFields, "assignee %s but assigned_at %s", storekit.SetOrNot(assigned), storekit.SetOrNot(c.r.AssignedAt != nil))
	}
}

// candidates: every row's status copy is the task's status; the summary counts the rows.
func (c taskCheck) candidates() {
	var users, groups, differ int
	first := ""
	for _, cr := range c.rows.candidates {
		if cr.TaskStatus != c.r.Status {
			if differ++; first == "" {
				first = cr.ID
			}
		}
		switch models.CandidateSource(cr.Source) {
		case models.SourceDirectUser, models.SourceSnapshotMember:
			users++
		case models.SourceDirectGroup:
			groups++
		}
	}
	if differ > 0 {
		c.report(first, InvCandidateStatus, "%d of %d candidate rows have another status than the task's %s", differ, len(c.rows.candidates), c.r.Status)
	}
	if users != c.r.CandidateUsers || groups != c.r.CandidateGroups {
		c.report("", InvCandidateSummary, "summary says %d users and %d groups, the rows %d and %d",
			c.r.CandidateUsers, c.r.CandidateGroups, users, groups)
	}
}

// projections: the tag rows, the search text and the overdue flag are copies of other columns.
func (c taskCheck) projections() {
	t, err := c.a.store.fromTaskRecord(c.r, false)
	if err != nil {
		c.report("", InvTagRows, "the safe columns do not decode")
		return
	}
	want := map[string]bool{}
	for _, tr := range tagRecords(&t) {
		want[tr.Tag] = true
	}
	got := map[string]bool{}
	for _, tr := range c.rows.tags {
		got[tr.Tag] = true
	}
	if !mapsEqual(want, got) {
		c.report("", InvTagRows, "%d tags in the tags column, %d tag rows, and they differ", len(want), len(got))
	}
	if storekit.SearchText(&t) != c.r.SearchText {
		c.report("", InvSearchText, "search_text is not the projection of the safe fields")
	}
	if c.r.IsOverdue && (c.r.DueAt == nil || c.r.DueAt.After(c.a.now)) {
		c.report("", InvOverdueFlag, "flagged overdue without a due date that has passed")
	}
}

func mapsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// operations: a transitional task has exactly one accepted operation, of the kind its status
// waits on, and a resumption row for it that finalization has not settled; no other task has an
// accepted operation or a pending resumption row.
func (c taskCheck) operations() {
	st := models.Status(c.r.Status)
	var accepted []operationRecord
	for _, op := range c.rows.operations {
		if models.OperationState(op.State) == models.OperationAccepted {
			accepted = append(accepted, op)
		}
	}
	kind, transitional := storekit.TransitionKind[st]
	switch {
	case !transitional && len(accepted) > 0:
		c.report(accepted[0].ID, InvOperationState, "accepted %s operation on a task in status %s", accepted[0].Kind, st)
	case transitional && len(accepted) != 1:
		c.report("", InvOperationState, "status %s with %d accepted operations", st, len(accepted))
	case transitional && models.OperationKind(accepted[0].Kind) != kind:
		c.report(accepted[0].ID, InvOperationState, "status %s waits on an accepted %s operation, not %s", st, kind, accepted[0].Kind)
	}
	for _, res := range c.rows.resumptions {
		if !transitional && models.DeliveryState(res.State) == models.DeliveryPending {
			c.report(res.ID, InvResumption, "pending resumption row on a task in status %s", st)
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
	c.report("", InvResumption, "status %s without an unsettled resumption row for its operation", st)
}

// childTenants: every row of the task carries the task's tenant.
func (c taskCheck) childTenants() {
	check := func(row, tenant string) {
		if tenant != c.r.TenantID {
			c.report(row, InvChildTenant, "a row of the task carries another tenant")
		}
	}
	for _, r := range c.rows.tags {
		check("", r.TenantID)
	}
	for _, r := range c.rows.candidates {
		check(r.ID, r.TenantID)
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

// invitations (SPEC 6): verification assigns the task to the invitation's guest, consumes the
// invitation and revokes its siblings in one transaction; a session lives only while its guest
// holds the task; a delivery is pending only while its invitation waits for it.
func (c taskCheck) invitations() {
	byID := map[string]invitationRecord{}
	verifiedIn := map[string]int{}
	for _, inv := range c.rows.invitations {
		byID[inv.ID] = inv
		if !storekit.IsTokenHash(inv.TokenHash) {
			c.report(inv.ID, InvTokenHash, "invitation token hash is not 64 lowercase hex digits")
		}
		if !storekit.VerifiedInvitation(inv.Status) {
			continue
		}
		if g := inv.SiblingGroupID; g != nil && *g != "" {
			// A second verification in a group is the finding; its guest cannot hold the task too.
			if verifiedIn[*g]++; verifiedIn[*g] > 1 {
				c.report(inv.ID, InvInvitationGroup, "a second verified invitation in one sibling group")
				continue
			}
		}
		if !storekit.GuestHolds(c.r.AssigneeProvider, c.r.AssigneeID, inv.ID) && !storekit.MovedOnFrom(inv.ID, len(c.rows.events), func(i int) (string, *string) {
			return c.rows.events[i].EventType, c.rows.events[i].Metadata
		}) {
			c.report(inv.ID, InvInvitationGuest, "invitation %s, but the task is not assigned to its guest and no event moved it on", inv.Status)
		}
	}
	if c.r.AssigneeProvider != nil && c.r.AssigneeID != nil {
		ref := models.ParticipantRef{Provider: *c.r.AssigneeProvider, ID: *c.r.AssigneeID}
		if ref.IsGuest() {
			inv, ok := byID[strings.TrimPrefix(ref.ID, "invitation:")]
			// A manager may revoke a verified invitation; the guest keeps the task until they act.
			if !ok || inv.VerifiedAt == nil {
				c.report("", InvInvitationGuest, "assigned to a guest without a verified invitation of the task")
			}
		}
	}
	for _, d := range c.rows.deliveries {
		inv, ok := byID[d.InvitationID]
		switch {
		case !ok:
			c.report(d.ID, InvDeliveryState, "delivery of an invitation of another task")
		case models.DeliveryState(d.State) == models.DeliveryPending &&
			inv.Status != string(models.InvitationPending) && inv.Status != string(models.InvitationDispatched):
			c.report(d.ID, InvDeliveryState, "pending delivery of an invitation in status %s", inv.Status)
		}
	}
	for _, gs := range c.rows.sessions {
		if !storekit.IsTokenHash(gs.TokenHash) {
			c.report(gs.ID, InvTokenHash, "guest session token hash is not 64 lowercase hex digits")
		}
		if gs.ParticipantProvider != models.GuestProvider || gs.ParticipantID != "invitation:"+gs.InvitationID {
			c.report(gs.ID, InvGuestSession, "session participant is not its invitation's guest")
			continue
		}
		if gs.RevokedAt != nil || !gs.ExpiresAt.After(c.a.now) {
			continue
		}
		// A session row outlives its use when the task closes or leaves the guest: every request
		// checks the task (models.GuestSessionLive), so such a row is dead, not inconsistent.
		if inv, ok := byID[gs.InvitationID]; !ok || !storekit.VerifiedInvitation(inv.Status) {
			c.report(gs.ID, InvGuestSession, "live session without a verified invitation of the task")
		}
	}
}

// ciphertexts: every sealed value of the task's rows (repository.SealedTables) opens with the
// configured keys under its own row and column; the key ids are counted for the report.
func (c taskCheck) ciphertexts() error {
	for _, v := range c.rows.sealed {
		for i, col := range v.table.columns {
			ok, err := c.a.store.opensSealed(v.row.key, col, v.row.values[i], c.a.page.ByKey)
			if err != nil {
				return err
			}
			if ok {
				continue
			}
			row := v.row.key
			if v.table.Name == "user_tasks" {
				row = ""
			}
			c.report(row, InvCiphertext, "%s.%s does not open with the configured keys", v.table.Name, col)
		}
	}
	return nil
}
