// Package loops has retry loops of every shape, with waits that are fine
// and waits that are not.
package loops

import (
	"context"
	"errors"
	"log"
	"math/rand"
	randv2 "math/rand/v2"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/resilint/resilint/resil"
)

var errUnavailable = errors.New("unavailable")

func send(ctx context.Context) error           { return nil }
func sendNoCtx() error                         { return nil }
func sendItem(ctx context.Context, i int) error { return nil }

// Fixed time.Sleep while a ctx is in scope: two problems, one report.
func fixedSleepCtx(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry loop waits the same time.Second before every attempt, and waits with time.Sleep, which ignores ctx: .*resil.Sleep`
	}
	return err
}

// Fixed time.Sleep with no context at all: fixed only.
func fixedSleepNoCtx() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = sendNoCtx(); err == nil {
			return nil
		}
		time.Sleep(500 * time.Millisecond) // want `waits the same 500 \* time.Millisecond before every attempt: clients that failed together`
	}
	return err
}

// Jittered time.Sleep while a ctx is in scope: still blind to ctx.
func jitteredSleepCtx(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second) << attempt))) // want `waits with time.Sleep, which ignores ctx`
	}
	return err
}

// Jittered, bounded, no context: fine.
func jitteredNoCtx() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = sendNoCtx(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Intn(100<<attempt)) * time.Millisecond)
	}
	return err
}

// select on ctx.Done and a jittered timer: fine.
func selectJittered(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(100*time.Millisecond) << attempt))):
		}
	}
	return err
}

// select on ctx.Done and a fixed timer: fixed.
func selectFixed(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second): // want `waits the same 2 \* time.Second before every attempt`
		}
	}
	return err
}

// NewTimer and a receive in a select: reported on the timer.
func newTimerFixed(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		t := time.NewTimer(2 * time.Second) // want `waits the same 2 \* time.Second`
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// NewTimer with jitter: fine.
func newTimerJittered(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		t := time.NewTimer(time.Duration(randv2.Int64N(int64(time.Second))))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// A timer made once and reset in the loop.
func resetTimer(ctx context.Context) error {
	t := time.NewTimer(0)
	<-t.C
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		t.Reset(time.Second) // want `waits the same time.Second`
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// A doubling delay with no jitter.
func doubling(ctx context.Context) error {
	delay := 100 * time.Millisecond
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `grows its wait \(delay\) without jitter`
		}
		delay *= 2
	}
	return err
}

func backoffFor(attempt int) time.Duration {
	return 100 * time.Millisecond << attempt
}

func jitterFor(attempt int) time.Duration {
	return time.Duration(rand.Int63n(int64(100*time.Millisecond) << attempt))
}

// Backoff computed by a helper function: grows, no jitter.
func helperBackoff(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoffFor(attempt)): // want `grows its wait`
		}
	}
	return err
}

// Backoff computed by a helper that randomises: fine.
func helperJitter(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitterFor(attempt)):
		}
	}
	return err
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func pause() { time.Sleep(time.Second) }

// Sleeping through a context-aware helper: fixed, not blind.
func helperSleepCtx(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		if err := sleepCtx(ctx, time.Second); err != nil { // want `waits the same time.Second before every attempt: `
			return err
		}
	}
	return err
}

// Sleeping through a helper that uses time.Sleep: fixed and blind.
func helperPause(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		pause() // want `waits the same duration before every attempt, and waits with loops.pause, which ignores ctx`
	}
	return err
}

// for range 3.
func rangeInt(ctx context.Context) error {
	var err error
	for range 3 {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `waits the same time.Second`
		}
	}
	return err
}

type broker struct {
	addr string
	conn net.Conn
}

// for {} with a break on success, no bound and no context: unbounded,
// reported on the loop.
func (b *broker) connect() {
	for { // want `has no attempt limit and no context or deadline to stop it`
		conn, err := net.DialTimeout("tcp", b.addr, 3*time.Second)
		if err == nil {
			b.conn = conn
			break
		}
		log.Printf("broker %s: %v", b.addr, err)
		time.Sleep(5 * time.Second)
	}
}

// for {} that leaves on ctx.Done, jittered: fine.
func untilDone(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
		}
	}
}

// for {} that leaves on ctx.Done with a fixed wait: fixed, not unbounded.
func untilDoneFixed(ctx context.Context) error {
	for {
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `waits the same time.Second before every attempt: `
		}
	}
}

// A labelled loop left by break from inside the select.
func labelled(ctx context.Context) error {
	var err error
retry:
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			break retry
		case <-time.After(time.Second): // want `waits the same time.Second`
		}
	}
	return err
}

type job struct{ status func(ctx context.Context) (string, error) }

// Ticker polling with no failure path: errors return.
func (j *job) wait(ctx context.Context) error {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		st, err := j.status(ctx)
		if err != nil {
			return err
		}
		if st == "done" {
			return nil
		}
	}
}

// Ticker polling that logs failures and goes on: still polling.
func poll(ctx context.Context) {
	for range time.Tick(time.Second) {
		if err := send(ctx); err != nil {
			log.Print(err)
			continue
		}
		return
	}
}

// An accept loop: a server loop, not a retry loop.
func serve(ln net.Listener) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		go conn.Close()
	}
}

// A loop over a collection that moves on after a failure.
func sendAll(ctx context.Context, items []int) {
	for _, item := range items {
		if err := sendItem(ctx, item); err != nil {
			time.Sleep(time.Second)
			continue
		}
	}
}

func work() {}

// Unconditional pacing with no retried call.
func pace() {
	for i := 0; i < 10; i++ {
		work()
		time.Sleep(time.Second)
	}
}

// Delays from an exponential cenkalti policy: randomised.
func nextBackOff(ctx context.Context) error {
	bo := backoff.NewExponentialBackOff()
	for {
		if err := send(ctx); err == nil {
			return nil
		}
		d := bo.NextBackOff()
		if d == backoff.Stop {
			return errUnavailable
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// Delays from a constant cenkalti policy: fixed.
func constantBackOff(ctx context.Context) error {
	var bo backoff.BackOff = backoff.NewConstantBackOff(time.Second)
	for attempt := 0; attempt < 3; attempt++ {
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(bo.NextBackOff()): // want `waits the same bo.NextBackOff\(\) before every attempt`
		}
	}
	return errUnavailable
}

// resil's sleep and backoff: fine.
func withResil(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		if err := resil.Sleep(ctx, resil.Backoff(attempt, 100*time.Millisecond, 2*time.Second)); err != nil {
			return err
		}
	}
	return err
}

// math/rand/v2 jitter: fine.
func randV2(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(randv2.N(time.Second << attempt)):
		}
	}
	return err
}

type policy interface{ Next(attempt int) time.Duration }

type client struct {
	delayFn    func(attempt int) time.Duration
	policy     policy
	retryDelay time.Duration
	hc         *http.Client
}

// A duration of unknown origin: a function field, an interface method.
func (c *client) unknownDelays(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.delayFn(attempt)):
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.policy.Next(attempt)):
		}
	}
	return err
}

// A delay in a struct field: fixed.
func (c *client) fieldDelay(url string) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.hc.Get(url)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		lastErr = err
		time.Sleep(c.retryDelay) // want `waits the same c.retryDelay before every attempt`
	}
	return nil, lastErr
}

// A retry loop in a closure.
func inClosure(ctx context.Context) {
	go func() {
		for i := 0; i < 3; i++ {
			if err := sendNoCtx(); err == nil {
				return
			}
			time.Sleep(time.Second) // want `waits the same time.Second before every attempt, and waits with time.Sleep, which ignores ctx`
		}
	}()
}

// A method value held in a local.
func (c *client) send(ctx context.Context) error { return nil }

func methodValue(ctx context.Context, c *client) error {
	do := c.send
	var err error
	for i := 0; i < 3; i++ {
		if err = do(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `waits the same time.Second`
		}
	}
	return err
}

// A generic retry helper of the project's own.
func retryOp[T any](ctx context.Context, op func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	for i := 0; i < 3; i++ {
		var v T
		if v, err = op(ctx); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(time.Second): // want `waits the same time.Second`
		}
	}
	return zero, err
}

// A schedule of delays: deterministic, no jitter.
func schedule() error {
	var err error
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if err = sendNoCtx(); err == nil {
			return nil
		}
		time.Sleep(d) // want `grows its wait \(d\) without jitter`
	}
	return err
}

// A counter checked in the body: bounded.
func counterInBody() error {
	attempt := 0
	for {
		err := sendNoCtx()
		if err == nil {
			return nil
		}
		attempt++
		if attempt >= 3 {
			return err
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt: `
	}
}

