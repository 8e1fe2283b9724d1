// Package mocks is production code whatever its name: app imports it.
package mocks

import (
	"context"
	"database/sql"
)

var db *sql.DB

func Use() {
	db.ExecContext(context.Background(), "SELECT 1") // finding
}
