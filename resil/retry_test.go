package resil

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

var errBoom = errors.New("boom")

// failing returns an op that fails with err n times, then succeeds.
func failing(n int, err error, calls *int) func(context.Context) error {
	return func(context.Context) error {
		*calls++
		if *calls <= n {
			return err
		}
		return nil
	}
}

func TestRetrySucceedsAfterFailures(t *testing.T) {
	clk := newFakeClock()
	calls := 0
	err := Retry(context.Background(), failing(2, errBoom, &calls), WithClock(clk))
	if err != nil || calls != 3 {
		t.Fatalf("err=%v calls=%d, want nil after 3 calls", err, calls)
	}
	if n := len(clk.Slept()); n != 2 {
		t.Fatalf("slept %d times, want 2", n)
	}
}

func TestRetryExhaustedWrapsLastError(t *testing.T) {
	clk := newFakeClock()
	calls := 0
	err := Retry(context.Background(), failing(100, errBoom, &calls), WithClock(clk))
	if calls != DefaultAttempts {
		t.Fatalf("calls=%d, want %d", calls, DefaultAttempts)
	}
	var re *RetryError
	if !errors.As(err, &re) || re.Attempts != 3 || re.Err != errBoom {
		t.Fatalf("err=%#v, want *RetryError{Err: errBoom, Attempts: 3}", err)
	}
	if !errors.Is(err, errBoom) || !errors.Is(err, ErrAttemptsExhausted) {
		t.Fatalf("errors.Is fails on %v", err)
	}
	if got, want := err.Error(), "resil: gave up after 3 attempts: boom"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
}

func TestRetryNeverRetriesPermanentErrors(t *testing.T) {
	inner := errors.New("bad request")
	resp403 := &HTTPError{StatusCode: http.StatusForbidden}
	for name, e := range map[string]error{
		"Permanent":       Permanent(inner),
		"HTTP 404":        Permanent(&HTTPError{StatusCode: 404}),
		"bare HTTP 403":   resp403,
		"gRPC NotFound":   grpcErr(5),
		"caller-canceled": context.Canceled,
		"RetryError":      &RetryError{Err: errBoom, Attempts: 3, Reason: ErrAttemptsExhausted},
	} {
		calls := 0
		err := Retry(context.Background(), failing(100, e, &calls), WithClock(newFakeClock()))
		if calls != 1 || err != e {
			t.Errorf("%s: calls=%d err=%v, want 1 call and the error unchanged", name, calls, err)
		}
	}
	if err := Retry(context.Background(), failing(100, Permanent(inner), new(int))); !errors.Is(err, inner) {
		t.Errorf("errors.Is(Permanent(inner), inner) = false")
	}
}

func TestRetryRetriesTransientClasses(t *testing.T) {
	for name, e := range map[string]error{
		"plain":              errBoom,
		"HTTP 503":           &HTTPError{StatusCode: 503},
		"HTTP 429":           &HTTPError{StatusCode: 429},
		"gRPC Unavailable":   grpcErr(14),
		"attempt timed out":  context.DeadlineExceeded,
		"ErrBulkheadFull":    ErrBulkheadFull,
		"wrapped Unavailble": errors.Join(errors.New("ctx"), grpcErr(14)),
	} {
		calls := 0
		_ = Retry(context.Background(), failing(100, e, &calls), WithClock(newFakeClock()))
		if calls != 3 {
			t.Errorf("%s: calls=%d, want 3", name, calls)
		}
	}
}

func TestRetryStopsOnCallerCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := Retry(ctx, func(context.Context) error {
		calls++
		cancel()
		return errBoom // the op did not notice; Retry must
	}, WithClock(newFakeClock()))
	if calls != 1 {
		t.Fatalf("calls=%d, want 1", calls)
	}
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errBoom) {
		t.Fatalf("err=%v, want both the cancellation and the last error", err)
	}
}

