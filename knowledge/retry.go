package knowledge

// RetryTable lists retry helpers and the time functions retry loops use.
// Filled in by the retry-hygiene analyzers' rows.
type RetryTable struct{}

func defaultRetry() RetryTable { return RetryTable{} }
