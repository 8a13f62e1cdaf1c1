package repository

import (
	"context"
	"fmt"
	"sort"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// The audit (SPEC 8, `web audit`) reads the store in pages of aggregates ordered by (tenant,
// id), each page in one read transaction so it sees one consistent snapshot, and checks the
// invariants the transitions in models maintain (storekit.Auditor). It never writes and never
// repairs: a finding names the tenant, the task (or row) and the invariant, and its message
// never carries protected content.

// Audit reads up to size tasks after the filter's resume key, with their rows, in one read
// transaction, and checks every per-task invariant (storekit.Auditor). It never writes.
func (s *Store) Audit(ctx context.Context, f store.AuditFilter, size int) (store.AuditPage, error) {
	size = storekit.AuditPageSize(size)
	var page store.AuditPage
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		recs, err := auditTasks(tx, f, size)
		if err != nil {
			return err
		}
		rows := pageRows{}
		if len(recs) > 0 {
			if rows, err = loadAuditRows(tx, recs); err != nil {
				return err
			}
		}
		tasks := make([]*storekit.TaskRow, len(recs))
		for i := range recs {
			tasks[i] = &recs[i].TaskRow
		}
		a := storekit.Auditor{Codec: s.codec(), Words: auditWords, OwnRows: true, Now: now}
		page, err = a.Page(tasks, size, func(i int) (*storekit.AuditTask, error) { return rows.of(tasks[i]), nil })
		return err
	})
	return page, err
}

// auditWords are what the audit's findings call this store's records.
var auditWords = storekit.AuditWords{Row: "row", Column: "column", Candidates: "rows", Tags: "tag rows", Resumption: "resumption row"}

// AuditTenantCounters checks, in one snapshot, that the sum of each tenant's open-task counter
// stripes equals the number of its open and transitional tasks, and that no stripe is negative
// (every tenant when tenant is "").
func (s *Store) AuditTenantCounters(ctx context.Context, tenant string) ([]store.AuditFinding, error) {
	var out []store.AuditFinding
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		out = nil
		var tenants []string
		q := tx.Model(&tenantRecord{})
		if tenant != "" {
			q = q.Where("tenant_id = ?", tenant)
		}
		if err := q.Order("tenant_id").Pluck("tenant_id", &tenants).Error; err != nil {
			return translate(err)
		}
		var stripes []struct {
			TenantID string `gorm:"column:tenant_id"`
			N        int    `gorm:"column:n"`
			Negative int    `gorm:"column:negative"`
		}
		q = tx.Model(&tenantCounterRecord{}).
			Select("tenant_id, SUM(open_tasks) AS n, SUM(CASE WHEN open_tasks < 0 THEN 1 ELSE 0 END) AS negative").Group("tenant_id")
		if tenant != "" {
			q = q.Where("tenant_id = ?", tenant)
		}
		if err := q.Scan(&stripes).Error; err != nil {
			return translate(err)
		}
		var counts []struct {
			TenantID string `gorm:"column:tenant_id"`
			N        int    `gorm:"column:n"`
		}
		open := make([]string, 0, len(models.OpenStatuses)+len(models.TransitionalStatuses))
		for _, st := range models.AllStatuses {
			if st.CountsAsOpen() {
				open = append(open, string(st))
			}
		}
		q = tx.Model(&taskRecord{}).Select("tenant_id, COUNT(*) AS n").Where("status IN ?", open).Group("tenant_id")
		if tenant != "" {
			q = q.Where("tenant_id = ?", tenant)
		}
		if err := q.Scan(&counts).Error; err != nil {
			return translate(err)
		}
		have := map[string]int{}
		for _, c := range counts {
			have[c.TenantID] = c.N
		}
		counted, negative, seen := map[string]int{}, map[string]int{}, map[string]bool{}
		for _, c := range stripes {
			counted[c.TenantID], negative[c.TenantID], seen[c.TenantID] = c.N, c.Negative, true
		}
		for _, t := range tenants {
			seen[t] = true
		}
		for id := range seen {
			switch {
			case negative[id] > 0:
				out = append(out, store.AuditFinding{Tenant: id, Invariant: storekit.InvTenantCounter,
					Message: fmt.Sprintf("%d open-task counter stripes are below zero", negative[id])})
			case counted[id] != have[id]:
				out = append(out, store.AuditFinding{Tenant: id, Invariant: storekit.InvTenantCounter,
					Message: fmt.Sprintf("open-task counter is %d, the tenant has %d open or transitional tasks", counted[id], have[id])})
			}
		}
		for _, c := range counts {
			if !seen[c.TenantID] && c.N > 0 {
				out = append(out, store.AuditFinding{Tenant: c.TenantID, Invariant: storekit.InvTenantCounter,
					Message: fmt.Sprintf("no open-task counter, the tenant has %d open or transitional tasks", c.N)})
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Tenant < out[j].Tenant })
		return nil
	})
	return out, err
}

func auditTasks(tx *gorm.DB, f store.AuditFilter, size int) ([]taskRecord, error) {
	q := tx.Model(&taskRecord{})
	if f.Tenant != "" {
		q = q.Where("tenant_id = ?", f.Tenant)
	}
	if f.AfterID != "" {
		q = q.Where("(tenant_id > ? OR (tenant_id = ? AND id > ?))", f.AfterTenant, f.AfterTenant, f.AfterID)
	}
	var out []taskRecord
	err := q.Order("tenant_id").Order("id").Limit(size).Find(&out).Error
	return out, translate(err)
}

