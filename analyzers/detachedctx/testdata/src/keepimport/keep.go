// Package keepimport: a Background() call that no fix replaces (a deferred
// cleanup, not reported) keeps the context import used, so the fix of the other one does not delete it.
package keepimport

import (
	"context"
	"database/sql"
	"net/http"
)

var store *sql.DB

func serve(w http.ResponseWriter, r *http.Request) {
	defer store.ExecContext(context.Background(), "AUDIT")
	store.ExecContext(context.Background(), "HIT") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}
