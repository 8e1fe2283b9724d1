package knowledge

import (
	"go/types"
	"strings"
)

// Rows that tell local work from remote work: a call is outbound to a
// dependency only when it can reach another machine.

// LocalityTable says which targets, drivers and packages stay on this
// machine.
type LocalityTable struct {
	// LoopbackHosts are host names of the local host, besides the loopback
	// addresses (127.0.0.0/8, ::1), which are recognised by value.
	LoopbackHosts []string
	// LocalSchemes are URL schemes (and gRPC target schemes) that address
	// a unix socket or a local pipe: unix:///var/run/docker.sock,
	// http+unix://%2Fvar%2Frun%2Fx.sock/.
	LocalSchemes []string
	// LocalNetworks are the prefixes of dial network names that stay on
	// this machine ("unix": unix, unixgram, unixpacket).
	LocalNetworks []string
	// SQLOpens are the functions that open a database handle, with the
	// index of their driver-name argument (sql.Open(driverName, dsn)).
	SQLOpens map[string]int
	// SQLRegisters are the functions that register a database driver under
	// a name, with the index of the name argument (sql.Register(name, d)).
	// A package that calls one with a constant name registers that driver.
	SQLRegisters map[string]int
	// LocalSQLDrivers are the packages, by import path, of database
	// drivers that run an embedded engine in the calling process (SQLite,
	// DuckDB): their queries reach no other machine.
	LocalSQLDrivers map[string]string
	// LocalSQLNames are the names, given to sql.Open, that the drivers of
	// LocalSQLDrivers register, with their engine: a handle opened with
	// one of them in a package that does not link the driver itself (the
	// program's main imports it) is on that embedded engine too.
	LocalSQLNames map[string]string
	// NetworkSQLDrivers are modules, by module path, that provide a
	// database/sql driver reaching a database server (a path matches its
	// later major versions too: github.com/jackc/pgx matches .../pgx/v5).
	// A module whose go.mod requires an embedded engine's driver and none
	// of these opens no database on another machine (ModuleSQLEngine).
	NetworkSQLDrivers []string
	// LocalFuncs are functions, by types.Func.FullName(), that stay on this
	// machine whatever their arguments, with what they reach (net.DialUnix
	// dials a unix socket only).
	LocalFuncs map[string]string
	// LocalPackages are packages, by import path, whose every function
	// works on this machine only, with what it does (the file system,
	// subprocesses).
	LocalPackages map[string]string
	// Daemons are the client packages, by import path, of a daemon of this
	// machine that they reach over a unix socket unless configured
	// otherwise (the Docker engine, D-Bus and systemd through it, LXD and
	// Incus), with what they reach. Their calls are not proven to reach
	// another machine, so they are local work for every rule: a fan-out per
	// container, or a poll of the system bus, is silent.
	Daemons map[string]string
	// DaemonTypes are packages, by import path, of the types only a local
	// daemon's API takes and returns (the Docker engine's api/types). An
	// interface method whose signature takes or returns a type of a
	// DaemonTypes or Daemons package abstracts that daemon's client: its
	// calls are local too.
	DaemonTypes map[string]string
	// InProcess are functions and methods, by types.Func.FullName(), that
	// work on values in memory only (an http.Header's Set, http.StatusText):
	// whatever they are given, they reach nothing.
	InProcess map[string]bool
	// Listens: functions that open a listener, with the indexes of their
	// network and address arguments (net.Listen(network, address)).
	Listens map[string][2]int
	// ListenerAddrs: methods that return a listener's own address;
	// AddrStrings: methods that render an address as host:port. A dial of
	// ln.Addr().String() is the process talking to itself.
	ListenerAddrs map[string]bool
	AddrStrings   map[string]bool
	// LoopbackServers: constructors of servers that listen on a loopback
	// address they choose themselves, with the texts their URL begins with
	// (httptest.NewServer: "http://127.0.0.1:", or "http://[::1]:" on a
	// host without IPv4); ServerURLs: the fields that hold that URL,
	// "path.Type.Field".
	LoopbackServers map[string][]string
	ServerURLs      map[string]bool
	// ServerListeners: the fields that hold such a server's listener,
	// "path.Type.Field", with the host:port texts its address begins with
	// (httptest.Server.Listener: "127.0.0.1:", "[::1]:"), unless the code
	// puts a listener of its own there.
	ServerListeners map[string][]string
}

