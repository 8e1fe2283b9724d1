// Package fanout computes the latency of a request that fans out to N
// parallel calls and must wait for all of them: the maximum of N draws from
// the per-call latency distribution. It does so exactly, from the CDF, and
// by simulation; and it simulates the same fan-out bounded by a bulkhead.
//
// The seed's distribution reads "median 20 ms, 50 % 25 ms, 0.9 % 50 ms,
// 0.1 % 200 ms". Taken literally that sums to 101 %, so it is read as: half
// the calls take 20 ms (the median), 49 % take 25 ms (the rest of the
// "upper half" after the tail), 0.9 % take 50 ms and 0.1 % take 200 ms:
// P = 0.5, 0.49, 0.009, 0.001.
package fanout

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// A Step is one value of a discrete latency distribution.
type Step struct {
	Latency time.Duration
	P       float64
}

// Dist is a discrete latency distribution, steps in increasing latency.
type Dist []Step

// Seed is the distribution of the seed's example (see the package doc).
var Seed = Dist{
	{20 * time.Millisecond, 0.5},
	{25 * time.Millisecond, 0.49},
	{50 * time.Millisecond, 0.009},
	{200 * time.Millisecond, 0.001},
}

// CDF returns P(latency ≤ d).
func (d Dist) CDF(x time.Duration) float64 {
	f := 0.0
	for _, s := range d {
		if s.Latency <= x {
			f += s.P
		}
	}
	return math.Min(f, 1)
}

// eps absorbs float rounding in CDF sums (0.5 + 0.49 is not exactly 0.99).
const eps = 1e-12

// Quantile returns the exact p-quantile of the maximum of n independent
// draws: the smallest step x with P(max ≤ x) = CDF(x)^n ≥ p.
func (d Dist) Quantile(p float64, n int) time.Duration {
	for _, s := range d {
		if math.Pow(d.CDF(s.Latency), float64(n)) >= p-eps {
			return s.Latency
		}
	}
	return d[len(d)-1].Latency
}

// Margin returns how far the p-quantile of the max of n draws is from
// flipping to a neighbouring step, in standard errors of an empirical CDF
// estimated from trials samples: min over steps of |CDF(x)^n − p| / σ.
// Below about 4 a simulation may legitimately report the neighbour; 0
// means p falls exactly on a step (both neighbours are valid p-quantiles).
func (d Dist) Margin(p float64, n, trials int) float64 {
	m := math.Inf(1)
	for _, s := range d {
		g := math.Pow(d.CDF(s.Latency), float64(n))
		sigma := math.Sqrt(p * (1 - p) / float64(trials))
		m = math.Min(m, math.Abs(g-p)/sigma)
		if math.Abs(g-p) < eps {
			return 0
		}
	}
	return m
}

// draw samples one latency.
func (d Dist) draw(rng *rand.Rand) time.Duration {
	u := rng.Float64()
	for _, s := range d {
		if u < s.P {
			return s.Latency
		}
		u -= s.P
	}
	return d[len(d)-1].Latency
}

// Simulate returns trials sorted samples of the latency of a fan-out of n
// calls. limit ≤ 0 or limit ≥ n means unbounded: all calls start at once
// and the request takes the slowest one. Otherwise the calls go through a
// bulkhead of limit slots with a queue long enough for all of them: the
// first limit start at once, each later call starts, in order, when a slot
// frees, and the request takes until the last call ends (the makespan of
// FIFO list scheduling on limit workers).
func (d Dist) Simulate(n, limit, trials int, rng *rand.Rand) []time.Duration {
	out := make([]time.Duration, trials)
	free := make([]time.Duration, 0, max(limit, 1)) // when each slot frees
	for t := range out {
		if limit <= 0 || limit >= n {
			var m time.Duration
			for range n {
				m = max(m, d.draw(rng))
			}
			out[t] = m
			continue
		}
		free = free[:0]
		for range limit {
			free = append(free, 0)
		}
		var end time.Duration
		for range n {
			i := 0 // the slot that frees first
			for j := range free {
				if free[j] < free[i] {
					i = j
				}
			}
			free[i] += d.draw(rng)
			end = max(end, free[i])
		}
		out[t] = end
	}
	slices.Sort(out)
	return out
}

// Percentile returns the nearest-rank p-quantile of sorted samples.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}
