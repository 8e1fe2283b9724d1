package knowledge

// BreakerTable lists circuit-breaker types and their guarded-call methods.
type BreakerTable struct{}

func defaultBreakers() BreakerTable { return BreakerTable{} }
