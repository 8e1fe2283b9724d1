// Package local: calls that stay on this machine (loopback addresses, unix
// sockets, an embedded database) wait on no dependency and are not
// reported; the same calls to another host are.
package local

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/http"

	_ "github.com/mattn/go-sqlite3"
)

func health(port int) {
	resp, err := http.Get(fmt.Sprintf("http://localhost:%d/healthz", port)) // loopback: silent
	if err == nil {
		resp.Body.Close()
	}
	resp, err = http.Get("http://127.0.0.1:9100/metrics") // loopback: silent
	if err == nil {
		resp.Body.Close()
	}
	resp, err = http.Get("https://status.example.com/") // want `http.Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
}

func request(ctx context.Context) {
	req, _ := http.NewRequest(http.MethodGet, "http://[::1]:8080/", nil) // loopback: silent
	_ = req
	req, _ = http.NewRequest(http.MethodGet, "https://api.example.com/", nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, although this function has the caller's context`
	_ = req
}

var docker = &http.Client{Transport: &http.Transport{
	DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", "/var/run/docker.sock")
	},
}}

func info() {
	resp, err := docker.Get("http://docker/info") // the transport dials a unix socket: silent
	if err == nil {
		resp.Body.Close()
	}
}

func query(db *sql.DB) error {
	// Only SQLite is linked into this package: the database is in-process.
	_, err := db.Exec("DELETE FROM t")
	return err
}

func dialUnix() (net.Conn, error) {
	return net.Dial("unix", "/run/agent.sock") // a unix socket: silent
}
