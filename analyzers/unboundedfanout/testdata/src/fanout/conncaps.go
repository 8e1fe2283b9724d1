package fanout

import (
	"context"
	"database/sql"
	"net/http"
	"time"
)

// A client's own cap on its open connections is a limit (issue 13, rule 5):
// goroutines beyond it wait for a free connection, and the dependency sees
// no more than the cap.

type capRepo struct{ db *sql.DB }

func newCapRepo(dsn string) (*capRepo, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(10)
	return &capRepo{db: db}, nil
}

func (r *capRepo) deleteAll(ctx context.Context, ids []string) {
	for _, id := range ids {
		go r.db.ExecContext(ctx, "DELETE FROM t WHERE id = $1", id)
	}
}

func deleteCapped(ctx context.Context, dsn string, ids []string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(4)
	for _, id := range ids {
		go db.ExecContext(ctx, "DELETE FROM t WHERE id = $1", id)
	}
	return nil
}

// A cap set only on one branch, set to 0 (no limit), or set after the
// launches is no proven cap.
func deleteMaybeCapped(ctx context.Context, dsn string, ids []string, small bool) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	if small {
		db.SetMaxOpenConns(4)
	}
	for _, id := range ids {
		go db.ExecContext(ctx, "DELETE FROM t WHERE id = $1", id) // want `one goroutine per element of ids with no limit`
	}
	return nil
}

func deleteUncapped(ctx context.Context, dsn string, ids []string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(0)
	for _, id := range ids {
		go db.ExecContext(ctx, "DELETE FROM t WHERE id = $1", id) // want `one goroutine per element of ids with no limit`
	}
	db.SetMaxOpenConns(4)
	return nil
}

// A pool made out of sight (a parameter) may be capped where it is made:
// unknown, silent.
func deleteGiven(ctx context.Context, db *sql.DB, ids []string) {
	for _, id := range ids {
		go db.ExecContext(ctx, "DELETE FROM t WHERE id = $1", id)
	}
}

var cappedHC = &http.Client{Timeout: time.Second, Transport: &http.Transport{MaxConnsPerHost: 8}}

var openHC = &http.Client{Timeout: time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}

func postCapped(ctx context.Context, ids []string) {
	for _, id := range ids {
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/items/"+id, nil)
			if resp, err := cappedHC.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
}

func postOpen(ctx context.Context, ids []string) {
	for _, id := range ids {
		go func() { // want `one goroutine per element of ids with no limit`
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/items/"+id, nil)
			if resp, err := openHC.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
}
