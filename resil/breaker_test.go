package resil

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func fail(context.Context) error    { return errBoom }
func succeed(context.Context) error { return nil }

func newTestBreaker(opts ...BreakerOption) (*Breaker, *fakeClock) {
	clk := newFakeClock()
	return NewBreaker("test", append([]BreakerOption{BreakerClock(clk)}, opts...)...), clk
}

func TestBreakerTripsOnRateWithMinimumVolume(t *testing.T) {
	b, _ := newTestBreaker()
	for i := range DefaultMinimumThroughput - 1 {
		_ = b.Do(context.Background(), fail)
		if b.State() != StateClosed {
			t.Fatalf("tripped after %d failures, below the minimum volume %d", i+1, DefaultMinimumThroughput)
		}
	}
	_ = b.Do(context.Background(), fail)
	if b.State() != StateOpen {
		t.Fatal("did not trip at 20 failures out of 20")
	}

	// 50 % exactly trips; 12/30 does not.
	b, _ = newTestBreaker()
	for range 15 {
		_ = b.Do(context.Background(), succeed)
	}
	for range 14 {
		_ = b.Do(context.Background(), fail)
	}
	if b.State() != StateClosed {
		t.Fatal("tripped at 14/29 < 50 %")
	}
	_ = b.Do(context.Background(), fail)
	if b.State() != StateOpen {
		t.Fatal("did not trip at 15/30 = 50 %")
	}

	b, _ = newTestBreaker()
	for range 100 {
		_ = b.Do(context.Background(), succeed)
	}
	for range 40 {
		_ = b.Do(context.Background(), fail)
	}
	if s, f := b.Counts(); b.State() != StateClosed || s != 100 || f != 40 {
		t.Fatalf("state=%v counts=%d/%d, want closed with 100/40", b.State(), s, f)
	}
}

func TestBreakerWindowForgets(t *testing.T) {
	b, clk := newTestBreaker()
	for range 19 {
		_ = b.Do(context.Background(), fail)
	}
	clk.Advance(DefaultWindow + time.Second)
	_ = b.Do(context.Background(), fail)
	if b.State() != StateClosed {
		t.Fatal("failures older than the window still counted")
	}
	if _, f := b.Counts(); f != 1 {
		t.Fatalf("failures in window = %d, want 1", f)
	}
}

func TestBreakerOpenHalfOpenClose(t *testing.T) {
	var mu sync.Mutex
	var changes []string
	var b *Breaker
	b, clk := newTestBreaker(MinimumThroughput(1), OnStateChange(func(name string, from, to State) {
		b.Counts() // would deadlock if the hook ran under the breaker's lock
		mu.Lock()
		changes = append(changes, fmt.Sprintf("%s:%v->%v", name, from, to))
		mu.Unlock()
	}))
	_ = b.Do(context.Background(), fail)
	called := false
	err := b.Do(context.Background(), func(context.Context) error { called = true; return nil })
	if called || !errors.Is(err, ErrOpen) {
		t.Fatalf("open breaker: called=%v err=%v", called, err)
	}
	if d, ok := retryAfterOf(err); !ok || d != DefaultOpenDuration {
		t.Fatalf("rejection carries RetryAfter %v, want %v", d, DefaultOpenDuration)
	}

	clk.Advance(DefaultOpenDuration)
	if b.State() != StateHalfOpen {
		t.Fatalf("after the open period: %v", b.State())
	}
	done, err := b.Allow() // the probe
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Allow(); !errors.Is(err, ErrOpen) {
		t.Fatalf("second probe admitted with 1 probe slot: %v", err)
	}
	done(false)
	if b.State() != StateOpen {
		t.Fatalf("failed probe: %v, want open", b.State())
	}
	clk.Advance(DefaultOpenDuration)
	if err := b.Do(context.Background(), succeed); err != nil || b.State() != StateClosed {
		t.Fatalf("successful probe: err=%v state=%v", err, b.State())
	}
	want := []string{"test:closed->open", "test:open->half-open", "test:half-open->open", "test:open->half-open", "test:half-open->closed"}
	if fmt.Sprint(changes) != fmt.Sprint(want) {
		t.Fatalf("state changes %v\nwant %v", changes, want)
	}
}

func TestBreakerCancelledProbeFreesSlot(t *testing.T) {
	b, clk := newTestBreaker(MinimumThroughput(1))
	_ = b.Do(context.Background(), fail)
	clk.Advance(DefaultOpenDuration)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = b.Do(ctx, func(ctx context.Context) error { return ctx.Err() })
	if b.State() != StateHalfOpen {
		t.Fatalf("a cancelled probe decided the state: %v", b.State())
	}
	if err := b.Do(context.Background(), succeed); err != nil || b.State() != StateClosed {
		t.Fatalf("the slot was not freed: err=%v state=%v", err, b.State())
	}
}

