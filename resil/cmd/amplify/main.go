// Command amplify prints how many requests reach a failing bottom service
// when 1 to 4 layers of real HTTP servers (on loopback) each retry 3 times:
// with naive loops, and with resil.Retry and the context passed down.
//
//	go run ./cmd/amplify
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/resilint/resilint/resil/internal/amplify"
)

func main() {
	fmt.Println("requests reaching the bottom server (always 503), 3 attempts per layer")
	fmt.Printf("%-7s %12s %12s\n", "layers", "naive loops", "resil.Retry")
	for depth := 1; depth <= 4; depth++ {
		naive, err := amplify.Count(context.Background(), depth, amplify.Naive)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		owned, err := amplify.Count(context.Background(), depth, amplify.Resil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%-7d %12d %12d\n", depth, naive, owned)
	}
}
