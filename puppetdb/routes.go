package puppetdb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// Route is one indirection's entry of routes.yaml: the terminus that
// answers it and the cache in front of it ("" when not set).
type Route struct {
	Terminus string `yaml:"terminus"`
	Cache    string `yaml:"cache"`
}

// Routes is routes.yaml's section for a compile server, indirection name
// (facts, catalog, node, ...) to its route.
type Routes map[string]Route

// ReadRoutes reads the route file ($route_file, by default
// $confdir/routes.yaml) as Puppet applies it for a compile server: the
// "server" section, or "master" (the two are aliases: one stands for the
// other; with both, "server" counts and a warning says so). A missing file
// is no routes. fsys nil means the operating system's files.
func ReadRoutes(fsys fs.FS, path string) (Routes, []string, error) {
	var data []byte
	var err error
	if fsys == nil {
		data, err = os.ReadFile(path)
	} else {
		data, err = fs.ReadFile(fsys, strings.TrimPrefix(path, "/"))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("Could not configure routes from %s: %v", path, err)
	}
	return ParseRoutes(path, data)
}

// ParseRoutes parses a route file's text (see ReadRoutes).
func ParseRoutes(path string, data []byte) (Routes, []string, error) {
	var doc map[string]map[string]Route
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("Could not configure routes from %s: %v", path, err)
	}
	var warnings []string
	server, hasServer := doc["server"]
	master, hasMaster := doc["master"]
	switch {
	case hasServer && hasMaster:
		warnings = append(warnings, fmt.Sprintf("Route file %s contains both server and master route settings.", path))
	case hasMaster:
		server = master
	}
	if len(server) == 0 {
		return nil, warnings, nil
	}
	return Routes(server), warnings, nil
}

// Termini says which of a compile server's indirections reach PuppetDB,
// after storeconfigs and routes.yaml.
type Termini struct {
	// Collect: storeconfigs is on, so <<| |>> collects from PuppetDB
	// (Puppet's collector checks the setting, not a route).
	Collect bool
	// Facts: the facts an agent sends are saved to PuppetDB (replace
	// facts), as the facts terminus or its cache is puppetdb.
	Facts bool
	// FactsFind: facts are looked up in PuppetDB when a request brings
	// none, as the facts terminus is puppetdb.
	FactsFind bool
	// Catalogs: compiled catalogs are stored (replace catalog), as the
	// catalog cache is puppetdb.
	Catalogs bool
}

// Any reports whether anything reaches PuppetDB.
func (t Termini) Any() bool { return t.Collect || t.Facts || t.FactsFind || t.Catalogs }

// AllTermini is a server given a PuppetDB outright (marionette's
// --puppetdb): collect, and store facts and catalogs.
func AllTermini() Termini { return Termini{Collect: true, Facts: true, Catalogs: true} }

// ServerTermini applies Puppet's order: storeconfigs (with
// storeconfigs_backend) makes store_configs the facts and catalog cache,
// then routes.yaml sets terminus and cache per indirection, overriding.
// store_configs is PuppetDB when the backend is puppetdb.
func ServerTermini(storeconfigs bool, backend string, routes Routes) Termini {
	if backend == "" {
		backend = "puppetdb"
	}
	isPDB := func(terminus string) bool {
		return terminus == "puppetdb" || terminus == "store_configs" && backend == "puppetdb"
	}
	var factsTerminus, factsCache, catalogCache string
	if storeconfigs {
		factsCache, catalogCache = "store_configs", "store_configs"
	}
	if r, ok := routes["facts"]; ok {
		if r.Terminus != "" {
			factsTerminus = r.Terminus
		}
		if r.Cache != "" {
			factsCache = r.Cache
		}
	}
	if r, ok := routes["catalog"]; ok && r.Cache != "" {
		catalogCache = r.Cache
	}
	return Termini{
		Collect:   storeconfigs && backend == "puppetdb",
		Facts:     isPDB(factsTerminus) || isPDB(factsCache),
		FactsFind: isPDB(factsTerminus),
		Catalogs:  isPDB(catalogCache),
	}
}
