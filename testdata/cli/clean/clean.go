// Package clean has no findings.
package clean

import (
	"context"
	"database/sql"
)

func Count(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n)
	return n, err
}
