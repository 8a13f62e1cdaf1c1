package repository

import (
	"gorm.io/gorm"

	"usertasks/migrations"
)

// listCustomPlans makes the statements of one list read on PostgreSQL plan with their
// parameters (plan_cache_mode = force_custom_plan, for this transaction only). pgx prepares
// every statement once per connection, and after five runs PostgreSQL may keep a generic plan,
// made without the tenant, the status or the cursor: at the scale target the needs-attention
// pages took 4–8× as long under generic plans (325–630 ms against 25–105 ms median;
// docs/query-plans.md). Writes keep the connection's default, auto: forced custom plans made a
// completion 1.25–1.3× slower (postgres_conn.go). SET LOCAL ends with the read's transaction,
// so the setting never reaches another statement on the pooled connection.
func (s *Store) listCustomPlans(tx *gorm.DB) error {
	if s.dialect != migrations.Postgres {
		return nil
	}
	return translate(tx.Exec("SELECT set_config('plan_cache_mode', 'force_custom_plan', true)").Error)
}
