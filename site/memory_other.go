//go:build !unix

package site

// addressSpaceLimit is 0: no address-space limit is read here.
func addressSpaceLimit() int64 { return 0 }
