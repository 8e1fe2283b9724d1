package deliberate

import (
	"context"
	"database/sql"
)

type cfgKey struct{}

type Config struct{ Retries int }

var defaultConfig = &Config{Retries: 3}

// ConfigOf only reads a value from its context: handed Background, it
// drops no deadline and no cancellation.
func ConfigOf(ctx context.Context) *Config {
	if ctx == nil {
		return defaultConfig
	}
	if c, ok := ctx.Value(cfgKey{}).(*Config); ok {
		return c
	}
	return defaultConfig
}

// Ping hands its context to the database.
func Ping(ctx context.Context, db *sql.DB) error { return db.PingContext(ctx) }

func Global(ctx context.Context, db *sql.DB) (int, error) {
	n := ConfigOf(context.Background()).Retries
	return n, Ping(context.Background(), db) // want `deliberate.Ping gets context.Background\(\)`
}

// LoggerOf hands its context only to a function that reads values from
// it: inert too.
func LoggerOf(ctx context.Context, keys ...any) []any {
	return fieldsOf(ctx, keys...)
}

func fieldsOf(ctx context.Context, keys ...any) []any {
	var out []any
	for _, k := range keys {
		if v := ctx.Value(k); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// PingVia hands its context to a function that uses it for a call.
func PingVia(ctx context.Context, db *sql.DB) error { return Ping(ctx, db) }

func Transitive(ctx context.Context, db *sql.DB) error {
	_ = LoggerOf(context.Background(), "id")
	return PingVia(context.Background(), db) // want `deliberate.PingVia gets context.Background\(\)`
}
