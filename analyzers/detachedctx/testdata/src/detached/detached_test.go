package detached

import (
	"context"
	"testing"
	"time"
)

// Findings in _test.go files are not reported by default.
func helper(ctx context.Context) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c
}

func TestX(t *testing.T) { helper(context.Background()) }
