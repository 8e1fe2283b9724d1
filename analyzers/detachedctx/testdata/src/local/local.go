// Package local: a caller's context not reaching a call that stays on this
// machine (an embedded database, a loopback address) is not reported; the
// same call to another host is.
package local

import (
	"context"
	"database/sql"
	"net/http"

	_ "github.com/mattn/go-sqlite3"
)

func save(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(context.Background(), "INSERT INTO t VALUES (1)") // embedded SQLite: silent
	return err
}

func probe(ctx context.Context) {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://localhost:8080/ready", nil)
	resp, err := http.DefaultClient.Do(req) // loopback: silent
	if err == nil {
		resp.Body.Close()
	}
	remote, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://api.example.com/ready", nil)
	resp, err = http.DefaultClient.Do(remote) // want `\(\*http.Client\).Do gets context.Background\(\) although this function has the caller's context`
	if err == nil {
		resp.Body.Close()
	}
}
