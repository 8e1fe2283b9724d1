// Package mybounds is a team's own concurrency bound, declared to resilint
// by a configuration rule.
package mybounds

import "context"

type Limiter struct{}

func (l *Limiter) Wait(ctx context.Context) error { return nil }
