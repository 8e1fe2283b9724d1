// Package settings holds breaker settings that trip on one failure or flood
// a recovering service, and settings that do not.
package settings

import (
	"time"

	"github.com/afex/hystrix-go/hystrix"
	"github.com/eapache/go-resiliency/breaker"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/resilint/resilint/resil"
	"github.com/sony/gobreaker"
	gb2 "github.com/sony/gobreaker/v2"
)

var first = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	Name: "first",
	ReadyToTrip: func(c gobreaker.Counts) bool { // want `ReadyToTrip opens the breaker on a single failure \(it is true when 1 of 1000 requests failed\): one timeout in a thousand requests should not trip it`
		return c.ConsecutiveFailures > 0
	},
})

var atLeastOne = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= 1 }, // want `ReadyToTrip opens the breaker on a single failure`
})

var total = gb2.NewCircuitBreaker[any](gb2.Settings{
	ReadyToTrip: func(c gb2.Counts) bool { return c.TotalFailures > 0 }, // want `ReadyToTrip opens the breaker on a single failure`
})

var always = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(gobreaker.Counts) bool { return true }, // want `ReadyToTrip opens the breaker on a single failure`
})

func tripOnFirst(c gobreaker.Counts) bool {
	if c.ConsecutiveFailures == 0 {
		return false
	}
	return true
}

// A named trip function of the package.
var named = gobreaker.NewCircuitBreaker(gobreaker.Settings{ReadyToTrip: tripOnFirst}) // want `ReadyToTrip opens the breaker on a single failure`

// Fine: more than five consecutive failures (gobreaker's default), a
// failure ratio over a minimum volume, the default.
var consecutive = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures > 5 },
})

var ratio = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	MaxRequests: 3,
	ReadyToTrip: func(counts gobreaker.Counts) bool {
		failureRatio := float64(counts.TotalFailures) / float64(counts.Requests)
		return counts.Requests >= 20 && failureRatio >= 0.5
	},
})

var smallVolume = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool {
		return c.Requests >= 3 && float64(c.TotalFailures)/float64(c.Requests) > 0.5
	},
})

var fewConsecutive = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures > 2 },
})

// A failure ratio with no minimum volume is 100% when the first request
// after the counts are cleared fails.
var plainRatio = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return float64(c.TotalFailures)/float64(c.Requests) > 0.3 }, // want `ReadyToTrip opens the breaker on a single failure \(it is true when the first request after the counts are cleared failed: gobreaker clears them at start, every Interval and on every state change, so a failure ratio without a minimum number of requests is 100% after one failure\): one failed request should not trip it; trip on a failure rate over a minimum volume`
})

var plainRatio2 = gb2.NewCircuitBreaker[any](gb2.Settings{
	ReadyToTrip: func(c gb2.Counts) bool { return float64(c.TotalFailures)/float64(c.Requests) > 0.5 }, // want `ReadyToTrip opens the breaker on a single failure \(it is true when the first request after the counts are cleared`
})

var defaults = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "defaults"})

// A threshold from configuration is unknown: silent.
var threshold uint32 = 1

var configured = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= threshold },
})

// Settings assigned field by field.
func assigned() *gobreaker.CircuitBreaker {
	var st gobreaker.Settings
	st.Name = "assigned"
	st.ReadyToTrip = func(c gobreaker.Counts) bool { return c.TotalFailures >= 1 } // want `ReadyToTrip opens the breaker on a single failure`
	st.MaxRequests = 500                                                           // want `MaxRequests 500 lets 500 probes through while the breaker is half open: flooding a recovering service re-opens it; allow at most 10`
	return gobreaker.NewCircuitBreaker(st)
}

// Half-open probes.
var flood = gb2.NewCircuitBreaker[any](gb2.Settings{
	MaxRequests: 100, // want `MaxRequests 100 lets 100 probes through while the breaker is half open`
})

var fewProbes = gb2.NewCircuitBreaker[any](gb2.Settings{MaxRequests: 10})

// failsafe-go.
var fsOne = circuitbreaker.NewBuilder[any]().
	WithFailureThreshold(1). // want `WithFailureThreshold\(1\) opens the breaker on a single failure`
	WithDelay(time.Minute).
	Build()

