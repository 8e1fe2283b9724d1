// Package retry is a stub of github.com/avast/retry-go (v3, the
// unversioned path) for tests.
package retry

type RetryableFunc func() error

type RetryIfFunc func(error) bool

type Config struct{}

type Option func(*Config)

func Do(retryableFunc RetryableFunc, opts ...Option) error { return retryableFunc() }

func Attempts(attempts uint) Option      { return nil }
func RetryIf(retryIf RetryIfFunc) Option { return nil }
