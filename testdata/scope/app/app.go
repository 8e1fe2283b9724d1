// Package app is production code.
package app

import (
	"context"
	"database/sql"
	"example.com/scope/mocks"
)

func Ping(db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "SELECT 1") // finding
	mocks.Use()
	return err
}
