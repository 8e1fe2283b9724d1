package knowledge

// Rows for functions that make or derive a context.Context.

func derive(effect CtxEffect, parent, result int) ContextFunc {
	return ContextFunc{Effect: effect, Parent: parent, Result: result, Duration: None, Deadline: None, Cancel: None}
}

// cancels is derive for a function whose second result cancels the
// context it returns.
func cancels(effect CtxEffect, parent int) ContextFunc {
	f := derive(effect, parent, 0)
	f.Cancel = 1
	return f
}

var contexts = map[string]ContextFunc{
	"context.Background": derive(Root, None, 0),
	"context.TODO":       derive(Root, None, 0),

	"context.WithValue":         derive(Inherit, 0, 0),
	"context.WithCancel":        cancels(Inherit, 0),
	"context.WithCancelCause":   cancels(Inherit, 0),
	"context.WithTimeout":       {Effect: AddDeadline, Parent: 0, Result: 0, Duration: 1, Deadline: None, Cancel: 1},
	"context.WithTimeoutCause":  {Effect: AddDeadline, Parent: 0, Result: 0, Duration: 1, Deadline: None, Cancel: 1},
	"context.WithDeadline":      {Effect: AddDeadline, Parent: 0, Result: 0, Duration: None, Deadline: 1, Cancel: 1},
	"context.WithDeadlineCause": {Effect: AddDeadline, Parent: 0, Result: 0, Duration: None, Deadline: 1, Cancel: 1},
	"context.WithoutCancel":     derive(DropDeadline, 0, 0),

	"os/signal.NotifyContext":                                     cancels(Inherit, 0),
	"golang.org/x/sync/errgroup.WithContext":                      derive(Inherit, 0, 1),
	"google.golang.org/grpc/metadata.NewOutgoingContext":          derive(Inherit, 0, 0),
	"google.golang.org/grpc/metadata.AppendToOutgoingContext":     derive(Inherit, 0, 0),
	"google.golang.org/grpc/metadata.NewIncomingContext":          derive(Inherit, 0, 0),
	"go.opentelemetry.io/otel/trace.ContextWithSpan":              derive(Inherit, 0, 0),
	"go.opentelemetry.io/otel/trace.ContextWithSpanContext":       derive(Inherit, 0, 0),
	"go.opentelemetry.io/otel/trace.ContextWithRemoteSpanContext": derive(Inherit, 0, 0),
	"go.opentelemetry.io/otel/baggage.ContextWithBaggage":         derive(Inherit, 0, 0),
	"(go.opentelemetry.io/otel/trace.Tracer).Start":               derive(Inherit, 0, 0),
	"go.opentelemetry.io/otel/propagation.TraceContext.Extract":   derive(Inherit, 1, 0),
	"log/slog.NewContext":                                         derive(Inherit, 0, 0),
	"runtime/pprof.WithLabels":                                    derive(Inherit, 0, 0),
	"runtime/trace.NewTask":                                       derive(Inherit, 0, 0),
}

var sharedWork = map[string]bool{
	"(*sync.Once).Do": true,
	"sync.OnceFunc":   true,
	"sync.OnceValue":  true,
	"sync.OnceValues": true,
	"(*golang.org/x/sync/singleflight.Group).Do":     true,
	"(*golang.org/x/sync/singleflight.Group).DoChan": true,
}

// inbound lists methods that return an inbound request's context: the
// caller's budget.
var inbound = map[string]bool{
	"(*net/http.Request).Context": true,
}

// inboundParams lists the parameter types (pointed to) that make a function a
// handler of inbound requests.
var inboundParams = map[string]bool{
	"net/http.Request": true,
}

var now = map[string]bool{"time.Now": true}

var elapsed = map[string]bool{"time.Until": true, "time.Since": true}

var timeAdd = map[string]bool{"(time.Time).Add": true}

// runsLater lists functions that keep a function argument (index) to run
// after the caller has returned: a timer, a context's AfterFunc, a server's
// shutdown hook. Work there is not on the caller's path.
// afterDone lists functions that run a function argument once a context
// argument is done: index of the context, index of the function.
var afterDone = map[string][2]int{
	"context.AfterFunc": {0, 1},
}

var runsLater = map[string]int{
	"time.AfterFunc":                        1,
	"context.AfterFunc":                     1,
	"(*net/http.Server).RegisterOnShutdown": 0,
}

var liveOnContext = map[string]bool{
	"database/sql.Tx":   true,
	"database/sql.Rows": true,
	"database/sql.Row":  true,
	"database/sql.Conn": true,
	"net/http.Response": true,
}

var doneSignals = map[string]bool{
	"(context.Context).Err":    true,
	"(context.Context).Done":   true,
	"context.Cause":            true,
	"context.Canceled":         true,
	"context.DeadlineExceeded": true,
}
