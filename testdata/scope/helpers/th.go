package helpers

import (
	"context"
	"database/sql"
	"testing"
)

// Reset is a test helper.
func Reset(t testing.TB, db *sql.DB) {
	db.ExecContext(context.Background(), "DELETE FROM t") // finding
}
