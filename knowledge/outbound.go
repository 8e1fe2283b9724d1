package knowledge

// Rows for outbound calls of the standard library and gRPC.

// NewOutbound returns an Outbound row of kind whose context parameter is ctx
// (or None), with every other index None.
func NewOutbound(kind Kind, ctx int) Outbound {
	return Outbound{Kind: kind, Ctx: ctx, Request: None, ClientArg: None, Target: None, Network: None, Statement: None}
}

func ob(kind Kind, ctx int) Outbound { return NewOutbound(kind, ctx) }

func (o Outbound) network(i int) Outbound { o.Network = i; return o }

func (o Outbound) client(from ClientFrom) Outbound { o.Client = from; return o }
func (o Outbound) clientArg(i int) Outbound        { o.Client = Argument; o.ClientArg = i; return o }
func (o Outbound) request(i int) Outbound          { o.Request = i; return o }
func (o Outbound) variant(v string) Outbound       { o.Variant = v; return o }
func (o Outbound) target(i int) Outbound           { o.Target = i; return o }
func (o Outbound) bounded() Outbound               { o.Bounded = true; return o }
func (o Outbound) stream() Outbound                { o.Stream = true; return o }
func (o Outbound) pool() Outbound                  { o.Pool = true; return o }
func (o Outbound) statement(i int) Outbound        { o.Statement = i; return o }

