package hard

import (
	"context"
	"database/sql"
	"time"
)

func Lookup(ctx context.Context, db *sql.DB) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1")
	return err
}
