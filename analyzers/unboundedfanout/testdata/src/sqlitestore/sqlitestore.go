// Package sqlitestore keeps rows in an embedded SQLite database: local
// work, never a dependency (issue 13, rule 1).
package sqlitestore

import (
	"context"
	"database/sql"
	"sync"

	_ "github.com/mattn/go-sqlite3"
)

type Store struct{ db *sql.DB }

func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

func (s *Store) DeleteAll(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _, _ = s.db.ExecContext(ctx, "DELETE FROM rows WHERE id = ?", id) })
	}
	wg.Wait()
}