var outbound = map[string]Outbound{
	// net/http package-level helpers use http.DefaultClient.
	"net/http.Get":      ob(HTTP, None).client(DefaultClient).target(0).variant("NewRequestWithContext"),
	"net/http.Head":     ob(HTTP, None).client(DefaultClient).target(0).variant("NewRequestWithContext"),
	"net/http.Post":     ob(HTTP, None).client(DefaultClient).target(0).variant("NewRequestWithContext"),
	"net/http.PostForm": ob(HTTP, None).client(DefaultClient).target(0).variant("NewRequestWithContext"),

	// *http.Client methods.
	"(*net/http.Client).Get":      ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*net/http.Client).Head":     ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*net/http.Client).Post":     ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*net/http.Client).PostForm": ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*net/http.Client).Do":       ob(HTTP, None).client(Receiver).request(0),

	// net dials.
	"net.Dial":                         ob(Dial, None).target(1).network(0).variant("DialContext"),
	"net.DialTimeout":                  ob(Dial, None).target(1).network(0).bounded(),
	"(*net.Dialer).Dial":               ob(Dial, None).client(Receiver).target(1).network(0).variant("DialContext"),
	"(*net.Dialer).DialContext":        ob(Dial, 0).client(Receiver).target(2).network(1),
	"(*net.Dialer).DialTCP":            ob(Dial, 0).client(Receiver).target(3).network(1),
	"net.DialTCP":                      ob(Dial, None).target(2),
	"crypto/tls.Dial":                  ob(TLS, None).target(1).network(0).variant("DialContext"),
	"crypto/tls.DialWithDialer":        ob(TLS, None).clientArg(0).target(2).network(1).variant("DialContext"),
	"(*crypto/tls.Dialer).Dial":        ob(TLS, None).client(Receiver).target(1).network(0).variant("DialContext"),
	"(*crypto/tls.Dialer).DialContext": ob(TLS, 0).client(Receiver).target(2).network(1),

	// Standard-library clients that dial with no timeout and take no context.
	"net/smtp.Dial":        ob(Dial, None).target(0),
	"net/smtp.SendMail":    ob(Dial, None).target(0),
	"net/rpc.Dial":         ob(Dial, None).target(1).network(0),
	"net/rpc.DialHTTP":     ob(Dial, None).target(1).network(0),
	"net/rpc.DialHTTPPath": ob(Dial, None).target(1).network(0),
	"net/rpc/jsonrpc.Dial": ob(Dial, None).target(1).network(0),
	"net/textproto.Dial":   ob(Dial, None).target(1).network(0),

	// database/sql: the methods that have a Context variant, and the variants.
	"(*database/sql.DB).Exec":              ob(SQL, None).variant("ExecContext").statement(0),
	"(*database/sql.DB).Query":             ob(SQL, None).variant("QueryContext").statement(0),
	"(*database/sql.DB).QueryRow":          ob(SQL, None).variant("QueryRowContext").statement(0),
	"(*database/sql.DB).Prepare":           ob(SQL, None).variant("PrepareContext").statement(0),
	"(*database/sql.DB).Ping":              ob(SQL, None).variant("PingContext").pool(),
	"(*database/sql.DB).Begin":             ob(SQL, None).variant("BeginTx").pool(),
	"(*database/sql.DB).ExecContext":       ob(SQL, 0).statement(1),
	"(*database/sql.DB).QueryContext":      ob(SQL, 0).statement(1),
	"(*database/sql.DB).QueryRowContext":   ob(SQL, 0).statement(1),
	"(*database/sql.DB).PrepareContext":    ob(SQL, 0).statement(1),
	"(*database/sql.DB).PingContext":       ob(SQL, 0).pool(),
	"(*database/sql.DB).BeginTx":           ob(SQL, 0).pool(),
	"(*database/sql.DB).Conn":              ob(SQL, 0).pool(),
	"(*database/sql.Tx).Exec":              ob(SQL, None).variant("ExecContext").statement(0),
	"(*database/sql.Tx).Query":             ob(SQL, None).variant("QueryContext").statement(0),
	"(*database/sql.Tx).QueryRow":          ob(SQL, None).variant("QueryRowContext").statement(0),
	"(*database/sql.Tx).Prepare":           ob(SQL, None).variant("PrepareContext").statement(0),
	"(*database/sql.Tx).Stmt":              ob(SQL, None).variant("StmtContext"),
	"(*database/sql.Tx).ExecContext":       ob(SQL, 0).statement(1),
	"(*database/sql.Tx).QueryContext":      ob(SQL, 0).statement(1),
	"(*database/sql.Tx).QueryRowContext":   ob(SQL, 0).statement(1),
	"(*database/sql.Tx).PrepareContext":    ob(SQL, 0).statement(1),
	"(*database/sql.Tx).StmtContext":       ob(SQL, 0),
	"(*database/sql.Stmt).Exec":            ob(SQL, None).variant("ExecContext"),
	"(*database/sql.Stmt).Query":           ob(SQL, None).variant("QueryContext"),
	"(*database/sql.Stmt).QueryRow":        ob(SQL, None).variant("QueryRowContext"),
	"(*database/sql.Stmt).ExecContext":     ob(SQL, 0),
	"(*database/sql.Stmt).QueryContext":    ob(SQL, 0),
	"(*database/sql.Stmt).QueryRowContext": ob(SQL, 0),
	"(*database/sql.Conn).ExecContext":     ob(SQL, 0).statement(1),
	"(*database/sql.Conn).QueryContext":    ob(SQL, 0).statement(1),
	"(*database/sql.Conn).QueryRowContext": ob(SQL, 0).statement(1),
	"(*database/sql.Conn).PrepareContext":  ob(SQL, 0).statement(1),
	"(*database/sql.Conn).PingContext":     ob(SQL, 0),
	"(*database/sql.Conn).BeginTx":         ob(SQL, 0),
	// hashicorp/go-retryablehttp: every attempt is an HTTP call bounded only
	// by its HTTPClient's Timeout (NewClient sets none) or the request's
	// context. Its retries are the retry table's business.
	pathHTTP + ".Get":                     ob(HTTP, None).target(0).variant("NewRequestWithContext"),
	pathHTTP + ".Head":                    ob(HTTP, None).target(0).variant("NewRequestWithContext"),
	pathHTTP + ".Post":                    ob(HTTP, None).target(0).variant("NewRequestWithContext"),
	pathHTTP + ".PostForm":                ob(HTTP, None).target(0).variant("NewRequestWithContext"),
	"(*" + pathHTTP + ".Client).Get":      ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*" + pathHTTP + ".Client).Head":     ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*" + pathHTTP + ".Client).Post":     ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*" + pathHTTP + ".Client).PostForm": ob(HTTP, None).client(Receiver).target(0).variant("NewRequestWithContext"),
	"(*" + pathHTTP + ".Client).Do":       ob(HTTP, None).client(Receiver).request(0),
}

const grpcPath = "google.golang.org/grpc"

// grpcCallOption is the variadic last parameter of generated client methods.
const grpcCallOption = grpcPath + ".CallOption"

// grpcDials make client connections: the index of their first option.
var grpcDials = map[string]int{
	grpcPath + ".NewClient":   1,
	grpcPath + ".Dial":        1,
	grpcPath + ".DialContext": 2,
}

// grpcDialTargets are the same functions: the index of their target.
var grpcDialTargets = map[string]int{
	grpcPath + ".NewClient":   0,
	grpcPath + ".Dial":        0,
	grpcPath + ".DialContext": 1,
}

