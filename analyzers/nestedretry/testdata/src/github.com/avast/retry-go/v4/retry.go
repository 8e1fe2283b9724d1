// Package retry is a stub of github.com/avast/retry-go/v4 (v4.7.0
// signatures) for tests.
package retry

import (
	"context"
	"time"
)

type RetryableFunc func() error

type RetryableFuncWithData[T any] func() (T, error)

type RetryIfFunc func(error) bool

type Config struct{}

type Option func(*Config)

type DelayTypeFunc func(n uint, err error, config *Config) time.Duration

// Do calls DoWithData, as the real library does.
func Do(retryableFunc RetryableFunc, opts ...Option) error {
	_, err := DoWithData(func() (any, error) { return nil, retryableFunc() }, opts...)
	return err
}

// timer is the library's clock: it waits on an interface's After, as the
// real library does.
type timer interface {
	After(time.Duration) <-chan time.Time
}

type timerImpl struct{}

func (timerImpl) After(d time.Duration) <-chan time.Time { return time.After(d) }

// DoWithData loops until the operation succeeds, waiting on the clock
// between attempts, as the real library's attempts == 0 does.
func DoWithData[T any](retryableFunc RetryableFuncWithData[T], opts ...Option) (T, error) {
	var clock timer = timerImpl{}
	ctx := context.Background()
	for {
		t, err := retryableFunc()
		if err == nil {
			return t, nil
		}
		select {
		case <-clock.After(time.Second):
		case <-ctx.Done():
			return t, ctx.Err()
		}
	}
}

func Attempts(attempts uint) Option            { return nil }
func UntilSucceeded() Option                   { return nil }
func Delay(delay time.Duration) Option         { return nil }
func MaxDelay(maxDelay time.Duration) Option   { return nil }
func MaxJitter(maxJitter time.Duration) Option { return nil }
func DelayType(delayType DelayTypeFunc) Option { return nil }
func Context(ctx context.Context) Option       { return nil }
func LastErrorOnly(lastErrorOnly bool) Option  { return nil }
func RetryIf(retryIf RetryIfFunc) Option       { return nil }

func BackOffDelay(n uint, _ error, config *Config) time.Duration             { return 0 }
func FixedDelay(_ uint, _ error, config *Config) time.Duration               { return 0 }
func RandomDelay(_ uint, _ error, config *Config) time.Duration              { return 0 }
func FullJitterBackoffDelay(n uint, err error, config *Config) time.Duration { return 0 }

func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc { return nil }

func Unrecoverable(err error) error { return err }
