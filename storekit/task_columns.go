package storekit

import (
	"reflect"
	"strings"
)

// SafeTaskColumns are the SQL names of the task row's columns but the sealed ones (*_enc) and
// the search text, in the row's order: what a list item or a mutation reads, named one by one
// so that no protected value is read where it is not needed (the search text only serves the
// search). SafeTaskFields are the same columns as document fields.
var SafeTaskColumns, SafeTaskFields = safeTaskNames()

func safeTaskNames() (columns, fields []string) {
	typ := reflect.TypeFor[TaskRow]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		col := GormColumn(f)
		if strings.HasSuffix(col, "_enc") || col == "search_text" {
			continue
		}
		columns, fields = append(columns, col), append(fields, f.Tag.Get("bson"))
	}
	return columns, fields
}

// GormColumn is the column name in a row field's gorm tag, "" without one.
func GormColumn(f reflect.StructField) string {
	for _, part := range strings.Split(f.Tag.Get("gorm"), ";") {
		if name, ok := strings.CutPrefix(part, "column:"); ok {
			return name
		}
	}
	return ""
}
