// Package app has one finding per analyzer of the core.
package app

import (
	"context"
	"database/sql"
	"net/http"
	"time"
)

func Ping(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Lookup(ctx context.Context, db *sql.DB) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1")
	return err
}

func Suppressed(url string) error {
	resp, err := http.Get(url) //nolint:resilint // probed under the orchestrator's timeout
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

//nolint:ctxdeadline // the whole function is a legacy path
func Legacy(url string) error {
	resp, err := http.Head(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Unused() {} //nolint:detachedctx // nothing to suppress here
