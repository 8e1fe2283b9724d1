// Package sleepretry defines an Analyzer that reports retry loops and retry
// helpers whose waits make retry storms or ignore cancellation.
//
// # Analyzer sleepretry
//
// sleepretry: report retry loops with fixed or unjittered sleeps, sleeps that ignore ctx, or no bound
//
// When a dependency fails, every client that called it fails at the same
// moment; if they all wait the same time before the next attempt they all
// retry at the same moment again, and a struggling dependency meets a
// synchronised storm at each attempt. Backoff spreads the attempts out only
// when the waits are randomised (jitter). A sleep that ignores the context
// keeps a cancelled or timed-out caller waiting for nothing, and a retry
// loop with neither an attempt limit nor a context retries forever.
// sleepretry reports, once per retry loop, naming every problem found:
//
//   - a wait that is the same before every attempt (fixed backoff):
//     time.Sleep(time.Second), <-time.After(d), time.NewTimer(d) with a
//     loop-invariant d, in a select or not;
//   - a wait that grows without randomness (no jitter): delay *= 2,
//     base << attempt, a helper function computing it;
//   - time.Sleep (or a bare timer receive, or a helper that sleeps that
//     way) while a context is in scope: cancellation and deadlines wait out
//     the sleep;
//   - a loop with no attempt bound and no exit on a context, a deadline or a
//     done channel (a select on ctx.Done() or a quit channel that leaves the
//     loop is an exit, and so is a loop condition that does not depend on
//     the calls' outcome, such as for b.Ongoing() of a backoff object; the
//     Done or Err of a context that is only context.Background() or TODO()
//     is not, as nothing can end it; a parameter's context is). Bounds
//     too, so no "retries forever": an attempt counter compared anywhere
//     in the body (an if, a switch case, if attempt > 3 { log }), a
//     deadline or a timer made before the loop and checked in it
//     (timeout := time.After(d) received in a case that leaves), and a
//     context that can end handed to the retried call (send(ctx): once ctx
//     is done every attempt fails at once).
//
// For a constant wait the advice keeps the interval, which is usually
// deliberate, and adds randomisation (half of it plus a random share of
// it; with a retry library, that library's way of randomising a constant
// delay), rather than a default policy that would shorten it; a wait that
// grows gets full jitter.
//
// A range over an iterator function that yields from a loop (for range
// attempts(5, time.Second) { if err := send(ctx); err == nil { break } })
// is a retry loop too: its attempts are the yields, and a fixed or
// ctx-blind pause between two yields is its wait. A pause that observes no
// context is blind to the context of the loop that ranges over it. When the
// iterator's code is in the package, the wait is reported where it is, in
// the iterator; when it is in another package of the module, at the range,
// naming where the pause is (that file is not this package's, and no fix
// is offered).
//
// The four are independent: a jittered time.Sleep with a context in scope
// is still blind to the context. The finding is on the sleep, or on the
// loop when it is unbounded. A retry loop is a loop that repeats the same
// failing call (see the retryloop model), written with for or as a label
// that a goto below it jumps back to (the statements from the label to the
// end of its block are the body; no fix is offered for those). A wait
// counts when it can come before another attempt of the loop: not one
// only in the first iteration (if attempt == 0 { time.Sleep(d) }), nor
// one on a way out of the loop (it sleeps, then returns); only loops that sleep are this
// analyzer's business. Sleeping through a helper function counts. A watch
// or consumer loop (for { ev, err := next(ctx); if err != nil { wait;
// continue }; handle(ev) }) that calls again after every success and waits
// only after a failure retries that call too: its waits are checked (every
// replica reconnects in the same instant after a fixed one), though it has
// no attempt bound to miss.
//
// Known retry helpers configured with a fixed or unjittered delay are
// reported on the option or construction that sets it: cenkalti/backoff's
// NewConstantBackOff handed to Retry, retry-go's DelayType(retry.FixedDelay)
// (or a delay function of the package, literal or declared, that returns
// one constant) or DelayType(retry.BackOffDelay), a failsafe-go retry policy with
// WithDelay (or WithBackoff) and no jitter, go-resiliency's
// retrier.ConstantBackoff, sethvargo/go-retry's NewConstant or
// NewExponential without WithJitter/WithJitterPercent/WithFullJitter (and
// its Constant and Exponential shortcuts), a go-retryablehttp client whose
// Backoff is a function returning one constant (or DefaultBackoff, which
// grows without jitter), reported where it is set since the client's
// requests may be sent anywhere; a cenkalti ExponentialBackOff whose jitter is
// turned off (WithRandomizationFactor(0), a literal without
// RandomizationFactor, or b.RandomizationFactor = 0 in the block that makes
// b, before the retry); and a helper configured to retry forever: no attempt limit, no
// time limit and no context that can end (retry.UntilSucceeded() without
// retry.Context or with retry.Context(context.Background()); cenkalti
// WithMaxElapsedTime(0) with no retry limit and no context, or only
// context.Background(); a cenkalti ConstantBackOff handed to Retry alone).
//
// Not reported: jitter from math/rand or math/rand/v2, delays from an
// exponential cenkalti/backoff policy's NextBackOff() (randomised; a
// ConstantBackOff is fixed), from resil.Backoff or from a helper that
// randomises; a duration of unknown origin (a function field, an interface
// method) for the fixed/unjittered check; polling with a ticker or
// time.Tick that goes round after a success too, and for range over a
// ticker (a retry that waits for the tick of a time.NewTicker made before
// the loop and leaves on success is reported: every attempt waits the
// same period; no fix); server accept loops; loops whose sleep paces work with no
// retried call; loops and helpers retrying local work (issue 13, rule 1:
// the file system, the kernel, subprocesses, a unix socket, a loopback
// address such as 127.0.0.1 or localhost, in-process state, the client of
// a daemon of this machine: the Docker engine, D-Bus, systemd, LXD, also
// through an interface whose method takes or returns that client's types),
// directly or
// through functions of the module whose every call stays on this machine,
// or through a team's retry helper that every caller hands local work;
// and loops that pass a wait after a success too and go
// round (a pause between batches: for { n, err := purge(ctx); if err ==
// nil && n == 0 { return }; time.Sleep(pause) }), which pace work rather
// than back off, unless nothing ends such a poll: one that also goes
// round after a failure with no attempt limit, no deadline and no context
// that can end it (a wait-for-ready for { addrs, err := lookup(name); if
// err == nil && len(addrs) > 0 { return addrs }; time.Sleep(d) }) is
// reported for that alone, as a poll without a deadline; polls at a
// cadence: a loop that waits on a round where its call succeeded (nothing
// changed yet) and after a failure waits no shorter (the same fixed
// duration, or constants at least as long), so failing adds no load, is
// judged as such a poll; restart loops of a component that runs until its stream
// or server ends (for { err := s.watchStream(ctx); log(err);
// time.Sleep(d) } where watchStream ranges over a subscription's channel or
// loops receiving from it, or a serving call such as
// (*http.Server).ListenAndServe), which restart work and re-issue no
// operation; consumers that take the next item each iteration (a
// channel receive, a message source, a method of what the loop condition
// advances, for sc.Scan() { line := sc.Text() }), so that a failed item
// is left behind, not sent again; loops that repeat calls failing for local reasons (the file
// system, binding a port, parsing); a circuit breaker's open-state delay.
//
// Suggested fix, when the loop has an attempt variable, a context is in
// scope and the module requires resil (elsewhere the finding's advice names
// it): time.Sleep(d) becomes
//
//	if err := resil.Sleep(ctx, resil.Backoff(attempt, d, 10*d)); err != nil {
//		return ..., err
//	}
//
// (resil.Sleep returns ctx's error as soon as ctx is done; resil.Backoff is
// exponential backoff with full jitter, attempt counted from 0, capped at
// its third argument: adjust the cap to the caller's budget). In a select,
// the timer's duration d becomes resil.Backoff(attempt, d, 10*d); a wait that
// already grows keeps its schedule and gets full jitter,
// resil.Backoff(0, d, d), a random wait in [0, d).
//
// Example:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		if err = send(ctx); err == nil {
//			return nil
//		}
//		time.Sleep(time.Second) // fixed, and ignores ctx
//	}
package sleepretry
