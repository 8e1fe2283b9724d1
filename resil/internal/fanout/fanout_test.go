package fanout

import (
	"math/rand/v2"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestSeedIsADistribution(t *testing.T) {
	if f := Seed.CDF(time.Hour); f < 1-eps || f > 1 {
		t.Fatalf("probabilities sum to %v", f)
	}
}

// TestExactQuantiles pins the seed's table: P50/P99/P999 of the max of N
// draws, from P(max ≤ x) = F(x)^N.
func TestExactQuantiles(t *testing.T) {
	want := map[int][3]time.Duration{
		1:  {20 * ms, 25 * ms, 50 * ms},
		5:  {25 * ms, 50 * ms, 200 * ms},
		10: {25 * ms, 50 * ms, 200 * ms},
		20: {25 * ms, 200 * ms, 200 * ms},
		50: {25 * ms, 200 * ms, 200 * ms},
	}
	for n, w := range want {
		for i, p := range []float64{0.5, 0.99, 0.999} {
			if got := Seed.Quantile(p, n); got != w[i] {
				t.Errorf("N=%d P%v = %v, want %v", n, p*100, got, w[i])
			}
		}
	}
}

// TestSimulationAgreesWithExact: wherever the exact quantile is not within
// 5 standard errors of a step, the simulation must find the same value.
func TestSimulationAgreesWithExact(t *testing.T) {
	const trials = 100000
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for _, n := range []int{1, 5, 10, 20, 50} {
		s := Seed.Simulate(n, 0, trials, rng)
		for _, p := range []float64{0.5, 0.99, 0.999} {
			if Seed.Margin(p, n, trials) < 5 {
				continue
			}
			checked++
			if got, want := Percentile(s, p), Seed.Quantile(p, n); got != want {
				t.Errorf("N=%d P%v: simulated %v, exact %v", n, p*100, got, want)
			}
		}
	}
	if checked < 8 {
		t.Fatalf("only %d cells were far enough from a step to check", checked)
	}
}

func TestBoundedFanOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// Two calls through one slot run back to back: P(sum ≤ 40) = 0.25,
	// P(sum ≤ 45) = 0.25 + 2·0.5·0.49 = 0.74, so the median is 45 ms.
	if got := Percentile(Seed.Simulate(2, 1, 50000, rng), 0.5); got != 45*ms {
		t.Errorf("N=2 through 1 slot: P50 = %v, want 45ms", got)
	}
	// A bound never makes the request faster than the slowest call, and a
	// bound of at least N changes nothing.
	unbounded := Seed.Simulate(20, 0, 20000, rand.New(rand.NewPCG(5, 6)))
	same := Seed.Simulate(20, 20, 20000, rand.New(rand.NewPCG(5, 6)))
	bounded := Seed.Simulate(20, 5, 20000, rand.New(rand.NewPCG(5, 6)))
	for _, p := range []float64{0.5, 0.99} {
		if Percentile(same, p) != Percentile(unbounded, p) {
			t.Errorf("limit ≥ N changed P%v", p*100)
		}
		if Percentile(bounded, p) < Percentile(unbounded, p) {
			t.Errorf("bounded P%v faster than unbounded", p*100)
		}
	}
	// 20 calls on 5 slots: at least 4 rounds of at least 20 ms.
	if Percentile(bounded, 0) < 80*ms {
		t.Errorf("bounded minimum %v < 80ms", Percentile(bounded, 0))
	}
}
