package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/enc"
	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/server"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// helpTopic is a page of `marionette help TOPIC`. The README's list of
// topics is checked against this table (TestREADMEListsHelpTopics).
type helpTopic struct {
	name, summary string
	text          func(w io.Writer)
}

// helpTopics lists the help pages that are not about one command.
func helpTopics() []helpTopic {
	return []helpTopic{
		{"environment", "where the code, data and settings of a compile come from", topicEnvironment},
		{"exit-status", "what marionette's exit statuses mean", topicExitStatus},
		{"facts", "giving a node's facts", topicFacts},
		{"limits", "the limits marionette puts on a compile, and their defaults", topicLimits},
		{"output", "output formats, files, pretty-printing and colour", topicOutput},
	}
}

// runHelp implements `marionette help [COMMAND | TOPIC]`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		usage(stdout, cmds)
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: marionette help [COMMAND | TOPIC]")
		return 2
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		usage(stdout, cmds)
		return 0
	}
	if c, ok := cmds[name]; ok {
		if name == "help" {
			usage(stdout, cmds)
			return 0
		}
		return commandHelp(c, []string{"--help"}, stdout)
	}
	for _, t := range helpTopics() {
		if t.name == name {
			t.text(stdout)
			return 0
		}
	}
	fmt.Fprintf(stderr, "marionette: no command or help topic %q\n", name)
	usage(stderr, cmds)
	return 2
}

// limit is one limit marionette puts on a compile that Puppet does not.
// flag raises it; "" means it is fixed.
type limit struct {
	name, value, flag, what string
}

