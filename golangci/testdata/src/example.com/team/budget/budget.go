package budget

import (
	"context"
	"time"
)

func Report(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second) // want `context.WithTimeout allows 20s .* longer than the 15s request budget`
	defer cancel()
	_ = ctx
}

func Within(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	_ = ctx
}
