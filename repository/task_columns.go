package repository

import (
	"reflect"
	"strings"

	"usertasks/models"
	"usertasks/storekit"
)

// changedTaskRecord encodes t for the guarded UPDATE of a mutation and names the columns that
// differ from before (the task as loaded in the same transaction): the safe columns compared
// as stored, the protected ones by their plaintext (storekit.Codec.NextTaskRow, which also
// keeps the columns fixed at creation). Only a changed protected value is sealed again and
// written, so a claim neither re-encrypts the payloads nor rewrites them (issue 13). Every
// column the UPDATE leaves out holds, by that comparison, what it held.
func (s *Store) changedTaskRecord(before, t *models.Task) (*taskRecord, []string, error) {
	old, err := s.codec().SafeTaskRow(before)
	if err != nil {
		return nil, nil, err
	}
	rec, resealed, err := s.codec().NextTaskRow(&old, before, t)
	if err != nil {
		return nil, nil, err
	}
	var cols []string
	ov, nv := reflect.ValueOf(old), reflect.ValueOf(rec)
	for i := 0; i < taskRowType.NumField(); i++ {
		col := storekit.GormColumn(taskRowType.Field(i))
		if strings.HasSuffix(col, "_enc") {
			continue
		}
		if !reflect.DeepEqual(ov.Field(i).Interface(), nv.Field(i).Interface()) {
			cols = append(cols, col)
		}
	}
	return &taskRecord{TaskRow: rec}, append(cols, resealed...), nil
}

// taskRowType is the row of a taskRecord, whose fields are the table's columns.
var taskRowType = reflect.TypeFor[storekit.TaskRow]()
