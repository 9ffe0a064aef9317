package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/enc"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/value"
)

// compileFlags are the settings of one compile, from flags, an
// environment.conf or a puppet.conf.
type compileFlags struct {
	node, manifest, modulepath, facts, enc, hieraConfig string
	environment, environmentPath, config                string
	encTimeout                                          time.Duration
	// environmentDir is set when the compile uses a directory environment.
	environmentDir string
	strict         bool
	// hieraCache, when set, keeps Hiera files across compiles.
	hieraCache *hiera.Cache
}

func runCompile(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f compileFlags
	addEnvironmentFlags(fs, &f)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marionette compile NODE --manifest FILE_OR_DIR --modulepath DIR[:DIR...] --facts FILE [flags]")
		fmt.Fprintln(stderr, "       marionette compile --all-nodes (--facts-dir DIR | --nodes-from FILE) --out DIR [--jobs N] [flags]")
		fs.PrintDefaults()
	}
	// compile --all-nodes compiles a whole fleet (fleet.go).
	for _, a := range args {
		if a == "--all-nodes" || a == "-all-nodes" || strings.HasPrefix(a, "--all-nodes=") || strings.HasPrefix(a, "-all-nodes=") {
			return runFleet(args, stdout, stderr)
		}
	}
	if !parseNodeArgs(fs, args, &f.node) {
		return 2
	}
	if f.node == "" {
		fs.Usage()
		return 2
	}
	// A one-off process allocates a few megabytes and exits: collecting
	// garbage less often saves a sixth of its time (medium workload, median
	// of 30: 11.9 -> 10.1 ms; peak RSS unchanged at 13 MB, large 39 -> 43 MB).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	res, err := compileNode(&f, stderr)
	if res != nil {
		printDiagnostics(stderr, res.Diagnostics, "")
	}
	if err != nil {
		reportError(stderr, err, f.node)
		return 1
	}
	w := bufio.NewWriter(stdout)
	if err := res.Catalog.WriteJSON(w); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// reportError prints a failed compile's error as Puppet does; a file with
// several validation errors gets each on its own line before the summary.
func reportError(stderr io.Writer, err error, node string) {
	_ = diag.RenderError(stderr, err, node)
}

// parseNodeArgs parses the flags of a command that takes one node name,
// which may come before or after the flags.
func parseNodeArgs(fs *flag.FlagSet, args []string, node *string) bool {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		*node, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return false
	}
	if *node == "" && fs.NArg() > 0 {
		*node = fs.Arg(0)
	}
	return true
}

func compileNode(f *compileFlags, stderr io.Writer) (*compiler.Result, error) {
	env, req, err := prepare(f, stderr)
	if err != nil {
		return nil, err
	}
	return compiler.Compile(context.Background(), env, req)
}

// printDiagnostics prints a compile's warnings and log messages as Puppet
// does; suffix, when set, follows each message (which node, which side).
func printDiagnostics(w io.Writer, diags diag.List, suffix string) {
	for _, d := range diags {
		fmt.Fprintf(w, "%s: %s%s\n", d.Severity.Label(), d.Error(), suffix)
	}
}

// addEnvironmentFlags defines the flags that say where code, facts and data
// come from; compile and lookup share them.
func addEnvironmentFlags(fs *flag.FlagSet, f *compileFlags) {
	fs.StringVar(&f.manifest, "manifest", "", "main manifest: a .pp file or a directory")
	fs.StringVar(&f.modulepath, "modulepath", "", "module directories, separated by ':'")
	fs.StringVar(&f.facts, "facts", "", "facts file (YAML or JSON)")
	fs.StringVar(&f.enc, "enc", "", "external node classifier executable")
	fs.StringVar(&f.hieraConfig, "hiera-config", "", "global hiera.yaml")
	fs.StringVar(&f.environment, "environment", "production", "environment name")
	fs.StringVar(&f.environmentPath, "environmentpath", "", "directory of directory environments")
	fs.StringVar(&f.config, "config", "", "puppet.conf to read settings from")
	fs.BoolVar(&f.strict, "strict-hostname-checking", true, "match node definitions on the exact certname only")
	fs.DurationVar(&f.encTimeout, "enc-timeout", enc.DefaultTimeout, "how long the external node classifier may run")
}

