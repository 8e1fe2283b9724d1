// Package hystrix is a stub of github.com/afex/hystrix-go/hystrix with its
// real signatures, for tests.
package hystrix

import "context"

type runFunc func() error
type fallbackFunc func(error) error
type runFuncC func(context.Context) error
type fallbackFuncC func(context.Context, error) error

var (
	DefaultVolumeThreshold       = 20
	DefaultErrorPercentThreshold = 50
)

type CommandConfig struct {
	Timeout                int `json:"timeout"`
	MaxConcurrentRequests  int `json:"max_concurrent_requests"`
	RequestVolumeThreshold int `json:"request_volume_threshold"`
	SleepWindow            int `json:"sleep_window"`
	ErrorPercentThreshold  int `json:"error_percent_threshold"`
}

func Configure(cmds map[string]CommandConfig)            {}
func ConfigureCommand(name string, config CommandConfig) {}

func Go(name string, run runFunc, fallback fallbackFunc) chan error { return nil }
func GoC(ctx context.Context, name string, run runFuncC, fallback fallbackFuncC) chan error {
	return nil
}
func Do(name string, run runFunc, fallback fallbackFunc) error { return run() }
func DoC(ctx context.Context, name string, run runFuncC, fallback fallbackFuncC) error {
	return run(ctx)
}
