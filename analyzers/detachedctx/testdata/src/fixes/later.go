package fixes

import (
	"context"
	"database/sql"
	"time"
)

// The caller's context is handed to a call only where it is still the
// caller's budget.

// A deferred call runs as the function returns, when the caller may have
// cancelled: the fresh context there is deliberate cleanup. Not reported.
func withLock(ctx context.Context, db *sql.DB) error {
	defer db.ExecContext(context.Background(), "UNLOCK")
	_, err := db.ExecContext(ctx, "LOCK")
	return err
}

// A callback that runs later: not on the caller's path. Not reported.
func later(ctx context.Context, db *sql.DB) {
	time.AfterFunc(time.Second, func() {
		db.ExecContext(context.Background(), "EXPIRE")
	})
}

// Cleanup because the caller's context is done. No fix.
func rollback(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, "WORK"); err != nil {
		return err
	}
	if ctx.Err() != nil {
		db.ExecContext(context.Background(), "ROLLBACK") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	}
	return nil
}

type cursor struct{ rows *sql.Rows }

// Rows kept beyond the request would close with it. No fix.
func (c *cursor) open(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\)`
	c.rows = rows
	return err
}

// Rows returned to the caller, who owns ctx: fixed.
func list(ctx context.Context, db *sql.DB) (*sql.Rows, error) {
	return db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\)`
}
