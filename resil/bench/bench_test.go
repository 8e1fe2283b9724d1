// Package bench compares resil with its peers. It is a separate module so
// that resil itself stays dependency-free. Run ./run.sh for the table.
package bench

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/resilint/resilint/resil"
	"github.com/sony/gobreaker/v2"
)

var (
	sink any
	mu   sync.Mutex
)

func okAny() (any, error) { return nil, nil }
func okErr() error        { return nil }

// Breaker closed path: the cost a breaker adds to every successful call.
// Each implementation is used the way its documentation shows.
func breakers() []struct {
	name string
	call func() any
} {
	rb := resil.NewBreaker("bench")
	gb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: "bench"})
	fcb := circuitbreaker.NewWithDefaults[any]()
	fexec := failsafe.With[any](fcb)
	return []struct {
		name string
		call func() any
	}{
		{"resil", func() any { v, _ := rb.Execute(okAny); return v }},
		{"gobreaker", func() any { v, _ := gb.Execute(okAny); return v }},
		{"failsafe", func() any { return fexec.Run(okErr) }},
	}
}

func BenchmarkBreaker(b *testing.B) {
	for _, impl := range breakers() {
		b.Run("mode=serial/impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = impl.call()
			}
		})
	}
	for _, impl := range breakers() {
		b.Run("mode=parallel/impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				// A sink per goroutine: a shared one would be a cache line
				// that every call writes, measuring the benchmark itself.
				var local any
				for pb.Next() {
					local = impl.call()
				}
				mu.Lock()
				sink = local
				mu.Unlock()
			})
		})
	}
}

// Bulkhead: resil.Bulkhead.Do against the bare channel semaphore it is
// built on, uncontended (limit above the number of goroutines).
func BenchmarkBulkhead(b *testing.B) {
	ctx := context.Background()
	fn := func(context.Context) error { return nil }
	bh := resil.NewBulkhead(64, 0)
	sem := make(chan struct{}, 64)
	impls := []struct {
		name string
		call func() any
	}{
		{"resil", func() any { return bh.Do(ctx, fn) }},
		{"chan", func() any {
			sem <- struct{}{}
			err := fn(ctx)
			<-sem
			return err
		}},
	}
	for _, impl := range impls {
		b.Run("mode=serial/impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = impl.call()
			}
		})
	}
	for _, impl := range impls {
		b.Run("mode=parallel/impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				// A sink per goroutine: a shared one would be a cache line
				// that every call writes, measuring the benchmark itself.
				var local any
				for pb.Next() {
					local = impl.call()
				}
				mu.Lock()
				sink = local
				mu.Unlock()
			})
		})
	}
}

var errNever = errors.New("never")

// Retry success path: the cost of wrapping a call that succeeds at once.
func BenchmarkRetrySuccess(b *testing.B) {
	op := func(context.Context) error { return nil }
	bg := context.Background()
	// A request's context: a parent that is neither Background nor TODO.
	req, cancel := context.WithCancel(bg)
	defer cancel()
	// A server's fresh request contexts: every call is on a parent no call
	// before it used (within the ring of 1024), of two kinds.
	var fresh [1024]context.Context
	for i := range fresh {
		if i%2 == 0 {
			fresh[i] = context.WithValue(bg, ctxKey{}, i)
			continue
		}
		c, cancel := context.WithCancel(bg)
		defer cancel()
		fresh[i] = c
	}
	// A caller with a deadline: each attempt gets its own, earlier deadline
	// (time left − reserve), a context of its own with a timer.
	dl, cancelDL := context.WithTimeout(bg, time.Hour)
	defer cancelDL()
	cases := []struct {
		name string
		ctx  func(i int) context.Context
		opts []resil.Option
	}{
		{"outermost", func(int) context.Context { return bg }, nil},
		{"outermost-with-options", func(int) context.Context { return bg }, []resil.Option{resil.Attempts(5), resil.BaseDelay(50e6)}},
		{"outermost-request-ctx", func(int) context.Context { return req }, nil},
		{"outermost-new-parent", func(i int) context.Context { return fresh[i%len(fresh)] }, nil},
		{"outermost-deadline", func(int) context.Context { return dl }, nil},
		{"nested", func(int) context.Context { return resil.WithRetryOwned(bg) }, nil},
	}
	for _, c := range cases {
		b.Run("case="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := resil.Retry(c.ctx(i), op, c.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("case=call-site", func(b *testing.B) {
		// A typical call site: a closure capturing the call's argument, on
		// a request's context. Its one allocation is the closure.
		// (b.N, not b.Loop: b.Loop keeps the loop's variables alive, which
		// moves n to the heap and counts an allocation no real call makes.)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			n := i
			if err := resil.Retry(req, func(context.Context) error { sinkInt = n; return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
}

var sinkInt int

type ctxKey struct{}
