package knowledge

import (
	"maps"
	"strings"
)

// Rows for goroutine launchers and the calls that bound them.

// BoundTable lists calls that launch goroutines and calls that bound them.
type BoundTable struct {
	// Launchers are calls that start a goroutine running their function
	// argument (besides the go statement): errgroup's Go, WaitGroup.Go,
	// conc's pools.
	Launchers map[string]Launcher
	// Limits are methods that limit the goroutines of their receiver's
	// group (errgroup's SetLimit, conc's WithMaxGoroutines), with the index
	// of the limit argument. A chain of them on the group's constructor
	// counts too (pool.New().WithMaxGoroutines(8)).
	Limits map[string]int
	// GroupCtors are functions that return a new group at result index
	// (errgroup.WithContext).
	GroupCtors map[string]int
	// Acquires are calls that take a slot of a concurrency bound
	// (semaphore.Weighted.Acquire, resil's Bulkhead): a goroutine started
	// after one, or that calls one first, is bounded.
	Acquires map[string]bool
	// Releases give a slot back (semaphore.Weighted.Release): a slot taken
	// and given back before the goroutine starts bounds nothing.
	Releases map[string]bool
	// Bounded are calls that run functions under a concurrency bound of
	// their own (errgroup's TryGo, resil's Group.Go and ForEach, conc's
	// iter.ForEach): never fan-out.
	Bounded map[string]bool
	// Waits are calls that wait for launched goroutines: a goroutine waited
	// for in the iteration that started it runs one at a time.
	Waits map[string]bool
	// Accepts are calls that accept inbound connections (or read a packet
	// listener's datagrams): a loop around one is a server's accept loop,
	// out of scope.
	Accepts map[string]bool
	// MachineCounts are calls whose value is the machine's parallelism
	// (runtime.NumCPU): a goroutine per CPU is bounded.
	MachineCounts map[string]bool
	// MessageSources: calls that take the next message of a queue or a
	// subscription (reader.FetchMessage(ctx)): an endless loop that starts
	// a goroutine per value they return fans out a stream of work.
	MessageSources map[string]bool
	// Serial are exclusive locks ((*sync.Mutex).Lock, not RLock): a remote
	// call made under one that every goroutine shares runs one at a time.
	// SerialRelease give them back.
	Serial        map[string]bool
	SerialRelease map[string]bool
	// ConnCaps are client types that cap their own concurrent calls (a
	// connection pool that makes callers wait for a free connection):
	// goroutines calling through one are bounded by the pool.
	ConnCaps map[string]bool
	// Serves are calls that serve inbound connections until stopped
	// ((*net/http.Server).Serve): a goroutine that makes one is a server,
	// long-lived, not a unit of work.
	Serves map[string]bool
	// URLFormats are formatting functions that build URLs and addresses
	// from a format (the index of the format argument): the host is a
	// constant prefix of it, or the argument of its leading verb.
	URLFormats map[string]int
	// Tickers are ticker types (by type key) and functions that return a
	// ticker's channel: a loop that waits for one each iteration is
	// periodic (a poller, a tail) and runs until it is stopped.
	Tickers map[string]bool
	// Locks take a lock that another goroutine may hold; Unlocks give it
	// back. SyncTypes are the types a goroutine can wait on besides
	// channels (locks, groups, conditions). A limit on goroutines that wait
	// for a lock the launching function holds across the loop, or on a
	// group it waits on later, deadlocks: the fixes check them.
	Locks     map[string]bool
	Unlocks   map[string]bool
	SyncTypes map[string]bool
	// Runtime is the runtime package's bounded group that the fixes use:
	// resil.NewGroup(ctx, limit) with Go(func(ctx context.Context) error)
	// and Wait() error.
	Runtime Runtime
}

// LaunchFix says which fix applies to a launcher.
type LaunchFix uint8

const (
	// NoLaunchFix: no mechanical fix.
	NoLaunchFix LaunchFix = iota
	// FixSetLimit: insert a call to the group's limit method (SetLimit)
	// right after the group is created.
	FixSetLimit
	// FixRuntimeGroup: replace the WaitGroup with the runtime package's
	// bounded group.
	FixRuntimeGroup
)

// Launcher describes a call that starts a goroutine.
type Launcher struct {
	// Fn is the index of the function argument the goroutine runs.
	Fn int
	// Limit is the name of the receiver's method that limits the group
	// ("SetLimit"), or "" when the group has none.
	Limit string
	Fix   LaunchFix
}

