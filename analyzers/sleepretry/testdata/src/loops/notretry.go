package loops

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"time"
)

// Loops that wait but are no retry loops (issue 13, rule 3): a retry loop
// re-issues the same remote operation after it failed.

func purge(ctx context.Context) (int, error) { return 0, nil }

// A batch job that pauses between batches, after a success as after a
// failure: pacing, not a backoff.
func purgeBatches(ctx context.Context) error {
	for {
		n, err := purge(ctx)
		if err != nil {
			log.Printf("purge: %v", err)
		}
		if err == nil && n == 0 {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// The pause first, then the batch: the same.
func purgeBatchesPauseFirst(ctx context.Context, pause time.Duration) error {
	for {
		time.Sleep(pause)
		n, err := purge(ctx)
		if err == nil && n == 0 {
			return nil
		}
	}
}

// A pause only after a failure, while success goes round at once: still
// the backoff of a retry.
func purgeBackoff(ctx context.Context) error {
	for {
		n, err := purge(ctx)
		if err != nil {
			time.Sleep(time.Second) // want `retry loop waits the same time.Second before every attempt`
			continue
		}
		if n == 0 {
			return nil
		}
	}
}

type event struct{ id string }

func deliver(ctx context.Context, ev event) error { return nil }

// A consumer: each iteration takes the next event from the channel; a
// failed delivery moves on to the next one.
func consumeEvents(ctx context.Context, events <-chan event) {
	for {
		ev := <-events
		err := deliver(ctx, ev)
		if err != nil {
			log.Printf("deliver %s: %v", ev.id, err)
			time.Sleep(time.Second)
			continue
		}
	}
}

type queue struct{ ch chan event }

// next takes the next event of the queue.
func (q *queue) next() event { return <-q.ch }

// The same through a method that takes from a channel.
func consumeQueue(ctx context.Context, q *queue) {
	for {
		ev := q.next()
		err := deliver(ctx, ev)
		if err != nil {
			log.Printf("deliver %s: %v", ev.id, err)
			time.Sleep(time.Second)
			continue
		}
	}
}

func upload(ctx context.Context, line string) error { return nil }

// Lines of a scanner: each iteration is the next line.
func uploadLines(ctx context.Context, r io.Reader) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		err := upload(ctx, line)
		if err != nil {
			log.Printf("upload: %v", err)
			time.Sleep(time.Second)
			continue
		}
	}
	return sc.Err()
}

type stream struct{ events chan event }

func (s *stream) subscribe(ctx context.Context) (<-chan event, error) { return s.events, nil }

// watchStream consumes a subscription until it ends.
func (s *stream) watchStream(ctx context.Context) error {
	ch, err := s.subscribe(ctx)
	if err != nil {
		return err
	}
	for ev := range ch {
		_ = deliver(ctx, ev)
	}
	return nil
}

// A restart loop of a component that runs until its stream ends: no retry.
func (s *stream) run(ctx context.Context) {
	for {
		err := s.watchStream(ctx)
		if err == nil {
			return
		}
		log.Printf("stream ended: %v; restarting", err)
		time.Sleep(time.Second)
	}
}

// The same with an endless select loop over the subscription.
func (s *stream) selectStream(ctx context.Context) error {
	ch, err := s.subscribe(ctx)
	if err != nil {
		return err
	}
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return errTimedOut
			}
			_ = deliver(ctx, ev)
		case <-ctx.Done():
			return nil
		}
	}
}

func (s *stream) runSelect(ctx context.Context) {
	for {
		if err := s.selectStream(ctx); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// A server restarted after it stops.
func serveForever(srv *http.Server) error {
	for {
		err := srv.ListenAndServe()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		log.Printf("server stopped: %v; restarting", err)
		time.Sleep(time.Second)
	}
}

type feed struct{}

func (f *feed) recv(ctx context.Context) (event, error) { return event{}, nil }

// consumeFeed reads the feed until it fails.
func (f *feed) consumeFeed(ctx context.Context) error {
	for {
		ev, err := f.recv(ctx)
		if err != nil {
			return err
		}
		_ = deliver(ctx, ev)
	}
}

// Restarting a consumer that runs until its feed fails: no retry.
func (f *feed) runFeed(ctx context.Context) {
	for {
		if err := f.consumeFeed(ctx); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func (s *stream) get(ctx context.Context) (int, error)         { return 0, nil }
func (s *stream) cas(ctx context.Context, v int) (bool, error) { return true, nil }

// A read-then-write loop: the read succeeding does not make the iteration
// a success, the write may still send it round. The pause at the top is
// the backoff of a retry, not pacing.
func (s *stream) casLoop(ctx context.Context) error {
	for i := 0; i < 10; i++ {
		if i > 0 {
			time.Sleep(time.Second) // want `retry loop waits the same time.Second before every attempt`
		}
		v, err := s.get(ctx)
		if err != nil {
			continue
		}
		ok, err := s.cas(ctx, v+1)
		if err == nil && ok {
			return nil
		}
	}
	return errTimedOut
}

func lookup(name string) ([]string, error) { return nil, nil }

// A poll for a result that is not there yet, which also calls again after
// a failure: its wait paces the poll, but nothing ends it (issue 13, rule
// 13: wait-for-ready without a deadline).
func resolveForever(name string) []string {
	for { // want `poll has no attempt limit and no context or deadline to stop it`
		addrs, err := lookup(name)
		if err == nil && len(addrs) > 0 {
			return addrs
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// The same poll with a deadline checked in the loop: bounded, and its
// constant wait paces the poll.
func resolveWithin(name string, d time.Duration) []string {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		addrs, err := lookup(name)
		if err == nil && len(addrs) > 0 {
			return addrs
		}
		time.Sleep(500 * time.Millisecond)
	}
	return nil
}

// Ended by the caller's context.
func resolveCtx(ctx context.Context, name string) []string {
	for ctx.Err() == nil {
		addrs, err := lookup(name)
		if err == nil && len(addrs) > 0 {
			return addrs
		}
		time.Sleep(500 * time.Millisecond)
	}
	return nil
}

func findCoordinator(ctx context.Context) (int, error) { return 0, nil }

var errNotReady = errors.New("not ready")

// A wait on a way out of the loop (it sleeps, then returns for the caller
// to try again) precedes no attempt of this loop: only the failure that
// goes round is retried here, without a wait.
func coordinator(ctx context.Context) (int, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var id int
		id, err = findCoordinator(ctx)
		if err == nil {
			return id, nil
		}
		if errors.Is(err, errNotReady) {
			time.Sleep(2 * time.Second)
			return 0, err
		}
	}
	return 0, err
}
