// Package unboundedfanout defines an Analyzer that reports goroutines
// started once per element of a collection, or per iteration of a loop of
// unbounded length, with no limit on how many run at once.
//
// # Analyzer unboundedfanout
//
// unboundedfanout: report a goroutine per element or iteration with no concurrency bound
//
// A goroutine per item is fine for ten items and a disaster for ten
// thousand: each holds memory, a connection and a slot of the dependency it
// calls, and a large batch or a slow dependency exhausts them all. Every
// dependency needs a bounded pool. unboundedfanout reports a go statement,
// errgroup.Group.Go, sync.WaitGroup.Go (and sourcegraph/conc's pools)
// executed once per element of a collection (range over a slice, map,
// channel or iterator function) or per iteration of a loop whose trip count
// is not a small constant (more than -fanout-limit, default 16, counting
// nested loops together), with no concurrency bound.
//
// Bounded, not reported:
//
//   - errgroup with SetLimit on that group on every path before the loop
//     (also through a helper that creates or configures the group, or on a
//     struct field; a helper of another package that returns
//     errgroup.WithContext(ctx) with no SetLimit bounds nothing), conc pools with WithMaxGoroutines, errgroup's TryGo,
//     resil's bounded Group and ForEach, conc's iter helpers;
//   - a buffered-channel semaphore filled before the go statement (also as
//     the case of a select around it, or at the start of the goroutine,
//     before its first call) and drained when it ends — a channel locked
//     only after the calls, around bookkeeping, bounds nothing;
//     semaphore.Weighted.Acquire, resil's Bulkhead, and a team's own bounds
//     from configuration;
//   - worker pools: N goroutines that each take work from one shared
//     channel are bounded whatever N is; so are N identical goroutines, a
//     goroutine per CPU (runtime.NumCPU, GOMAXPROCS), and a count named as a
//     concurrency level (cfg.NumWorkers, maxConcurrentCalls, parallelism). A counting loop whose
//     goroutines each handle the item its index designates (a page, a
//     shard, items[i]) is fan-out over that count;
//   - long-lived service goroutines started once per component (a loop
//     until a stop channel, informer.Run(stopCh) — also inside a function
//     literal, cache.Start(ctx) —, a goroutine that listens, accepts
//     connections or serves): lifecycle, not fan-out; so are goroutines started per
//     registered function (for _, f := range s.onShutdown { go f() }) or
//     per component behind an interface that a value holds (its stages,
//     collectors, connections) — interface values handed in as data are
//     items of work;
//   - a goroutine per node, shard or server that a value holds (for _, n
//     := range c.nodes, where the elements are pointers to types with
//     methods): bounded by the configured topology, each goroutine talks to
//     a dependency of its own. The same nodes handed in as a parameter, or
//     plain data a value holds (b.Messages), are items of work;
//   - shutdown in parallel: a goroutine per component that only stops it
//     (go srv.Shutdown(ctx), or a function that closes, flushes and shuts
//     down what it is given, besides synchronisation, logging and errors);
//     a function of the package named so but handed work (go c.flush(ctx,
//     batch)) is judged by its body, not its name;
//   - a loop with no fixed end that does not feed the goroutines a stream
//     of work: only values received from a channel (case ev := <-events),
//     iterators (for sc.Scan()) and messages taken from a queue or a
//     subscription (kafka-go Reader.FetchMessage, nats NextMsg, Redis
//     BLPop or XReadGroup) count; a racer started when a timer
//     fires or a server reading its own requests is not judged;
//   - a goroutine waited for within the same iteration (one at a time): a
//     Wait, or a receive from a channel it sends on or is handed;
//   - loops over a small constant count, or over a collection capped at
//     one before the loop (if len(ids) > 10 { return errTooMany },
//     ids = ids[:min(len(ids), 8)], range min(len(ids), 8)), and server
//     accept loops (out of scope);
//   - a group passed in from elsewhere: its limit is unknown, so silent.
//
// Suggested fixes, only when no goroutine of the loop can wait for a
// partner that runs only after the loop (results drained after it, values
// or a signal sent after the launches, its cancellation, a lock the
// function holds across the loop, a wait on its group): a limit would
// deadlock there. A result channel drained after the loop, sent on once
// per goroutine, is given room for every item (make(chan T, len(items)))
// as part of the fix. For errgroup without a limit, insert g.SetLimit(N)
// right after the group is created (N is -fanout-fix-limit, default 16),
// where the loaded errgroup has SetLimit. For a bare go statement with a
// sync.WaitGroup (wg.Add, defer wg.Done(), wg.Wait()), or WaitGroup.Go,
// replace the WaitGroup with resil's bounded group,
// resil.NewGroup(context.Background(), N), when the module requires resil
// and the rewrite is mechanical (the WaitGroup is local and used only
// there): its context is never done, so every function still runs and
// Wait returns nil, as before; the functions keep the context they used.
// Otherwise a channel semaphore (sem := make(chan struct{}, N); sem <-
// struct{}{} before the launch; defer func() { <-sem }() in the
// goroutine), which needs no import. In a nest of fan-outs each fix
// states the bound of the whole nest (N×N).
//
// Example:
//
//	for _, o := range orders {
//		g.Go(func() error { return ship(ctx, o) }) // one goroutine per order
//	}
//
// Instead:
//
//	g, ctx := errgroup.WithContext(ctx)
//	g.SetLimit(16)
//	for _, o := range orders {
//		g.Go(func() error { return ship(ctx, o) })
//	}
package unboundedfanout
