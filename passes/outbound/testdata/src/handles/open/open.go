// Package open makes database handles, gRPC connections and HTTP clients
// for package handles: where they go is carried by facts.
package open

import (
	"context"
	"database/sql"
	"net"
	"net/http"

	_ "github.com/mattn/go-sqlite3"
	"google.golang.org/grpc"
)

// Lite opens an embedded SQLite database.
func Lite(path string) (*sql.DB, error) { return sql.Open("sqlite3", path) }

// Remote opens a network database.
func Remote(dsn string) (*sql.DB, error) { return sql.Open("postgres", dsn) }

// Local dials the loopback.
func Local() (*grpc.ClientConn, error) { return grpc.NewClient("127.0.0.1:9000") }

// Agent dials a unix socket through a helper of this package.
func Agent() (*grpc.ClientConn, error) { return dial("unix:///run/agent.sock") }

func dial(t string) (*grpc.ClientConn, error) { return grpc.NewClient(t) }

// Far dials another host.
func Far() (*grpc.ClientConn, error) { return grpc.NewClient("inventory.example.com:443") }

// Docker returns a client whose transport dials only a unix socket.
func Docker() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", "/var/run/docker.sock") // want `\(\*net.Dialer\).DialContext: local: a unix socket`
		},
	}}
}

type store struct{ db *sql.DB }

func newStore(path string) *store {
	db, _ := Lite(path)
	return &store{db: db}
}

func (s *store) count(ctx context.Context) {
	s.db.QueryRowContext(ctx, "SELECT 1") // want `\(\*sql.DB\).QueryRowContext: local: an embedded SQLite database`
}

func use(ctx context.Context) { newStore("x.db").count(ctx) }
