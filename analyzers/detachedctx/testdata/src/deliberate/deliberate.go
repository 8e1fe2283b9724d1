// Package deliberate: a fresh context is deliberate for cleanup on the
// way out (a defer, a branch taken on failure that leaves or whose else is
// the work), for work that
// runs later (timers, AfterFunc, registered callbacks, goroutines nobody
// waits for), and for a hand-made context that keeps values and drops
// cancellation. Calls of the module's own context-taking API, and of
// methods reached through an interface or a method value, are reported.
package deliberate

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

type Store struct {
	db        *sql.DB
	callbacks []func()
	kv        KV
	spans     Tracer
	hits      Counter
	stop      func()
}

func (s *Store) Create(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO t VALUES ($1)", id); err != nil {
		// Cleanup after a failure: must not be cancelled with ctx.
		_, _ = s.db.ExecContext(context.Background(), "DELETE FROM staging WHERE id = $1", id)
		return err
	}
	defer func() {
		_, _ = s.db.ExecContext(context.Background(), "SELECT pg_advisory_unlock(1)") // deferred cleanup: silent
	}()
	defer s.db.ExecContext(context.Background(), "SELECT 1") // silent
	if err := ctx.Err(); err != nil {
		_, _ = s.db.ExecContext(context.Background(), "ROLLBACK") // after cancellation: silent
		return err
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE t SET ok = true"); err != nil {
		// A failure branch that goes on is still the caller's path.
		_, _ = s.db.ExecContext(context.Background(), "UPDATE t SET retry = true") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although this function has the caller's context \(ctx\)`
	}
	return nil
}

// A failure branch whose else is the work handles the failure only: it
// reports it on a fresh context (the failure may be ctx's own) and the
// work goes on in the else.
func (s *Store) Heartbeat(ctx context.Context, payload []byte) error {
	var err error
	if verr := validate(payload); verr != nil {
		failCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // the failure branch of if/else: silent
		defer cancel()
		_, _ = s.db.ExecContext(failCtx, "UPDATE tasks SET failed = true")
		err = verr
	} else {
		_, err = s.db.ExecContext(ctx, "UPDATE tasks SET beat = now()")
	}
	return err
}

func validate(p []byte) error {
	if len(p) == 0 {
		return errors.New("empty")
	}
	return nil
}

func (s *Store) Later(ctx context.Context) {
	time.AfterFunc(time.Minute, func() {
		_, _ = s.db.ExecContext(context.Background(), "VACUUM") // runs later: silent
	})
	s.OnClose(func() {
		_, _ = s.db.ExecContext(context.Background(), "CHECKPOINT") // a registered callback: silent
	})
	go func() {
		_, _ = s.db.ExecContext(context.Background(), "ANALYZE") // nobody waits for it: silent
	}()
}

// OnClose registers a callback to run when the store closes.
func (s *Store) OnClose(f func()) { s.callbacks = append(s.callbacks, f) }

// detached keeps the parent's values and drops its cancellation.
type detached struct{ parent context.Context }

func (d detached) Deadline() (time.Time, bool)       { return time.Time{}, false }
func (d detached) Done() <-chan struct{}             { return nil }
func (d detached) Err() error                        { return nil }
func (d detached) Value(key any) any                 { return d.parent.Value(key) }
func (s *Store) Audit(ctx context.Context, e string) { s.Record(detached{ctx}, e) }

// Record is the module's own API taking a context.
func (s *Store) Record(ctx context.Context, e string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO audit VALUES ($1)", e)
	return err
}

func (s *Store) Sync(ctx context.Context) error {
	if err := s.Record(context.Background(), "sync"); err != nil { // want `\(\*deliberate.Store\).Record gets context.Background\(\) although this function has the caller's context \(ctx\), and forwards it to`
		return err
	}
	if err := s.Publish(context.Background(), "sync"); err != nil { // want `\(\*deliberate.Store\).Publish takes a context and gets context.Background\(\) although this function has the caller's context \(ctx\)`
		return err
	}
	if _, err := s.kv.Get(context.TODO(), "k"); err != nil { // want `\(deliberate.KV\).Get takes a context and gets context.TODO\(\)`
		return err
	}
	get := s.kv.Get
	if _, err := get(context.Background(), "k"); err != nil { // want `\(deliberate.KV\).Get takes a context and gets context.Background\(\)`
		return err
	}
	_, end := s.spans.Start(context.Background(), "sync") // derives a context: silent
	defer end()
	s.hits.Add(context.Background(), 1) // cannot fail, waits on nothing: silent
	return errors.New("x")
}

// Publish is the module's own API taking a context; what it does with it
// is its contract.
func (s *Store) Publish(ctx context.Context, e string) error {
	_, err := s.kv.Get(ctx, e)
	return err
}

type KV interface {
	Get(ctx context.Context, key string) ([]byte, error)
}

type Tracer interface {
	Start(ctx context.Context, name string) (context.Context, func())
}

type Counter interface {
	Add(ctx context.Context, n int64)
}

// Once the loop has ended, the caller's context is done: a final flush
// needs a context of its own.
func (s *Store) Pump(ctx context.Context, in <-chan string) {
	for ctx.Err() == nil {
		s.flushOne(ctx, in)
	}
	_, _ = s.db.ExecContext(context.Background(), "COMMIT") // after the loop that ends with ctx: silent
}

func (s *Store) Drain(ctx context.Context, in <-chan string) {
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case v := <-in:
			_, _ = s.db.ExecContext(ctx, "INSERT INTO q VALUES ($1)", v)
		}
	}
	_, _ = s.db.ExecContext(context.Background(), "COMMIT") // the loop ends only when ctx is done: silent
}

func (s *Store) Batch(ctx context.Context, in <-chan string) {
	for v := range in {
		if v == "" {
			break
		}
	}
	_, _ = s.db.ExecContext(context.Background(), "COMMIT") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although`
}

func (s *Store) flushOne(ctx context.Context, in <-chan string) {}

// Start runs a loop for the component's lifetime: its context is that
// lifetime, and Background is what a caller whose own context ends with
// the call gives it.
func (s *Store) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	s.stop = cancel
	go s.loop(ctx)
}

func (s *Store) loop(ctx context.Context) {
	for ctx.Err() == nil {
		_, _ = s.db.ExecContext(ctx, "SELECT 1")
	}
}

// Watch hands its context to a goroutine that waits on it.
func (s *Store) Watch(ctx context.Context) {
	go func() {
		<-ctx.Done()
	}()
}

func (s *Store) Open(ctx context.Context) error {
	s.Start(context.Background())                  // the component's lifetime: silent
	s.Watch(context.TODO())                        // silent
	return s.Publish(context.Background(), "open") // want `\(\*deliberate.Store\).Publish takes a context and gets context.Background\(\)`
}

// Boot hands its context to Start, which starts a goroutine with it.
func (s *Store) Boot(ctx context.Context) { s.Start(ctx) }
