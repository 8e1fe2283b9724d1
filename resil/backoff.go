package resil

import (
	"math"
	"math/rand/v2"
	"time"
)

// Backoff returns the delay before retry number attempt+1 using capped
// exponential backoff with full jitter: a uniform random duration in
// [0, min(max, base·2^attempt)]. attempt starts at 0 (the delay after the
// first failure). The computation saturates instead of overflowing, so any
// attempt is safe.
//
// Full jitter spreads competing clients out best and does the least work
// (AWS Architecture blog, gRPC A6). Randomness comes from math/rand/v2's
// global source, which is lock-free and needs no per-call seeding.
//
// Degenerate inputs: a negative attempt counts as 0; base ≤ 0 or max ≤ 0
// yields 0 (no wait).
func Backoff(attempt int, base, max time.Duration) time.Duration {
	c := backoffCap(attempt, base, max)
	if c <= 0 {
		return 0
	}
	if c == math.MaxInt64 {
		return time.Duration(rand.Int64N(math.MaxInt64))
	}
	return time.Duration(rand.Int64N(int64(c) + 1))
}

// backoffCap is min(max, base·2^attempt) without overflow.
func backoffCap(attempt int, base, max time.Duration) time.Duration {
	if base <= 0 || max <= 0 {
		return 0
	}
	if attempt < 0 {
		attempt = 0
	}
	if attempt >= 63 || base > max>>uint(attempt) {
		return max
	}
	return base << uint(attempt)
}
