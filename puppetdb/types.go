package puppetdb

import (
	"strings"

	"github.com/marionette-dev/marionette/resourcetype"
)

// TypeKeys adapts an environment's resource types to
// CatalogInfo.KeyAttributes.
func TypeKeys(types *resourcetype.Set) func(typ string) ([]string, bool, bool) {
	return func(typ string) ([]string, bool, bool) {
		if types == nil {
			return nil, false, false
		}
		s, ok := types.Lookup(strings.ToLower(typ))
		if !ok {
			return nil, false, false
		}
		return s.NameVars(), s.Isomorphic(), true
	}
}
