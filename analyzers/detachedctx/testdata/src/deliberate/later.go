package deliberate

import (
	"context"
	"database/sql"
	"example.com/hooks"
)

// Work that runs later through a function of another package of the
// build, and cleanup in a switch case taken on failure (issue 13, rule 6).

type Journal struct {
	db  *sql.DB
	bus *hooks.Bus
}

func spawn(f func()) { go f() }

func (j *Journal) Append(ctx context.Context, id string) error {
	j.bus.OnClose(func() {
		_, _ = j.db.ExecContext(context.Background(), "DELETE FROM pending WHERE id = $1", id)
	})
	hooks.Go(func() {
		_, _ = j.db.ExecContext(context.Background(), "UPDATE stats SET n = n + 1")
	})
	hooks.Later(func() {
		_, _ = j.db.ExecContext(context.Background(), "UPDATE stats SET n = n + 1")
	})
	spawn(func() {
		_, _ = j.db.ExecContext(context.Background(), "UPDATE stats SET n = n + 1")
	})
	hooks.Now(func() {
		_, _ = j.db.ExecContext(context.Background(), "UPDATE stats SET n = n + 1") // want `ExecContext`
	})
	_, err := j.db.ExecContext(ctx, "INSERT INTO journal VALUES ($1)", id)
	return err
}

func (j *Journal) Commit(ctx context.Context, id string) error {
	switch _, err := j.db.ExecContext(ctx, "UPDATE journal SET done = true WHERE id = $1", id); {
	case err != nil:
		_, _ = j.db.ExecContext(context.Background(), "DELETE FROM journal WHERE id = $1", id)
		return err
	}
	switch _, err := j.db.ExecContext(ctx, "UPDATE journal SET seen = true WHERE id = $1", id); {
	case err == nil:
		_, _ = j.db.ExecContext(context.Background(), "DELETE FROM staging WHERE id = $1", id) // want `ExecContext`
		return nil
	}
	return nil
}