// grpcDeadlineOptions can give every call on a connection a deadline: a
// unary interceptor (a timeout interceptor is the usual way), or a default
// service config with a per-method "timeout".
var grpcDeadlineOptions = map[string]DialOption{
	grpcPath + ".WithUnaryInterceptor":       {Config: None},
	grpcPath + ".WithChainUnaryInterceptor":  {Config: None},
	grpcPath + ".WithDefaultServiceConfig":   {Config: 0},
	grpcPath + ".WithStreamInterceptor":      {Config: None, Stream: true},
	grpcPath + ".WithChainStreamInterceptor": {Config: None, Stream: true},
}

var grpcMethods = map[string]Outbound{
	"(*google.golang.org/grpc.ClientConn).Invoke":            ob(GRPC, 0).target(1),
	"(*google.golang.org/grpc.ClientConn).NewStream":         ob(GRPC, 0).target(2).stream(),
	"(google.golang.org/grpc.ClientConnInterface).Invoke":    ob(GRPC, 0).target(1),
	"(google.golang.org/grpc.ClientConnInterface).NewStream": ob(GRPC, 0).target(2).stream(),
}

var requests = map[string]RequestFunc{
	"net/http.NewRequest":                     {Ctx: None, From: None, Result: 0, URL: 1, Variant: "NewRequestWithContext", Type: "net/http.Request"},
	"net/http.NewRequestWithContext":          {Ctx: 0, From: None, Result: 0, URL: 2, Type: "net/http.Request"},
	"(*net/http.Request).WithContext":         {Ctx: 0, From: None, Result: 0, URL: None, Type: "net/http.Request"},
	"(*net/http.Request).Clone":               {Ctx: 0, From: None, Result: 0, URL: None, Type: "net/http.Request"},
	pathHTTP + ".NewRequest":                  {Ctx: None, From: None, Result: 0, URL: 1, Variant: "NewRequestWithContext", Type: pathHTTP + ".Request"},
	pathHTTP + ".NewRequestWithContext":       {Ctx: 0, From: None, Result: 0, URL: 2, Type: pathHTTP + ".Request"},
	"(*" + pathHTTP + ".Request).WithContext": {Ctx: 0, From: None, Result: 0, URL: None, Type: pathHTTP + ".Request"},
}

var clientTypes = map[string]ClientType{
	"net/http.Client": {TimeoutField: "Timeout", TransportField: "Transport"},
	"net.Dialer":      {TimeoutField: "Timeout", DeadlineField: "Deadline"},
	// tls.Dialer bounds the dial and the handshake by its NetDialer's Timeout.
	"crypto/tls.Dialer":  {TimeoutField: "NetDialer.Timeout"},
	pathHTTP + ".Client": {TimeoutField: "HTTPClient.Timeout"},
}

var clients = map[string]ClientValue{
	// http.DefaultClient has no Timeout.
	"net/http.DefaultClient": {HasTimeout: false},
	// retryablehttp.NewClient's HTTPClient (cleanhttp's) has no Timeout.
	pathHTTP + ".NewClient": {HasTimeout: false},
}

// Redis clients (go-redis v9 and v8). Every command method takes the
// context first. The clients have their own dial, read and write timeouts
// (5 s, 3 s, 3 s by default), so a command is bounded without a deadline;
// it is still an outbound call that a caller's context must reach.
var redisPaths = []string{"github.com/redis/go-redis/v9", "github.com/go-redis/redis/v8"}

var outboundTypes = func() map[string]Outbound {
	m := map[string]Outbound{}
	for _, p := range redisPaths {
		for _, t := range []string{"cmdable", "statefulCmdable", "Cmdable", "StatefulCmdable", "UniversalClient",
			"Client", "ClusterClient", "Ring", "Conn", "Tx", "Pipeline", "Pipeliner", "SentinelClient", "baseClient"} {
			m[p+"."+t] = ob(Custom, 0).bounded()
		}
	}
	// Clients of other services whose every method taking a context first
	// talks to them. Each has a bound of its own (kafka-go's Writer a 10 s
	// WriteTimeout; minio-go's and the AWS SDK's transports dial and
	// response-header timeouts), so only detachedctx reports them: a
	// caller's context must reach them.
	for _, t := range []string{
		"github.com/segmentio/kafka-go.Writer",
		"github.com/minio/minio-go/v7.Client",
		"github.com/aws/aws-sdk-go-v2/service/s3.Client",
		"github.com/aws/aws-sdk-go-v2/service/sqs.Client",
		"github.com/aws/aws-sdk-go-v2/service/sns.Client",
		"github.com/aws/aws-sdk-go-v2/service/dynamodb.Client",
		"github.com/aws/aws-sdk-go-v2/service/kinesis.Client",
		"github.com/aws/aws-sdk-go-v2/service/secretsmanager.Client",
	} {
		m[t] = ob(Custom, 0).bounded()
	}
	return m
}()
