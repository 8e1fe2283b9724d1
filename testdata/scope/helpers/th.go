package helpers

import (
	"database/sql"
	"testing"
)

// Reset is a test helper.
func Reset(t testing.TB, db *sql.DB) {
	db.Exec("DELETE FROM t") // finding
}