var launchers = map[string]Launcher{
	"(*golang.org/x/sync/errgroup.Group).Go":                      {Fn: 0, Limit: "SetLimit", Fix: FixSetLimit},
	"(*sync.WaitGroup).Go":                                        {Fn: 0, Fix: FixRuntimeGroup},
	"(*github.com/sourcegraph/conc.WaitGroup).Go":                 {Fn: 0},
	"(*github.com/sourcegraph/conc/pool.Pool).Go":                 {Fn: 0, Limit: "WithMaxGoroutines"},
	"(*github.com/sourcegraph/conc/pool.ErrorPool).Go":            {Fn: 0, Limit: "WithMaxGoroutines"},
	"(*github.com/sourcegraph/conc/pool.ContextPool).Go":          {Fn: 0, Limit: "WithMaxGoroutines"},
	"(*github.com/sourcegraph/conc/pool.ResultPool[T]).Go":        {Fn: 0, Limit: "WithMaxGoroutines"},
	"(*github.com/sourcegraph/conc/pool.ResultErrorPool[T]).Go":   {Fn: 0, Limit: "WithMaxGoroutines"},
	"(*github.com/sourcegraph/conc/pool.ResultContextPool[T]).Go": {Fn: 0, Limit: "WithMaxGoroutines"},
}

var limits = map[string]int{
	"(*golang.org/x/sync/errgroup.Group).SetLimit":                               0,
	"(*github.com/sourcegraph/conc/pool.Pool).WithMaxGoroutines":                 0,
	"(*github.com/sourcegraph/conc/pool.ErrorPool).WithMaxGoroutines":            0,
	"(*github.com/sourcegraph/conc/pool.ContextPool).WithMaxGoroutines":          0,
	"(*github.com/sourcegraph/conc/pool.ResultPool[T]).WithMaxGoroutines":        0,
	"(*github.com/sourcegraph/conc/pool.ResultErrorPool[T]).WithMaxGoroutines":   0,
	"(*github.com/sourcegraph/conc/pool.ResultContextPool[T]).WithMaxGoroutines": 0,
}

var groupCtors = map[string]int{
	"golang.org/x/sync/errgroup.WithContext": 0,
}

var acquires = map[string]bool{
	"(*golang.org/x/sync/semaphore.Weighted).Acquire":                 true,
	"(*golang.org/x/sync/semaphore.Weighted).TryAcquire":              true,
	"(*" + ResilPath + ".Bulkhead).Acquire":                           true,
	"(*" + ResilPath + ".Bulkhead).Do":                                true,
	"(*github.com/eapache/go-resiliency/semaphore.Semaphore).Acquire": true,
	// A rate limiter's wait: the calls after it start at most at its rate.
	"(*golang.org/x/time/rate.Limiter).Wait":  true,
	"(*golang.org/x/time/rate.Limiter).WaitN": true,
	// client-go's QPS/Burst limiter, which every request of a REST client
	// waits on (rest.Config.QPS, Burst).
	"(k8s.io/client-go/util/flowcontrol.RateLimiter).Wait":   true,
	"(k8s.io/client-go/util/flowcontrol.RateLimiter).Accept": true,
}

var releases = map[string]bool{
	"(*golang.org/x/sync/semaphore.Weighted).Release":                 true,
	"(*github.com/eapache/go-resiliency/semaphore.Semaphore).Release": true,
}

var bounded = map[string]bool{
	"(*golang.org/x/sync/errgroup.Group).TryGo":   true,
	"(*" + ResilPath + ".Group).Go":               true,
	ResilPath + ".ForEach":                        true,
	"github.com/sourcegraph/conc/iter.ForEach":    true,
	"github.com/sourcegraph/conc/iter.ForEachIdx": true,
	"github.com/sourcegraph/conc/iter.Map":        true,
	"github.com/sourcegraph/conc/iter.MapErr":     true,
}

var waits = map[string]bool{
	"(*sync.WaitGroup).Wait":                               true,
	"(*golang.org/x/sync/errgroup.Group).Wait":             true,
	"(*github.com/sourcegraph/conc.WaitGroup).Wait":        true,
	"(*github.com/sourcegraph/conc/pool.Pool).Wait":        true,
	"(*github.com/sourcegraph/conc/pool.ErrorPool).Wait":   true,
	"(*github.com/sourcegraph/conc/pool.ContextPool).Wait": true,
}

var locks = map[string]bool{
	"(*sync.Mutex).Lock":    true,
	"(*sync.RWMutex).Lock":  true,
	"(*sync.RWMutex).RLock": true,
}

var unlocks = map[string]bool{
	"(*sync.Mutex).Unlock":    true,
	"(*sync.RWMutex).Unlock":  true,
	"(*sync.RWMutex).RUnlock": true,
}

var syncTypes = map[string]bool{
	"sync.Mutex":                            true,
	"sync.RWMutex":                          true,
	"sync.WaitGroup":                        true,
	"sync.Cond":                             true,
	"golang.org/x/sync/errgroup.Group":      true,
	"golang.org/x/sync/semaphore.Weighted":  true,
	"github.com/sourcegraph/conc.WaitGroup": true,
}