// prepare loads the environment, facts and classification for a node.
func prepare(f *compileFlags, stderr io.Writer) (*compiler.Environment, *compiler.Request, error) {
	if f.config != "" {
		if err := readPuppetConf(f); err != nil {
			return nil, nil, err
		}
	}
	// Catalogs name files by absolute path, as Puppet's do.
	for _, p := range []*string{&f.environmentPath, &f.manifest, &f.hieraConfig} {
		if *p != "" {
			if abs, err := filepath.Abs(*p); err == nil {
				*p = abs
			}
		}
	}
	if f.environmentPath != "" && f.manifest == "" {
		envDir := filepath.Join(f.environmentPath, f.environment)
		if st, err := os.Stat(envDir); err != nil || !st.IsDir() {
			return nil, nil, fmt.Errorf("Could not find a directory environment named '%s' anywhere in the path: %s", f.environment, f.environmentPath)
		}
		readEnvironmentConf(f, envDir)
	}
	facts, err := loadFacts(f.facts)
	if err != nil {
		return nil, nil, err
	}
	req := &compiler.Request{
		Node:              f.node,
		Facts:             facts,
		FuzzyNodeMatching: !f.strict,
	}
	if f.enc != "" {
		res, err := enc.Run(context.Background(), f.enc, f.node, enc.Options{Timeout: f.encTimeout})
		if err != nil {
			return nil, nil, err
		}
		classify(req, res)
		if res.Environment != "" && res.Environment != f.environment {
			// The classifier moves the node to another environment.
			if f.environmentPath == "" {
				return nil, nil, fmt.Errorf("Failed when searching for node %s: Could not find a directory environment named '%s' anywhere in the path: (no environmentpath)", f.node, res.Environment)
			}
			envDir := filepath.Join(f.environmentPath, res.Environment)
			if st, err := os.Stat(envDir); err != nil || !st.IsDir() {
				return nil, nil, fmt.Errorf("Failed when searching for node %s: Could not find a directory environment named '%s' anywhere in the path: %s. Does the directory exist?", f.node, res.Environment, f.environmentPath)
			}
			f.environment, f.manifest, f.modulepath = res.Environment, "", ""
			readEnvironmentConf(f, envDir)
		}
	}
	var modulePath []string
	for _, p := range strings.Split(f.modulepath, ":") {
		if p != "" {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			modulePath = append(modulePath, p)
		}
	}
	f.modulepath = strings.Join(modulePath, ":")
	hopts := compiler.HieraOptions{Cache: f.hieraCache, GlobalConfig: f.hieraConfig, EnvironmentDir: f.environmentDir}
	if f.environmentPath != "" {
		// Puppet's default environmentpath is $codedir/environments.
		hopts.Codedir = filepath.Dir(f.environmentPath)
	}
	env, err := compiler.LoadEnvironment(compiler.EnvironmentConfig{Name: f.environment, Manifest: f.manifest, ModulePath: modulePath, Hiera: hopts})
	if err != nil {
		var pe *compiler.ParseError
		if errors.As(err, &pe) {
			return nil, nil, fmt.Errorf("Could not parse for environment %s: %w", f.environment, pe)
		}
		return nil, nil, err
	}
	return env, req, nil
}

// classify gives a compile request the classes and parameters of an ENC's
// answer.
func classify(req *compiler.Request, res *enc.Result) {
	for _, c := range res.Classes {
		req.Classes = append(req.Classes, compiler.ENCClass{Name: c.Name, Params: c.Params})
	}
	req.Parameters = res.Parameters
}

// loadFacts reads a facts file: a plain map of facts, or Puppet's
// {"name": ..., "values": {...}} form, in YAML or JSON.
func loadFacts(path string) (*value.Hash, error) {
	if path == "" {
		return value.EmptyHash, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v value.Value
	if strings.HasSuffix(path, ".json") {
		v, err = hiera.FromJSON(data, path)
	} else {
		v, err = hiera.FromYAML(data, path)
	}
	if err != nil {
		return nil, fmt.Errorf("could not read facts: %v", err)
	}
	if value.IsUndef(v) {
		return value.EmptyHash, nil
	}
	h, ok := v.(*value.Hash)
	if !ok {
		return nil, fmt.Errorf("facts file %s must hold a hash of facts", path)
	}
	if vals, ok := h.GetString("values"); ok {
		if _, named := h.GetString("name"); named {
			if vh, ok := vals.(*value.Hash); ok {
				return vh, nil
			}
		}
	}
	return h, nil
}

// readEnvironmentConf applies an environment's environment.conf (manifest
// and modulepath, relative to the environment directory).
func readEnvironmentConf(f *compileFlags, envDir string) {
	f.environmentDir = envDir
	settings := map[string]string{"manifest": "manifests", "modulepath": "modules"}
	if data, err := os.ReadFile(filepath.Join(envDir, "environment.conf")); err == nil {
		for k, v := range parseINI(string(data), "") {
			settings[k] = v
		}
	}
	abs := func(p string) string {
		p = strings.ReplaceAll(p, "$basemodulepath", "")
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(envDir, p)
	}
	f.manifest = abs(settings["manifest"])
	if f.modulepath == "" {
		var parts []string
		for _, p := range strings.Split(settings["modulepath"], ":") {
			if p = abs(p); p != "" {
				parts = append(parts, p)
			}
		}
		f.modulepath = strings.Join(parts, ":")
	}
}

// readPuppetConf reads the settings marionette uses from puppet.conf's
// [main] and [server]/[master] sections; flags given explicitly win.
func readPuppetConf(f *compileFlags) error {
	data, err := os.ReadFile(f.config)
	if err != nil {
		return err
	}
	s := parseINI(string(data), "main")
	for _, sect := range []string{"master", "server"} {
		for k, v := range parseINI(string(data), sect) {
			s[k] = v
		}
	}
	setIfEmpty := func(dst *string, key string) {
		if *dst == "" && s[key] != "" {
			*dst = s[key]
		}
	}
	setIfEmpty(&f.manifest, "manifest")
	setIfEmpty(&f.modulepath, "modulepath")
	setIfEmpty(&f.environmentPath, "environmentpath")
	setIfEmpty(&f.hieraConfig, "hiera_config")
	if s["node_terminus"] == "exec" {
		setIfEmpty(&f.enc, "external_nodes")
	}
	if v, ok := s["strict_hostname_checking"]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("%s: strict_hostname_checking must be true or false, got %q", f.config, v)
		}
		f.strict = b
	}
	return nil
}

// parseINI reads the key = value lines of one section of an INI-style file;
// section "" means the lines before any section header (environment.conf).
func parseINI(text, section string) map[string]string {
	out := map[string]string{}
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' && strings.HasSuffix(line, "]") {
			cur = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		if cur != section {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}
