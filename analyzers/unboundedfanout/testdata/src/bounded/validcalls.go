package bounded

import (
	"context"
	"limvalid"

	"example.com/plainvalid"
)

// Issue 13, rule 5: validators reached through a call whose result gates
// the loop: a bool that is true when the collection is too large, a
// comparison with a constant, a switch in the validator, and validators
// of another package of the module (through facts).
type TargetConfig struct {
	Name    string
	Targets []string
}

func tooMany(ids []string) bool { return len(ids) > maxBatch }

func validateConfig(cfg TargetConfig) error {
	switch {
	case cfg.Name == "":
		return errBatch
	case len(cfg.Targets) > maxBatch:
		return errBatch
	}
	return nil
}

func ValidatedCalls(ctx context.Context, cfg TargetConfig, ids, more []string) error {
	if tooMany(ids) {
		return errBatch
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id)
	}
	if withinLimit(more) == false {
		return errBatch
	}
	for _, id := range more {
		go post(ctx, "http://items.internal/"+id)
	}
	if err := validateConfig(cfg); err != nil {
		return err
	}
	for _, t := range cfg.Targets {
		go post(ctx, "http://items.internal/"+t)
	}
	return nil
}

func ValidatedElsewhere(ctx context.Context, r *limvalid.Request, ids, more []string) error {
	if err := limvalid.Check(ids); err != nil {
		return err
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id)
	}
	if err := r.Validate(ctx); err != nil {
		return err
	}
	for _, id := range r.IDs {
		go post(ctx, "http://items.internal/"+id)
	}
	if !limvalid.Small(more) {
		return errBatch
	}
	for _, id := range more {
		go post(ctx, "http://items.internal/"+id)
	}
	return nil
}

// A validator in a package that imports nothing known.
func ValidatedPlain(ctx context.Context, ids []string) error {
	if err := plainvalid.Batch(ids); err != nil {
		return err
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id)
	}
	return nil
}
