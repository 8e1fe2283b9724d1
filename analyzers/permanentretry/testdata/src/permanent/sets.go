package permanent

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The retryable codes held in a set: PermissionDenied is in it.
var retryableCodes = map[codes.Code]bool{
	codes.Unavailable:      true,
	codes.PermissionDenied: true,
}

func grpcSet(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		if !retryableCodes[status.Code(err)] { // want `gRPC code PermissionDenied back into the retry loop`
			return false, err
		}
		if err := sleep(ctx, attempt); err != nil {
			return false, err
		}
	}
	return false, err
}

// Transient codes only: fine.
var transientCodes = map[codes.Code]bool{
	codes.Unavailable:       true,
	codes.ResourceExhausted: true,
}

func grpcTransientSet(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		if !transientCodes[status.Code(err)] {
			return false, err
		}
		if err := sleep(ctx, attempt); err != nil {
			return false, err
		}
	}
	return false, err
}

// A set that the package changes is no constant: unknown, silent.
var learnedCodes = map[codes.Code]bool{codes.Unavailable: true}

func learn(c codes.Code) { learnedCodes[c] = true }

func grpcLearned(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		if !learnedCodes[status.Code(err)] {
			return false, err
		}
		if err := sleep(ctx, attempt); err != nil {
			return false, err
		}
	}
	return false, err
}
