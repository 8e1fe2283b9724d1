// Package unboundedfanout defines an Analyzer that reports goroutines
// started once per element of a collection, or per iteration of a loop of
// unbounded length, that all call the same remote dependency with no limit
// on how many run at once.
//
// # Analyzer unboundedfanout
//
// unboundedfanout: report a goroutine per element or iteration with no concurrency bound
//
// A goroutine per item is fine for ten items and a disaster for ten
// thousand when every one calls the same service: each holds memory and a
// connection to it, and a large batch or a slow answer exhausts both.
// unboundedfanout reports a go statement, errgroup.Group.Go,
// sync.WaitGroup.Go (and sourcegraph/conc's pools) executed once per
// element of a collection (range over a slice, map, channel, iterator
// function, or a type parameter whose type set is one of those, S ~[]E,
// M ~map[K]V) or per iteration of a loop whose trip count is not a small
// constant (more than -fanout-limit, default 16, counting nested loops
// together), only when it has evidence for every part of the claim:
//
//   - every goroutine reaches remote outbound work (an HTTP request, a gRPC
//     call, a dial, a database call, a client the knowledge table lists),
//     directly or through functions of any package (followed through their
//     facts). Local work is not a dependency: subprocesses, files, ioctls,
//     the loopback address, unix sockets, an embedded database, the client
//     of a daemon of this machine (the Docker engine, D-Bus, systemd, LXD,
//     reached over a unix socket unless configured otherwise). A goroutine
//     that runs a function value or an interface method whose body is out
//     of sight, or only waits on channels, timers or its context, is not
//     reported. Remote work done only after a failure (if err != nil {
//     alert(...) }) is not the work the goroutines were started for, nor
//     is work done only where a condition on the element holds (if len(doc)
//     == 0 { alert(ctx, id) }, a case of a switch on it): not every
//     goroutine reaches it (work after the success of earlier work, if err
//     == nil { upload(out) }, is every goroutine's); a
//     gRPC call counts only when its connection is dialled in sight to
//     another host, or in the package to an address given from outside
//     with every option read and no custom dialer (local daemons are
//     reached over gRPC on unix sockets, often through a dialer);
//   - the element is the payload, not the target: the dependency each call
//     reaches (its URL's host or base URL, its address, or for gRPC,
//     database and Redis calls its client) is the same for every element.
//     One goroutine per configured or discovered backend, upstream, server,
//     peer or interface — wherever the elements are held (a field, a local
//     slice, a map, a call's result) — calls a target of its own: not
//     fan-out. A target that cannot be told is silent too;
//   - each goroutine is a unit of work: one that loops until it is stopped
//     (a range over a channel, a loop until a stop channel or its context
//     ends, a periodic loop on a ticker — a subscription, a tail, a poller),
//     serves ((*http.Server).Serve, (*grpc.Server).Serve, an accept loop)
//     or runs a function that does, is a long-lived worker or service; so
//     is each of a pool of workers: a counted loop (for i := 0; i < n;
//     i++) whose bound is not a collection's length, starting goroutines
//     that do all their remote work in a loop of their own (each takes
//     several items: a stride over a shared slice, batches);
//   - no limit applies (below).
//
// Limits, any one of which is enough:
//
//   - errgroup with SetLimit on that group before the loop, in any branch
//     (also through a helper that creates or configures the group, or on a
//     struct field; a helper of another package that returns
//     errgroup.WithContext(ctx) with no SetLimit bounds nothing), conc
//     pools with WithMaxGoroutines, errgroup's TryGo, resil's bounded
//     Group and ForEach, conc's iter helpers; a group passed in from
//     elsewhere (its limit is unknown);
//   - a buffered-channel semaphore filled before the go statement (also as
//     the case of a select around it, or in the goroutine before its
//     remote work) and drained when it ends — a channel locked only after
//     the calls bounds nothing; semaphore.Weighted.Acquire, resil's
//     Bulkhead, and a team's own bounds from configuration, acquired
//     before the goroutine's first remote work (one taken only after the
//     fetch, for a local write, limits nothing of the fan-out);
//   - a limit on the path to the remote work that every goroutine shares,
//     in the goroutine or in any function it calls: a semaphore or a
//     channel of slots or tokens, a rate limiter's Wait (x/time/rate,
//     client-go's QPS limiter), a mutex held around the call, all held in
//     a field, a parameter or a package variable (a slot taken in a select
//     whose other cases leave counts); a throttle helper that waits on one
//     before the call; a pacer that runs the function it is handed under
//     its tokens; and a client that caps its own connections (go-redis's
//     pool; a *sql.DB given SetMaxOpenConns(n), n > 0, unconditionally
//     before the launches or in the function that opens it, or one made
//     out of sight — a parameter, another package's constructor — whose
//     cap cannot be seen, so no fan-out is proven; an http.Client
//     whose transport literal sets MaxConnsPerHost). A semaphore of any capacity is a limit (one sized from a
//     parameter too: its size is the user's choice). One must guard every
//     remote call the goroutines reach, on every path: a helper that takes
//     the semaphore on one branch only, or goes ahead when none is free,
//     is no limit; a wait on a channel a call returns (<-ctx.Done(),
//     <-time.After(d)) takes no shared token and is no limit;
//   - collections of constant or capped size: loops over a small constant
//     count, a literal, or a collection capped before the loop
//     (if len(ids) > 10 { return errTooMany }, ids = ids[:min(len(ids),
//     8)], range min(len(ids), 8)), also when a validating function or
//     method called before the loop rejects large input (if err :=
//     validate(req); err != nil { return err }, if !ok(ids) { ... }, if
//     tooMany(ids) { ... }; its guards may be the cases of a switch; a
//     validator of another package of the module counts too), or
//     when the field the loop ranges over is validated by a method of its
//     type (an Init) or capped wherever the package stores it (a
//     constructor). A constant count is small up to -fanout-limit; a cap
//     the code states is the limit its author chose up to four times
//     -fanout-limit (64 by default: if len(ids) > 50 { return err } is a
//     limit, if len(ids) > 500 is a bound on the input, and fan-out up
//     to 500 is reported); a goroutine waited for within the
//     same iteration (a Wait, or a receive from a channel it sends on or
//     is handed); a loop that leaves right after the launch;
//   - worker pools: a counting loop whose goroutines do not use the index
//     to pick their item (N workers taking work from one channel, N
//     identical goroutines, each writing only its own result slot), a
//     goroutine per CPU (runtime.NumCPU, GOMAXPROCS). A counting loop whose
//     goroutines each handle the item or page their index designates is
//     fan-out over that count, whatever the count is called.
//
// A loop with no fixed end counts when it feeds the goroutines a stream of
// work: values received from a channel (case ev := <-events), iterators
// (for sc.Scan()) and messages taken from a queue or a subscription
// (kafka-go Reader.FetchMessage, nats NextMsg, Redis BLPop or XReadGroup);
// other endless loops (a racer started when a timer fires, a server
// reading its own requests) are not judged. The message names the
// dependency the goroutines call and the path to the call.
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
//		g.Go(func() error { return ship(ctx, o) }) // one request to the shipping API per order
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
