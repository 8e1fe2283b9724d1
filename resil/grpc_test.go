package resil

import (
	"errors"
	"fmt"
	"testing"
)

// A stand-in for grpc-go's status error: GRPCStatus() returns a pointer
// whose Code() returns a named uint32, as codes.Code is.
type fakeCode uint32
type fakeStatus struct{ code fakeCode }

func (s *fakeStatus) Code() fakeCode { return s.code }

type fakeGRPCError struct{ s *fakeStatus }

func (e *fakeGRPCError) Error() string           { return fmt.Sprintf("rpc error: code = %d", e.s.code) }
func (e *fakeGRPCError) GRPCStatus() *fakeStatus { return e.s }

func grpcErr(code uint32) error { return &fakeGRPCError{&fakeStatus{fakeCode(code)}} }

func TestGRPCCode(t *testing.T) {
	for code, want := range map[uint32]string{0: "OK", 4: "DeadlineExceeded", 5: "NotFound", 14: "Unavailable", 16: "Unauthenticated"} {
		if got, ok := GRPCCode(grpcErr(code)); !ok || got != want {
			t.Errorf("GRPCCode(%d) = %q, %v; want %q", code, got, ok, want)
		}
	}
	if got, ok := GRPCCode(fmt.Errorf("calling x: %w", grpcErr(14))); !ok || got != "Unavailable" {
		t.Errorf("wrapped: %q %v", got, ok)
	}
	for _, e := range []error{errBoom, grpcErr(99), &fakeGRPCError{nil}, nil} {
		if name, ok := GRPCCode(e); ok {
			t.Errorf("GRPCCode(%v) = %q, want none", e, name)
		}
	}
}

func TestRetryableGRPCCodes(t *testing.T) {
	retry := map[uint32]bool{4: true, 8: true, 14: true}
	for code := uint32(1); code <= 16; code++ {
		if got := Retryable(grpcErr(code)); got != retry[code] {
			t.Errorf("Retryable(code %s) = %v, want %v", grpcCodeNames[code], got, retry[code])
		}
	}
	if Retryable(errors.New("x")) != true || Retryable(nil) != false {
		t.Error("Retryable defaults")
	}
}
