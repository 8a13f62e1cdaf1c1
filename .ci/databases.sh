#!/usr/bin/env bash
# Starts private PostgreSQL and MariaDB servers on loopback without systemd and prints the
# environment the test suites read. Sourced by .ci/run; usable by hand:
#   eval "$(bash .ci/databases.sh)"
# Tests create one database per test, so the users below may create databases.
set -euo pipefail
root=${USERTASKS_DB_ROOT:-/tmp/usertasks-db}
pg_port=${USERTASKS_PG_PORT:-55432}
my_port=${USERTASKS_MY_PORT:-53306}
mkdir -p "$root"

need=()
command -v /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

# PostgreSQL: a private cluster owned by the postgres user, trust auth on loopback.
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pgdata=$root/pg
if ! su postgres -c "$pgbin/pg_ctl -D $pgdata status" >/dev/null 2>&1; then
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    mkdir -p "$pgdata" && chown postgres "$pgdata"
    su postgres -c "$pgbin/initdb -D $pgdata -U postgres --auth=trust -E UTF8" >&2
  fi
  su postgres -c "$pgbin/pg_ctl -D $pgdata -l $pgdata/server.log -w -o '-p $pg_port -k $pgdata -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on' start" >&2
fi

# MariaDB: a private data directory and socket.
mydata=$root/mysql
mysock=$root/mysql.sock
if ! mariadb-admin --socket="$mysock" -uroot ping >/dev/null 2>&1; then
  if [ ! -d "$mydata/mysql" ]; then
    mkdir -p "$mydata" && chown -R mysql "$mydata"
    mariadb-install-db --user=mysql --datadir="$mydata" --auth-root-authentication-method=normal >/dev/null
  fi
  chown mysql "$root"
  rm -f "$mysock" "$root/mysql.pid" # left behind by a server that was killed
  (mariadbd --user=mysql --datadir="$mydata" --port="$my_port" --bind-address=127.0.0.1 \
     --socket="$mysock" --pid-file="$root/mysql.pid" --max-connections=300 \
     --character-set-server=utf8mb4 --collation-server=utf8mb4_bin \
     --log-error="$root/mysql.err" >/dev/null 2>&1 &)
  for _ in $(seq 1 60); do
    mariadb-admin --socket="$mysock" -uroot ping >/dev/null 2>&1 && break
    sleep 0.5
  done
fi
mariadb --socket="$mysock" -uroot -e "CREATE USER IF NOT EXISTS 'usertasks'@'127.0.0.1' IDENTIFIED BY 'usertasks'; GRANT ALL PRIVILEGES ON *.* TO 'usertasks'@'127.0.0.1' WITH GRANT OPTION; FLUSH PRIVILEGES;"

echo "export USERTASKS_TEST_POSTGRES_URL='postgres://postgres@127.0.0.1:$pg_port/postgres?sslmode=disable'"
echo "export USERTASKS_TEST_MYSQL_URL='mysql://usertasks:usertasks@127.0.0.1:$my_port/mysql'"
