// Command golangci-lint is golangci-lint v2.15.0 with resilint's module
// plugin compiled in: the binary that `golangci-lint custom` builds from
// .custom-gcl.yml, built here with plain `go build` from the module proxy
// (no git clone), for the end-to-end test (scripts/e2e/golangci.sh) and for
// developers:
//
//	cd tools/golangci-lint && go build -o ../../bin/golangci-lint-resilint .
//
// The version is left as "(devel)" on purpose: golangci-lint then salts its
// result cache with the binary's hash, so a rebuilt plugin never serves
// stale findings from the cache.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/resilint/resilint/golangci" // registers the resilint module plugin
)

func main() {
	info := commands.BuildInfo{Version: "(devel)", Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/golangci/golangci-lint/v2" {
				info.Commit = "golangci-lint " + dep.Version + " + resilint plugin"
			}
		}
	}
	if err := commands.Execute(info); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
