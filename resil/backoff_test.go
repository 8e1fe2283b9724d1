package resil

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

func TestBackoffWithinCap(t *testing.T) {
	base, maxD := 100*time.Millisecond, 2*time.Second
	for attempt := 0; attempt < 70; attempt++ {
		want := min(maxD, base*time.Duration(math.Pow(2, float64(min(attempt, 20)))))
		for range 200 {
			d := Backoff(attempt, base, maxD)
			if d < 0 || d > want {
				t.Fatalf("Backoff(%d) = %v, want in [0, %v]", attempt, d, want)
			}
		}
	}
}

func TestBackoffIsFullJitter(t *testing.T) {
	// Uniform on [0, c]: mean c/2; the standard error of the mean of 20,000
	// draws is c/sqrt(12·20000) ≈ 0.2 % of c, so ±3 % cannot flake.
	const n = 20000
	c := 800 * time.Millisecond
	var sum, lo, hi float64
	for range n {
		d := Backoff(3, 100*time.Millisecond, time.Hour)
		sum += float64(d)
		if d < c/10 {
			lo++
		}
		if d > c*9/10 {
			hi++
		}
	}
	if mean := sum / n / float64(c); math.Abs(mean-0.5) > 0.03 {
		t.Errorf("mean/cap = %.3f, want ≈ 0.5 (full jitter)", mean)
	}
	if lo/n < 0.07 || hi/n < 0.07 { // each tail holds 10 % of draws
		t.Errorf("tails lo=%.3f hi=%.3f, want ≈ 0.1 each", lo/n, hi/n)
	}
}

func TestBackoffDegenerate(t *testing.T) {
	cases := []struct {
		attempt   int
		base, max time.Duration
		cap       time.Duration
	}{
		{0, 0, time.Second, 0},
		{5, time.Second, 0, 0},
		{-3, time.Second, time.Minute, time.Second},
		{1 << 30, time.Hour, math.MaxInt64, math.MaxInt64},
		{62, 2, math.MaxInt64, math.MaxInt64},
		{10, -time.Second, time.Second, 0},
	}
	for _, c := range cases {
		if got := backoffCap(c.attempt, c.base, c.max); got != c.cap {
			t.Errorf("backoffCap(%d, %v, %v) = %v, want %v", c.attempt, c.base, c.max, got, c.cap)
		}
		if d := Backoff(c.attempt, c.base, c.max); d < 0 || d > c.cap {
			t.Errorf("Backoff(%d, %v, %v) = %v, want in [0, %v]", c.attempt, c.base, c.max, d, c.cap)
		}
	}
}

func TestSleep(t *testing.T) {
	start := time.Now()
	if err := Sleep(context.Background(), 20*time.Millisecond); err != nil {
		t.Fatalf("Sleep = %v, want nil", err)
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Fatalf("Sleep returned after %v, want ≥ 20ms", el)
	}

	cause := errors.New("shutting down")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel(cause) }()
	start = time.Now()
	if err := Sleep(ctx, time.Hour); err != cause {
		t.Fatalf("Sleep on cancelled ctx = %v, want the cause %v", err, cause)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("Sleep ignored cancellation for %v", el)
	}
	if err := Sleep(ctx, 0); err != cause {
		t.Fatalf("Sleep(done ctx, 0) = %v, want the cause", err)
	}
	if err := Sleep(context.Background(), -time.Second); err != nil {
		t.Fatalf("Sleep(negative) = %v, want nil", err)
	}
}
