// Package line has //line directives: they move neither findings, fixes
// nor //nolint directives.
package line

import (
	"context"
	"database/sql"
	"time"
)

//line generated.tmpl:100
func Lookup(ctx context.Context, db *sql.DB) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1")
	return err
}

//nolint:detachedctx // the whole function is legacy
func Legacy(ctx context.Context, db *sql.DB) error {
//line generated.tmpl:1
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1")
	return err
}
