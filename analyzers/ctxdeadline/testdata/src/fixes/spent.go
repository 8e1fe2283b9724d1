package fixes

import (
	"context"
	"database/sql"
	"net/http"
	"time"
)

// No fix handing on a context variable that was given another context: the
// group that made it cancels it when it is waited for.

type waiter struct{ cancel func() }

func newWaiter(ctx context.Context) (*waiter, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &waiter{cancel: cancel}, ctx
}

func (w *waiter) Wait() error { w.cancel(); return nil }

func notifyAfter(ctx context.Context, url string) error {
	w, ctx := newWaiter(ctx)
	if err := w.Wait(); err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, url, nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, although this function has the caller's context`
	if err != nil {
		return err
	}
	_ = ctx
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A helper that runs until its context is done leaves the budget spent:
// the state saved after it would fail at once with that context.
func runUntilDone(ctx context.Context, tick func()) {
	for {
		select {
		case <-ctx.Done():
			return
		default:
			tick()
		}
	}
}

func serveThenSave(db *sql.DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	runUntilDone(ctx, func() {})
	_, err := db.ExecContext(context.Background(), "INSERT INTO state VALUES (1)") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	return err
}

// A helper that only forwards the context leaves it a budget: the fix
// passes it.
func ping(ctx context.Context, db *sql.DB) error {
	return db.PingContext(ctx)
}

func pingThenSave(db *sql.DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := ping(ctx, db); err != nil {
		return err
	}
	_, err := db.ExecContext(context.Background(), "INSERT INTO state VALUES (1)") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	return err
}

// The deadline context's parent is cancelled by a goroutine when stop
// closes: after <-stop it is done, whatever its own cancel does.
func serveUntilStop(db *sql.DB, stop <-chan struct{}) error {
	base, stopAll := context.WithCancel(context.Background())
	defer stopAll()
	ctx, cancel := context.WithTimeout(base, time.Hour)
	defer cancel()
	go func() { <-stop; stopAll() }()
	_ = ping(ctx, db)
	<-stop
	_, err := db.ExecContext(context.Background(), "INSERT INTO state VALUES (1)") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	return err
}

// A parent whose cancel is only deferred leaves the budget live.
func saveWithin(db *sql.DB) error {
	base, stopAll := context.WithCancel(context.Background())
	defer stopAll()
	ctx, cancel := context.WithTimeout(base, time.Hour)
	defer cancel()
	_ = ping(ctx, db)
	_, err := db.ExecContext(context.Background(), "INSERT INTO state VALUES (1)") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	return err
}