var accepts = map[string]bool{
	"(net.Listener).Accept":          true,
	"(*net.TCPListener).Accept":      true,
	"(*net.TCPListener).AcceptTCP":   true,
	"(*net.UnixListener).Accept":     true,
	"(*net.UnixListener).AcceptUnix": true,
	// A packet listener's read loop is the UDP form of an accept loop.
	"(net.PacketConn).ReadFrom":    true,
	"(*net.UDPConn).ReadFrom":      true,
	"(*net.UDPConn).ReadFromUDP":   true,
	"(*net.UDPConn).ReadMsgUDP":    true,
	"(*net.UnixConn).ReadFromUnix": true,
}

var serial = map[string]bool{
	"(*sync.Mutex).Lock":   true,
	"(*sync.RWMutex).Lock": true,
}

var serialRelease = map[string]bool{
	"(*sync.Mutex).Unlock":   true,
	"(*sync.RWMutex).Unlock": true,
}

var serves = map[string]bool{
	"(*net/http.Server).Serve":               true,
	"(*net/http.Server).ServeTLS":            true,
	"(*net/http.Server).ListenAndServe":      true,
	"(*net/http.Server).ListenAndServeTLS":   true,
	"net/http.Serve":                         true,
	"net/http.ServeTLS":                      true,
	"net/http.ListenAndServe":                true,
	"net/http.ListenAndServeTLS":             true,
	"(*google.golang.org/grpc.Server).Serve": true,
}

// connCaps: go-redis clients take a connection from a pool of PoolSize
// (10 per CPU by default) for every command and wait PoolTimeout for one.
var connCaps = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range redisPaths {
		for _, t := range []string{"Client", "ClusterClient", "Ring", "UniversalClient", "SentinelClient", "Cmdable"} {
			m[p+"."+t] = true
		}
	}
	return m
}()

var machineCounts = map[string]bool{
	"runtime.NumCPU":     true,
	"runtime.GOMAXPROCS": true,
}

func defaultBounds() BoundTable {
	return BoundTable{
		Launchers:      maps.Clone(launchers),
		Limits:         maps.Clone(limits),
		GroupCtors:     maps.Clone(groupCtors),
		Acquires:       maps.Clone(acquires),
		Releases:       maps.Clone(releases),
		Bounded:        maps.Clone(bounded),
		Waits:          maps.Clone(waits),
		Accepts:        maps.Clone(accepts),
		MachineCounts:  maps.Clone(machineCounts),
		MessageSources: maps.Clone(messageSources),
		Serial:         maps.Clone(serial),
		SerialRelease:  maps.Clone(serialRelease),
		ConnCaps:       maps.Clone(connCaps),
		Serves:         maps.Clone(serves),
		Tickers:        map[string]bool{"time.Ticker": true, "time.Tick": true},
		URLFormats:     map[string]int{"fmt.Sprintf": 0},
		Locks:          maps.Clone(locks),
		Unlocks:        maps.Clone(unlocks),
		SyncTypes:      maps.Clone(syncTypes),
		Runtime:        Runtime{Path: ResilPath, Name: "resil", Func: "NewGroup"},
	}
}

// Paths returns the import paths of the launchers and bounds, for fast
// paths.
func (b *BoundTable) Paths() map[string]bool {
	out := map[string]bool{}
	for _, m := range []map[string]bool{b.Acquires, b.Bounded, b.Waits} {
		for k := range m {
			addPath(out, k)
		}
	}
	for k := range b.Launchers {
		addPath(out, k)
	}
	return out
}

// messageSources take the next message of a queue or subscription.
var messageSources = func() map[string]bool {
	m := map[string]bool{
		"(*github.com/segmentio/kafka-go.Reader).FetchMessage":          true,
		"(*github.com/segmentio/kafka-go.Reader).ReadMessage":           true,
		"(*github.com/nats-io/nats.go.Subscription).NextMsg":            true,
		"(*github.com/nats-io/nats.go.Subscription).NextMsgWithContext": true,
	}
	for _, p := range redisPaths {
		for _, f := range []string{"BLPop", "BRPop", "BLMove", "BRPopLPush", "XReadGroup", "XRead"} {
			m["("+p+".cmdable)."+f] = true
		}
	}
	return m
}()

// GroupType reports whether the type with key typeKey (pkg.Group, as
// analysisutil.TypeKey spells it) is a launcher's group: one of the Launchers
// is its method.
func (t *BoundTable) GroupType(typeKey string) bool {
	if typeKey == "" {
		return false
	}
	for k := range t.Launchers {
		if strings.Contains(k, typeKey+")") || strings.Contains(k, typeKey+"[") {
			return true
		}
	}
	return false
}
