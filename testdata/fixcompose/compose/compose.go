// Package compose has two fixes that each add an import to the same
// import block: they compose, in one run.
package compose

import (
	"context"
	"database/sql"
	"sync"
)

// Store writes every item in its own goroutine, on a pool it opens
// without a cap.
func Store(ctx context.Context, dsn string, items []string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db.ExecContext(ctx, "INSERT INTO items VALUES (?)", it)
		}()
	}
	wg.Wait()
	return nil
}

// Cleanup runs without a caller's context.
func Cleanup(db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "DELETE FROM items")
	return err
}