func defaultLocality() LocalityTable {
	return LocalityTable{
		LoopbackHosts: []string{"localhost"},
		LocalSchemes:  []string{"unix", "unix-abstract", "unixgram", "unixpacket", "http+unix", "https+unix", "npipe"},
		LocalNetworks: []string{"unix"},
		SQLOpens: map[string]int{
			"database/sql.Open":                      0,
			"github.com/jmoiron/sqlx.Open":           0,
			"github.com/jmoiron/sqlx.Connect":        0,
			"github.com/jmoiron/sqlx.ConnectContext": 1,
			"github.com/jmoiron/sqlx.MustOpen":       0,
			"github.com/jmoiron/sqlx.MustConnect":    0,
		},
		SQLRegisters: map[string]int{"database/sql.Register": 0},
		LocalSQLDrivers: map[string]string{
			"github.com/mattn/go-sqlite3":          "SQLite",
			"modernc.org/sqlite":                   "SQLite",
			"github.com/glebarez/go-sqlite":        "SQLite",
			"github.com/ncruces/go-sqlite3/driver": "SQLite",
			"github.com/mutecomm/go-sqlcipher/v4":  "SQLite",
			"github.com/marcboeker/go-duckdb":      "DuckDB",
			"github.com/marcboeker/go-duckdb/v2":   "DuckDB",
			"github.com/duckdb/duckdb-go/v2":       "DuckDB",
		},
		LocalSQLNames: map[string]string{
			"sqlite3": "SQLite", // mattn/go-sqlite3, ncruces, go-sqlcipher
			"sqlite":  "SQLite", // modernc.org/sqlite, glebarez/go-sqlite
			"duckdb":  "DuckDB",
		},
		NetworkSQLDrivers: []string{
			"github.com/lib/pq",
			"github.com/jackc/pgx",
			"github.com/go-sql-driver/mysql",
			"github.com/ziutek/mymysql",
			"github.com/denisenkom/go-mssqldb",
			"github.com/microsoft/go-mssqldb",
			"github.com/ClickHouse/clickhouse-go",
			"github.com/mailru/go-clickhouse",
			"github.com/snowflakedb/gosnowflake",
			"github.com/godror/godror",
			"github.com/mattn/go-oci8",
			"github.com/sijms/go-ora",
			"github.com/trinodb/trino-go-client",
			"github.com/prestodb/presto-go-client",
			"github.com/SAP/go-hdb",
			"github.com/vertica/vertica-sql-go",
			"github.com/databricks/databricks-sql-go",
			"github.com/googleapis/go-sql-spanner",
			"github.com/nakagami/firebirdsql",
			"github.com/ibmdb/go_ibm_db",
			"github.com/alexbrainman/odbc",
			"github.com/mattn/go-adodb",
			"github.com/tursodatabase/libsql-client-go",
			"github.com/tursodatabase/go-libsql",
			"github.com/uptrace/bun/driver/pgdriver",
			"github.com/ydb-platform/ydb-go-sdk",
			"github.com/apache/calcite-avatica-go",
			"github.com/thda/tds",
			"github.com/minus5/gofreetds",
			"github.com/bippio/go-impala",
			"github.com/uber/athenadriver",
			"github.com/segmentio/go-athena",
			"github.com/viant/bigquery",
			"github.com/MonetDB/MonetDB-Go",
			"github.com/cockroachdb/cockroach-go",
			"github.com/yugabyte/pgx",
			"gitee.com/chunanyong/dm",
			"github.com/taosdata/driver-go",
			"github.com/apache/arrow-adbc/go/adbc",
			"cloud.google.com/go/cloudsqlconn",
			"cloud.google.com/go/alloydbconn",
			"github.com/GoogleCloudPlatform/cloudsql-proxy",
		},
		LocalFuncs: map[string]string{
			"net.DialUnix":       "a unix socket",
			"net.ListenUnix":     "a unix socket",
			"net.ListenUnixgram": "a unix socket",
		},
		LocalPackages: map[string]string{
			"os":            "the file system",
			"io/ioutil":     "the file system",
			"io/fs":         "the file system",
			"path/filepath": "the file system",
			"os/exec":       "a subprocess",
		},
		Daemons: daemons(),
		DaemonTypes: map[string]string{
			"github.com/docker/docker/api/types":           "the Docker daemon (a unix socket by default)",
			"github.com/docker/docker/api/types/container": "the Docker daemon (a unix socket by default)",
			"github.com/docker/docker/api/types/image":     "the Docker daemon (a unix socket by default)",
			"github.com/moby/moby/api/types":               "the Docker daemon (a unix socket by default)",
			"github.com/moby/moby/api/types/container":     "the Docker daemon (a unix socket by default)",
			"github.com/moby/moby/api/types/image":         "the Docker daemon (a unix socket by default)",
		},
		InProcess: inProcess(),
		Listens: map[string][2]int{
			"net.Listen":                 {0, 1},
			"(*net.ListenConfig).Listen": {1, 2},
		},
		ListenerAddrs: map[string]bool{
			"(net.Listener).Addr":     true,
			"(*net.TCPListener).Addr": true,
		},
		AddrStrings: map[string]bool{
			"(net.Addr).String":     true,
			"(*net.TCPAddr).String": true,
		},
		LoopbackServers: map[string][]string{
			"net/http/httptest.NewServer":    {"http://127.0.0.1:", "http://[::1]:"},
			"net/http/httptest.NewTLSServer": {"https://127.0.0.1:", "https://[::1]:"},
			"net/http/httptest.NewUnstartedServer": {"http://127.0.0.1:", "http://[::1]:",
				"https://127.0.0.1:", "https://[::1]:"},
		},
		ServerURLs:      map[string]bool{"net/http/httptest.Server.URL": true},
		ServerListeners: map[string][]string{"net/http/httptest.Server.Listener": {"127.0.0.1:", "[::1]:"}},
	}
}

