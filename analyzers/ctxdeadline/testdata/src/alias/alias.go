// Package alias imports net/http under another name.
package alias

import (
	"context"
	sqldb "database/sql"
	nethttp "net/http"
)

func get(url string) {
	resp, err := nethttp.Get(url) // want `http.Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
}

func query(db *sqldb.DB) {
	rows, err := db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\)`
	if err == nil {
		rows.Close()
	}
	for rows.Next() { // Rows.Next has no Context variant: silent
	}
}
