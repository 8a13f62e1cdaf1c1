package storekit

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"usertasks/models"
)

// The audit's rules, each derived from the transitions in models (transition_*.go): a store the
// real code wrote passes every one of them, whichever store it is.

// events: the sequence is 1..n without gaps and ends at last_event_seq; revisions never
// decrease, start at 1 and end at the task's revision (every revision bump appends an event;
// reveals and invitation events keep the revision and take the next sequence).
func (c taskCheck) events() {
	evs := c.t.Events
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
	for i := len(c.t.Events) - 1; i >= 0; i-- {
		if _, ok := ImpliedStatuses[models.EventType(c.t.Events[i].EventType)]; ok {
			return i
		}
	}
	return -1
}

// status: the last status-changing event implies the status; the timestamps and the assignee
// agree with it.
func (c taskCheck) status() {
	st := models.Status(c.r.Status)
	if i := c.lastStatusEvent(); i < 0 {
		c.report("", InvStatusEvent, "no event records how the task reached %s", st)
	} else if e := c.t.Events[i]; !slices.Contains(ImpliedStatuses[models.EventType(e.EventType)], st) {
		c.report(e.ID, InvStatusEvent, "status %s, but the last status-changing event is %s", st, e.EventType)
	}
	assigned := c.r.AssigneeProvider != nil && c.r.AssigneeID != nil
	switch {
	case !st.Valid():
		c.report("", InvStatusFields, "unknown status %q", c.r.Status)
	case st.IsTerminal() != (c.r.CompletedAt != nil):
		c.report("", InvStatusFields, "status %s with completed_at %s", st, SetOrNot(c.r.CompletedAt != nil))
	case st.IsTransitional() && c.r.TransitionedAt == nil:
		c.report("", InvStatusFields, "status %s without transitioned_at", st)
	case st.IsOpen() && (st == models.StatusAssigned) != assigned:
		c.report("", InvStatusFields, "status %s with the assignee %s", st, SetOrNot(assigned))
	case st == models.StatusCompleting && !assigned:
		c.report("", InvStatusFields, "status %s without an assignee", st)
	case assigned != (c.r.AssignedAt != nil):
		c.report("", InvStatusFields, "assignee %s but assigned_at %s", SetOrNot(assigned), SetOrNot(c.r.AssignedAt != nil))
	}
}

// candidates: a candidate row's status copy is the task's status; the summary counts the
// candidates.
func (c taskCheck) candidates() {
	var users, groups, differ int
	first := ""
	for _, cd := range c.t.Candidates {
		if c.a.OwnRows && cd.TaskStatus != c.r.Status {
			if differ++; first == "" {
				first = cd.ID
			}
		}
		switch models.CandidateSource(cd.Source) {
		case models.SourceDirectUser, models.SourceSnapshotMember:
			users++
		case models.SourceDirectGroup:
			groups++
		}
	}
	if differ > 0 {
		c.report(first, InvCandidateStatus, "%d of %d candidate rows have another status than the task's %s", differ, len(c.t.Candidates), c.r.Status)
	}
	if users != c.r.CandidateUsers || groups != c.r.CandidateGroups {
		c.report("", InvCandidateSummary, "summary says %d users and %d groups, the %s %d and %d",
			c.r.CandidateUsers, c.r.CandidateGroups, c.a.Words.Candidates, users, groups)
	}
}

