package repository

import (
	"gorm.io/gorm"

	"usertasks/migrations"
)

// tasksIndexedBy reads user_tasks through the named index on SQLite (INDEXED BY) and lets
// every other planner choose. SQLite's statistics (sqlite_stat1) hold one average number of
// rows per index prefix, and the NULLs of a mostly-NULL column count as one value: a tenant's
// million tasks without a health finding make (tenant, severity) look as unselective as the
// tenant itself, so SQLite would walk the sort order's index through every terminal task
// instead of seeking the few findings. The scale test (scale_test.go) shows the difference;
// PostgreSQL's histograms see it unaided. The index must be usable by the statement's
// tenant_id equality, or SQLite refuses the statement.
func (s *Store) tasksIndexedBy(tx *gorm.DB, index string) *gorm.DB {
	if s.dialect != migrations.SQLite {
		return tx.Model(&taskRecord{})
	}
	return tx.Model(&taskRecord{}).Table("user_tasks INDEXED BY " + index)
}

// tasksForcing reads user_tasks through the named index on SQLite (INDEXED BY) and MariaDB
// (FORCE INDEX), where the planner's estimates mislead it for the statement, and lets
// PostgreSQL, SQL Server and Oracle choose.
func (s *Store) tasksForcing(tx *gorm.DB, index string) *gorm.DB {
	if s.dialect != migrations.MySQL {
		return s.tasksIndexedBy(tx, index)
	}
	return tx.Model(&taskRecord{}).Table("user_tasks FORCE INDEX (" + index + ")")
}