// limits is the table `marionette help limits` prints: every limit the
// packages export. Add an entry here when a package exports a new one.
func limits() []limit {
	n := func(v int, unit string) string { return fmt.Sprintf("%d %s", v, unit) }
	return []limit{
		{"compile deadline", defaultTimeout.String(), "--timeout",
			"a node's whole compile (classification, environment loading, evaluation) is stopped after this long"},
		{"catalog size", n(compiler.DefaultMaxResources, "resources"), "--max-resources",
			"declaring a resource past this many fails the compile"},
		{"classifier run time", enc.DefaultTimeout.String(), "--enc-timeout",
			"an external node classifier still running after this long is killed and the compile fails"},
		{"classifier output", byteSize(enc.DefaultMaxOutput), "--enc-max-output",
			"an external node classifier printing more than this is killed and the compile fails"},
		{"YAML expansion", n(dataformat.MaxYAMLNodes, "values"), "--max-yaml-nodes",
			"a Hiera data file, facts file or classifier output expanding to more values (each alias counted in full) is an error"},
		{"JSON nesting", n(dataformat.MaxJSONDepth, "levels"), "",
			"Ruby's JSON.parse max_nesting, as Puppet reads JSON data and facts"},
		{"template size", byteSize(erb.MaxStringSize), "--max-template-size",
			"an ERB template's output, or any string it builds, larger than this is an error (at most " + byteSize(erb.MaxTemplateSizeCeiling) + ")"},
		{"template arrays", n(erb.MaxArraySize, "elements"), "",
			"an ERB template building a larger array fails"},
		{"format width", n(erb.MaxFormatWidth, "characters"), "",
			"a width or precision in an ERB format directive (%, format) past this fails"},
		{"template steps", n(erb.MaxSteps, "steps"), "",
			"an ERB template or Ruby function evaluating longer than this (an endless loop) fails"},
		{"Ruby call depth", n(erb.MaxCallDepth, "calls"), "",
			"Ruby method and block calls nested deeper than this fail"},
		{"Ruby data nesting", n(erb.MaxNesting, "levels"), "",
			"walking (inspect, hash keys, comparisons) Ruby arrays and hashes nested deeper stops there"},
		{"Ruby data walk", n(erb.MaxVisits, "elements"), "",
			"one walk of nested Ruby arrays and hashes visits at most this many elements"},
		{"template nesting", n(erb.MaxParseDepth, "levels"), "",
			"Ruby expressions in a template nested deeper than this are an error"},
		{"expression nesting", n(syntax.MaxExpressionDepth, "levels"), "",
			"Puppet expressions nested deeper than this (brackets, operator and call chains, selectors, interpolation) are an error"},
		{"evaluation nesting", n(eval.MaxEvalNesting, "levels"), "",
			"evaluation nested deeper than this, all expressions and calls together, fails"},
		{"value size", byteSize(value.DefaultMaxValueSize), "--max-value-size",
			"a value expanding past this (string conversion, interpolation, comparison, flatten, templates, logging), or the catalog's parameters all together, fails; shared arrays and hashes count once per use"},
		{"memory", "RAM×3/4 or ulimit -v/8", "--max-memory",
			"the memory the process may use: the runtime's soft limit, and a compile stops once the live heap passes three quarters of it (values each within the value size can still add up)"},
		{"facts", n(site.MaxFacts, "values"), "",
			"an agent's facts holding more values (nested ones included) are refused before they are stored or compiled"},
		{"value nesting", n(value.MaxValueDepth, "levels"), "",
			"a value whose arrays and hashes nest deeper than this fails where it is expanded (catalog, strings, comparison)"},
		{"regexp match time", value.RegexpMatchTimeout.String(), "",
			"a regular expression the backtracking engine (lookaround, backreferences) cannot match within this is an error, never \"no match\""},
		{"Hiera interpolation", byteSize(hiera.MaxInterpolationSize), "",
			"a string built by %{lookup('k')} and the other interpolations of Hiera data larger than this is an error"},
		{"file() size", byteSize(functions.MaxFileSize), "",
			"file() reads only regular files, up to this size"},
		{"source encoding", "UTF-8", "",
			"a manifest or template that is not valid UTF-8 is an error, as Puppet's parser would fail on it"},
		{"call depth", n(eval.MaxCallDepth, "calls"), "",
			"Puppet functions and lambdas recursing deeper than this fail"},
		{"defined type nesting", n(compiler.MaxDefineDepth, "levels"), "",
			"defined-type instances declaring one another deeper than this (a define declaring itself) fail"},
		{"evaluation rounds", n(compiler.MaxLazyRounds, "rounds"), "",
			"defined types and collectors that keep adding resources for more rounds fail the compile"},
		{"iteration size", n(functions.MaxIteration, "elements"), "",
			"iterating over more elements (each, map, times over a huge Integer) fails"},
		{"puppet.conf setting", byteSize(puppetconf.MaxSettingLength), "",
			"a setting longer than this after $setting interpolation is an error"},
		{"certname length", n(names.MaxCertname, "bytes"), "",
			"a longer certname is invalid: puppetserver's CA fails on one (its temporary file's name would pass 255 bytes)"},
		{"unauthenticated body", byteSize(server.MaxUnauthenticatedBody), "",
			"serve: a larger body from a client without a certificate, or to /puppet-ca/v1 (CSR, certificate_status), is refused with 413"},
		{"unauthenticated uploads", n(server.MaxUnauthenticatedUploads, "requests"), "",
			"serve: more clients without a certificate sending a body at once get 503 with Retry-After"},
		{"Ruby", "a subset", "",
			"ERB templates and Ruby functions are interpreted, not run by Ruby: Ruby outside the subset marionette knows is an error saying so"},
	}
}