func inProcess() map[string]bool {
	m := map[string]bool{
		"net/http.StatusText":           true,
		"net/http.CanonicalHeaderKey":   true,
		"net/http.DetectContentType":    true,
		"net/http.ParseHTTPVersion":     true,
		"net/http.ParseTime":            true,
		"(*net/http.Response).Cookies":  true,
		"(*net/http.Response).Location": true,
	}
	for _, h := range []string{"Add", "Set", "Get", "Del", "Values", "Clone"} {
		m["(net/http.Header)."+h] = true
	}
	for _, r := range []string{"SetBasicAuth", "BasicAuth", "AddCookie", "Cookie", "Cookies", "Context",
		"UserAgent", "Referer", "ProtoAtLeast"} {
		m["(*net/http.Request)."+r] = true
	}
	return m
}

// Package returns what the functions of a package reach when they all stay
// on this machine (LocalPackages, Daemons), and whether they do.
func (t LocalityTable) Package(path string) (string, bool) {
	if what, ok := t.LocalPackages[path]; ok {
		return what, true
	}
	what, ok := t.Daemons[path]
	return what, ok
}

// DaemonSignature returns what an interface method reaches when its
// signature takes or returns a type of a daemon's client or API package
// (DaemonTypes, Daemons), and whether it does.
func (t LocalityTable) DaemonSignature(sig *types.Signature) (string, bool) {
	for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tuple.Len(); i++ {
			if what, ok := t.daemonType(tuple.At(i).Type(), 0); ok {
				return what, true
			}
		}
	}
	return "", false
}

func (t LocalityTable) daemonType(typ types.Type, depth int) (string, bool) {
	if depth > 3 {
		return "", false
	}
	switch x := types.Unalias(typ).(type) {
	case *types.Pointer:
		return t.daemonType(x.Elem(), depth+1)
	case *types.Slice:
		return t.daemonType(x.Elem(), depth+1)
	case *types.Named:
		if pkg := x.Obj().Pkg(); pkg != nil {
			if what, ok := t.DaemonTypes[pkg.Path()]; ok {
				return what, true
			}
			if what, ok := t.Daemons[pkg.Path()]; ok {
				return what, true
			}
		}
	}
	return "", false
}

// daemons are the rows of LocalityTable.Daemons.
func daemons() map[string]string {
	m := map[string]string{}
	for _, p := range []string{"github.com/docker/docker/client", "github.com/moby/moby/client",
		"github.com/fsouza/go-dockerclient"} {
		m[p] = "the Docker daemon (a unix socket by default)"
	}
	for _, p := range []string{"github.com/godbus/dbus/v5", "github.com/godbus/dbus"} {
		m[p] = "the D-Bus system or session bus"
	}
	for _, p := range []string{"github.com/coreos/go-systemd/v22/dbus", "github.com/coreos/go-systemd/dbus"} {
		m[p] = "systemd over D-Bus"
	}
	for _, p := range []string{"github.com/lxc/incus/client", "github.com/lxc/incus/v6/client", "github.com/canonical/lxd/client"} {
		m[p] = "the LXD or Incus daemon (a unix socket by default)"
	}
	return m
}

// ModuleSQLEngine returns the embedded engine, and the module that provides
// its driver, of every database/sql handle a module can open, given the
// module paths its go.mod requires: ok when it requires the module of a
// LocalSQLDrivers package and no module of NetworkSQLDrivers (a driver must
// be linked to be opened, and a go.mod at go 1.17 or later lists every
// module its packages are built with).
func (l LocalityTable) ModuleSQLEngine(reqs []string) (engine, module string, ok bool) {
	for _, r := range reqs {
		for _, n := range l.NetworkSQLDrivers {
			if r == n || strings.HasPrefix(r, n+"/v") {
				return "", "", false
			}
		}
	}
	for _, r := range reqs {
		for path, eng := range l.LocalSQLDrivers {
			if (path == r || strings.HasPrefix(path, r+"/")) && (module == "" || r < module) {
				engine, module = eng, r
			}
		}
	}
	return engine, module, module != ""
}
