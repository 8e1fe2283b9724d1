// Package e2esuite is an end-to-end suite written with a test framework:
// a file that imports one is test code, as one that imports testing.
package e2esuite

import (
	"net/http"

	"github.com/onsi/ginkgo/v2"
)

var _ = ginkgo.Describe("proxy", func() {
	ginkgo.It("serves", func() {
		resp, err := http.Get("http://example.com/")
		if err == nil {
			resp.Body.Close()
		}
	})
})
