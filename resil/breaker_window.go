package resil

// window is the rolling window of a Breaker: WindowBuckets buckets of
// dur nanoseconds each, indexed by time/dur. A bucket is reused when its
// slot comes round again, which evicts its old counts in O(1). It is
// guarded by the breaker's mutex.
type window struct {
	dur     int64
	buckets [WindowBuckets]bucket
}

type bucket struct {
	idx       int64 // time/dur of the bucket's period
	ok, fails int64
}

// add counts ok successes and fails failures at bucket index idx.
func (w *window) add(idx, ok, fails int64) {
	b := &w.buckets[idx%WindowBuckets]
	switch {
	case b.idx == idx:
	case b.idx > idx: // the slot already holds a newer period: idx is out of the window
		return
	default:
		*b = bucket{idx: idx}
	}
	b.ok += ok
	b.fails += fails
}

// totals sums the buckets inside the window that ends at index now.
func (w *window) totals(now int64) (ok, fails int64) {
	for _, b := range &w.buckets {
		if b.idx > now-WindowBuckets && b.idx <= now {
			ok += b.ok
			fails += b.fails
		}
	}
	return ok, fails
}

// reset forgets everything.
func (w *window) reset() { w.buckets = [WindowBuckets]bucket{} }

// spread places n successes that happened at unknown times in (from, to]
// (nanoseconds) evenly over that interval: each bucket gets the share of n
// proportional to its overlap with the interval. Shares that fall before
// the window are dropped; rounding leftovers go to the newest bucket.
//
// The breaker's closed path counts successes without reading the clock;
// they are placed here at the next clock read (every failure, and every
// [successFlushEvery] successes). Under steady traffic that is exact to
// within a bucket; at worst a few successes are placed up to one flush
// interval off.
func (w *window) spread(from, to, n int64) {
	if n <= 0 {
		return
	}
	toIdx := to / w.dur
	if to <= from {
		w.add(toIdx, n, 0)
		return
	}
	span := to - from
	lo := max(from/w.dur, toIdx-WindowBuckets+1)
	placed := int64(0)
	if start := lo * w.dur; start > from {
		placed = int64(float64(n) * float64(start-from) / float64(span)) // before the window
	}
	for k := lo; k <= toIdx; k++ {
		overlap := min(to, (k+1)*w.dur) - max(from, k*w.dur)
		if overlap <= 0 {
			continue
		}
		share := int64(float64(n) * float64(overlap) / float64(span))
		w.add(k, share, 0)
		placed += share
	}
	if rest := n - placed; rest > 0 {
		w.add(toIdx, rest, 0)
	}
}