// taskColumn is the column naming the task a row belongs to, "" outside the task aggregates.
func (t sealedTable) taskColumn() string {
	switch t.Name {
	case "user_tasks":
		return "id"
	case "user_task_web_sessions":
		return ""
	}
	return "task_id"
}

// pageRows are the rows of a page's tasks, by task id.
type pageRows map[string]*storekit.AuditTask

// of is task with its rows.
func (p pageRows) of(task *storekit.TaskRow) *storekit.AuditTask {
	t := p.at(task.ID)
	t.Task = task
	return t
}

func (p pageRows) at(id string) *storekit.AuditTask {
	t, ok := p[id]
	if !ok {
		t = &storekit.AuditTask{}
		p[id] = t
	}
	return t
}

// loadAuditRows reads the child rows of the page's tasks, one query per table, and the sealed
// values of their sealed tables.
func loadAuditRows(tx *gorm.DB, tasks []taskRecord) (pageRows, error) {
	ids := make([]string, len(tasks))
	for i := range tasks {
		ids[i] = tasks[i].ID
	}
	rows := pageRows{}
	var tags []tagRecord
	var candidates []candidateRecord
	var events []storekit.EventRow
	var operations []storekit.OperationRow
	var resumptions []storekit.ResumptionRow
	var invitations []storekit.InvitationRow
	var deliveries []storekit.DeliveryRow
	var sessions []storekit.GuestSessionRow
	for _, load := range []struct {
		table string
		order string
		dest  any
	}{
		{"user_task_tags", "task_id, tag", &tags},
		{"user_task_candidates", "task_id, id", &candidates},
		{"user_task_events", "task_id, seq", &events},
		{"user_task_operations", "task_id, id", &operations},
		{"user_task_resumptions", "task_id, id", &resumptions},
		{"user_task_invitations", "task_id, id", &invitations},
		{"user_task_deliveries", "task_id, id", &deliveries},
		{"user_task_guest_sessions", "task_id, id", &sessions},
	} {
		if err := tx.Table(load.table).Where("task_id IN ?", ids).Order(load.order).Find(load.dest).Error; err != nil {
			return nil, translate(err)
		}
	}
	for _, st := range storekit.SealedTables {
		if !st.TaskScoped {
			continue
		}
		if err := loadSealed(tx, sealedTable{st}, ids, rows); err != nil {
			return nil, err
		}
	}
	for _, r := range tags {
		t := rows.at(r.TaskID)
		t.Tags = append(t.Tags, storekit.AuditTag{Tag: r.Tag, TenantID: r.TenantID})
	}
	for _, r := range candidates {
		t := rows.at(r.TaskID)
		t.Candidates = append(t.Candidates, storekit.AuditCandidate{ID: r.ID, Source: r.Source, TenantID: r.TenantID, TaskStatus: r.TaskStatus})
	}
	for _, r := range events {
		rows.at(r.TaskID).Events = append(rows.at(r.TaskID).Events, r)
	}
	for _, r := range operations {
		rows.at(r.TaskID).Operations = append(rows.at(r.TaskID).Operations, r)
	}
	for _, r := range resumptions {
		rows.at(r.TaskID).Resumptions = append(rows.at(r.TaskID).Resumptions, r)
	}
	for _, r := range invitations {
		rows.at(r.TaskID).Invitations = append(rows.at(r.TaskID).Invitations, r)
	}
	for _, r := range deliveries {
		rows.at(r.TaskID).Deliveries = append(rows.at(r.TaskID).Deliveries, r)
	}
	for _, r := range sessions {
		rows.at(r.TaskID).Sessions = append(rows.at(r.TaskID).Sessions, r)
	}
	return rows, nil
}

// loadSealed reads the sealed columns of the page's rows of one sealed table.
func loadSealed(tx *gorm.DB, t sealedTable, ids []string, into pageRows) error {
	col := t.taskColumn()
	cols := append(append([]string{t.key(), col}, t.Scope...), t.Columns...)
	rows, err := tx.Table(t.Name).Select(cols).Where(col+" IN ?", ids).Order(t.key()).Rows()
	if err != nil {
		return translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var taskID string
		r := newSealedRow(t)
		if err := rows.Scan(r.dest(&taskID)...); err != nil {
			return translate(err)
		}
		task := into.at(taskID)
		sealRow := ""
		if len(t.Scope) > 0 {
			sealRow = t.SealRow(r.scope, r.key)
		}
		for i, col := range t.Columns {
			task.Sealed = append(task.Sealed, storekit.SealedValue{Table: t.Name, Row: r.key, Column: col, Envelope: r.values[i].String, SealRow: sealRow})
		}
	}
	return translate(rows.Err())
}

// AuditSealed checks one page of a sealed table outside the task aggregates (TaskScoped is
// false): up to limit rows after the row key after, read-only. Page.Resealed stays 0;
// Unreadable lists the rows with a value no configured key opens.
func (s *Store) AuditSealed(ctx context.Context, table, after string, limit int) (store.KeyPage, error) {
	if isAttachmentTable(table) {
		return s.auditAttachments(ctx, table, after, limit)
	}
	t, ok := sealedTableNamed(table)
	if !ok || t.TaskScoped {
		return store.KeyPage{}, fmt.Errorf("repository: %q is not a sealed table outside the tasks", table)
	}
	if limit <= 0 {
		limit = 500
	}
	var page store.KeyPage
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		page, err = s.checkSealedPage(tx, t, after, limit, nil)
		return err
	})
	return page, err
}
