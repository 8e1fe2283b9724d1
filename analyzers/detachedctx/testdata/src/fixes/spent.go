package fixes

import (
	"context"
	"database/sql"
)

// No fix where the caller's context may be spent by then: the variable was
// given another context (one a group cancels when it is waited for), or a
// loop before the call may have left on ctx.Done().

type group struct{ cancel func() }

func withGroup(ctx context.Context) (*group, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &group{cancel: cancel}, ctx
}

func (g *group) Wait() error { g.cancel(); return nil }

func reassigned(ctx context.Context, db *sql.DB) error {
	g, ctx := withGroup(ctx)
	_, _ = db.ExecContext(ctx, "SELECT 1")
	if err := g.Wait(); err != nil {
		return err
	}
	_, err := db.ExecContext(context.Background(), "UPDATE runs SET done = true") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although`
	return err
}

func drained(ctx context.Context, db *sql.DB, in <-chan string) error {
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case s, ok := <-in:
			if !ok {
				break loop
			}
			_, _ = db.ExecContext(ctx, "INSERT INTO q VALUES ($1)", s)
		}
	}
	_, err := db.ExecContext(context.Background(), "UPDATE q SET flushed = true") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although`
	return err
}
