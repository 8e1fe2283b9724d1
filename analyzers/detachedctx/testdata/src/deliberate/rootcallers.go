package deliberate

import (
	"context"
	"database/sql"
)

// Every caller of purge hands it context.Background(): its context never
// ends, so a Background inside drops no deadline and no cancellation.
func purge(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "DELETE FROM tmp")
	_ = ctx
	return err
}

func PurgeAll(dbs []*sql.DB) {
	for _, db := range dbs {
		_ = purge(context.Background(), db)
	}
}

func PurgeOne(db *sql.DB) error { return purge(context.TODO(), db) }

// One caller hands on its own context: dropping it drops that budget.
func prune(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "DELETE FROM old") // want `ExecContext`
	_ = ctx
	return err
}

func PruneNow(db *sql.DB) error { return prune(context.Background(), db) }

func PruneWithin(ctx context.Context, db *sql.DB) error { return prune(ctx, db) }
