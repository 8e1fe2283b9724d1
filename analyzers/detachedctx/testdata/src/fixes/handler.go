package fixes

import (
	"context"
	"database/sql"
	"net/http"
)

var store *sql.DB

// The file uses package context only in this Background() call: replacing
// it with r.Context() would leave the import unused. No fix.
func serve(w http.ResponseWriter, r *http.Request) {
	store.ExecContext(context.Background(), "HIT") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}
