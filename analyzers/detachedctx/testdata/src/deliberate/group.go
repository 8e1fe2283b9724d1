package deliberate

import (
	"context"
	"database/sql"
	"sync"
)

// Goroutines started through a group the function waits for do not
// outlive the caller: a Background in them drops its budget.
func SaveBothWaited(ctx context.Context, primary, replica *sql.DB) {
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = primary.ExecContext(ctx, "INSERT INTO t VALUES (1)") })
	wg.Go(func() {
		_, _ = replica.ExecContext(context.Background(), "INSERT INTO t VALUES (1)") // want `ExecContext`
	})
	wg.Wait()
}

// Not waited for: the replica write goes on after the caller returns, on
// purpose.
func SaveBothDetached(ctx context.Context, primary, replica *sql.DB, wg *sync.WaitGroup) {
	wg.Go(func() {
		_, _ = replica.ExecContext(context.Background(), "INSERT INTO t VALUES (1)")
	})
	_, _ = primary.ExecContext(ctx, "INSERT INTO t VALUES (1)")
}
