// Package migrations is a module whose go.mod requires SQLite's driver and
// lib/pq (a database server): a handle of unknown origin may be on the
// server, and is reported.
package migrations

import (
	"context"
	"database/sql"
)

func upAddColumn(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.Exec("UPDATE tracks SET size = 0") // want `\(\*sql.Tx\).Exec has no deadline`
	return err
}

func countRows(db *sql.DB) (n int, err error) {
	err = db.QueryRow("SELECT count(*) FROM tracks").Scan(&n) // want `\(\*sql.DB\).QueryRow has no deadline`
	return n, err
}
