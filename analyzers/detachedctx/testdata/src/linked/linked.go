// Package linked: a context made from Background whose cancel function
// runs once the caller's context is done carries the caller's
// cancellation, delayed on purpose (a client's lifetime that outlasts the
// caller long enough to unregister): it does not ignore the caller.
package linked

import (
	"context"
	"database/sql"
)

type Peer interface {
	Register(ctx context.Context) error
	Report(ctx context.Context) error
	Unregister(ctx context.Context) error
}

type Agent struct {
	peer Peer
	db   *sql.DB
}

// Run keeps the client's context until it has unregistered, after ctx is
// done: the link is a goroutine that waits on ctx, then cancels.
func (a *Agent) Run(ctx context.Context) error {
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer cancel()
		<-ctx.Done()
		_ = a.peer.Unregister(cctx)
	}()
	if err := a.peer.Register(cctx); err != nil { // silent: cancelled once ctx is done
		return err
	}
	_, err := a.db.ExecContext(cctx, "UPDATE agents SET up = true") // silent
	return err
}

// Watch links with context.AfterFunc.
func (a *Agent) Watch(ctx context.Context) error {
	cctx, cancel := context.WithCancelCause(context.Background())
	stop := context.AfterFunc(ctx, func() { cancel(nil) })
	defer stop()
	return a.peer.Report(cctx) // silent
}

// Select links in a select case on ctx.Done().
func (a *Agent) Select(ctx context.Context, quit chan struct{}) error {
	cctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-quit:
		}
	}()
	return a.peer.Report(cctx) // silent
}

// Deferred only: the cancel runs when Run2 returns, after the call.
func (a *Agent) Deferred(ctx context.Context) error {
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return a.peer.Report(cctx) // want `\(linked.Peer\).Report takes a context and gets cctx \(made from context.Background\(\)\) although this function has the caller's context \(ctx\)`
}

// Own: the goroutine waits on the fresh context itself, not the caller's.
func (a *Agent) Own(ctx context.Context) error {
	cctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-cctx.Done()
		cancel()
	}()
	return a.peer.Report(cctx) // want `\(linked.Peer\).Report takes a context and gets cctx \(made from context.Background\(\)\)`
}

// Early: a return before the wait may run the deferred cancel first; the
// goroutine does not wait for the caller's context on every path.
func (a *Agent) Early(ctx context.Context, ok bool) error {
	cctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		if !ok {
			return
		}
		<-ctx.Done()
	}()
	return a.peer.Report(cctx) // want `\(linked.Peer\).Report takes a context and gets cctx \(made from context.Background\(\)\)`
}
