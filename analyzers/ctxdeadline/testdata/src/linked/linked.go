// Package linked: a context made from Background whose cancel function
// runs once another context is done carries that context's cancellation
// and deadline; when that one's origin is out of sight (a field), so is
// the call's bound.
package linked

import (
	"context"
	"database/sql"
)

type Worker struct {
	ctx context.Context
	db  *sql.DB
}

func (w *Worker) Linked() error {
	cctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-w.ctx.Done()
		cancel()
	}()
	_, err := w.db.ExecContext(cctx, "UPDATE jobs SET seen = true") // silent: ends when w.ctx does
	return err
}

func (w *Worker) Unlinked() error {
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := w.db.ExecContext(cctx, "UPDATE jobs SET seen = true") // want `\(\*sql.DB\).ExecContext gets cctx \(made from context.Background\(\)\), which has no deadline`
	return err
}
