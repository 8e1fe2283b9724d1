package deliberate

import (
	"context"
	"database/sql"
)

// A goroutine the caller waits for only in a select that also leaves on
// ctx.Done() outlives the caller when ctx ends first: its detached work
// goes on deliberately (issue 13, rule 6).
func Save(ctx context.Context, db *sql.DB) error {
	done := make(chan error, 1)
	go func() {
		_, err := db.ExecContext(context.Background(), "INSERT INTO saved VALUES (1)")
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Waited for in every case of the select: the goroutine runs within the
// caller, which gives it Background although it has ctx.
func SaveBoth(ctx context.Context, db *sql.DB) error {
	done := make(chan error, 1)
	failed := make(chan error, 1)
	go func() {
		if _, err := db.ExecContext(context.Background(), "INSERT INTO saved VALUES (1)"); err != nil { // want `ExecContext`
			failed <- err
			return
		}
		done <- nil
	}()
	select {
	case err := <-done:
		return err
	case err := <-failed:
		return err
	}
}
