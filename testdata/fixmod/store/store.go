// Package store has context-less database calls and requests that a fix
// gives the caller's context.
package store

import (
	"context"
	"database/sql"
	"net"
	"net/http"
)

type Store struct {
	db *sql.DB
}

func (s *Store) Delete(ctx context.Context, id string) error {
	_, err := s.db.Exec("DELETE FROM t WHERE id = $1", id)
	return err
}

func (s *Store) Count(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRow("SELECT count(*) FROM t").Scan(&n)
	return n, err
}

func (s *Store) Tx(ctx context.Context) (*sql.Tx, error) {
	return s.db.Begin()
}

func Dial(ctx context.Context, addr string) (net.Conn, error) {
	return net.Dial("tcp", addr)
}

func NewRequest(ctx context.Context, url string) (*http.Request, error) {
	return http.NewRequest(http.MethodGet, url, nil)
}
