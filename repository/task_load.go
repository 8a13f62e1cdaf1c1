package repository

import (
	"reflect"
	"slices"

	"usertasks/models"
)

// protectedPart is the part of the protected content each sealed column holds.
var protectedPart = map[string]models.ProtectedParts{
	colInstructions:   models.ReadsInstructions,
	colTaskData:       models.ReadsData,
	colForm:           models.ReadsForm,
	colInvitationDefs: models.ReadsInvitations,
	colCompletionData: models.ReadsCompletionData,
}

// mutationColumns are the task row's columns a mutation reads: every column but the search
// text (derived from the others and rewritten from them) and the sealed ones, which are added
// per command by columnsReading.
var mutationColumns = func() []string {
	var cols []string
	typ := reflect.TypeOf(taskRecord{})
	for i := 0; i < typ.NumField(); i++ {
		col := taskColumn(typ.Field(i))
		if _, sealed := protectedPart[col]; sealed || col == "search_text" {
			continue
		}
		cols = append(cols, col)
	}
	return cols
}()

// columnsReading is the select list of a mutation's task load that reads the protected parts
// parts: nil (the whole row) when it reads every part, so the commands that need everything
// keep the plain statement.
func columnsReading(parts models.ProtectedParts) []string {
	if parts&models.ReadsAllProtected == models.ReadsAllProtected {
		return nil
	}
	cols := slices.Clone(mutationColumns)
	for _, col := range protectedColumns {
		if parts&protectedPart[col] != 0 {
			cols = append(cols, col)
		}
	}
	return cols
}
