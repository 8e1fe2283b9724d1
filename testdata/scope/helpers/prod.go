// Package helpers holds production code and a test helper.
package helpers

import (
	"context"
	"database/sql"
)

func Count(db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "SELECT count(*) FROM t") // finding
	return err
}