// A deadline checked in the body: not unbounded.
func deadline() error {
	end := time.Now().Add(time.Minute)
	for {
		err := sendNoCtx()
		if err == nil {
			return nil
		}
		if time.Now().After(end) {
			return err
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt: `
	}
}

// A quit channel that leaves the loop: an exit, and the wait is not blind.
func quitChannel(quit <-chan struct{}) error {
	for {
		if err := sendNoCtx(); err == nil {
			return nil
		}
		select {
		case <-quit:
			return errUnavailable
		case <-time.After(time.Second): // want `waits the same time.Second before every attempt: `
		}
	}
}

// Jittered but unbounded, no context.
func unboundedJittered() {
	for { // want `retry loop has no attempt limit`
		if err := sendNoCtx(); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
}

// Pages: the call depends on the counter.
func pages(ctx context.Context) error {
	for page := 0; page < 10; page++ {
		if err := sendItem(ctx, page); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return nil
	}
	return nil
}

type lister interface {
	List(ctx context.Context, token string) (string, error)
}

// A page token: the call depends on what it returned.
func cursor(ctx context.Context, l lister) error {
	token := ""
	for {
		next, err := l.List(ctx, token)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if next == "" {
			return nil
		}
		token = next
	}
}

// An inbound request's context is in scope.
func handler(w http.ResponseWriter, r *http.Request) {
	for attempt := 0; attempt < 3; attempt++ {
		if err := send(r.Context()); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(100)) * time.Millisecond) // want `waits with time.Sleep, which ignores r.Context\(\)`
	}
}

type profile struct{}

func (p *profile) add(data []byte) error { return nil }

func read() ([]byte, bool) { return nil, false }

// A reader loop that keeps the first error and stops at EOF: the call's
// outcome does not decide whether the loop goes round.
func readAll(p *profile) error {
	var err error
	for {
		time.Sleep(100 * time.Millisecond)
		data, eof := read()
		if e := p.add(data); e != nil && err == nil {
			err = e
		}
		if eof {
			break
		}
	}
	return err
}

// A loop that expects every call to fail: success ends the program.
func expectFailures() {
	for i := 0; i < 600; i++ {
		if err := sendNoCtx(); err == nil {
			log.Fatal("unexpected success")
		}
		time.Sleep(time.Millisecond)
	}
}

// A timer that times out a wait for something else: not a pause.
func timeout(results <-chan string) {
	limit := time.Second
	for {
		err := sendNoCtx()
		if err == nil {
			return
		}
		t := time.NewTimer(limit * 10)
		select {
		case <-t.C:
			limit *= 2
			continue
		case r := <-results:
			t.Stop()
			log.Print(r)
		}
		break
	}
}

var delays = []time.Duration{time.Second, 2 * time.Second}

// A bound checked as "if attempts < n { wait; continue }" then give up.
func boundedByElse() error {
	attempts := 0
	for {
		err := sendNoCtx()
		if err == nil {
			return nil
		}
		if attempts < len(delays) {
			time.Sleep(delays[attempts]) // want `grows its wait \(delays\[attempts\]\) without jitter: `
			attempts++
			continue
		}
		return err
	}
}

type conn struct{ errc chan error }

// waitWritten waits for an event with a timeout: not a sleep helper.
func (c *conn) waitWritten() bool {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case err := <-c.errc:
		return err == nil
	case <-t.C:
		return false
	}
}

func (c *conn) readLoop(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := send(ctx); err == nil {
			return nil
		}
		if !c.waitWritten() {
			return errUnavailable
		}
	}
	return nil
}

type pool struct {
	closedFlag bool
	dial       func(ctx context.Context) (net.Conn, error)
	timeout    time.Duration
}

func (p *pool) closed() bool { return p.closedFlag }

// A background re-dial loop: it stops when the pool closes (a stop signal,
// not unbounded), and the context it makes per attempt is not one to
// observe while sleeping.
func (p *pool) tryDial() {
	for {
		if p.closed() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
		conn, err := p.dial(ctx)
		cancel()
		if err != nil {
			time.Sleep(time.Second) // want `waits the same time.Second before every attempt: clients`
			continue
		}
		conn.Close()
		return
	}
}

// A context that is only Background(): nothing cancels it.
func background() error {
	ctx := context.Background()
	var err error
	for i := 0; i < 3; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
	return err
}

// wait blocks until delay elapses or ctx is done; when both happen it
// favours the timer (a select with a default does not wait).
func wait(ctx context.Context, delay time.Duration) error {
	timer := time.NewTimer(delay)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		select {
		case <-timer.C:
		default:
			return ctx.Err()
		}
	case <-timer.C:
	}
	return nil
}

// waitFunc can be replaced in tests.
var waitFunc = wait

// A context-aware sleep through a package-level function variable, with a
// randomised delay: fine.
func overridable(ctx context.Context) error {
	b := &backoff.ExponentialBackOff{InitialInterval: time.Second, RandomizationFactor: 0.5}
	for {
		err := send(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		if err := waitFunc(ctx, b.NextBackOff()); err != nil {
			return err
		}
	}
}

type backend struct {
	hc         *http.Client
	maxRetries int
}

func (b *backend) shouldRetry(err error, resp *http.Response, n int) bool {
	return n < b.maxRetries && (err != nil || resp.StatusCode >= 500)
}

// A predicate on the outcome decides, and it counts the attempts: bounded.
// The request's context is the caller's: time.Sleep ignores it.
func (b *backend) do(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for retry := 0; ; {
		resp, err = b.hc.Do(req)
		if !b.shouldRetry(err, resp, retry) {
			break
		}
		retry++
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second) << retry))) // want `waits with time.Sleep, which ignores req.Context\(\): cancellation`
	}
	return resp, err
}

type retrying struct {
	hc       *http.Client
	retryMax int
	check    func(resp *http.Response, err error) bool
}

// A bound computed into a local (remain := max - i), a check function
// field, and a ctx-aware wait with an unknown delay: fine.
func (r *retrying) do(req *http.Request, wait func(int) time.Duration) (*http.Response, error) {
	for i := 0; ; i++ {
		resp, err := r.hc.Do(req)
		if !r.check(resp, err) {
			return resp, err
		}
		remain := r.retryMax - i
		if remain <= 0 {
			return resp, err
		}
		t := time.NewTimer(wait(i))
		select {
		case <-req.Context().Done():
			t.Stop()
			return nil, req.Context().Err()
		case <-t.C:
		}
	}
}

// Only 429 goes round: still a retry loop.
func (c *client) only429(url string) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.hc.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt: `
	}
	return nil, errUnavailable
}

// A timer that bounds the whole attempt and is also waited out on one
// path: a timeout, not a pause.
func dialAndWait(addr string, accepted <-chan net.Conn) (net.Conn, error) {
	var err error
	for i := 0; i < 5; i++ {
		tooSlow := time.NewTimer(time.Second)
		defer tooSlow.Stop()
		var c net.Conn
		c, err = net.Dial("tcp", addr)
		if err != nil {
			<-tooSlow.C
			continue
		}
		for {
			select {
			case <-tooSlow.C:
				c.Close()
			case c2 := <-accepted:
				return c2, nil
			}
		}
	}
	return nil, err
}

// A backoff object decides when to stop (it holds a context and a retry
// limit): the loop condition is a stop signal, not "forever".
type ownBackoff struct {
	ctx     context.Context
	retries int
}

func (b *ownBackoff) Ongoing() bool { return b.ctx.Err() == nil && b.retries < 5 }

func (b *ownBackoff) Wait() {
	b.retries++
	select {
	case <-time.After(time.Duration(rand.Int63n(int64(time.Second << b.retries)))):
	case <-b.ctx.Done():
	}
}

func backoffObject(ctx context.Context) error {
	b := &ownBackoff{ctx: ctx}
	var err error
	for b.Ongoing() {
		if err = sendNoCtx(); err == nil {
			return nil
		}
		b.Wait()
	}
	return err
}

// The condition is the outcome of the call: still unbounded.
func untilSuccess() {
	err := sendNoCtx()
	for err != nil { // want `retry loop has no attempt limit`
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
		err = sendNoCtx()
	}
}

// Binding a port while the previous process lets go of it: a local
// failure, not a dependency to back off from.
func listen(addr string) (net.Listener, error) {
	var err error
	for range 20 {
		var l net.Listener
		if l, err = net.Listen("tcp", addr); err == nil {
			return l, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// Removing a directory another process still holds: the local file system,
// not a dependency.
func removeAll(dir string) error {
	err := os.RemoveAll(dir)
	deadline := time.Now().Add(time.Second)
	for err != nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		err = os.RemoveAll(dir)
	}
	return err
}

// A UDP server's read loop that pauses after a read error: a server loop,
// not a retry.
func serveUDP(c *net.UDPConn, handle func([]byte)) {
	buf := make([]byte, 65536)
	for {
		n, _, err := c.ReadFromUDP(buf)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		handle(buf[:n])
	}
}

type watcher struct{ hc *http.Client }

func (w *watcher) next(ctx context.Context) (string, error) { return "", nil }

func handleEvent(string) {}

// A consumer loop: success calls again at once, a failure waits the same
// 2s before calling again, so every replica reconnects in the same instant.
func (w *watcher) consume(ctx context.Context) {
	for {
		ev, err := w.next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Printf("next: %v", err)
			time.Sleep(2 * time.Second) // want `retry loop waits the same 2 \* time.Second before every attempt, and waits with time.Sleep`
			continue
		}
		handleEvent(ev)
	}
}

// The same loop with a jittered, context-aware wait: nothing to report.
func (w *watcher) consumeJittered(ctx context.Context) {
	for attempt := 0; ; attempt++ {
		ev, err := w.next(ctx)
		if err != nil {
			if err := resil.Sleep(ctx, resil.Backoff(attempt, 100*time.Millisecond, 5*time.Second)); err != nil {
				return
			}
			continue
		}
		attempt = 0
		handleEvent(ev)
	}
}

// Polling: it waits after success too. Pacing, not a retry.
func (w *watcher) poll(ctx context.Context) {
	for {
		ev, err := w.next(ctx)
		if err != nil {
			log.Printf("next: %v", err)
		} else {
			handleEvent(ev)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Second):
		}
	}
}

func (w *watcher) watchFrom(ctx context.Context, rv string) (string, error) { return rv, nil }

// A watch resuming from its last version: after a failure it calls again
// with the same version, after the same 2s.
func (w *watcher) watch(ctx context.Context) {
	rv := ""
	for {
		if ctx.Err() != nil {
			return
		}
		next, err := w.watchFrom(ctx, rv)
		if err != nil {
			time.Sleep(2 * time.Second) // want `retry loop waits the same 2 \* time.Second before every attempt`
			continue
		}
		rv = next
	}
}

// The same consumer with its stop in the loop's condition: the condition
// says when to stop, not what comes next, so a failure still calls again
// after the same 2s (issue 13, rule 3).
func (w *watcher) consumeUntilDone(ctx context.Context) {
	for ctx.Err() == nil {
		ev, err := w.next(ctx)
		if err != nil {
			time.Sleep(2 * time.Second) // want `retry loop waits the same 2 \* time.Second before every attempt, and waits with time.Sleep`
			continue
		}
		handleEvent(ev)
	}
}

type cursorSource struct{}

func (cursorSource) Advance(ctx context.Context) bool { return false }

// A condition that takes the next item is a consumer: a failure is left
// behind.
func (w *watcher) consumeCursor(ctx context.Context, src cursorSource) {
	for src.Advance(ctx) {
		ev, err := w.next(ctx)
		if err != nil {
			time.Sleep(2 * time.Second)
			continue
		}
		handleEvent(ev)
	}
}

// A failure moves on to another shard: nothing is called again as it was.
func (w *watcher) rotate(ctx context.Context, shards []string) {
	i := 0
	for {
		if ctx.Err() != nil {
			return
		}
		_, err := w.watchFrom(ctx, shards[i%len(shards)])
		if err != nil {
			i++
			time.Sleep(2 * time.Second)
			continue
		}
	}
}

var errEmpty = errors.New("empty")

// A sentinel that is no failure is left out of the failure branch.
func (w *watcher) consumeSentinel(ctx context.Context) {
	for {
		ev, err := w.next(ctx)
		if err != nil && !errors.Is(err, errEmpty) {
			time.Sleep(time.Second) // want `retry loop waits the same time.Second before every attempt`
			continue
		}
		handleEvent(ev)
	}
}