func TestRetryIfOverrides(t *testing.T) {
	calls := 0
	err := Retry(context.Background(), failing(100, errBoom, &calls),
		WithClock(newFakeClock()), RetryIf(func(err error) bool { return false }))
	if calls != 1 || err != errBoom {
		t.Fatalf("calls=%d err=%v", calls, err)
	}
	calls = 0
	_ = Retry(context.Background(), failing(100, Permanent(errBoom), &calls),
		WithClock(newFakeClock()), RetryIf(func(err error) bool { return true }))
	if calls != 1 {
		t.Fatalf("RetryIf must not override Permanent: calls=%d", calls)
	}
}

func TestRetryDelaysAreCappedFullJitter(t *testing.T) {
	clk := newFakeClock()
	var hooked []time.Duration
	_ = Retry(context.Background(), failing(100, errBoom, new(int)), WithClock(clk),
		Attempts(8), BaseDelay(100*time.Millisecond), MaxDelay(250*time.Millisecond),
		OnRetry(func(attempt int, err error, d time.Duration) {
			if attempt != len(hooked)+1 || err != errBoom {
				t.Errorf("OnRetry(%d, %v)", attempt, err)
			}
			hooked = append(hooked, d)
		}))
	slept := clk.Slept()
	if len(slept) != 7 || len(hooked) != 7 {
		t.Fatalf("slept %d, hooked %d, want 7", len(slept), len(hooked))
	}
	for i, d := range slept {
		if c := min(250*time.Millisecond, 100*time.Millisecond<<i); d < 0 || d > c || d != hooked[i] {
			t.Errorf("wait %d = %v (hook %v), want in [0, %v]", i, d, hooked[i], c)
		}
	}
}

func TestRetryPlansAttemptsAgainstDeadline(t *testing.T) {
	clk := newFakeClock()
	ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(time.Second))
	defer cancel()
	var timeouts []time.Duration
	opErr := errors.New("attempt timed out")
	err := Retry(ctx, func(actx context.Context) error {
		dl, ok := actx.Deadline()
		if !ok {
			t.Fatal("attempt context has no deadline")
		}
		d := dl.Sub(clk.Now())
		timeouts = append(timeouts, d)
		clk.Advance(d) // the attempt uses all of its time
		return opErr
	}, WithClock(clk), Attempts(10), BaseDelay(0), AttemptTimeout(300*time.Millisecond), Reserve(10*time.Millisecond))

	want := []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond, 90 * time.Millisecond}
	if len(timeouts) != len(want) {
		t.Fatalf("attempt timeouts %v, want %v", timeouts, want)
	}
	for i := range want {
		if timeouts[i] != want[i] {
			t.Fatalf("attempt timeouts %v, want %v", timeouts, want)
		}
	}
	var re *RetryError
	if !errors.As(err, &re) || re.Err != opErr || re.Attempts != 4 || !errors.Is(err, ErrNoTimeLeft) ||
		!errors.Is(err, context.DeadlineExceeded) || err == context.DeadlineExceeded {
		t.Fatalf("err=%v, want a RetryError with the last real error and ErrNoTimeLeft", err)
	}
}