// projections: the tags stored beside the task, the search text and the overdue flag are copies
// of other columns.
func (c taskCheck) projections() {
	w := c.a.Words
	t, err := c.a.Codec.Task(c.r, 0)
	if err != nil {
		c.report("", InvTagRows, "the safe %ss do not decode", w.Column)
		return
	}
	want, got := map[string]bool{}, map[string]bool{}
	for _, tag := range TagKeys(&t) {
		want[tag] = true
	}
	for _, tg := range c.t.Tags {
		got[tg.Tag] = true
	}
	if len(want) != len(got) || len(c.t.Tags) != len(got) || !containsAll(got, want) {
		c.report("", InvTagRows, "%d tags in the tags %s, %d %s, and they differ", len(want), w.Column, len(c.t.Tags), w.Tags)
	}
	if SearchText(&t) != c.r.SearchText {
		c.report("", InvSearchText, "search_text is not the projection of the safe fields")
	}
	if c.r.IsOverdue && (c.r.DueAt == nil || c.r.DueAt.After(c.a.Now)) {
		c.report("", InvOverdueFlag, "flagged overdue without a due date that has passed")
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
func (c taskCheck) operations() {
	st := models.Status(c.r.Status)
	res := c.a.Words.Resumption
	var accepted []OperationRow
	for _, op := range c.t.Operations {
		if models.OperationState(op.State) == models.OperationAccepted {
			accepted = append(accepted, op)
		}
	}
	kind, transitional := TransitionKind[st]
	switch {
	case !transitional && len(accepted) > 0:
		c.report(accepted[0].ID, InvOperationState, "accepted %s operation on a task in status %s", accepted[0].Kind, st)
	case transitional && len(accepted) != 1:
		c.report("", InvOperationState, "status %s with %d accepted operations", st, len(accepted))
	case transitional && models.OperationKind(accepted[0].Kind) != kind:
		c.report(accepted[0].ID, InvOperationState, "status %s waits on an accepted %s operation, not %s", st, kind, accepted[0].Kind)
	}
	for _, r := range c.t.Resumptions {
		if !transitional && models.DeliveryState(r.State) == models.DeliveryPending {
			c.report(r.ID, InvResumption, "pending %s on a task in status %s", res, st)
		}
	}
	if !transitional || len(accepted) != 1 {
		return
	}
	for _, r := range c.t.Resumptions {
		if r.OperationID == accepted[0].OperationID && models.DeliveryState(r.State) != models.DeliverySettled {
			return
		}
	}
	c.report("", InvResumption, "status %s without an unsettled %s for its operation", st, res)
}

// childTenants: every row of the task carries the task's tenant (the tags and candidates only
// where they are rows of their own).
func (c taskCheck) childTenants() {
	check := func(row, tenant string) {
		if tenant != c.r.TenantID {
			c.report(row, InvChildTenant, "a %s of the task carries another tenant", c.a.Words.Row)
		}
	}
	if c.a.OwnRows {
		for _, r := range c.t.Tags {
			check("", r.TenantID)
		}
		for _, r := range c.t.Candidates {
			check(r.ID, r.TenantID)
		}
	}
	for _, r := range c.t.Events {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.t.Operations {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.t.Resumptions {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.t.Invitations {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.t.Deliveries {
		check(r.ID, r.TenantID)
	}
	for _, r := range c.t.Sessions {
		check(r.ID, r.TenantID)
	}
}

// invitations (SPEC 6): verification assigns the task to the invitation's guest, consumes the
// invitation and revokes its siblings in one step; a session lives only while its guest holds
// the task; a delivery is pending only while its invitation waits for it.
func (c taskCheck) invitations() {
	byID := map[string]InvitationRow{}
	verifiedIn := map[string]int{}
	for _, inv := range c.t.Invitations {
		byID[inv.ID] = inv
		if !IsTokenHash(inv.TokenHash) {
			c.report(inv.ID, InvTokenHash, "invitation token hash is not 64 lowercase hex digits")
		}
		if !VerifiedInvitation(inv.Status) {
			continue
		}
		if g := inv.SiblingGroupID; g != nil && *g != "" {
			// A second verification in a group is the finding; its guest cannot hold the task too.
			if verifiedIn[*g]++; verifiedIn[*g] > 1 {
				c.report(inv.ID, InvInvitationGroup, "a second verified invitation in one sibling group")
				continue
			}
		}
		if !GuestHolds(c.r.AssigneeProvider, c.r.AssigneeID, inv.ID) && !MovedOnFrom(inv.ID, len(c.t.Events), func(i int) (string, *string) {
			return c.t.Events[i].EventType, c.t.Events[i].Metadata
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
	for _, d := range c.t.Deliveries {
		inv, ok := byID[d.InvitationID]
		switch {
		case !ok:
			c.report(d.ID, InvDeliveryState, "delivery of an invitation of another task")
		case models.DeliveryState(d.State) == models.DeliveryPending &&
			inv.Status != string(models.InvitationPending) && inv.Status != string(models.InvitationDispatched):
			c.report(d.ID, InvDeliveryState, "pending delivery of an invitation in status %s", inv.Status)
		}
	}
	for _, gs := range c.t.Sessions {
		if !IsTokenHash(gs.TokenHash) {
			c.report(gs.ID, InvTokenHash, "guest session token hash is not 64 lowercase hex digits")
		}
		if gs.ParticipantProvider != models.GuestProvider || gs.ParticipantID != "invitation:"+gs.InvitationID {
			c.report(gs.ID, InvGuestSession, "session participant is not its invitation's guest")
			continue
		}
		if gs.RevokedAt != nil || !gs.ExpiresAt.After(c.a.Now) {
			continue
		}
		// A session row outlives its use when the task closes or leaves the guest: every request
		// checks the task (models.GuestSessionLive), so such a row is dead, not inconsistent.
		if inv, ok := byID[gs.InvitationID]; !ok || !VerifiedInvitation(inv.Status) {
			c.report(gs.ID, InvGuestSession, "live session without a verified invitation of the task")
		}
	}
}

// ciphertexts: every sealed value of the task opens with the configured keys under its own row
// and column; the key ids are counted for the report. A finding on the task's own record names
// no row.
func (c taskCheck) ciphertexts() error {
	for _, v := range c.t.Sealed {
		aadRow := v.Row
		if v.SealRow != "" {
			aadRow = v.SealRow
		}
		state, _, err := c.a.Codec.Check(aadRow, v.Column, v.Envelope, c.page.ByKey)
		if err != nil {
			return err
		}
		if state != SealedUnreadable {
			continue
		}
		row := v.Row
		if v.Table == TaskTable {
			row = ""
		}
		c.report(row, InvCiphertext, "%s.%s does not open with the configured keys", v.Table, v.Column)
	}
	return nil
}

// stimulus: the accepted operation of a transitional task holds what the dispatcher builds its
// stimulus from and what the finalization records (workflow.NewStimulus, models.Finalize): the
// task's outcome names the action its status waits on, a completion names its action and its
// completer, and its payload is the completion data the task holds (both sealed; a value that
// does not open is the ciphertext rule's). A store the audit calls clean so never fails a
// delivery with corrupt-store.
func (c taskCheck) stimulus() error {
	st := models.Status(c.r.Status)
	kind, transitional := TransitionKind[st]
	if !transitional {
		return nil
	}
	var op *OperationRow
	for i := range c.t.Operations {
		if o := &c.t.Operations[i]; models.OperationState(o.State) == models.OperationAccepted {
			if op != nil {
				return nil // the operation-state rule's
			}
			op = o
		}
	}
	if op == nil || models.OperationKind(op.Kind) != kind {
		return nil
	}
	want := map[models.OperationKind]string{models.OpComplete: Str(op.ActionKey), models.OpCancel: models.ActionCancelled,
		models.OpTimeout: models.ActionTimeout}[kind]
	switch {
	case kind == models.OpComplete && want == "":
		c.report(op.ID, InvResumeStimulus, "the accepted completion names no action key")
		return nil
	case kind == models.OpComplete && (op.ActorProvider == nil || op.ActorID == nil):
		c.report(op.ID, InvResumeStimulus, "the accepted completion names no completer")
		return nil
	case Str(c.r.CompletionActionKey) != want:
		c.report("", InvResumeStimulus, "status %s with the outcome action %q, its operation waits on %q", st, Str(c.r.CompletionActionKey), want)
		return nil
	case kind != models.OpComplete:
		return nil
	}
	payload, err := c.opened(op.TaskID, op.ID, ColPayload, op.PayloadEnc)
	if err != nil || payload == nil && op.PayloadEnc != nil && *op.PayloadEnc != "" {
		return err // does not open: the ciphertext rule's
	}
	data, err := c.opened(c.r.ID, c.r.ID, ColCompletionData, c.r.CompletionDataEnc)
	if err != nil || data == nil && c.r.CompletionDataEnc != nil && *c.r.CompletionDataEnc != "" {
		return err
	}
	switch {
	case payload == nil && data != nil:
		c.report(op.ID, InvResumeStimulus, "the accepted completion has no payload, the task holds %d bytes of completion data", len(data))
	case !bytes.Equal(payload, data):
		c.report(op.ID, InvResumeStimulus, "the accepted completion's payload is not the completion data the task holds")
	}
	return nil
}

// opened is the value sealed in column of row rowID, nil when none is stored or it does not
// open (then the ciphertext rule reports it); an error is the key ring's.
func (c taskCheck) opened(taskID, rowID, column string, env *string) ([]byte, error) {
	plain, err := c.a.Codec.Open(taskID, rowID, column, env)
	if errors.Is(err, models.ErrCorrupt) {
		return nil, nil
	}
	return plain, err
}
