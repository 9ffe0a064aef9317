package syntax

import (
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/diag"
)

// This file checks the parser against Puppet itself. It renders our trees
// in the format of "puppet parser dump" and compares them byte for byte with
// Puppet's, for every corpus file and golden input Puppet accepts, and for
// the corpus templates ("puppet epp dump"); and it compares the first error
// on mutated corpus files. It runs Puppet, which takes minutes, so it runs
// only when MARIONETTE_PUPPET_DIFF is set. MARIONETTE_MUTANT_SEED picks
// other mutants; MARIONETTE_KEEP_MUTANTS=DIR keeps those we disagree on.

// pitem is an item of a Puppet dump: a string, a pmark, or a []pitem list.
type pitem = any

// pmark is a layout mark of Puppet's tree dumper.
type pmark int

const (
	pbreak  pmark = iota // a line break and the current indentation
	pindent              // indent one more level from here
	pdedent              // one level less
)

// pdump renders n as Puppet's ModelTreeDumper does. stmtLevel says that n
// is a statement, where Puppet calls a function as "invoke", not "call".
func pdump(n Node, stmtLevel bool) pitem {
	if n == nil || isNilNode(n) {
		return "()"
	}
	switch n := n.(type) {
	case *Program:
		switch len(n.Body) {
		case 0:
			return ":nop"
		case 1:
			return pformatString(pdump(n.Body[0], true))
		}
		return pformatString(pblock(n.Body))
	case *StringLit:
		return "'" + n.Value + "'"
	case *InterpolatedString:
		l := []pitem{"cat"}
		for _, p := range n.Parts {
			if s, ok := p.(*StringLit); ok {
				l = append(l, pdump(s, false))
			} else {
				l = append(l, []pitem{"str", pdump(p, false)})
			}
		}
		return l
	case *Heredoc:
		return []pitem{"@(" + n.Syntax + ")", pindent, pbreak, pdump(n.Text, false), pdedent, pbreak}
	case *IntegerLit:
		switch n.Radix {
		case 8:
			return "0" + strconv.FormatInt(n.Value, 8)
		case 16:
			return "0x" + strings.ToUpper(strconv.FormatInt(n.Value, 16))
		}
		return strconv.FormatInt(n.Value, 10)
	case *FloatLit:
		return rubyFloat(n.Value)
	case *BoolLit:
		return strconv.FormatBool(n.Value)
	case *UndefLit:
		return ":undef"
	case *DefaultLit:
		return ":default"
	case *RegexLit:
		return "/" + strings.ReplaceAll(n.Pattern, "/", `\/`) + "/"
	case *Variable:
		return "$" + n.Name
	case *QualifiedName:
		return n.Name
	case *TypeReference:
		return n.Name
	case *ArrayLit:
		return append([]pitem{"[]"}, pexprs(n.Elements)...)
	case *HashLit:
		l := []pitem{"{}"}
		for _, e := range n.Entries {
			l = append(l, []pitem{pdump(e.Key, false), pdump(e.Value, false)})
		}
		return l
	case *AccessExpr:
		if len(n.Keys) <= 1 {
			var k pitem = "()"
			if len(n.Keys) == 1 {
				k = pdump(n.Keys[0], false)
			}
			return []pitem{"slice", pdump(n.Operand, false), k}
		}
		return []pitem{"slice", pdump(n.Operand, false), pexprs(n.Keys)}
	case *CallExpr:
		head := "call"
		if stmtLevel {
			head = "invoke"
		}
		var callee pitem = n.Name
		if n.Callee != nil {
			callee = pdump(n.Callee, false)
		}
		l := append([]pitem{head, callee}, pexprs(n.Args)...)
		if n.Lambda != nil {
			l = append(l, pdump(n.Lambda, false))
		}
		return l
	case *ImportStmt:
		return append([]pitem{"invoke", "import"}, pexprs(n.Files)...)
	case *MethodCall:
		l := append([]pitem{"call-method", []pitem{".", pdump(n.Receiver, false), n.Name}}, pexprs(n.Args)...)
		if n.Lambda != nil {
			l = append(l, pdump(n.Lambda, false))
		}
		return l
	case *Lambda:
		l := []pitem{"lambda"}
		if len(n.Params) > 0 {
			l = append(l, pparams(n.Params))
		}
		if n.ReturnType != nil {
			l = append(l, []pitem{"return_type", pdump(n.ReturnType, false)})
		}
		return append(l, pbody(n.Body))
	case *UnaryExpr:
		op := n.Op.String()
		if n.Op == MUL {
			op = "unfold"
		}
		if n.Op == NOT {
			return []pitem{op, pformatString(pdump(n.Operand, false))}
		}
		return []pitem{op, pdump(n.Operand, false)}
	case *BinaryExpr:
		op := n.Op.String()
		switch n.Op {
		case AND:
			op = "&&"
		case OR:
			op = "||"
		}
		return []pitem{op, pdump(n.Left, false), pdump(n.Right, false)}
	case *AssignExpr:
		return []pitem{"=", pdump(n.Left, false), pdump(n.Right, false)}
	case *RelationshipExpr:
		return []pitem{n.Op.String(), pdump(n.Left, false), pdump(n.Right, false)}
	case *ParenExpr:
		return pdump(n.X, false)
	case *IfExpr:
		l := []pitem{"if", pdump(n.Cond, false), pindent, pbreak, []pitem{"then", pindent, pbranch(n.Then), pdedent}}
		if n.Else != nil {
			var e pitem
			if b, ok := n.Else.(*Block); ok {
				if len(b.Stmts) == 0 {
					return l
				}
				e = pbranch(b)
			} else {
				e = pdump(n.Else, false)
			}
			l = append(l, pbreak, []pitem{"else", pindent, e, pdedent}, pdedent)
		}
		return l
	case *UnlessExpr:
		l := []pitem{"unless", pdump(n.Cond, false), pindent, pbreak, []pitem{"then", pindent, pbranch(n.Then), pdedent}}
		if n.Else != nil && len(n.Else.Stmts) > 0 {
			l = append(l, pbreak, []pitem{"else", pindent, pbranch(n.Else), pdedent}, pdedent)
		}
		return l
	case *CaseExpr:
		l := []pitem{"case", pdump(n.Test, false), pindent}
		for _, o := range n.Options {
			l = append(l, pbreak, []pitem{"when", pexprs(o.Values), []pitem{"then", pbody(o.Body)}})
		}
		return append(l, pdedent)
	case *SelectorExpr:
		l := []pitem{"?", pdump(n.Test, false)}
		for _, o := range n.Options {
			l = append(l, []pitem{pdump(o.Match, false), "=>", pdump(o.Value, false)})
		}
		return l
	case *ResourceExpr:
		l := []pitem{pform(n.Form) + "resource", pdump(n.Type, false), pindent}
		for _, b := range n.Bodies {
			body := append([]pitem{pdump(b.Title, false), pindent}, pops(b.Ops)...)
			l = append(l, pbreak, append(body, pdedent))
		}
		return append(l, pdedent)
	case *ResourceDefaultsExpr:
		l := append([]pitem{pform(n.Form) + "resource-defaults", pdump(n.Type, false), pindent}, pops(n.Ops)...)
		return append(l, pdedent)
	case *ResourceOverrideExpr:
		l := append([]pitem{pform(n.Form) + "override", pdump(n.Resources, false), pindent}, pops(n.Ops)...)
		return append(l, pdedent)
	case *CollectExpr:
		q := []pitem{"<| |>"}
		if n.Exported {
			q = []pitem{"<<| |>>"}
		}
		if n.Query != nil {
			q = append(q, pdump(n.Query, false))
		}
		// Puppet's dumper never prints a collector's attribute operations.
		return []pitem{"collect", pdump(n.Type, false), pindent, pbreak, q, pindent, pdedent, pdedent}
	case *ClassDef:
		l := []pitem{"class", n.Name}
		if n.Parent != "" {
			l = append(l, []pitem{"inherits", n.Parent})
		}
		if len(n.Params) > 0 {
			l = append(l, pparams(n.Params))
		}
		return append(l, pbody(n.Body))
	case *DefineDef:
		l := []pitem{"define", n.Name}
		if len(n.Params) > 0 {
			l = append(l, pparams(n.Params))
		}
		return append(l, pbody(n.Body))
	case *FunctionDef:
		l := []pitem{"function", n.Name}
		if len(n.Params) > 0 {
			l = append(l, pparams(n.Params))
		}
		if n.ReturnType != nil {
			l = append(l, []pitem{"return_type", pdump(n.ReturnType, false)})
		}
		return append(l, pbody(n.Body))
	case *NodeDef:
		l := []pitem{"node", append([]pitem{"matches"}, pexprs(n.Names)...)}
		if n.Parent != nil {
			l = append(l, []pitem{"parent", pdump(n.Parent, false)})
		}
		return append(l, pbody(n.Body))
	case *TypeAlias:
		return []pitem{"type-alias", n.Name, pdump(n.Type, false)}
	case *Block:
		return pblock(n.Stmts)
	case *EPPProgram:
		l := []pitem{"lambda"}
		if len(n.Params) > 0 {
			l = append(l, pparams(n.Params))
		}
		return pformatString(append(l, []pitem{"epp", pbody(n.Body)}))
	case *RenderString:
		return []pitem{"render-s", " '" + n.Value + "'"}
	case *RenderExpr:
		return []pitem{"render", pdump(n.X, false)}
	}
	return "?"
}

