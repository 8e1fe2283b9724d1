// Package handles uses handles made in another package: a constructor's
// embedded database, loopback or unix-socket connection, or unix-socket
// client is local here too.
package handles

import (
	"context"

	_ "github.com/lib/pq"

	"handles/open"
)

func lite(ctx context.Context) {
	db, _ := open.Lite("x.db")
	db.ExecContext(ctx, "DELETE FROM t") // want `\(\*sql.DB\).ExecContext: local: an embedded SQLite database`
	db.Exec("DELETE FROM t")             // want `\(\*sql.DB\).Exec: local: an embedded SQLite database`
}

func remote(ctx context.Context) {
	db, _ := open.Remote("host=db.example.com")
	db.ExecContext(ctx, "DELETE FROM t") // want `\(\*sql.DB\).ExecContext: unknown`
}

func conns(ctx context.Context) {
	c, _ := open.Local()
	c.Invoke(ctx, "/inv.Inventory/Check", nil, nil) // want `\(\*grpc.ClientConn\).Invoke: local: loopback address 127.0.0.1`
	a, _ := open.Agent()
	a.Invoke(ctx, "/inv.Inventory/Check", nil, nil) // want `\(\*grpc.ClientConn\).Invoke: local: a unix socket`
	f, _ := open.Far()
	f.Invoke(ctx, "/inv.Inventory/Check", nil, nil) // want `\(\*grpc.ClientConn\).Invoke: remote: host inventory.example.com`
}

func docker() {
	open.Docker().Get("http://docker/info") // want `\(\*http.Client\).Get: local: a unix socket`
}
