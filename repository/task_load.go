package repository

import (
	"slices"

	"usertasks/models"
	"usertasks/storekit"
)

// mutationColumns are the task row's columns a mutation reads: every column but the search
// text (derived from the others and rewritten from them) and the sealed ones, which are added
// per command by columnsReading.
var mutationColumns = storekit.SafeTaskColumns

// columnsReading is the select list of a mutation's task load that reads the protected parts
// parts: nil (the whole row) when it reads every part, so the commands that need everything
// keep the plain statement.
func columnsReading(parts models.ProtectedParts) []string {
	if parts&models.ReadsAllProtected == models.ReadsAllProtected {
		return nil
	}
	cols := slices.Clone(mutationColumns)
	for _, col := range storekit.ProtectedColumns {
		if parts&col.Part != 0 {
			cols = append(cols, col.Name)
		}
	}
	return cols
}
