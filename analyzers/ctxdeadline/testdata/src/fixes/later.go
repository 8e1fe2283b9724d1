package fixes

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// A deferred or started call gets a timeout that starts when it runs.
func unlock(db *sql.DB) {
	defer db.ExecContext(context.Background(), "UNLOCK") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	time.Sleep(time.Millisecond)
}

func audit(db *sql.DB, id string) {
	go db.ExecContext(context.Background(), "INSERT INTO audit VALUES (?)", id) // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}

// The deferred call's argument changes before it runs: wrapping it in a
// function literal would read the new value. No fix.
func release(db *sql.DB, id string) {
	defer db.ExecContext(context.Background(), "RELEASE ?", id) // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	id = "other"
	_ = id
}

// The deadline context in scope may be done by then: after a wait on it,
// and after its cancel, the fix bounds the call on its own.
func shutdown(db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	<-ctx.Done()
	db.ExecContext(context.Background(), "CHECKPOINT") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}

func cancelled(db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	db.ExecContext(ctx, "WORK")
	cancel()
	db.ExecContext(context.Background(), "CLEANUP") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}

// A budget made in a nested block is not the function's.
func nested(db *sql.DB, fast bool) {
	if fast {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = ctx.Err()
		db.ExecContext(context.Background(), "FAST") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	}
}

func count(ctx context.Context, db *sql.DB) int {
	var n int
	db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n)
	return n
}

// Two calls of one statement share one declaration.
func both(db *sql.DB) int {
	return count(context.Background(), db) + count(context.Background(), db) // want `count gets context.Background\(\)` `count gets context.Background\(\)`
}

// A goroutine the function does not wait for outlives it: the caller's
// context may be cancelled under it, so the fix bounds the call on its own.
func auditLater(ctx context.Context, db *sql.DB, id string) {
	go func() {
		db.ExecContext(context.Background(), "INSERT INTO audit VALUES (?)", id) // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	}()
}

func pingLater(ctx context.Context, db *sql.DB) {
	go func() {
		db.Exec("DELETE FROM tmp") // want `\(\*sql.DB\).Exec has no deadline: it takes no context, so no deadline or cancellation reaches it`
	}()
}

// One it waits for runs on the caller's budget: detachedctx's finding.
func auditNow(ctx context.Context, db *sql.DB, id string) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		db.ExecContext(context.Background(), "INSERT INTO audit VALUES (?)", id)
	}()
	wg.Wait()
}

// The caller's context, cancelled by the function itself before the call:
// handing it to the call would fail it at once. No fix.
func deregister(ctx context.Context, db *sql.DB, stop <-chan struct{}) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	db.ExecContext(ctx, "REGISTER")
	<-stop
	cancel()
	db.Exec("DEREGISTER") // want `\(\*sql.DB\).Exec has no deadline`
}

func work(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "UPDATE jobs SET x = 1")
	return err
}

// Cleanup where the work on the budget failed: the failure may be the
// budget running out, so the cleanup is bounded on its own.
func job(db *sql.DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := work(ctx, db)
	if err != nil {
		db.ExecContext(context.Background(), "UNLOCK") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
		return err
	}
	return nil
}

func jobInit(db *sql.DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := work(ctx, db); err != nil {
		db.ExecContext(context.Background(), "UNLOCK") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
		return err
	}
	db.ExecContext(context.Background(), "DONE") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	return nil
}

// A goto that jumps back over the call makes a loop: no fix (every pass
// would share one budget, or pile up deferred cancels).
func again(db *sql.DB, k int) {
	n := 0
retry:
	db.ExecContext(context.Background(), "A") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	if n++; n < k {
		goto retry
	}
}

// A goto before the call jumps over where the declaration would go: no fix
// (it would not compile).
func skip(db *sql.DB, done bool) {
	if done {
		goto out
	}
	db.ExecContext(context.Background(), "A") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
out:
	println("out")
}
