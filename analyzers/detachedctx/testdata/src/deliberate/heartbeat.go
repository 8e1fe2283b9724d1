package deliberate

import (
	"context"
	"database/sql"
	"time"
)

// The loop ends only when the heartbeat on ctx fails, which it does once
// ctx is done: the deregistration after it is cleanup after a failure or
// a cancellation (issue 13, rule 6), with a fresh context on purpose.
func Heartbeat(ctx context.Context, db *sql.DB) error {
	for {
		if _, err := db.ExecContext(ctx, "UPDATE members SET seen = now()"); err != nil {
			break
		}
		time.Sleep(time.Second)
	}
	_, err := db.ExecContext(context.Background(), "DELETE FROM members WHERE id = 1")
	return err
}

// A loop left on success: what follows runs while ctx is live.
func Register(ctx context.Context, db *sql.DB) error {
	for {
		if _, err := db.ExecContext(ctx, "INSERT INTO members VALUES (1)"); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	_, err := db.ExecContext(context.Background(), "UPDATE members SET ready = true") // want `ExecContext`
	return err
}