func TestBreakerHungProbeIsSuperseded(t *testing.T) {
	b, clk := newTestBreaker(MinimumThroughput(1))
	_ = b.Do(context.Background(), fail)
	clk.Advance(DefaultOpenDuration)
	hung, err := b.Allow()
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(DefaultOpenDuration - time.Millisecond)
	if _, err := b.Allow(); !errors.Is(err, ErrOpen) {
		t.Fatal("probe superseded before its lease ended")
	}
	clk.Advance(time.Millisecond)
	fresh, err := b.Allow()
	if err != nil {
		t.Fatalf("hung probe not superseded after its lease: %v", err)
	}
	hung(true) // late: must be ignored
	if b.State() != StateHalfOpen {
		t.Fatalf("a superseded probe decided the state: %v", b.State())
	}
	fresh(true)
	if b.State() != StateClosed {
		t.Fatalf("fresh probe success: %v", b.State())
	}
}

func TestBreakerNeutralAndPermanentOutcomes(t *testing.T) {
	b, _ := newTestBreaker(MinimumThroughput(1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 50 {
		_ = b.Do(ctx, func(ctx context.Context) error { return fmt.Errorf("query: %w", ctx.Err()) })
		_ = b.Do(context.Background(), func(context.Context) error { return ErrBulkheadFull })
		_, _ = b.Execute(func() (any, error) { return nil, context.Canceled })
		_ = b.Do(context.Background(), func(context.Context) error { return Permanent(errBoom) })
	}
	if s, f := b.Counts(); b.State() != StateClosed || f != 0 || s != 50 {
		t.Fatalf("state=%v counts=%d/%d: cancellations must be neutral, permanent errors successes", b.State(), s, f)
	}
	// The caller's deadline passing during the call is a failure.
	dctx, dcancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer dcancel()
	<-dctx.Done()
	_ = b.Do(dctx, func(ctx context.Context) error { return ctx.Err() })
	if _, f := b.Counts(); f != 1 {
		t.Fatalf("deadline exceeded counted as %d failures, want 1", f)
	}
}

func TestBreakerIsFailureOption(t *testing.T) {
	b, _ := newTestBreaker(MinimumThroughput(1), IsFailure(func(err error) bool { return !errors.Is(err, errBoom) }))
	_ = b.Do(context.Background(), fail)
	if b.State() != StateClosed {
		t.Fatal("IsFailure said errBoom is no failure")
	}
	_ = b.Do(context.Background(), func(context.Context) error { return errors.New("other") })
	if b.State() != StateOpen {
		t.Fatal("IsFailure said other errors are failures")
	}
}

func TestBreakerFallback(t *testing.T) {
	fallbackErr := errors.New("served from cache")
	var seen []error
	b, _ := newTestBreaker(MinimumThroughput(1), Fallback(func(ctx context.Context, err error) error {
		seen = append(seen, err)
		return fallbackErr
	}))
	if err := b.Do(context.Background(), fail); err != fallbackErr {
		t.Fatalf("failure: %v", err)
	}
	if err := b.Do(context.Background(), fail); err != fallbackErr {
		t.Fatalf("rejection: %v", err)
	}
	if len(seen) != 2 || seen[0] != errBoom || !errors.Is(seen[1], ErrOpen) {
		t.Fatalf("fallback saw %v", seen)
	}
	if err := Permanent(errBoom); (&Breaker{}).classify(nil, err) != success {
		t.Fatal("permanent errors are successes")
	}
}

func TestBreakerPanicIsFailure(t *testing.T) {
	b, _ := newTestBreaker(MinimumThroughput(1))
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("panic swallowed")
			}
		}()
		_ = b.Do(context.Background(), func(context.Context) error { panic("bug") })
	}()
	if b.State() != StateOpen {
		t.Fatalf("panic not counted as failure: %v", b.State())
	}
}

func TestBreakerExecuteAndAllow(t *testing.T) {
	b, _ := newTestBreaker(MinimumThroughput(4))
	v, err := b.Execute(func() (any, error) { return "ok", nil })
	if v != "ok" || err != nil {
		t.Fatalf("Execute = %v, %v", v, err)
	}
	for range 3 {
		done, err := b.Allow()
		if err != nil {
			t.Fatal(err)
		}
		done(false)
	}
	if b.State() != StateOpen {
		t.Fatalf("3 failures of 4 via Allow: %v", b.State())
	}
	if v, err := b.Execute(func() (any, error) { return "x", nil }); v != nil || !errors.Is(err, ErrOpen) {
		t.Fatalf("Execute on open breaker = %v, %v", v, err)
	}
	if done, err := b.Allow(); done != nil || !errors.Is(err, ErrOpen) {
		t.Fatal("Allow on open breaker")
	}
}

