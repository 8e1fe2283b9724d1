// Package detached: Background/TODO where a caller's context exists.
package detached

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
	"time"

	"fwd"
	"google.golang.org/grpc"
)

type Server struct {
	db     *sql.DB
	client *http.Client
	conn   *grpc.ClientConn
}

func (s *Server) Lookup(ctx context.Context, id string) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context \(ctx\)`
	defer cancel()
	_, err := s.db.ExecContext(tctx, "SELECT 1")
	return err
}

func (s *Server) Until(ctx context.Context, at time.Time) error {
	dctx, cancel := context.WithDeadline(context.TODO(), at) // want `context.WithDeadline on context.TODO\(\) although this function has the caller's context \(ctx\)`
	defer cancel()
	return s.conn.Invoke(dctx, "/svc/M", nil, nil)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // want `context.WithTimeout on context.Background\(\) although this function has the inbound request's context \(r.Context\(\)\)`
	defer cancel()
	_ = ctx
}

func (s *Server) Direct(ctx context.Context) error {
	_, err := s.db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\) although this function has the caller's context \(ctx\)`
	return err
}

func (s *Server) ViaRequest(ctx context.Context, url string) error {
	// The client has a Timeout, but the call still ignores the caller.
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req) // want `\(\*http.Client\).Do gets context.Background\(\) although`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (s *Server) ViaHelper(ctx context.Context, url string) error {
	return fwd.Notify(context.Background(), url) // want `fwd.Notify gets context.Background\(\) although this function has the caller's context \(ctx\), and forwards it to \(\*http.Client\).Do`
}

// A helper that adds its own timeout still carries the caller's
// cancellation: Background handed to it drops it.
func (s *Server) ViaTimeoutHelper(ctx context.Context, url string) error {
	if err := fwd.Lookup(context.Background(), url); err != nil { // want `fwd.Lookup gets context.Background\(\) although this function has the caller's context \(ctx\), and forwards it to \(\*http.Client\).Do \(through fwd.Notify\)`
		return err
	}
	if err := fwd.Fetch(context.TODO(), url); err != nil { // want `fwd.Fetch gets context.TODO\(\) although`
		return err
	}
	return fwd.Detach(context.Background(), url) // the helper detaches anyway: its ctx reaches no call
}

func (s *Server) NotOutbound(ctx context.Context) error {
	return fwd.Local(context.Background()) // no outbound call: silent
}

func (s *Server) Values(ctx context.Context) error {
	vctx := context.WithValue(context.Background(), key{}, 1)
	return s.conn.Invoke(vctx, "/svc/M", nil, nil) // want `\(\*grpc.ClientConn\).Invoke gets vctx \(made from context.Background\(\)\) although`
}

type key struct{}

// A goroutine the function does not wait for outlives the caller: a fresh
// context there is deliberate.
func (s *Server) InClosure(ctx context.Context) {
	go func() {
		_ = s.conn.Invoke(context.TODO(), "/svc/M", nil, nil)
	}()
}

// One it waits for is on the caller's path.
func (s *Server) Awaited(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = s.conn.Invoke(context.TODO(), "/svc/M", nil, nil) // want `\(\*grpc.ClientConn\).Invoke gets context.TODO\(\) although`
	}()
	wg.Wait()
}

func (s *Server) Detach(ctx context.Context, url string) {
	// Outlives the caller on purpose, keeps its values, has its own bound.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	go func() {
		defer cancel()
		_ = fwd.Notify(pctx, url)
	}()
}

func (s *Server) Derived(ctx context.Context) error {
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second) // not a request handler: long timeouts are fine
	defer cancel()
	_, err := s.db.ExecContext(tctx, "SELECT 1")
	return err
}

func main() {
	// main has no caller's context.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = ctx
}

func noCaller(db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "SELECT 1") // no caller's context: ctxdeadline's business, not ours
	return err
}

