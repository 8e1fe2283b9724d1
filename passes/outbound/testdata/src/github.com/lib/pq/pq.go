// Package pq is a stub of github.com/lib/pq for tests: a network driver.
package pq

import (
	"database/sql"
	"database/sql/driver"
)

type Driver struct{}

func (Driver) Open(name string) (driver.Conn, error) { return nil, nil }

const name = "postgres"

func init() { sql.Register(name, Driver{}) }