func TestBreakerLazySuccessesTrackTheWindow(t *testing.T) {
	// Successes are placed in batches; under steady traffic the counts must
	// match a breaker that places every success at once, to within a bucket.
	lazy, clk1 := newTestBreaker()
	exact, clk2 := newTestBreaker()
	exact.flushMask = 0
	for i := range 3000 { // 30 s at 100 calls/s, 1 % failures
		f := succeed
		if i%100 == 99 {
			f = fail
		}
		_ = lazy.Do(context.Background(), f)
		_ = exact.Do(context.Background(), f)
		clk1.Advance(10 * time.Millisecond)
		clk2.Advance(10 * time.Millisecond)
		if i%250 == 0 {
			ls, lf := lazy.Counts()
			es, ef := exact.Counts()
			if lf != ef || ls < es-int64(DefaultWindow/WindowBuckets/(10*time.Millisecond)) || ls > es+int64(successFlushEvery) {
				t.Fatalf("at %d: lazy %d/%d, exact %d/%d", i, ls, lf, es, ef)
			}
		}
	}
}

func TestBreakerClosedPathAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	b := NewBreaker("allocs")
	ctx := context.Background()
	if n := testing.AllocsPerRun(1000, func() { _ = b.Do(ctx, succeed) }); n != 0 {
		t.Errorf("Do: %v allocs", n)
	}
	fn := func() (any, error) { return nil, nil }
	if n := testing.AllocsPerRun(1000, func() { _, _ = b.Execute(fn) }); n != 0 {
		t.Errorf("Execute: %v allocs", n)
	}
	if n := testing.AllocsPerRun(1000, func() { done, _ := b.Allow(); done(true) }); n != 0 {
		t.Errorf("Allow: %v allocs", n)
	}
	if n := testing.AllocsPerRun(1000, func() { _ = BreakerFor("allocs-registry") }); n != 0 {
		t.Errorf("BreakerFor lookup: %v allocs", n)
	}
}

func TestBreakerForRegistry(t *testing.T) {
	const name = "registry-test"
	var wg sync.WaitGroup
	got := make([]*Breaker, 64)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = BreakerFor(name, MinimumThroughput(i+1))
		}()
	}
	wg.Wait()
	for _, b := range got {
		if b != got[0] {
			t.Fatal("BreakerFor returned different breakers for one name")
		}
	}
	if BreakerFor(name, MinimumThroughput(1000)).cfg.minThroughput != got[0].cfg.minThroughput {
		t.Fatal("later options must be ignored")
	}
	if BreakerFor("registry-other") == got[0] {
		t.Fatal("different names share a breaker")
	}
}

func TestBreakerOptionValidation(t *testing.T) {
	b := NewBreaker("v", FailureRatio(0), FailureRatio(2), MinimumThroughput(-1), Window(0), OpenDuration(-1), HalfOpenProbes(0), nil)
	c := b.cfg
	if c.ratio != DefaultFailureRatio || c.minThroughput != 1 || c.window != DefaultWindow || c.open != DefaultOpenDuration || c.probes != 1 {
		t.Fatalf("config %+v", c)
	}
	if State(7).String() != "State(7)" || StateHalfOpen.String() != "half-open" {
		t.Fatal("State.String")
	}
}

func TestBreakerConcurrent(t *testing.T) {
	// Many goroutines, mixed outcomes, a moving clock: for -race, and for
	// the half-open bookkeeping, which must end consistent.
	clk := newFakeClock()
	b := NewBreaker("concurrent", BreakerClock(clk), MinimumThroughput(5), FailureRatio(0.3), HalfOpenProbes(2), OpenDuration(time.Millisecond))
	var wg sync.WaitGroup
	var admitted atomic.Int64
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				_ = b.Do(context.Background(), func(context.Context) error {
					admitted.Add(1)
					if (i+g)%3 == 0 {
						return errBoom
					}
					return nil
				})
				if i%50 == 0 {
					clk.Advance(time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := State(b.state.Load() & stateMask); s == StateHalfOpen && b.inflight != 0 {
		t.Fatalf("half-open with %d probes in flight after all calls returned", b.inflight)
	}
	if admitted.Load() == 0 || admitted.Load() == 16000 {
		t.Fatalf("admitted %d of 16000: the breaker never opened or never closed", admitted.Load())
	}
}
