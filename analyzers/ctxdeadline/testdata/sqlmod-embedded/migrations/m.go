// Package migrations is a module whose go.mod requires an embedded engine's
// driver (SQLite) and no driver of a database server: the *sql.Tx a
// migration library hands in is on that embedded database, whoever opened
// it (issue 13, rule 1). Nothing is reported.
package migrations

import (
	"context"
	"database/sql"
)

func upAddColumn(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.Exec("UPDATE tracks SET size = 0")
	return err
}

func countRows(db *sql.DB) (n int, err error) {
	err = db.QueryRow("SELECT count(*) FROM tracks").Scan(&n)
	return n, err
}