// shutdownHook returns a function that runs long after ctx is gone: the
// enclosing ctx is not its budget.
func shutdownHook(ctx context.Context, db *sql.DB) func() error {
	return func() error {
		tctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := db.ExecContext(tctx, "CHECKPOINT")
		return err
	}
}

type hooks struct{ onStop func() }

func register(ctx context.Context, db *sql.DB) *hooks {
	return &hooks{onStop: func() {
		tctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = db.ExecContext(tctx, "CHECKPOINT")
	}}
}

func callback(ctx context.Context, db *sql.DB, run func(func() error) error) error {
	// A callback run during the call still has the caller's budget.
	return run(func() error {
		tctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context \(ctx\)`
		defer cancel()
		_, err := db.ExecContext(tctx, "SELECT 1")
		return err
	})
}

// Graceful shutdown: once the caller's context is done, a fresh timeout is
// what Shutdown needs (the spent ctx would make it return at once).
func Serve(ctx context.Context, srv *http.Server) error {
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return srv.ListenAndServe()
}

func Run(ctx context.Context, srv *http.Server, errc chan error) error {
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	case err := <-errc:
		wctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context`
		defer cancel()
		_ = wctx
		return err
	}
}

// After a select whose every other case returns, ctx is done: the shutdown
// below the select runs only then. When a case can fall out of the select
// (a break, or no return), the shutdown may run with ctx alive.
func RunAfter(ctx context.Context, srv *http.Server, errc chan error) error {
	select {
	case <-ctx.Done():
	case err := <-errc:
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

func RunAfterEither(ctx context.Context, srv *http.Server, errc chan error) error {
	select {
	case <-ctx.Done():
	case err := <-errc:
		if err == nil {
			break
		}
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context`
	defer cancel()
	return srv.Shutdown(sctx)
}

func RunAfterDefault(ctx context.Context, srv *http.Server) error {
	select {
	case <-ctx.Done():
	default:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context`
	defer cancel()
	return srv.Shutdown(sctx)
}

type closer interface{ Close(ctx context.Context) error }

// A Stop given a context that it ignores: what it calls is not told by a
// name, and the caller's budget is dropped (cleanup on a failure path, in a
// defer or once ctx is done is silent: see package deliberate).
func Stop(ctx context.Context, images closer, srv *http.Server) {
	cctx, cancel := context.WithTimeout(context.Background(), time.Minute) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context`
	defer cancel()
	_ = images.Close(cctx)
	_ = srv.Shutdown(cctx)
}

// Used for work as well: reported.
func StopAndFlush(ctx context.Context, images closer, s *Server) {
	cctx, cancel := context.WithTimeout(context.Background(), time.Minute) // want `context.WithTimeout on context.Background\(\) although this function has the caller's context`
	defer cancel()
	_ = images.Close(cctx)
	_ = s.Lookup(cctx, "last")
}

type relocator struct{ db *sql.DB }

// The caller's context is thrown away: detachedctx's finding (no fix: the
// parameter has no name to use), not ctxdeadline's.
func (r *relocator) Relocate(_ context.Context, vehicle string) error {
	_, err := r.db.ExecContext(context.Background(), "UPDATE v SET d = $1", vehicle) // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although this function has the caller's context but discards it \(its parameter is named _; name it ctx\)`
	return err
}

// A literal that ignores its own context inside a function that has one:
// the named one counts.
func (r *relocator) Each(ctx context.Context, vs []string) {
	each(vs, func(_ context.Context, v string) {
		_, _ = r.db.ExecContext(context.Background(), "SELECT 1", v) // want `although this function has the caller's context \(ctx\)`
	})
}

func each(vs []string, f func(context.Context, string)) {}

type config struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// Work done once for every caller must not end when the first caller gives
// up: a fresh context there is right.
func (c *config) Get(w http.ResponseWriter, r *http.Request) {
	c.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, c.err = c.db.ExecContext(ctx, "SELECT 1")
	})
}