// byteSize prints n bytes in the largest binary unit that divides it.
func byteSize(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func topicLimits(w io.Writer) {
	fmt.Fprintln(w, "Limits marionette puts on a compile where Puppet has none. Reaching one is an")
	fmt.Fprintln(w, "error that says it is a limit of marionette, not a fault of the code.")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LIMIT\tDEFAULT\tRAISED BY\tWHAT HAPPENS")
	for _, l := range limits() {
		flag := l.flag
		if flag == "" {
			flag = "(fixed)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", l.name, l.value, flag, l.what)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The flags apply to compile (and --all-nodes), lookup, node and bench. The")
	fmt.Fprintln(w, "error of a limit that a flag raises names the limit and the flag.")
}

func topicFacts(w io.Writer) {
	fmt.Fprint(w, `A compile needs the node's facts, as Puppet's does.

  --facts FILE     a YAML or JSON file (by its .json suffix): a hash of facts,
                   or Puppet's {"name": ..., "values": {...}} as
                   'puppet facts show' and PuppetDB export them
  --facts none     compile with no facts at all (a file named "none": ./none)
  --facts puppetdb the node's latest facts in PuppetDB (--puppetdb URL, or
                   storeconfigs with puppetdb.conf); compile, lookup, node
  --facts-dir DIR  with compile --all-nodes: DIR/NODE.yaml or DIR/NODE.json
  --facts-from puppetdb
                   with compile or diff --all-nodes: every active node PuppetDB
                   has facts for (or those of --nodes-from), with its facts

Without --facts, compile, bench and lookup fail with Puppet's
"No facts available for target node" rather than compile another catalog.
`)
}

func topicEnvironment(w io.Writer) {
	fmt.Fprint(w, `The code of a compile comes from one of:

  --manifest FILE_OR_DIR [--modulepath DIR:DIR...]
      one environment of this main manifest and module path, named by
      --environment (default production)
  --environmentpath DIR[:DIR...] [--environment ENV]
      directory environments, as Puppet's: DIR/ENV/manifests, modules and
      environment.conf; an ENC may move the node to another environment
  --config puppet.conf
      Puppet's settings ([main], then [master] and [server]); flags win

--codedir and --confdir locate Puppet's defaults; --hiera-config names the
global hiera.yaml ($confdir/hiera.yaml or $codedir/hiera.yaml by default).
A --manifest or --hiera-config naming no file is an error (Puppet would use
an empty manifest or no global data), and so is giving no code at all.

Hiera backends: data_hash yaml_data, json_data and hocon_data; lookup_key
eyaml_lookup_key, hiera-eyaml's PKCS7 encryptor built in (no gem needed: the
level's options pkcs7_private_key and pkcs7_public_key name the key files,
relative paths from the working directory as in Puppet, or
pkcs7_private_key_env_var and pkcs7_public_key_env_var environment variables
holding them; ENC[GPG,...] is refused); and a module's own data_hash,
lookup_key and data_dig functions, in the Puppet language or in module Ruby,
given their options and a Puppet::LookupContext, with path(s), glob(s),
mapped_paths, uri(s) or no location. A version 3 global hiera.yaml may use
the yaml, json, hocon and eyaml backends; hiera3_backend levels are not
supported.

--puppet-version 7|8 (puppet.conf: puppet_version) picks the Puppet major to
follow, 7 by default. It sets the defaults of Puppet's --strict
(off|warning|error; puppet.conf: strict) and --strict-variables
(puppet.conf: strict_variables): warning and false for 7, error and true for
8. Under them an unknown variable, a numeric string in arithmetic or a hash
key given twice is a warning or an error, as in Puppet.

--ruby-functions auto|subset|helper (puppet.conf: ruby_functions; environment:
MARIONETTE_RUBY_FUNCTIONS, which puppet.conf yields to and the flag wins
over) says what happens to a module Ruby function (or custom Hiera backend)
whose Ruby is beyond marionette's Ruby subset. auto, the default, runs it in
a Ruby helper with Puppet's library (Debian's puppet-agent: ruby and
/usr/lib/ruby/vendor_ruby/puppet) when one can start, and otherwise fails
with the subset's error ("unsupported Ruby in function FILE:LINE") saying
why the helper could not run it. subset always fails so. helper runs such
functions in the helper, and a helper that cannot start is the error.
In the helper the function sees the compile: variable lookups, assignments
(scope.setvar, and compiler.topscope.setvar as role() functions do),
function_x and call_function calls, include, and a backend's
Puppet::LookupContext all go back to marionette, and a lambda given to the
function is its block, run in the compile; it reads the catalog's resources
(catalog.resource, findresource) but cannot change them, and other catalog
methods fail by name; a Ruby object that is not data comes back as a
Runtime value, as under Puppet.
The helper loads Puppet once (about two seconds) and forks a process per
compile, which loads the module code as it is then and ends with the
compile, so no compile sees another's facts, variables or code. marionette
serve keeps a helper of its own (started with the server under helper, at
the first need under auto); other commands share one per user, on a
unix socket (mode 0600) in $XDG_RUNTIME_DIR/marionette, else in
$vardir/rubyhost: the first command that needs it starts it, later ones pay
a fork (tens of milliseconds), and it exits after 15 minutes unused. A
helper that dies is started again by the next compile.
`)
}

func topicOutput(w io.Writer) {
	fmt.Fprint(w, `compile, node and lookup take Puppet's --render-as:
  compile  json (default), pson, yaml
  node     yaml (default), json, pson
  lookup   yaml (default), json, pson, s (a string)
pson is json, as Puppet prints it. JSON goes on one line, byte for byte what
puppet catalog compile prints, except on a terminal, where it is indented.

-o/--output FILE writes the result to FILE instead of stdout, atomically: the
file is replaced whole once the output is complete, never left half written.

Errors are printed as Puppet prints them: "Error: MESSAGE (file: F, line: L,
column: C)". On a terminal errors are red and warnings yellow; --color=never
or the NO_COLOR environment variable turns that off, --color=always forces it
(Puppet's --color=true and --color=false are accepted too).
`)
}

func topicExitStatus(w io.Writer) {
	fmt.Fprint(w, `  0  success (diff: no differences)
  1  the compile, lookup or parse failed (diff: the catalogs differ;
     compile --all-nodes: a node failed)
  2  a usage error: unknown command or flag, missing argument (diff: an error)

marionette diff tells same, different and failed apart, as diff(1) does:
  0  same: every node compiled with both versions of the code, and no
     catalog differs (after the --ignore filters)
  1  different: some catalog differs, and every node compiled on both sides
  2  failed: some node failed to compile (with the old code, the new code or
     both; the report lists those the new code breaks first), its facts or
     classifier failed, or a usage or setup error (a git ref or environment
     that does not exist)
`)
}

// runCompletion implements `marionette completion bash|zsh`.
func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || (args[0] != "bash" && args[0] != "zsh") {
		fmt.Fprintln(stderr, "usage: marionette completion bash|zsh")
		fmt.Fprintln(stderr, "  bash: source <(marionette completion bash)")
		fmt.Fprintln(stderr, "  zsh:  marionette completion zsh > \"${fpath[1]}/_marionette\"")
		return 2
	}
	words := completionWords()
	if args[0] == "bash" {
		writeBashCompletion(stdout, words)
	} else {
		writeZshCompletion(stdout, words)
	}
	return 0
}

// completionWords are, per command, the words to complete after it: its
// flags as its own help text lists them (one source for both), or the
// commands and topics after help.
func completionWords() map[string][]string {
	cmds := commands()
	words := map[string][]string{"": append(sortedNames(cmds), "--help", "--version", "--color")}
	for _, name := range sortedNames(cmds) {
		switch name {
		case "help":
			w := sortedNames(cmds)
			for _, t := range helpTopics() {
				w = append(w, t.name)
			}
			sort.Strings(w)
			words[name] = w
			continue
		case "completion":
			words[name] = []string{"bash", "zsh"}
			continue
		}
		var help bytes.Buffer
		commandHelp(cmds[name], []string{"--help"}, &help)
		if name == "diff" {
			// Comparing code has flags of its own (--from, --all-nodes, ...).
			commandHelp(cmds[name], []string{"--all-nodes", "--help"}, &help)
		}
		words[name] = helpFlags(help.String())
	}
	return words
}

// helpFlags lists the flags of a flag set's PrintDefaults output, as
// --name.
func helpFlags(help string) []string {
	seen := map[string]bool{}
	var flags []string
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "  -") {
			continue
		}
		name := strings.Fields(line[3:])[0]
		if !seen[name] {
			seen[name] = true
			flags = append(flags, "--"+name)
		}
	}
	sort.Strings(flags)
	return append(flags, "--color")
}

