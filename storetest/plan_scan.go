package storetest

import "usertasks/migrations"

// FullScan returns the line of plan (the text Harness.Explain returns on dialect d) that reads
// all of table without an index, or "" when the plan reads it through an index only. Tests
// outside the contract suite (the scale test) judge their plans with it.
func FullScan(d migrations.Dialect, plan, table string) string { return planTableScan(d, plan, table) }