var fsFive = circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).WithDelay(time.Minute).Build()

var fsDefaults = circuitbreaker.NewWithDefaults[any]() // want `circuitbreaker.NewWithDefaults opens the breaker on a single failure \(the library's default\)`

var fsNoThreshold = circuitbreaker.NewBuilder[any]().WithDelay(time.Minute).Build() // want `this breaker sets no failure threshold, so it opens on a single failure`

var fsRate = circuitbreaker.NewBuilder[any]().WithFailureRateThreshold(0.5, 20, time.Minute).Build()

var fsProbes = circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).WithSuccessThreshold(50).Build() // want `WithSuccessThreshold\(50\) lets 50 probes through`

// A builder from elsewhere: its configuration is not visible.
func build(b circuitbreaker.Builder[any]) circuitbreaker.CircuitBreaker[any] {
	return b.WithDelay(time.Second).Build()
}

// hystrix: 0 means the default.
func init() {
	hystrix.ConfigureCommand("payments", hystrix.CommandConfig{
		ErrorPercentThreshold:  1, // want `ErrorPercentThreshold 1 opens the breaker on a single failure`
		RequestVolumeThreshold: 20,
	})
	hystrix.ConfigureCommand("search", hystrix.CommandConfig{
		RequestVolumeThreshold: 1, // want `RequestVolumeThreshold 1 opens the breaker on a single failure \(with a minimum volume of one request`
	})
	hystrix.ConfigureCommand("orders", hystrix.CommandConfig{
		ErrorPercentThreshold:  0,
		RequestVolumeThreshold: 0,
		MaxConcurrentRequests:  1,
	})
	hystrix.Configure(map[string]hystrix.CommandConfig{
		"stock": {ErrorPercentThreshold: 50, RequestVolumeThreshold: 20},
	})
	hystrix.DefaultVolumeThreshold = 1 // want `DefaultVolumeThreshold 1 opens the breaker on a single failure`
}

// eapache: the error threshold.
var eOne = breaker.New(1, 1, time.Second) // want `New\(1\) opens the breaker on a single failure`

var eFive = breaker.New(5, 1, time.Second)

// resil: half-open probes.
var rFlood = resil.NewBreaker("x", resil.HalfOpenProbes(40)) // want `HalfOpenProbes\(40\) lets 40 probes through`

var rFew = resil.NewBreaker("y", resil.HalfOpenProbes(3))

// resil: a minimum throughput of one call (values below 1 count as 1) makes
// the first failed call of a window a 100% failure rate, whatever the ratio.
var rQuestions = resil.BreakerFor("questions", resil.MinimumThroughput(1), resil.FailureRatio(0.5)) // want `MinimumThroughput\(1\) opens the breaker on a single failure \(with a minimum volume of one request, the first request of a window failing is a 100% failure rate\): one failed request should not trip it; require a minimum number of requests, such as 20`

var rNewOne = resil.NewBreaker("q", resil.FailureRatio(0.9), resil.MinimumThroughput(1)) // want `MinimumThroughput\(1\) opens the breaker on a single failure`

var rZero = resil.NewBreaker("z", resil.MinimumThroughput(0)) // want `MinimumThroughput\(0\) opens the breaker on a single failure`

var rNegative = resil.BreakerFor("n", resil.MinimumThroughput(-5)) // want `MinimumThroughput\(-5\) opens the breaker on a single failure`

const oneCall = 1

var rOpts = []resil.BreakerOption{resil.FailureRatio(0.5), resil.MinimumThroughput(oneCall)} // want `MinimumThroughput\(oneCall\) opens the breaker on a single failure`

// Fine: a minimum volume of two calls or more (like gobreaker's
// Requests >= 2 and hystrix's RequestVolumeThreshold 2), the default, a
// volume from configuration.
var rSizes = resil.BreakerFor("size-guide", resil.FailureRatio(0.6), resil.MinimumThroughput(40), resil.HalfOpenProbes(3))

var rTwo = resil.NewBreaker("two", resil.MinimumThroughput(2))

var rRatioOnly = resil.BreakerFor("ratio", resil.FailureRatio(0.5))

var minCalls = 1

var rFromConfig = resil.NewBreaker("cfg", resil.MinimumThroughput(minCalls))
