// Package app is production code.
package app

import (
	"database/sql"

	"example.com/scope/mocks"
)

func Ping(db *sql.DB) error {
	_, err := db.Exec("SELECT 1") // finding
	mocks.Use()
	return err
}
