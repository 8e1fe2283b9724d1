package resil

import "reflect"

// gRPC status codes, by their stable numbers from the gRPC specification
// (doc/statuscodes.md). resil reads them without importing gRPC.
var grpcCodeNames = [...]string{
	0: "OK", 1: "Canceled", 2: "Unknown", 3: "InvalidArgument",
	4: "DeadlineExceeded", 5: "NotFound", 6: "AlreadyExists",
	7: "PermissionDenied", 8: "ResourceExhausted", 9: "FailedPrecondition",
	10: "Aborted", 11: "OutOfRange", 12: "Unimplemented", 13: "Internal",
	14: "Unavailable", 15: "DataLoss", 16: "Unauthenticated",
}

// GRPCCode returns the name of the gRPC status code carried by err ("Unavailable",
// "NotFound", ...) without importing gRPC: it finds, in err's chain, a value
// with a GRPCStatus() method (as grpc-go's status errors have) and calls
// Code() on its result. ok is false if there is none, or the code is unknown.
//
// Retry treats these codes as retryable: Unavailable (the server did not
// process the call; the canonical transient code), ResourceExhausted
// (overload or rate limit, usually with pushback) and DeadlineExceeded
// (retried only while the caller's own deadline leaves time, which Retry
// checks separately). Every other code is permanent for Retry: Aborted asks
// for a retry of the enclosing transaction, not of the call; Unknown and
// Internal are bugs more often than blips; the rest describe the request.
func GRPCCode(err error) (name string, ok bool) {
	for e := err; e != nil; {
		if n, ok := grpcCodeOf(e); ok {
			return n, true
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			e = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				if n, ok := GRPCCode(inner); ok {
					return n, true
				}
			}
			return "", false
		default:
			e = nil
		}
	}
	return "", false
}

// grpcCodeOf calls e.GRPCStatus().Code() by reflection. The method name is
// a constant, so the linker keeps only methods of that name alive.
func grpcCodeOf(e error) (name string, ok bool) {
	defer func() {
		if recover() != nil { // a GRPCStatus or Code method that panics is not a status
			name, ok = "", false
		}
	}()
	m := reflect.ValueOf(e).MethodByName("GRPCStatus")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return "", false
	}
	st := m.Call(nil)[0]
	if (st.Kind() == reflect.Pointer || st.Kind() == reflect.Interface) && st.IsNil() {
		return "", false
	}
	c := st.MethodByName("Code")
	if !c.IsValid() || c.Type().NumIn() != 0 || c.Type().NumOut() != 1 {
		return "", false
	}
	v := c.Call(nil)[0]
	var n uint64
	switch v.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n = v.Uint()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Int() < 0 {
			return "", false
		}
		n = uint64(v.Int())
	default:
		return "", false
	}
	if n >= uint64(len(grpcCodeNames)) {
		return "", false
	}
	return grpcCodeNames[n], true
}

// retryableGRPC is the retryable set documented on GRPCCode.
func retryableGRPC(name string) bool {
	switch name {
	case "Unavailable", "ResourceExhausted", "DeadlineExceeded":
		return true
	}
	return false
}