func TestRetryDoesNotStartWaitThatCannotFinish(t *testing.T) {
	clk := newFakeClock()
	ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(time.Second))
	defer cancel()
	calls := 0
	err := Retry(ctx, failing(100, WithRetryAfter(errBoom, 2*time.Second), &calls), WithClock(clk))
	if calls != 1 || len(clk.Slept()) != 0 || !errors.Is(err, ErrNoTimeLeft) || !errors.Is(err, errBoom) {
		t.Fatalf("calls=%d slept=%v err=%v; want one attempt, no wait, ErrNoTimeLeft", calls, clk.Slept(), err)
	}

	// Backoff alone: base 400ms, so the second wait (up to 800ms) may not fit
	// in what is left; whatever the draw, the time slept plus the reserve
	// never passes the deadline.
	for range 50 {
		clk := newFakeClock()
		ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(time.Second))
		start := clk.Now()
		_ = Retry(ctx, failing(100, errBoom, new(int)), WithClock(clk), Attempts(10),
			BaseDelay(400*time.Millisecond), MaxDelay(time.Hour))
		cancel()
		if el := clk.Now().Sub(start); el+DefaultReserve+MinAttemptTime > time.Second {
			t.Fatalf("waited %v of a 1s budget", el)
		}
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	clk := newFakeClock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	calls := 0
	err := Retry(ctx, failing(1, &HTTPError{StatusCode: 503, After: 1500 * time.Millisecond}, &calls), WithClock(clk))
	if err != nil || calls != 2 {
		t.Fatalf("err=%v calls=%d", err, calls)
	}
	if s := clk.Slept(); len(s) != 1 || s[0] != 1500*time.Millisecond {
		t.Fatalf("slept %v, want [1.5s]", s)
	}

	// Without a deadline, a Retry-After beyond MaxDelay stops retrying, visibly.
	calls = 0
	err = Retry(context.Background(), failing(1, WithRetryAfter(errBoom, time.Minute), &calls), WithClock(newFakeClock()))
	if calls != 1 || !errors.Is(err, ErrRetryAfterTooLong) || !errors.Is(err, errBoom) {
		t.Fatalf("calls=%d err=%v, want ErrRetryAfterTooLong", calls, err)
	}
}

func TestRetryNoTimeForFirstAttempt(t *testing.T) {
	clk := newFakeClock()
	ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(3*time.Millisecond))
	defer cancel()
	calls := 0
	err := Retry(ctx, failing(0, nil, &calls), WithClock(clk))
	var re *RetryError
	if calls != 0 || !errors.As(err, &re) || re.Attempts != 0 || !errors.Is(err, ErrNoTimeLeft) {
		t.Fatalf("calls=%d err=%v, want no attempt and ErrNoTimeLeft", calls, err)
	}
}