// flagValues are the fixed values of some flags, for completion.
func flagValues() map[string]string {
	return map[string]string{
		"--render-as":  "json pson yaml s",
		"--color":      "auto always never",
		"--merge":      "first unique hash deep",
		"--facts-from": "puppetdb",
	}
}

func writeBashCompletion(w io.Writer, words map[string][]string) {
	fmt.Fprintln(w, "# bash completion for marionette; load with: source <(marionette completion bash)")
	fmt.Fprintln(w, "_marionette() {")
	fmt.Fprintln(w, "\tlocal cur prev cmd i")
	fmt.Fprintln(w, "\tcur=${COMP_WORDS[COMP_CWORD]}")
	fmt.Fprintln(w, "\tprev=${COMP_WORDS[COMP_CWORD-1]}")
	fmt.Fprintln(w, "\tcmd=")
	fmt.Fprintln(w, "\tfor ((i = 1; i < COMP_CWORD; i++)); do")
	fmt.Fprintln(w, "\t\tcase ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac")
	fmt.Fprintln(w, "\tdone")
	fmt.Fprintln(w, "\tcase $prev in")
	vals := flagValues()
	for _, f := range sortedKeys(vals) {
		fmt.Fprintf(w, "\t%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", f, vals[f])
	}
	fmt.Fprintln(w, "\t--manifest|--modulepath|--facts|--enc|--hiera-config|--environmentpath|--config|--codedir|--confdir|--facts-dir|--nodes-from|--out|--output|-o)")
	fmt.Fprintln(w, "\t\tCOMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
	fmt.Fprintln(w, "\tesac")
	fmt.Fprintln(w, "\tcase $cmd in")
	for _, c := range sortedKeys(words) {
		if c == "" {
			continue
		}
		fmt.Fprintf(w, "\t%s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", c, strings.Join(words[c], " "))
	}
	fmt.Fprintf(w, "\t*) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", strings.Join(words[""], " "))
	fmt.Fprintln(w, "\tesac")
	fmt.Fprintln(w, "\tif [[ $cur != -* && $cmd != help && $cmd != completion && -n $cmd ]]; then")
	fmt.Fprintln(w, "\t\tCOMPREPLY+=($(compgen -f -- \"$cur\"))")
	fmt.Fprintln(w, "\tfi")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "complete -F _marionette marionette")
}