func pform(f ResourceForm) string {
	if f == Regular {
		return ""
	}
	return f.String() + "-"
}

func pexprs(xs []Expr) []pitem {
	l := []pitem{}
	for _, x := range xs {
		l = append(l, pdump(x, false))
	}
	return l
}

func pops(ops []*AttributeOp) []pitem {
	var l []pitem
	for _, op := range ops {
		if op.Name == "*" {
			l = append(l, pbreak, []pitem{"* =>", pdump(op.Value, false)})
		} else {
			l = append(l, pbreak, []pitem{op.Name, op.Op.String(), pdump(op.Value, false)})
		}
	}
	return l
}

func pparams(ps []*Parameter) pitem {
	l := []pitem{"parameters"}
	for _, p := range ps {
		name := p.Name
		if p.CapturesRest {
			name = "*" + name
		}
		switch {
		case p.Default != nil && p.Type != nil:
			l = append(l, []pitem{"=t", pdump(p.Type, false), name, pdump(p.Default, false)})
		case p.Default != nil:
			l = append(l, []pitem{"=", name, pdump(p.Default, false)})
		case p.Type != nil:
			l = append(l, []pitem{"t", pdump(p.Type, false), name})
		default:
			l = append(l, name)
		}
	}
	return l
}

// pblock renders statements as a block; calls at statement level are
// "invoke"s.
func pblock(stmts []Expr) pitem {
	l := []pitem{"block", pindent}
	for _, s := range stmts {
		l = append(l, pbreak, pdump(s, true))
	}
	return append(l, pdedent, pbreak)
}

