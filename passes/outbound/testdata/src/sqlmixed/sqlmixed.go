// Package sqlmixed links an embedded engine and a network driver: a handle
// is local only when it is opened, in view, on the embedded one.
package sqlmixed

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
	_ "github.com/mattn/go-sqlite3"
)

func param(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "DELETE FROM t") // want `\(\*sql.DB\).ExecContext: unknown`
	return err
}

func opened(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil) // want `\(\*sql.DB\).BeginTx: local: an embedded SQLite database`
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM t") // want `\(\*sql.Tx\).ExecContext: local: an embedded SQLite database`
	return err
}

func postgres(ctx context.Context, dsn string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "DELETE FROM t") // want `\(\*sql.DB\).ExecContext: unknown`
	return err
}
