package loops

import (
	"context"
	"math/rand"
	"time"

	"example.com/exit"
)

func randPause() time.Duration { return time.Duration(rand.Int63n(int64(time.Second))) }

// Rule 3: a deadline computed before the loop and checked inside bounds it,
// also when the check ends the process through the module's own fatal
// helper (a function whose body ends in os.Exit, through a variable that
// nothing reassigns).
func fatalDeadline(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for {
		if err := send(context.Background()); err == nil {
			return
		}
		if time.Now().After(deadline) {
			exit.Fatal("timed out")
		}
		time.Sleep(randPause())
	}
}

// A helper that only logs does not leave the loop.
func warnDeadline(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for { // want `has no attempt limit and no context or deadline to stop it`
		if err := send(context.Background()); err == nil {
			return
		}
		if time.Now().After(deadline) {
			exit.Warn("late")
		}
		time.Sleep(randPause())
	}
}

// A variable that the package reassigns may hold a function that returns.
func replaceableExit(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for { // want `has no attempt limit and no context or deadline to stop it`
		if err := send(context.Background()); err == nil {
			return
		}
		if time.Now().After(deadline) {
			exit.Die()
		}
		time.Sleep(randPause())
	}
}

// The deadline check goes round while it holds and leaves in its else
// branch: bounded.
func elseDeadline(timeout time.Duration) error {
	start := time.Now()
	var err error
	for {
		err = send(context.Background())
		if err != nil && start.Add(timeout).After(time.Now()) {
			time.Sleep(randPause())
			continue
		} else {
			break
		}
	}
	return err
}

// An else branch that goes round as well leaves nothing.
func elseRound(timeout time.Duration) error {
	start := time.Now()
	var err error
	for { // want `has no attempt limit and no context or deadline to stop it`
		err = send(context.Background())
		if err != nil && start.Add(timeout).After(time.Now()) {
			time.Sleep(randPause())
			continue
		} else if err != nil {
			time.Sleep(randPause())
			continue
		} else {
			break
		}
	}
	return err
}

// A helper that returns early may return: no exit.
func checkDeadline(timeout time.Duration, last error) {
	deadline := time.Now().Add(timeout)
	for { // want `has no attempt limit and no context or deadline to stop it`
		if err := send(context.Background()); err == nil {
			return
		}
		if time.Now().After(deadline) {
			exit.Check(last)
		}
		time.Sleep(randPause())
	}
}