func TestRetryAtOneLayerOnly(t *testing.T) {
	var bottom atomic.Int32
	leaf := func(ctx context.Context) error {
		return Retry(ctx, func(context.Context) error { bottom.Add(1); return errBoom }, BaseDelay(0))
	}
	middle := func(ctx context.Context) error {
		if !RetryOwned(ctx) {
			t.Error("the outer Retry did not mark the context")
		}
		return Retry(ctx, leaf, BaseDelay(0))
	}
	// Background and TODO share one premade mark; any other parent gets
	// its own. Either way the parent itself stays unmarked.
	reqCtx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey("req"), 1))
	defer cancel()
	for _, parent := range []context.Context{context.Background(), context.TODO(), reqCtx} {
		bottom.Store(0)
		err := Retry(parent, middle, BaseDelay(0))
		if n := bottom.Load(); n != 3 {
			t.Fatalf("%v: bottom saw %d calls through 3 nested Retry layers, want 3", parent, n)
		}
		var re *RetryError
		if !errors.As(err, &re) || re.Attempts != 3 || re.Err != errBoom {
			t.Fatalf("%v: err=%v: the inner layers must pass the error up unchanged", parent, err)
		}
		if RetryOwned(parent) {
			t.Fatalf("%v: Retry marked its caller's context", parent)
		}
	}
	if err := Retry(reqCtx, func(ctx context.Context) error {
		if ctx.Value(ctxKey("req")) != 1 || ctx.Done() != reqCtx.Done() {
			t.Error("the marked context lost its parent's values or cancellation")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := Retry(context.TODO(), func(ctx context.Context) error {
		if ctx.Done() != nil || ctx.Err() != nil {
			t.Error("the premade mark of TODO is not a TODO")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	// Without the context, the second mechanism still holds: an inner
	// RetryError (attempts already made) is never retried by an outer layer.
	bottom.Store(0)
	inner := func(context.Context) error { bottom.Add(1); return errBoom }
	_ = Retry(context.Background(), func(context.Context) error {
		return Retry(context.Background(), inner, BaseDelay(0))
	}, BaseDelay(0))
	if n := bottom.Load(); n != 3 {
		t.Fatalf("context dropped, RetryError kept: bottom saw %d, want 3", n)
	}

	// The control: drop the context and unwrap the error, and attempts multiply.
	bottom.Store(0)
	_ = Retry(context.Background(), func(context.Context) error {
		err := Retry(context.Background(), inner, BaseDelay(0))
		if re, ok := err.(*RetryError); ok {
			return re.Err
		}
		return err
	}, BaseDelay(0))
	if n := bottom.Load(); n != 9 {
		t.Fatalf("without either mechanism: bottom saw %d, want 3·3 = 9", n)
	}
}

func TestRetryAttemptsOneDoesNotMark(t *testing.T) {
	calls := 0
	err := Retry(context.Background(), func(ctx context.Context) error {
		if RetryOwned(ctx) {
			t.Error("Attempts(1) must not claim retries for inner layers")
		}
		return Retry(ctx, failing(100, errBoom, &calls), BaseDelay(0))
	}, Attempts(1))
	if calls != 3 || !errors.Is(err, ErrAttemptsExhausted) {
		t.Fatalf("calls=%d err=%v", calls, err)
	}
}

func TestRetryBudget(t *testing.T) {
	clk := newFakeClock()
	b := newRetryBudget(0, 1, 2, clk) // 2 retries banked, then 1 per second
	calls := 0
	err := Retry(context.Background(), failing(100, errBoom, &calls), WithClock(clk), Attempts(10), BaseDelay(0), UseBudget(b))
	if calls != 3 || !errors.Is(err, ErrBudgetExhausted) || !errors.Is(err, errBoom) {
		t.Fatalf("calls=%d err=%v, want 3 calls then ErrBudgetExhausted", calls, err)
	}
	clk.Advance(time.Second)
	calls = 0
	_ = Retry(context.Background(), failing(100, errBoom, &calls), WithClock(clk), Attempts(10), BaseDelay(0), UseBudget(b))
	if calls != 2 {
		t.Fatalf("after 1s refill: calls=%d, want 2", calls)
	}

	// Requests earn retries: 10 requests at ratio 0.1 earn one.
	r := newRetryBudget(0.1, 0, 5, clk)
	for r.withdraw() {
	}
	for range 10 {
		r.deposit()
	}
	if !r.withdraw() || r.withdraw() {
		t.Fatalf("10 deposits at 0.1 should allow exactly one retry")
	}
	// Permanent errors do not draw on the budget.
	p := newRetryBudget(0, 0, 1, clk)
	_ = Retry(context.Background(), failing(100, Permanent(errBoom), new(int)), UseBudget(p))
	if p.Tokens() != 1 {
		t.Fatalf("a permanent error used the budget: %v tokens left", p.Tokens())
	}
	if BudgetFor("x-dep") != BudgetFor("x-dep") || BudgetFor("x-dep") == BudgetFor("y-dep") {
		t.Fatal("BudgetFor must return one budget per name")
	}
}

func TestRetryNeverOutlivesDeadline(t *testing.T) {
	const budget = 150 * time.Millisecond
	opErr := errors.New("slow dependency")
	for _, op := range []func(context.Context) error{
		func(ctx context.Context) error { // honours its context
			_ = Sleep(ctx, 40*time.Millisecond)
			return opErr
		},
		func(ctx context.Context) error { // hangs until its attempt ends
			<-ctx.Done()
			return opErr
		},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		start := time.Now()
		err := Retry(ctx, op, Attempts(100), BaseDelay(20*time.Millisecond), MaxDelay(50*time.Millisecond))
		el := time.Since(start)
		cancel()
		if el > budget+15*time.Millisecond {
			t.Errorf("Retry returned after %v with a %v deadline", el, budget)
		}
		var re *RetryError
		if !errors.As(err, &re) || re.Err != opErr || err == context.DeadlineExceeded {
			t.Errorf("err=%v, want a RetryError around the last real error", err)
		}
	}
}

func TestRetryValue(t *testing.T) {
	calls := 0
	v, err := RetryValue(context.Background(), func(context.Context) (int, error) {
		calls++
		if calls < 2 {
			return -1, errBoom
		}
		return 42, nil
	}, WithClock(newFakeClock()))
	if v != 42 || err != nil {
		t.Fatalf("RetryValue = %d, %v", v, err)
	}
	v, err = RetryValue(context.Background(), func(context.Context) (int, error) { return 7, Permanent(errBoom) })
	if v != 0 || err == nil {
		t.Fatalf("on failure RetryValue = %d, %v; want the zero value", v, err)
	}
}

func TestRetryBadInput(t *testing.T) {
	if err := Retry(context.Background(), nil); err != ErrNilOperation {
		t.Fatalf("nil op: %v", err)
	}
	if _, err := RetryValue[int](context.Background(), nil); err != ErrNilOperation {
		t.Fatalf("nil op: %v", err)
	}
	calls := 0
	//lint:ignore SA1012 a nil context is bad input that must not panic
	if err := Retry(nil, failing(0, nil, &calls)); err != nil || calls != 1 { //nolint:staticcheck
		t.Fatalf("nil ctx: err=%v calls=%d", err, calls)
	}
	calls = 0
	_ = Retry(context.Background(), failing(100, errBoom, &calls), Attempts(-5), nil, BaseDelay(-1), MaxDelay(-1), Reserve(-1), AttemptTimeout(-1))
	if calls != 1 {
		t.Fatalf("Attempts(-5): calls=%d, want 1", calls)
	}
}

func TestRetryThroughBreakerAndBulkhead(t *testing.T) {
	clk := newFakeClock()
	br := NewBreaker("retry-open", BreakerClock(clk), MinimumThroughput(1))
	_ = br.Do(context.Background(), func(context.Context) error { return errBoom })
	if br.State() != StateOpen {
		t.Fatal("setup: breaker should be open")
	}
	calls := 0
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := Retry(ctx, failing(0, nil, &calls), UseBreaker(br), WithClock(clk))
	if calls != 0 || !errors.Is(err, ErrOpen) || !errors.Is(err, ErrNoTimeLeft) {
		t.Fatalf("calls=%d err=%v: an open breaker whose break outlasts the budget must fail fast", calls, err)
	}

	bh := NewBulkhead(1, 0)
	release, _ := bh.Acquire(context.Background())
	err = Retry(context.Background(), failing(0, nil, &calls), UseBulkhead(bh), WithClock(clk))
	release()
	if !errors.Is(err, ErrBulkheadFull) || calls != 0 {
		t.Fatalf("full bulkhead: calls=%d err=%v", calls, err)
	}
	if err := Retry(context.Background(), failing(0, nil, &calls), UseBulkhead(bh), UseBreaker(NewBreaker("ok"))); err != nil || bh.InFlight() != 0 {
		t.Fatalf("err=%v inflight=%d", err, bh.InFlight())
	}
}

func TestRetryAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	ctx := context.Background()
	op := func(context.Context) error { return nil }
	if n := testing.AllocsPerRun(1000, func() { _ = Retry(ctx, op) }); n != 0 {
		t.Errorf("outermost Retry on Background, success path: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(1000, func() { _ = Retry(context.TODO(), op) }); n != 0 {
		t.Errorf("outermost Retry on TODO, success path: %v allocs, want 0", n)
	}
	reqCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if n := testing.AllocsPerRun(1000, func() { _ = Retry(reqCtx, op) }); n != 0 {
		t.Errorf("outermost Retry on a request context, success path: %v allocs, want 0", n)
	}
	owned := WithRetryOwned(ctx)
	if n := testing.AllocsPerRun(1000, func() { _ = Retry(owned, op) }); n != 0 {
		t.Errorf("nested Retry success path: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(1000, func() { _ = Retry(ctx, op, Attempts(1), BaseDelay(time.Millisecond)) }); n != 0 {
		t.Errorf("Retry with options, Attempts(1): %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(1000, func() { _, _ = RetryValue(owned, func(context.Context) (int, error) { return 1, nil }) }); n != 0 {
		t.Errorf("nested RetryValue: %v allocs, want 0", n)
	}
}

type ctxKey string
