package repository

import (
	"reflect"
	"strings"

	"usertasks/models"
	"usertasks/storekit"
)

// fixedTaskColumns never change after creation; a change may not move a task.
var fixedTaskColumns = map[string]bool{"id": true, "tenant_id": true, "created_at": true, "materialization_key": true, "bookmark_id": true}

// changedTaskRecord encodes t for the guarded UPDATE of a mutation and names the columns that
// differ from before (the task as loaded in the same transaction): the safe columns compared
// as stored, the protected ones by their plaintext. Only a changed protected value is sealed
// again and written, so a claim neither re-encrypts the payloads nor rewrites them (issue 13).
// Every column the UPDATE leaves out holds, by that comparison, what it held.
func (s *Store) changedTaskRecord(before, t *models.Task) (*taskRecord, []string, error) {
	old, err := s.safeTaskRecord(before)
	if err != nil {
		return nil, nil, err
	}
	rec, err := s.safeTaskRecord(t)
	if err != nil {
		return nil, nil, err
	}
	var cols []string
	ov, nv, typ := reflect.ValueOf(old).Elem(), reflect.ValueOf(rec).Elem(), reflect.TypeOf(*rec)
	for i := 0; i < typ.NumField(); i++ {
		col := taskColumn(typ.Field(i))
		if fixedTaskColumns[col] || strings.HasSuffix(col, "_enc") {
			continue
		}
		if !reflect.DeepEqual(ov.Field(i).Interface(), nv.Field(i).Interface()) {
			cols = append(cols, col)
		}
	}
	for _, col := range storekit.ProtectedColumns {
		if !col.Differs(&before.Protected, &t.Protected) {
			continue
		}
		if err := s.sealColumn(rec, t, col.Name); err != nil {
			return nil, nil, err
		}
		cols = append(cols, col.Name)
	}
	return rec, cols, nil
}

// taskColumn is the column name in a taskRecord field's gorm tag.
func taskColumn(f reflect.StructField) string {
	for _, part := range strings.Split(f.Tag.Get("gorm"), ";") {
		if name, ok := strings.CutPrefix(part, "column:"); ok {
			return name
		}
	}
	return ""
}