func writeZshCompletion(w io.Writer, words map[string][]string) {
	fmt.Fprintln(w, "#compdef marionette")
	fmt.Fprintln(w, "# zsh completion for marionette; install with:")
	fmt.Fprintln(w, "#   marionette completion zsh > \"${fpath[1]}/_marionette\"")
	fmt.Fprintln(w, "_marionette() {")
	fmt.Fprintln(w, "\tlocal cmd prev=${words[CURRENT-1]}")
	fmt.Fprintln(w, "\tlocal -a opts")
	fmt.Fprintln(w, "\tcase $prev in")
	vals := flagValues()
	for _, f := range sortedKeys(vals) {
		fmt.Fprintf(w, "\t%s) compadd -- %s; return ;;\n", f, vals[f])
	}
	fmt.Fprintln(w, "\t--manifest|--modulepath|--facts|--enc|--hiera-config|--environmentpath|--config|--codedir|--confdir|--facts-dir|--nodes-from|--out|--output|-o)")
	fmt.Fprintln(w, "\t\t_files; return ;;")
	fmt.Fprintln(w, "\tesac")
	fmt.Fprintln(w, "\tif (( CURRENT == 2 )); then")
	fmt.Fprintf(w, "\t\tcompadd -- %s\n", strings.Join(words[""], " "))
	fmt.Fprintln(w, "\t\treturn")
	fmt.Fprintln(w, "\tfi")
	fmt.Fprintln(w, "\tcmd=${words[2]}")
	fmt.Fprintln(w, "\tcase $cmd in")
	for _, c := range sortedKeys(words) {
		if c == "" {
			continue
		}
		fmt.Fprintf(w, "\t%s) opts=(%s) ;;\n", c, strings.Join(words[c], " "))
	}
	fmt.Fprintln(w, "\tesac")
	fmt.Fprintln(w, "\tcompadd -- $opts")
	fmt.Fprintln(w, "\tcase $cmd in help|completion) ;; *) _files ;; esac")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "_marionette \"$@\"")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
