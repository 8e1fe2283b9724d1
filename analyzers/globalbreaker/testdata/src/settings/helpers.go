package settings

import (
	"github.com/sony/gobreaker"
	gb2 "github.com/sony/gobreaker/v2"
)

// Trip predicates that compute the failure ratio through helpers of the
// package. A helper's divide-by-zero guard (Requests == 0) is not a minimum
// volume: the first request after the counts are cleared failing makes the
// ratio 100%.

const tripRatio = 0.5

func failureRatio(c gobreaker.Counts) float64 {
	if c.Requests == 0 {
		return 0
	}
	return float64(c.TotalFailures) / float64(c.Requests)
}

func tripOnRatio(c gobreaker.Counts) bool {
	return failureRatio(c) >= tripRatio
}

var helperRatio = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	Name:        "recs",
	ReadyToTrip: tripOnRatio, // want `ReadyToTrip opens the breaker on a single failure \(it is true when the first request after the counts are cleared failed`
})

var helperInLiteral = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return failureRatio(c) > 0.3 }, // want `ReadyToTrip opens the breaker on a single failure \(it is true when the first request`
})

// A helper of the fields, not of the counts.
func ratioOf(failures, requests uint32) float64 {
	if requests == 0 {
		return 0
	}
	return float64(failures) / float64(requests)
}

var helperOfFields = gb2.NewCircuitBreaker[any](gb2.Settings{
	ReadyToTrip: func(c gb2.Counts) bool { return ratioOf(c.TotalFailures, c.Requests) >= tripRatio }, // want `ReadyToTrip opens the breaker on a single failure`
})

// A guard against a count of zero or one is no minimum volume either.
func guardedRatio(c gobreaker.Counts) float64 {
	if c.Requests <= 1 {
		return float64(c.TotalFailures)
	}
	return float64(c.TotalFailures) / float64(c.Requests)
}

// Helpers of helpers.
func tripOnGuarded(c gobreaker.Counts) bool { return guardedRatio(c) >= tripRatio }

func tripTwoDeep(c gobreaker.Counts) bool { return tripOnGuarded(c) }

var helperTwoDeep = gobreaker.NewCircuitBreaker(gobreaker.Settings{ReadyToTrip: tripTwoDeep}) // want `ReadyToTrip opens the breaker on a single failure`

// Fine: the same helpers behind a minimum volume, in the predicate or in a
// helper, or with the minimum passed as an argument.
func tripOnRatioWithVolume(c gobreaker.Counts) bool {
	return c.Requests >= 20 && failureRatio(c) >= tripRatio
}

var helperWithVolume = gobreaker.NewCircuitBreaker(gobreaker.Settings{ReadyToTrip: tripOnRatioWithVolume})

func enoughRequests(c gobreaker.Counts) bool { return c.Requests >= 20 }

var helperVolumeHelper = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return enoughRequests(c) && failureRatio(c) >= tripRatio },
})

func tripAbove(c gobreaker.Counts, min uint32, ratio float64) bool {
	if c.Requests < min {
		return false
	}
	return failureRatio(c) >= ratio
}

var helperMinArg = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return tripAbove(c, 20, tripRatio) },
})

// The minimum passed as an argument is too small: one failed request trips.
var helperMinArgOne = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return tripAbove(c, 1, tripRatio) }, // want `ReadyToTrip opens the breaker on a single failure`
})

// Unknown: a minimum from configuration, a method, a recursive helper, a
// helper whose result is not a single value.
var minFromConfig uint32 = 1

var helperConfigMin = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return tripAbove(c, minFromConfig, tripRatio) },
})

type policy struct{ min uint32 }

func (p policy) trip(c gobreaker.Counts) bool {
	return c.Requests >= p.min && failureRatio(c) >= tripRatio
}

var pol = policy{min: 1}

var helperMethod = gobreaker.NewCircuitBreaker(gobreaker.Settings{ReadyToTrip: pol.trip})

var helperMethodCall = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return pol.trip(c) },
})

func forever(c gobreaker.Counts) bool { return forever(c) }

var helperRecursive = gobreaker.NewCircuitBreaker(gobreaker.Settings{ReadyToTrip: forever})

func ratioAndOK(c gobreaker.Counts) (float64, bool) {
	return float64(c.TotalFailures) / float64(c.Requests), true
}

var helperTwoResults = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool {
		r, ok := ratioAndOK(c)
		return ok && r >= tripRatio
	},
})

// A helper that looks at a variable of the package: unknown.
var tripping = true

func tripIfEnabled(c gobreaker.Counts) bool { return tripping && c.ConsecutiveFailures > 0 }

var helperGlobal = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return tripIfEnabled(c) },
})

// A variadic helper: not followed.
func anyFailed(cs ...gobreaker.Counts) bool { return len(cs) > 0 }

var helperVariadic = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	ReadyToTrip: func(c gobreaker.Counts) bool { return anyFailed(c) },
})
