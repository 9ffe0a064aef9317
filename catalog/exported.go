package catalog

// ExportFilter is a collector's query as Puppet hands it to the storeconfigs
// terminus: == or != comparing an attribute with a value, or and/or
// joining two filters.
type ExportFilter struct {
	Op          string // "==", "!=", "and", "or"
	Attr        string // for == and !=
	Value       any    // for == and !=: string, int64, float64, bool, nil or []any
	Left, Right *ExportFilter
}

// ExportedResource is one resource another node exported.
type ExportedResource struct {
	Certname    string
	Type        string
	Title       string
	Exported    bool
	Tags        []string
	File        string
	Line        int
	Environment string
	// Params in the order the store gave them.
	Params []Param
}

// CollectorID is how Puppet tells collected resources apart
// ("certname|Type|title").
func (r *ExportedResource) CollectorID() string {
	return r.Certname + "|" + r.Type + "|" + r.Title
}
