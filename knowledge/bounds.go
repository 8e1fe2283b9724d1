package knowledge

// BoundTable lists calls that launch goroutines and calls that bound them.
type BoundTable struct{}

func defaultBounds() BoundTable { return BoundTable{} }
