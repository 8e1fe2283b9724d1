// Package fixes: Background/TODO replaced by the caller's context.
package fixes

import (
	"context"
	"database/sql"
	"net/http"
	"time"
)

func lookup(ctx context.Context, db *sql.DB) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout on context.Background\(\)`
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1")
	return err
}

func handle(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(context.TODO(), http.MethodGet, "http://backend", nil)
	if err != nil {
		return
	}
	resp, err := http.DefaultClient.Do(req) // want `\(\*http.Client\).Do gets context.TODO\(\) although this function has the inbound request's context`
	if err == nil {
		resp.Body.Close()
	}
}

func shadowed(ctx context.Context, db *sql.DB) {
	func(ctx string) {
		_, _ = db.ExecContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).ExecContext gets context.Background\(\) although`
	}("x")
}

// A job started after the response, in a goroutine the handler does not
// wait for: it outlives the request on purpose, no finding and no fix.
func accept(w http.ResponseWriter, r *http.Request, db *sql.DB) {
	w.WriteHeader(http.StatusAccepted)
	go func() {
		jctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
		defer cancel()
		_, _ = db.ExecContext(jctx, "SELECT 1")
	}()
}

// A timeout longer than the request budget: derived from the request it
// would break the budget (a finding of its own), so no fix, and the advice
// says so.
func export(w http.ResponseWriter, r *http.Request, db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // want `context.WithTimeout on context.Background\(\) .* derive it from r.Context\(\) with a timeout within the request budget`
	defer cancel()
	_, _ = db.ExecContext(ctx, "SELECT 1")
}