// pbody renders the body of a definition, lambda or case option: a block
// even for one statement, () when empty.
func pbody(b *Block) pitem {
	if b == nil || len(b.Stmts) == 0 {
		return "()"
	}
	return pblock(b.Stmts)
}

// pbranch renders an if or unless branch: the statement itself when there
// is one.
func pbranch(b *Block) pitem {
	switch {
	case b == nil || len(b.Stmts) == 0:
		return "()"
	case len(b.Stmts) == 1:
		return pdump(b.Stmts[0], true)
	}
	return pblock(b.Stmts)
}

// rubyFloat formats f as Ruby's Float#to_s does.
func rubyFloat(f float64) string {
	if f == 0 {
		return "0.0"
	}
	exp := math.Floor(math.Log10(math.Abs(f)))
	if exp < -4 || exp >= 16 {
		s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+20, 1.5e-05
		mant, e, _ := strings.Cut(s, "e")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		sign := e[0]
		digits := strings.TrimLeft(e[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + string(sign) + digits
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pformatString lays out an item as Puppet's TreeDumper.format does: parts
// are separated by a space, except before ")", after a part that ends a
// line with whitespace or "(", and before a part that starts a line with
// whitespace (Ruby's ^ and $ match at every line).
func pformatString(it pitem) string {
	var parts []string
	indent := 0
	var flatten func(x pitem)
	flatten = func(x pitem) {
		switch x := x.(type) {
		case pmark:
			switch x {
			case pbreak:
				parts = append(parts, "\n"+strings.Repeat("  ", indent))
			case pindent:
				indent++
			case pdedent:
				indent--
			}
		case []pitem:
			parts = append(parts, "(")
			for _, y := range x {
				flatten(y)
			}
			parts = append(parts, ")")
		case string:
			parts = append(parts, x)
		}
	}
	flatten(it)
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && p != ")" && !endsLineWithSpaceOrParen.MatchString(parts[i-1]) && !startsLineWithSpace.MatchString(p) {
			b.WriteByte(' ')
		}
		b.WriteString(p)
	}
	return b.String()
}

var (
	endsLineWithSpaceOrParen = regexp.MustCompile(`(?m).*(?:[ \t\r\n\f\v]+|\()$`)
	startsLineWithSpace      = regexp.MustCompile(`(?m)^[ \t\r\n\f\v]+`)
)

func TestPuppetDumpCorpus(t *testing.T) {
	if os.Getenv("MARIONETTE_PUPPET_DIFF") == "" {
		t.Skip("set MARIONETTE_PUPPET_DIFF=1 to compare trees with puppet parser dump")
	}
	puppet, err := exec.LookPath("puppet")
	if err != nil {
		t.Skip("puppet is not installed")
	}
	var paths []string
	for _, cf := range corpusFiles(t) {
		if cf.ok {
			paths = append(paths, cf.path)
		}
	}
	dir := t.TempDir()
	const chunk = 300
	mismatches := 0
	for lo := 0; lo < len(paths); lo += chunk {
		hi := min(lo+chunk, len(paths))
		args := []string{"parser", "dump", "--confdir", dir, "--vardir", dir, "--codedir", dir, "--logdir", dir}
		out, err := exec.Command(puppet, append(args, paths[lo:hi]...)...).Output()
		if err != nil {
			t.Fatalf("puppet parser dump: %v", err)
		}
		text := string(out)
		for i := lo; i < hi; i++ {
			header := "--- " + paths[i]
			start := strings.Index(text, header)
			if start < 0 {
				t.Errorf("%s: not in Puppet's output", paths[i])
				continue
			}
			rest := text[start+len(header):]
			end := len(rest)
			if i+1 < hi {
				if j := strings.Index(rest, "--- "+paths[i+1]); j >= 0 {
					end = j
				}
			}
			want := strings.TrimSuffix(rest[:end], "\n")
			text = rest[end:]
			src, err := os.ReadFile(paths[i])
			if err != nil {
				t.Fatal(err)
			}
			prog, err := ParseFile(paths[i], src)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			got := pformatString(pdump(prog, false))
			if got != want {
				mismatches++
				k := 0
				for k < len(got) && k < len(want) && got[k] == want[k] {
					k++
				}
				from := max(0, k-80)
				t.Errorf("%s: trees differ at byte %d:\n got: ...%s\nwant: ...%s", paths[i], k, got[from:min(len(got), k+80)], want[from:min(len(want), k+80)])
			}
		}
	}
	t.Logf("%d files compared, %d differ", len(paths), mismatches)
}

// TestPuppetDumpGolden compares the trees of the golden parse inputs with
// Puppet's.
func TestPuppetDumpGolden(t *testing.T) {
	if os.Getenv("MARIONETTE_PUPPET_DIFF") == "" {
		t.Skip("set MARIONETTE_PUPPET_DIFF=1 to compare trees with puppet parser dump")
	}
	puppet, err := exec.LookPath("puppet")
	if err != nil {
		t.Skip("puppet is not installed")
	}
	dir := t.TempDir()
	paths, _ := filepath.Glob("testdata/parse/*.txtar")
	var files []string
	srcs := map[string]string{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range parseArchive(string(data)).files {
			if !strings.HasSuffix(f.name, ".pp") {
				continue
			}
			name := filepath.Join(dir, f.name)
			if err := os.WriteFile(name, []byte(f.data), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
			srcs[name] = f.data
		}
	}
	args := []string{"parser", "dump", "--confdir", dir, "--vardir", dir, "--codedir", dir, "--logdir", dir}
	out, _ := exec.Command(puppet, append(args, files...)...).CombinedOutput()
	text := string(out)
	text = strings.NewReplacer("\x1b[1;31m", "", "\x1b[0m", "").Replace(text)
	compared := 0
	for i, name := range files {
		header := "--- " + name
		start := strings.Index(text, header)
		if start < 0 {
			t.Logf("%s: Puppet gives no tree", filepath.Base(name))
			continue
		}
		rest := text[start+len(header):]
		end := len(rest)
		for _, later := range files[i+1:] {
			if j := strings.Index(rest, "--- "+later); j >= 0 {
				end = j
				break
			}
		}
		want := strings.TrimSuffix(rest[:end], "\n")
		if strings.Contains(want, "Error:") {
			t.Logf("%s: Puppet reports an error", filepath.Base(name))
			continue
		}
		prog, err := ParseFile(name, []byte(srcs[name]))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		compared++
		if got := pformatString(pdump(prog, false)); got != want {
			t.Errorf("%s:\n got: %s\nwant: %s", filepath.Base(name), got, want)
		}
	}
	t.Logf("%d golden inputs compared with Puppet", compared)
}

// TestPuppetDumpEPP compares the trees of the corpus templates and the
// golden EPP inputs with Puppet's.
func TestPuppetDumpEPP(t *testing.T) {
	if os.Getenv("MARIONETTE_PUPPET_DIFF") == "" {
		t.Skip("set MARIONETTE_PUPPET_DIFF=1 to compare trees with puppet epp dump")
	}
	puppet, err := exec.LookPath("puppet")
	if err != nil {
		t.Skip("puppet is not installed")
	}
	dir := t.TempDir()
	var files []string
	filepath.WalkDir(modulesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".epp") {
			files = append(files, path)
		}
		return nil
	})
	paths, _ := filepath.Glob("testdata/parse/*.txtar")
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range parseArchive(string(data)).files {
			if strings.HasSuffix(f.name, ".epp") {
				name := filepath.Join(dir, f.name)
				if err := os.WriteFile(name, []byte(f.data), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, name)
			}
		}
	}
	args := []string{"epp", "dump", "--confdir", dir, "--vardir", dir, "--codedir", dir, "--logdir", dir}
	out, _ := exec.Command(puppet, append(args, files...)...).CombinedOutput()
	text := strings.NewReplacer("\x1b[1;31m", "", "\x1b[0m", "").Replace(string(out))
	compared := 0
	for i, name := range files {
		header := "--- " + name + "\n"
		start := strings.Index(text, header)
		if start < 0 {
			t.Logf("%s: Puppet gives no tree", name)
			continue
		}
		rest := text[start+len(header):]
		end := len(rest)
		for _, later := range files[i+1:] {
			if j := strings.Index(rest, "--- "+later); j >= 0 {
				end = j
				break
			}
		}
		want := strings.TrimSuffix(rest[:end], "\n")
		if strings.Contains(want, "Error:") {
			t.Logf("%s: Puppet reports an error", name)
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := ParseEPP(name, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		compared++
		if got := pdump(prog, false).(string); got != want {
			t.Errorf("%s:\n got: %s\nwant: %s", name, got, want)
		}
	}
	t.Logf("%d templates compared with Puppet", compared)
}

// TestPuppetErrorsMutants compares our first error with Puppet's on
// mutants of corpus files: each has one character deleted or inserted, a
// short run deleted, or two characters swapped.
func TestPuppetErrorsMutants(t *testing.T) {
	var srcs [][]byte
	for _, cf := range corpusFiles(t) {
		if src, err := os.ReadFile(cf.path); err == nil && cf.ok && len(src) > 20 {
			srcs = append(srcs, src)
		}
	}
	comparePuppetErrors(t, srcs, ".pp", "parser", 600, "{}[]()\"',;:=>$|@-+*/<!.%~?#\\\n ")
}

// TestPuppetErrorsMutantsEPP does the same for the corpus templates.
func TestPuppetErrorsMutantsEPP(t *testing.T) {
	var srcs [][]byte
	filepath.WalkDir(modulesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".epp") {
			if src, err := os.ReadFile(path); err == nil && len(src) > 5 {
				srcs = append(srcs, src)
			}
		}
		return nil
	})
	if len(srcs) == 0 {
		t.Skip("no EPP templates installed")
	}
	comparePuppetErrors(t, srcs, ".epp", "epp", 300, "<%=-#{}()\"'$|\n")
}

// comparePuppetErrors writes count mutants of srcs, has "puppet SUBCOMMAND
// dump" read them, and compares its first error on each with ours.
func comparePuppetErrors(t *testing.T, srcs [][]byte, ext, subcommand string, count int, chars string) {
	if os.Getenv("MARIONETTE_PUPPET_DIFF") == "" {
		t.Skip("set MARIONETTE_PUPPET_DIFF=1 to compare errors with Puppet's")
	}
	puppet, err := exec.LookPath("puppet")
	if err != nil {
		t.Skip("puppet is not installed")
	}
	dir := t.TempDir()
	seed := uint64(1)
	if v, err := strconv.ParseUint(os.Getenv("MARIONETTE_MUTANT_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	var files []string
	for k := 0; k < count; k++ {
		src := srcs[rng.IntN(len(srcs))]
		i := rng.IntN(len(src))
		var m []byte
		switch r := rng.IntN(10); {
		case r < 3:
			m = append(append(m, src[:i]...), src[i+1:]...)
		case r < 6:
			m = append(append(append(m, src[:i]...), chars[rng.IntN(len(chars))]), src[i:]...)
		case r < 8:
			j := min(len(src), i+1+rng.IntN(30))
			m = append(append(m, src[:i]...), src[j:]...)
		default:
			j := rng.IntN(len(src))
			m = append(m, src...)
			m[i], m[j] = m[j], m[i]
		}
		name := filepath.Join(dir, fmt.Sprintf("m%04d%s", k, ext))
		if err := os.WriteFile(name, m, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}

	// Run Puppet in batches. An invalid regex makes it give up on the
	// whole batch; such files are dropped.
	args := []string{subcommand, "dump", "--confdir", dir, "--vardir", dir, "--codedir", dir, "--logdir", dir}
	run := func(batch []string) (string, string, bool) {
		cmd := exec.Command(puppet, append(args, batch...)...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		errText := strings.NewReplacer("\x1b[1;31m", "", "\x1b[0m", "").Replace(stderr.String())
		return stdout.String(), errText, !strings.Contains(errText, "Try 'puppet help")
	}
	var outs, errs strings.Builder
	var kept []string
	for lo := 0; lo < len(files); lo += 40 {
		batch := files[lo:min(lo+40, len(files))]
		if o, e, ok := run(batch); ok {
			outs.WriteString(o)
			errs.WriteString(e)
			kept = append(kept, batch...)
			continue
		}
		for _, f := range batch {
			if o, e, ok := run([]string{f}); ok {
				outs.WriteString(o)
				errs.WriteString(e)
				kept = append(kept, f)
			}
		}
	}
	stdout, stderr := outs.String(), errs.String()
	// Puppet writes "Error: --- FILE" and "Error: MESSAGE (line: L,
	// column: C)" for each file it rejects; the message may span lines.
	puppetErrors := map[string]string{}
	for _, rec := range strings.Split(stderr, "Error: --- ")[1:] {
		name, msg, _ := strings.Cut(rec, "\n")
		msg = strings.TrimPrefix(msg, "Error: ")
		msg, _, _ = strings.Cut(msg, "\nError: ") // the first error only
		var lines []string
		for _, l := range strings.SplitAfter(msg, "\n") {
			if !strings.Contains(l, ": warning: ") {
				lines = append(lines, l)
			}
		}
		puppetErrors[name] = strings.TrimSuffix(strings.Join(lines, ""), "\n")
	}
	where := regexp.MustCompile(` \((?:file: [^,)]*)?(?:, )?(?:line: (\d+), column: (\d+))?\)$`)
	agree := 0
	for _, name := range kept {
		src, _ := os.ReadFile(name)
		var ourErr error
		if ext == ".epp" {
			_, ourErr = ParseEPP(name, src)
		} else {
			_, ourErr = ParseFile(name, src)
		}
		var ours *diag.Diagnostic
		if ourErr != nil {
			ours = ourErr.(diag.List)[0]
		}
		msg, rejected := puppetErrors[name]
		if !rejected {
			switch {
			case !strings.Contains(stdout, "--- "+name):
				t.Logf("%s: Puppet gives neither a tree nor an error", name)
			case ours == nil || isValidationError(ours.Message):
				agree++
			default:
				t.Errorf("%s: Puppet accepts it, we report %v", name, ours)
			}
			continue
		}
		want := "end of input"
		if m := where.FindStringSubmatchIndex(msg); m != nil {
			if m[2] >= 0 {
				want = msg[m[2]:m[3]] + ":" + msg[m[4]:m[5]]
			}
			msg = msg[:m[0]]
		}
		if ours == nil {
			// "puppet epp dump" also validates the template.
			if strings.Contains(msg, "has no effect") || strings.Contains(msg, "validation logged") {
				agree++
				continue
			}
			t.Errorf("%s: Puppet reports %q at %s, we accept it", name, msg, want)
			continue
		}
		if strings.Contains(msg, "validation logged") && isValidationError(ours.Message) {
			// Puppet's validator found errors, ours among them; it prints
			// them apart from the file's header.
			agree++
			continue
		}
		got := fmt.Sprintf("%d:%d", ours.Range.Start.Line, ours.Range.Start.Column)
		ourMsg, _, _ := strings.Cut(ours.Message, "; expected ")
		if (got == want || want == "end of input" && strings.Contains(ourMsg, "end of input")) && ourMsg == msg {
			agree++
			continue
		}
		t.Errorf("%s:\n got: %s: %s\nwant: %s: %s", name, got, ourMsg, want, msg)
		if keep := os.Getenv("MARIONETTE_KEEP_MUTANTS"); keep != "" {
			os.WriteFile(filepath.Join(keep, filepath.Base(name)), src, 0o644)
		}
	}
	t.Logf("%d of %d mutants agree with Puppet", agree, len(kept))
}

// isValidationError reports whether msg is one of the errors that Puppet
// reports when validating, not when parsing.
func isValidationError(msg string) bool {
	for _, prefix := range []string{"Illegal variable name", "Illegal expression.", "This expression is invalid.",
		"Use of reserved word", "Expressions of type", "The operator", "Integer literal out of range"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}
