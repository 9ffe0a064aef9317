//go:build !(linux && (amd64 || arm64))

package resourcetype

import "os"

// existsAt is not available here: the caller stats the full path.
func existsAt(*os.File, string) (ok, done bool) { return false, false }
