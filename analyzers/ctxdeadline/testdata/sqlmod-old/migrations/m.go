// Package migrations is a module whose go.mod is older than go 1.17: it
// lists only direct requirements, so a server's driver may be linked
// without being named there. A handle of unknown origin is reported.
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
