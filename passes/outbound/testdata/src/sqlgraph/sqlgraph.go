// Package sqlgraph links only an embedded SQL engine: every database
// handle, wherever it comes from, is local.
package sqlgraph

import (
	"context"
	"database/sql"

	_ "github.com/mattn/go-sqlite3"
)

func count(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "DELETE FROM t") // want `\(\*sql.DB\).ExecContext: local: an embedded SQLite database \(github.com/mattn/go-sqlite3\)`
	return err
}
