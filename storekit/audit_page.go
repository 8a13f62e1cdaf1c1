package storekit

import (
	"fmt"
	"time"

	"usertasks/store"
)

// The audit's page, as every store judges it: the store reads a page of tasks in (tenant, id)
// order and each task's rows its own way (SQL: one read transaction, one query per table;
// documents: each aggregate with its documents, the pending entries and effects applied), and
// hands them to an Auditor, which counts the page and applies the rules (audit_rules.go).

// DefaultAuditPageSize is how many tasks an audit page reads when the caller names no size.
const DefaultAuditPageSize = 200

// AuditPageSize is the page size an audit reads for the size asked for.
func AuditPageSize(size int) int {
	if size <= 0 {
		return DefaultAuditPageSize
	}
	return size
}

// AuditTask is one task as the audit judges it: its own row and the rows of its aggregate, each
// list in the store's order (the events by sequence).
type AuditTask struct {
	Task        *TaskRow
	Tags        []AuditTag
	Candidates  []AuditCandidate
	Events      []EventRow
	Operations  []OperationRow
	Resumptions []ResumptionRow
	Invitations []InvitationRow
	Deliveries  []DeliveryRow
	Sessions    []GuestSessionRow
	// Sealed are the task's sealed values, in the order their findings are reported.
	Sealed []SealedValue
}

// AuditTag is one of the task's normalized tags as stored beside it (a tag row, a tag key) and,
// where the store keeps it as a row of its own, that row's tenant.
type AuditTag struct {
	Tag      string
	TenantID string
}

// AuditCandidate is one of the task's candidates and, where the store keeps it as a row of its
// own, that row's tenant and copy of the task's status.
type AuditCandidate struct {
	ID         string
	Source     string
	TenantID   string
	TaskStatus string
}

// SealedValue is one sealed value of a task's aggregate: the table it is stored in, the row it
// is sealed for (with its column, the associated data) and its envelope ("" when none).
type SealedValue struct {
	Table, Row, Column string
	Envelope           string
	// SealRow is the row part of the associated data when it is more than Row
	// (SealedTable.Scope); "" means Row.
	SealRow string
}

// AuditWords are what a store's findings call its records, so that each store's messages read
// in its own terms.
type AuditWords struct {
	Row        string // a record of the task in another table: "row", "document"
	Column     string // a field of the task's own record: "column", "field"
	Candidates string // the candidate records: "rows", "candidates"
	Tags       string // the tag records: "tag rows", "tag keys"
	Resumption string // a resumption outbox record: "resumption row", "resumption"
}

// Auditor judges the tasks of one audit page at Now.
type Auditor struct {
	// Codec decodes the safe columns and opens the sealed values with the store's keys.
	Codec Codec
	Words AuditWords
	// OwnRows is set where the tags and candidates are rows of their own, each with the task's
	// tenant and (a candidate) a copy of its status, which the rules then check (SQL); unset
	// where they are entries of the task's own record (documents).
	OwnRows bool
	Now     time.Time
}

// Page judges one page: tasks are the page's tasks as read, in (tenant, id) order, at most size
// of them; view(i) reads the i-th with its rows, nil when it is gone meanwhile (a purge), which
// the page then does not count. An error ends the page; the findings so far come with it.
func (a Auditor) Page(tasks []*TaskRow, size int, view func(i int) (*AuditTask, error)) (store.AuditPage, error) {
	page := store.AuditPage{ByKey: map[string]int{}, Tasks: len(tasks), Done: len(tasks) < size}
	if len(tasks) == 0 {
		return page, nil
	}
	page.LastTenant, page.LastID = tasks[len(tasks)-1].TenantID, tasks[len(tasks)-1].ID
	for i := range tasks {
		t, err := view(i)
		if err != nil {
			return page, err
		}
		if t == nil {
			page.Tasks--
			continue
		}
		c := taskCheck{a: &a, page: &page, t: t, r: t.Task}
		if err := c.all(); err != nil {
			return page, err
		}
	}
	return page, nil
}

// taskCheck is the context of one task's checks.
type taskCheck struct {
	a    *Auditor
	page *store.AuditPage
	t    *AuditTask
	r    *TaskRow
}

func (c taskCheck) report(row, invariant, format string, args ...any) {
	c.page.Findings = append(c.page.Findings, store.AuditFinding{Tenant: c.r.TenantID, TaskID: c.r.ID, Row: row,
		Invariant: invariant, Message: fmt.Sprintf(format, args...)})
}

// all applies every rule, in the order their findings are reported.
func (c taskCheck) all() error {
	c.events()
	c.status()
	c.candidates()
	c.projections()
	c.operations()
	if err := c.stimulus(); err != nil {
		return err
	}
	c.childTenants()
	c.invitations()
	return c.ciphertexts()
}
