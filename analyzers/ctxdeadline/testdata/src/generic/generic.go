// Package generic: forwarding through generic functions and methods.
package generic

import (
	"context"
	"database/sql"
)

type Repo[T any] struct {
	db *sql.DB
}

func (r *Repo[T]) Get(ctx context.Context, id int) (T, error) {
	var zero T
	_, err := r.db.QueryContext(ctx, "SELECT * FROM t WHERE id = $1", id)
	return zero, err
}

func Load[T any](ctx context.Context, r *Repo[T], id int) (T, error) {
	return r.Get(ctx, id)
}

func job(r *Repo[string]) {
	_, _ = r.Get(context.Background(), 1)   // want `\(\*generic.Repo\).Get gets context.Background\(\), which has no deadline`
	_, _ = Load(context.Background(), r, 2) // want `generic.Load gets context.Background\(\), which has no deadline, and forwards it to \(\*sql.DB\).QueryContext \(through \(\*generic.Repo\).Get\)`
}
