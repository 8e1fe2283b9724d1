package resil

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// refBreaker is the reference model of the breaker's specification, kept
// as plain as possible: every closed-state outcome is an event in a slice,
// the window is "events whose bucket index is within the last
// WindowBuckets", and each state is a field. The real Breaker packs state
// and generation in one atomic word, counts successes lock-free in a ring
// of buckets and places them lazily; the model test checks they agree.
type refBreaker struct {
	ratio         float64
	minThroughput int
	bucket, open  int64
	probes        int

	state      State
	gen        int
	events     []refEvent // closed-state outcomes of the current closed period
	openUntil  int64
	leaseUntil int64
	inflight   int
	probesOK   int
}

type refEvent struct {
	at   int64
	fail bool
}

type refTicket struct {
	gen   int
	state State
}

func (m *refBreaker) enter(s State, now int64) {
	m.state, m.gen = s, m.gen+1
	switch s {
	case StateClosed:
		m.events = nil
	case StateOpen:
		m.openUntil = now + m.open
	case StateHalfOpen:
		m.inflight, m.probesOK, m.leaseUntil = 0, 0, now+m.open
	}
}

func (m *refBreaker) admit(now int64) (refTicket, bool) {
	if m.state == StateOpen {
		if now < m.openUntil {
			return refTicket{}, false
		}
		m.enter(StateHalfOpen, now)
	}
	if m.state == StateHalfOpen {
		if m.inflight >= m.probes {
			if now < m.leaseUntil {
				return refTicket{}, false
			}
			m.enter(StateHalfOpen, now)
		}
		m.inflight++
	}
	return refTicket{m.gen, m.state}, true
}

func (m *refBreaker) result(t refTicket, o outcome, now int64) {
	if t.state == StateClosed && o == success {
		if m.state == StateClosed { // successes count while closed, whatever the generation
			m.events = append(m.events, refEvent{now, false})
		}
		return
	}
	if t.gen != m.gen || o == neutral && t.state == StateClosed {
		return
	}
	switch m.state {
	case StateClosed:
		m.events = append(m.events, refEvent{now, true})
		total, fails := 0, 0
		for _, e := range m.events {
			if e.at/m.bucket > now/m.bucket-WindowBuckets {
				total++
				if e.fail {
					fails++
				}
			}
		}
		if total >= m.minThroughput && float64(fails) >= m.ratio*float64(total) {
			m.enter(StateOpen, now)
		}
	case StateHalfOpen:
		m.inflight--
		switch o {
		case success:
			if m.probesOK++; m.probesOK >= m.probes {
				m.enter(StateClosed, now)
			}
		case failure:
			m.enter(StateOpen, now)
		}
	}
}

func (m *refBreaker) State(now int64) State {
	if m.state == StateOpen && now >= m.openUntil {
		return StateHalfOpen
	}
	return m.state
}

// TestBreakerMatchesModel drives the real breaker and the model with the
// same random sequences of operations — calls that finish at once, calls
// held open and finished later (possibly after state changes), clock
// jumps — and requires the same admissions and states at every step.
func TestBreakerMatchesModel(t *testing.T) {
	const seeds, steps = 300, 400
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 0x5eed))
		probes := 1 + rng.IntN(3)
		minT := 1 + rng.IntN(8)
		ratio := []float64{0.1, 0.5, 0.9, 1}[rng.IntN(4)]
		window, open := time.Second, 300*time.Millisecond

		clk := newFakeClock()
		b := NewBreaker("model", BreakerClock(clk), FailureRatio(ratio), MinimumThroughput(minT),
			Window(window), OpenDuration(open), HalfOpenProbes(probes))
		b.flushMask = 0 // place every success at its own time, as the model does
		m := &refBreaker{ratio: ratio, minThroughput: minT, bucket: int64(window / WindowBuckets), open: int64(open), probes: probes}
		start := clk.Now()
		now := func() int64 { return int64(clk.Now().Sub(start)) }

		type held struct {
			real uint64
			ref  refTicket
		}
		var inFlight []held
		var trace []string
		outcomes := []outcome{success, success, success, failure, failure, neutral}

		for step := range steps {
			var op string
			switch r := rng.IntN(10); {
			case r < 2:
				d := []time.Duration{time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 299 * time.Millisecond, 301 * time.Millisecond, 2 * time.Second}[rng.IntN(6)]
				clk.Advance(d)
				op = "advance " + d.String()
			case r < 8 || len(inFlight) == 0:
				ticket, err := b.admit()
				rt, ok := m.admit(now())
				if (err == nil) != ok {
					t.Fatalf("seed %d step %d: real admitted=%v, model admitted=%v\n%s", seed, step, err == nil, ok, strings.Join(trace, "\n"))
				}
				if !ok {
					op = "call rejected"
					break
				}
				if rng.IntN(4) == 0 && len(inFlight) < 6 {
					inFlight = append(inFlight, held{ticket, rt})
					op = "call held"
					break
				}
				o := outcomes[rng.IntN(len(outcomes))]
				b.record(ticket, o)
				m.result(rt, o, now())
				op = fmt.Sprintf("call outcome %d", o)
			default:
				i := rng.IntN(len(inFlight))
				h := inFlight[i]
				inFlight = append(inFlight[:i], inFlight[i+1:]...)
				o := outcomes[rng.IntN(len(outcomes))]
				b.record(h.real, o)
				m.result(h.ref, o, now())
				op = fmt.Sprintf("held call finishes with outcome %d", o)
			}
			trace = append(trace, fmt.Sprintf("%3d %-40s real=%v model=%v", step, op, b.State(), m.State(now())))
			if b.State() != m.State(now()) {
				t.Fatalf("seed %d step %d: real state %v, model %v\n%s", seed, step, b.State(), m.State(now()), strings.Join(trace, "\n"))
			}
		}
	}
}
