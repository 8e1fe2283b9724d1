package cfgmake

import "github.com/hashicorp/go-retryablehttp"

// fetch uses the library directly too: the package imports it.
func fetch(url string) error {
	_, err := retryablehttp.Get(url)
	return err
}
