package migrationstest

import "testing"

func TestMySQLDSN(t *testing.T) {
	for _, tc := range []struct {
		name, url, database, want string
	}{
		{"ServerDatabase", "mysql://usertasks:usertasks@127.0.0.1:53306/mysql", "",
			"usertasks:usertasks@tcp(127.0.0.1:53306)/mysql?multiStatements=true&parseTime=true"},
		{"NewDatabase", "mysql://usertasks:usertasks@127.0.0.1:53306/mysql", "ut_0123",
			"usertasks:usertasks@tcp(127.0.0.1:53306)/ut_0123?multiStatements=true&parseTime=true"},
		{"DefaultPortAndParams", "mysql://root@db/app?tls=false", "",
			"root@tcp(db:3306)/app?multiStatements=true&parseTime=true&tls=false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mysqlDSN(tc.url, tc.database)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("ErrScheme", func(t *testing.T) {
		if _, err := mysqlDSN("postgres://u@h/db", ""); err == nil {
			t.Error("want an error for a postgres:// URL")
		}
	})
}
