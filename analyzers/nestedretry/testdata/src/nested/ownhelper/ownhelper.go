// Package ownhelper retries through a team's own helpers, found by their
// code, in the package and in another (retryx).
package ownhelper

import (
	"context"
	"math/rand"
	"time"

	"nested/c"
	"nested/retryx"
)

type Quote struct{}

type Pricing struct{ s *c.Store }

// Quote retries 3 times itself.
func (p *Pricing) Quote(ctx context.Context, q string) (*Quote, error) {
	if err := p.s.Get(ctx, q); err != nil {
		return nil, err
	}
	return &Quote{}, nil
}

func wait(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
	}
}

// do is this package's own generic retry helper.
func do[T any](ctx context.Context, attempts int, f func(context.Context) (T, error)) (T, error) {
	var v T
	var err error
	for i := 0; i < attempts; i++ {
		if v, err = f(ctx); err == nil {
			return v, nil
		}
		wait(ctx)
	}
	return v, err
}

// doErr is a non-generic one.
func doErr(ctx context.Context, attempts int, f func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// twice has its attempts inside.
func twice(ctx context.Context, f func(context.Context) error) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = f(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// callOnce calls f once: not a retry layer.
func callOnce(ctx context.Context, f func(context.Context) error) error {
	return f(ctx)
}

type Service struct {
	Pricing *Pricing
	s       *c.Store
}

func (s *Service) Local(ctx context.Context, q string) (*Quote, error) {
	return do(ctx, 3, func(ctx context.Context) (*Quote, error) {
		return s.Pricing.Quote(ctx, q) // want `retry amplification 3×3 = 9: this ownhelper.do \(3 attempts\) calls \(\*ownhelper.Pricing\).Quote, which retries \(3 attempts\) in \(\*c.Store\).fetch`
	})
}

func (s *Service) LocalTwo(ctx context.Context, q string) (*Quote, error) {
	return do(ctx, 2, func(ctx context.Context) (*Quote, error) {
		return s.Pricing.Quote(ctx, q) // want `retry amplification 2×3 = 6: this ownhelper.do \(2 attempts\)`
	})
}

// One attempt: no retry layer.
func (s *Service) LocalOne(ctx context.Context, q string) (*Quote, error) {
	return do(ctx, 1, func(ctx context.Context) (*Quote, error) {
		return s.Pricing.Quote(ctx, q)
	})
}

func (s *Service) Explicit(ctx context.Context, q string) (*Quote, error) {
	return do[*Quote](ctx, 3, func(ctx context.Context) (*Quote, error) {
		return s.Pricing.Quote(ctx, q) // want `retry amplification 3×3 = 9: this ownhelper.do \(3 attempts\)`
	})
}

func (s *Service) NonGeneric(ctx context.Context, q string) error {
	return doErr(ctx, 4, func(ctx context.Context) error {
		return s.s.Get(ctx, q) // want `retry amplification 4×3 = 12: this ownhelper.doErr \(4 attempts\) calls \(\*c.Store\).Get`
	})
}

func (s *Service) MethodValue(ctx context.Context) error {
	return doErr(ctx, 2, s.get) // want `retry amplification 2×3 = 6: this ownhelper.doErr \(2 attempts\) calls \(\*ownhelper.Service\).get`
}

func (s *Service) get(ctx context.Context) error { return s.s.Get(ctx, "k") }

func (s *Service) ConstInside(ctx context.Context) error {
	return twice(ctx, func(ctx context.Context) error {
		return s.s.Get(ctx, "k") // want `retry amplification 2×3 = 6: this ownhelper.twice \(2 attempts\)`
	})
}

// A helper that calls its function once is not a retry layer.
func (s *Service) NotAHelper(ctx context.Context) error {
	return callOnce(ctx, func(ctx context.Context) error {
		return s.s.Get(ctx, "k")
	})
}

// A single request in the operation: one layer only.
func (s *Service) Single(ctx context.Context) error {
	return doErr(ctx, 3, func(ctx context.Context) error {
		return s.s.Once(ctx, "k")
	})
}

// Across packages, through retryx's facts.
func (s *Service) Cross(ctx context.Context, q string) (*Quote, error) {
	return retryx.Do(ctx, 3, func(ctx context.Context) (*Quote, error) {
		return s.Pricing.Quote(ctx, q) // want `retry amplification 3×3 = 9: this retryx.Do \(3 attempts\) calls \(\*ownhelper.Pricing\).Quote`
	})
}

func (s *Service) CrossTwo(ctx context.Context) error {
	return retryx.DoErr(ctx, 2, func(ctx context.Context) error {
		return s.s.Get(ctx, "k") // want `retry amplification 2×3 = 6: this retryx.DoErr \(2 attempts\)`
	})
}

func (s *Service) CrossOne(ctx context.Context, q string) (*Quote, error) {
	return retryx.Do(ctx, 1, func(ctx context.Context) (*Quote, error) {
		return s.Pricing.Quote(ctx, q)
	})
}

func (s *Service) CrossThree(ctx context.Context) error {
	return retryx.Three(ctx, func(ctx context.Context) error {
		return s.s.Get(ctx, "k") // want `retry amplification 3×3 = 9: this retryx.Three \(3 attempts\)`
	})
}

func (s *Service) CrossOnce(ctx context.Context) error {
	return retryx.Once(ctx, func(ctx context.Context) error {
		return s.s.Get(ctx, "k")
	})
}

func (s *Service) CrossStored(ctx context.Context) error {
	return retryx.Stored(ctx, 3, func(ctx context.Context) error {
		return s.s.Get(ctx, "k")
	})
}

// The helper's count from this function's parameter: the layer's count
// is the caller's argument, one level up.
func (s *Service) withN(ctx context.Context, maxTries int) error {
	return doErr(ctx, maxTries, func(ctx context.Context) error {
		return s.s.Get(ctx, "k") // want `retry amplification maxTries×3: this ownhelper.doErr \(attempts: maxTries\)`
	})
}

func (s *Service) Outer(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = s.withN(ctx, 3); err == nil { // want `retry amplification 2×3×3 = 18: this loop \(2 attempts\) calls \(\*ownhelper.Service\).withN, which retries \(3 attempts\)`
			return nil
		}
	}
	return err
}

// each calls f for every key, moving on after a failure: not a retry loop,
// so not a retry helper.
func each(ctx context.Context, keys []string, f func(context.Context, string) error) error {
	var last error
	for _, k := range keys {
		if err := f(ctx, k); err != nil {
			last = err
			wait(ctx)
		}
	}
	return last
}

func (s *Service) Each(ctx context.Context) error {
	return each(ctx, []string{"a", "b"}, func(ctx context.Context, k string) error {
		return s.s.Get(ctx, k)
	})
}

// The operation handed on from a parameter cannot be followed: silent.
func (s *Service) Opaque(ctx context.Context, op func(context.Context) error) error {
	return doErr(ctx, 3, op)
}

func (s *Service) CrossNumbered(ctx context.Context) error {
	return retryx.Numbered(ctx, 3, func(ctx context.Context, attempt int) error {
		return s.s.Get(ctx, "k") // want `retry amplification 3×3 = 9: this retryx.Numbered \(3 attempts\)`
	})
}

func (s *Service) CrossFailover(ctx context.Context) error {
	return retryx.Failover(ctx, []string{"a", "b", "c"}, func(ctx context.Context, addr string) error {
		return s.s.Get(ctx, addr)
	})
}

// A retry helper held in a local variable is a layer at its calls.
func (s *Service) Closure(ctx context.Context, keys []string) {
	withRetry := func(op func() error) error {
		var err error
		for i := 0; i < 3; i++ {
			if err = op(); err == nil {
				return nil
			}
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
		}
		return err
	}
	once := func(op func() error) error { return op() }
	for _, k := range keys {
		_ = withRetry(func() error {
			return s.s.Get(ctx, k) // want `retry amplification 3×3 = 9: this withRetry \(3 attempts\) calls \(\*c.Store\).Get`
		})
		_ = once(func() error {
			return s.s.Get(ctx, k)
		})
	}
}

// Helpers that delegate to another helper of their package are helpers too.
func (s *Service) delegated(ctx context.Context, q string) (*Quote, error) {
	return retryx.Value(ctx, 2, func(ctx context.Context) (*Quote, error) {
		return s.Pricing.Quote(ctx, q) // want `retry amplification 2×3 = 6: this retryx.Value \(2 attempts\)`
	})
}

func (s *Service) delegatedConst(ctx context.Context, q string) error {
	return retryx.Thrice(ctx, func(ctx context.Context) error {
		return s.s.Get(ctx, q) // want `retry amplification 3×3 = 9: this retryx.Thrice \(3 attempts\)`
	})
}
