// Package sqlite3 is a stub of github.com/mattn/go-sqlite3 for tests: an
// embedded engine that registers the "sqlite3" driver.
package sqlite3

import (
	"database/sql"
	"database/sql/driver"
)

type SQLiteDriver struct{}

func (*SQLiteDriver) Open(name string) (driver.Conn, error) { return nil, nil }

func init() { sql.Register("sqlite3", &SQLiteDriver{}) }
