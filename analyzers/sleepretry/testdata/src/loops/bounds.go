package loops

import (
	"context"
	"errors"
	"log"
	"math/rand"
	"time"
)

// What bounds a retry loop (issue 13, rule 3): a deadline or timer made
// before the loop and checked in it, an attempt counter compared anywhere in
// the body, a cancellable context handed to the retried call. None of these
// loops retries forever.

var errTimedOut = errors.New("timed out")

// A timer made before the loop, received in a case that leaves: a deadline.
func timerBeforeLoop() error {
	timeout := time.After(30 * time.Second)
	for {
		if err := sendNoCtx(); err == nil {
			return nil
		}
		select {
		case <-timeout:
			return errTimedOut
		case <-time.After(time.Duration(rand.Intn(1000)) * time.Millisecond):
		}
	}
}

// The same with a time.Timer made before the loop.
func newTimerBeforeLoop() error {
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	for {
		if err := sendNoCtx(); err == nil {
			return nil
		}
		select {
		case <-t.C:
			return errTimedOut
		case <-time.After(time.Duration(rand.Intn(1000)) * time.Millisecond):
		}
	}
}

// A timer made in the loop is not a deadline: it starts again every time.
func timerInLoop() error {
	for { // want `retry loop has no attempt limit and no context or deadline to stop it`
		if err := sendNoCtx(); err == nil {
			return nil
		}
		timeout := time.After(30 * time.Second)
		select {
		case <-timeout:
			return errTimedOut
		case <-time.After(time.Duration(rand.Intn(1000)) * time.Millisecond):
		}
	}
}

// An attempt counter compared in a switch case that leaves: bounded, with
// its count.
func counterSwitch() error {
	attempt := 0
	for {
		err := sendNoCtx()
		if err == nil {
			return nil
		}
		attempt++
		switch {
		case attempt >= 5:
			return err
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
}

// A counter compared anywhere in the body: whoever wrote it thought about
// the attempts; nothing proves the loop runs forever.
func counterCompared() error {
	attempt := 0
	for {
		err := sendNoCtx()
		if err == nil {
			return nil
		}
		attempt++
		if attempt > 3 {
			log.Printf("still failing after %d attempts: %v", attempt, err)
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
}

// A cancellable context handed to the retried call ends the loop when it is
// done: the sleep ignores it, but nothing proves "forever".
func ctxToCall(ctx context.Context) {
	for {
		if err := send(ctx); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond) // want `^retry loop waits with time.Sleep, which ignores ctx: cancellation and deadlines wait out the sleep; sleep with resil.Sleep\(ctx, d\), which returns when the context is done$`
	}
}

// A context that nothing cancels, handed to the call, does not end it.
func backgroundToCall() {
	ctx := context.Background()
	for { // want `retry loop has no attempt limit and no context or deadline to stop it`
		if err := send(ctx); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
}

// A constant wait is deliberate: the advice keeps its interval and adds
// randomisation (issue 13, rule 13).
func constantAdvice() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = sendNoCtx(); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `^retry loop waits the same time.Second before every attempt: clients that failed together retry together, a retry storm for the struggling dependency; keep the interval and add randomisation \(time.Second/2 plus a random share of time.Second from math/rand/v2\)$`
	}
	return err
}

func constantAdviceCtx(ctx context.Context, interval time.Duration) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(interval) // want `; sleep with resil.Sleep\(ctx, d\), which returns when ctx is done, and keep the interval and add randomisation \(interval/2 plus a random share of interval from math/rand/v2\)$`
	}
	return err
}

// settle waits a fixed second: a sleep helper whatever its name (no
// decision by a name).
func settle() { time.Sleep(time.Second) }

func settleRetry() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = sendNoCtx(); err == nil {
			return nil
		}
		settle() // want `retry loop waits the same duration before every attempt`
	}
	return err
}

type etcdish struct{ root context.Context }

func (e *etcdish) Ctx() context.Context { return e.root }

// A timeout per attempt derived from a context that can end (the client's):
// when it ends every attempt fails at once; no claim of "forever".
func (e *etcdish) load() {
	for {
		ctx, cancel := context.WithTimeout(e.Ctx(), time.Second)
		err := send(ctx)
		cancel()
		if err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
}

// The same from Background: nothing ends it.
func loadBackground() {
	for { // want `retry loop has no attempt limit and no context or deadline to stop it`
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := send(ctx)
		cancel()
		if err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
}

// time.Sleep reached only when ctx cannot be cancelled (its Done is nil):
// it ignores nothing.
func doneOrSleep(ctx context.Context, next time.Duration) error {
	for attempt := 0; attempt < 5; attempt++ {
		if err := send(ctx); err == nil {
			return nil
		}
		if done := ctx.Done(); done != nil {
			timer := time.NewTimer(time.Duration(rand.Int63n(int64(next))))
			select {
			case <-done:
				return ctx.Err()
			case <-timer.C:
				continue
			}
		}
		time.Sleep(time.Duration(rand.Int63n(int64(next))))
	}
	return errTimedOut
}

// A context that can end, handed to the retried call by the closure the
// loop calls: no claim of "forever".
func ctxThroughClosure(ctx context.Context) {
	get := func() error { return send(ctx) }
	for {
		if err := get(); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond) // want `^retry loop waits with time.Sleep, which ignores ctx: cancellation and deadlines wait out the sleep; sleep with resil.Sleep\(ctx, d\), which returns when the context is done$`
	}
}

// The closure's own Background context ends nothing.
func backgroundThroughClosure() {
	get := func() error { return send(context.Background()) }
	for { // want `retry loop has no attempt limit and no context or deadline to stop it`
		if err := get(); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
}

// The time left until a deadline made before the loop, read into a
// variable and checked: bounded.
func remainingChecked(timeout time.Duration) error {
	end := time.Now().Add(timeout)
	for {
		if err := sendNoCtx(); err == nil {
			return nil
		}
		left := time.Until(end)
		if left <= 0 {
			return errTimedOut
		}
		if left > time.Second {
			left = time.Second
		}
		time.Sleep(time.Duration(rand.Int63n(int64(left))))
	}
}

// The same variable read from something else: no deadline.
func remainingUnchecked(limit func() time.Duration) error {
	for { // want `retry loop has no attempt limit and no context or deadline to stop it`
		if err := sendNoCtx(); err == nil {
			return nil
		}
		left := limit()
		if left <= 0 {
			left = time.Second
		}
		time.Sleep(time.Duration(rand.Int63n(int64(left))))
	}
}
