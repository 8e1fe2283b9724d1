// Package app has one finding per analyzer of the core.
package app

import (
	"context"
	"database/sql"
	"time"
)

func Ping(db *sql.DB) error {
	_, err := db.Exec("SELECT 1")
	return err
}

func Lookup(ctx context.Context, db *sql.DB) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1")
	return err
}

func Suppressed(db *sql.DB) error {
	_, err := db.Exec("SELECT 1") //nolint:resilint // run under the job's statement_timeout
	return err
}

//nolint:ctxdeadline // the whole function is a legacy path
func Legacy(db *sql.DB) error {
	_, err := db.Exec("SELECT 1")
	return err
}

func Unused() {} //nolint:detachedctx // nothing to suppress here
