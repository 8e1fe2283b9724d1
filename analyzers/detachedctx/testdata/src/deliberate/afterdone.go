package deliberate

import (
	"context"
	"time"
)

// A helper of the package that runs only once the caller's context is done
// (every call of it follows <-ctx.Done(), sits in a select case on it, or
// is in another such helper): its fresh context is deliberate, as it would
// be written inline.
func (s *Store) Finish(ctx context.Context) {
	<-ctx.Done()
	s.finalReport(ctx)
}

func (s *Store) Consume(ctx context.Context, in <-chan string) {
	for {
		select {
		case <-ctx.Done():
			s.finalReport(ctx)
			return
		case v := <-in:
			_, _ = s.db.ExecContext(ctx, "INSERT INTO q VALUES ($1)", v)
		}
	}
}

func (s *Store) finalReport(ctx context.Context) {
	rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // only after ctx is done: silent
	defer cancel()
	_, _ = s.db.ExecContext(rctx, "INSERT INTO reports VALUES ('final')")
	s.flushAll(ctx)
}

// Called only from finalReport: after the caller's context is done too.
func (s *Store) flushAll(ctx context.Context) {
	_, _ = s.db.ExecContext(context.Background(), "COMMIT") // only after ctx is done: silent
}

// Called once the context is done and once on the working path: the fresh
// context drops the working caller's budget.
func (s *Store) Serve(ctx context.Context) {
	s.report(ctx)
	<-ctx.Done()
	s.report(ctx)
}

func (s *Store) report(ctx context.Context) {
	rctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context`
	defer cancel()
	_, _ = s.db.ExecContext(rctx, "INSERT INTO reports VALUES ('x')")
}

// Used as a value: its callers are out of sight.
func (s *Store) Register(ctx context.Context) {
	<-ctx.Done()
	s.lateReport(ctx)
	s.callbacks = append(s.callbacks, func() { s.lateReport(context.TODO()) })
	hook = s.lateReport
}

var hook func(context.Context)

func (s *Store) lateReport(ctx context.Context) {
	_, _ = s.db.ExecContext(context.Background(), "INSERT INTO reports VALUES ('late')") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although`
}

// Two helpers that only call each other prove nothing.
func (s *Store) ping(ctx context.Context, n int) {
	if n > 0 {
		s.pong(ctx, n-1)
	}
}

func (s *Store) pong(ctx context.Context, n int) {
	_, _ = s.db.ExecContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although`
	s.ping(ctx, n)
}

// After the function cancels the caller's context itself (ctx, cancel :=
// context.WithCancel(ctx) reuses the parameter), that context is done:
// the deregistration on a fresh one is deliberate.
func (s *Store) Member(ctx context.Context, stop <-chan struct{}) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, "INSERT INTO members VALUES (1)"); err != nil {
		return err
	}
	<-stop
	cancel()
	_, err := s.db.ExecContext(context.Background(), "DELETE FROM members") // cancelled before: silent
	return err
}

// A deferred cancel has not run yet.
func (s *Store) MemberOnce(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err := s.db.ExecContext(context.Background(), "DELETE FROM members") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although`
	_ = ctx
	return err
}

// A call started by a go statement that the function does not wait for
// outlives the caller, as go func() { ... }() does.
func (s *Store) Notify(ctx context.Context) {
	go s.db.ExecContext(context.Background(), "NOTIFY x") // outlives the caller: silent
}
