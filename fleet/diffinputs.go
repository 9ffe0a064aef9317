package fleet

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/value"
)

// FactOverride replaces one fact, or one key of a structured fact, in
// every node's facts: --fact-override os.release.major=12.
type FactOverride struct {
	// Path is the fact's name and the keys below it.
	Path []string
	// Value is the new value; nil removes the fact.
	Value value.Value
	// Raw is VALUE as given; guessed is set when its type was guessed
	// (no (type) prefix): then a String fact stays a String, so that
	// os.release.major=12 replaces Facter's '11' with '12', not 12.
	Raw     string
	guessed bool
}

// ParseFactOverride reads NAME[.KEY...]=VALUE. VALUE replacing a String
// fact is a String; otherwise it is an Integer, Float, Boolean or JSON
// ([...], {...}, "...") when it reads as one, and a String otherwise.
// NAME= with nothing after removes the fact.
// octocatalog-diff's (type)value forms are accepted for string, integer,
// float, boolean and json.
func ParseFactOverride(s string) (FactOverride, error) {
	name, raw, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return FactOverride{}, fmt.Errorf("fact override %q: want NAME=VALUE (NAME may be a dotted path, such as os.release.major)", s)
	}
	o := FactOverride{Path: strings.Split(name, ".")}
	for _, p := range o.Path {
		if p == "" {
			return o, fmt.Errorf("fact override %q: empty key in %s", s, name)
		}
	}
	if raw == "" {
		return o, nil
	}
	kind := ""
	if strings.HasPrefix(raw, "(") {
		if end := strings.IndexByte(raw, ')'); end > 0 {
			kind, raw = raw[1:end], raw[end+1:]
		}
	}
	v, err := overrideValue(kind, raw)
	if err != nil {
		return o, fmt.Errorf("fact override %q: %v", s, err)
	}
	o.Value, o.Raw, o.guessed = v, raw, kind == ""
	return o, nil
}

func overrideValue(kind, raw string) (value.Value, error) {
	switch kind {
	case "string":
		return value.String(raw), nil
	case "integer":
		n, err := strconv.ParseInt(raw, 10, 64)
		return value.Integer(n), err
	case "float":
		f, err := strconv.ParseFloat(raw, 64)
		return value.Float(f), err
	case "boolean":
		b, err := strconv.ParseBool(raw)
		return value.Boolean(b), err
	case "json":
		return dataformat.FromJSON([]byte(raw), "--fact-override")
	case "":
	default:
		return nil, fmt.Errorf("unknown type (%s): want string, integer, float, boolean or json", kind)
	}
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil && !strings.HasPrefix(raw, "0") || raw == "0" {
		return value.Integer(n), nil
	}
	switch raw {
	case "true":
		return value.True, nil
	case "false":
		return value.False, nil
	}
	if f, err := strconv.ParseFloat(raw, 64); err == nil && strings.Contains(raw, ".") && !strings.HasPrefix(raw, ".") {
		return value.Float(f), nil
	}
	if strings.HasPrefix(raw, "[") || strings.HasPrefix(raw, "{") || strings.HasPrefix(raw, `"`) {
		return dataformat.FromJSON([]byte(raw), "--fact-override")
	}
	return value.String(raw), nil
}

// ApplyFactOverrides returns facts with the overrides applied in order;
// facts itself is not changed. A key below a fact that is not a hash
// replaces that fact with a hash.
func ApplyFactOverrides(facts *value.Hash, overrides []FactOverride) *value.Hash {
	for _, o := range overrides {
		facts = setPath(facts, o.Path, o)
	}
	return facts
}

func setPath(h *value.Hash, path []string, o FactOverride) *value.Hash {
	if h == nil {
		h = value.EmptyHash
	}
	b := value.NewHashBuilder(h.Len() + 1)
	for i := range h.Len() {
		k, old := h.At(i)
		b.Set(k, old)
	}
	key := value.String(path[0])
	switch {
	case len(path) > 1:
		inner, _ := h.GetString(path[0])
		ih, _ := inner.(*value.Hash)
		b.Set(key, setPath(ih, path[1:], o))
	case o.Value == nil:
		b.Delete(key)
	default:
		v := o.Value
		if old, ok := h.GetString(path[0]); ok && o.guessed {
			if _, isString := old.(value.String); isString {
				v = value.String(o.Raw)
			}
		}
		b.Set(key, v)
	}
	return b.Build()
}

// WithoutTrusted is facts without the "trusted" hash, which PuppetDB
// and saved facts carry beside the agent's facts: it is no fact to
// Puppet (TrustedFromFacts makes it $trusted).
func WithoutTrusted(facts *value.Hash) *value.Hash {
	if facts == nil {
		return nil
	}
	if _, ok := facts.GetString("trusted"); !ok {
		return facts
	}
	b := value.NewHashBuilder(facts.Len())
	for i := range facts.Len() {
		k, v := facts.At(i)
		b.Set(k, v)
	}
	b.Delete(value.String("trusted"))
	return b.Build()
}

// TrustedFromFacts is $trusted taken from the facts' "trusted" hash, as
// a node's certificate would give it to a compile server: certname and
// extensions (pp_role, pp_environment, ...) from the facts, authenticated
// "remote". Facts saved from an agent (puppet facts, PuppetDB) carry it;
// without it a CLI compile's $trusted['extensions'] is always empty. Nil
// when the facts have no "trusted" hash.
func TrustedFromFacts(node string, facts *value.Hash) *compiler.TrustedInfo {
	if facts == nil {
		return nil
	}
	t, ok := facts.GetString("trusted")
	th, isHash := t.(*value.Hash)
	if !ok || !isHash {
		return nil
	}
	str := func(k, def string) string {
		if v, ok := th.GetString(k); ok {
			if s, ok := v.(value.String); ok && s != "" {
				return string(s)
			}
		}
		return def
	}
	certname := str("certname", node)
	host, domain, hasDomain := strings.Cut(certname, ".")
	domainValue := value.Value(value.Undef)
	if d := str("domain", domain); hasDomain || d != "" {
		domainValue = value.String(d)
	}
	hashOf := func(k string) *value.Hash {
		if v, ok := th.GetString(k); ok {
			if h, ok := v.(*value.Hash); ok {
				return h
			}
		}
		return value.EmptyHash
	}
	return &compiler.TrustedInfo{Hash: value.NewHash(
		value.String("authenticated"), value.String(str("authenticated", "remote")),
		value.String("certname"), value.String(certname),
		value.String("extensions"), hashOf("extensions"),
		value.String("hostname"), value.String(str("hostname", host)),
		value.String("domain"), domainValue,
		value.String("external"), hashOf("external"),
	)}
}

// maxSourceBytes bounds the file text read for one source.
const maxSourceBytes = 4 << 20

// addSourceContent sets, on every File resource whose source names a file
// of the side's modules (puppet:///modules/MODULE/PATH), the file's text as
// catalogdiff.SourceContentParam: a change to the file then shows as a
// change of the resource, as octocatalog-diff's --compare-file-text does.
// A list of sources takes the first that exists, as the agent does.
// reads, when set, records the files looked at, found or not.
func (s *DiffSide) addSourceContent(cat *catalogdiff.Catalog, reads *readset.Recorder) {
	for _, r := range cat.Resources {
		if r.Type != "File" || r.Params == nil {
			continue
		}
		var sources []string
		switch src := r.Params["source"].(type) {
		case string:
			sources = []string{src}
		case []any:
			for _, x := range src {
				if str, ok := x.(string); ok {
					sources = append(sources, str)
				}
			}
		}
		if len(sources) == 0 {
			continue
		}
		text, ok := s.sourceText(sources, reads)
		if ok {
			r.Params[catalogdiff.SourceContentParam] = text
		}
	}
}

// sourceText reads the first of the sources that is a file of the side's
// modules. ok is false when no source is a puppet:///modules/ URL (the
// agent reads other sources); a missing file gives a text that says so.
// Binary or very large files are shown by their SHA-256.
func (s *DiffSide) sourceText(sources []string, reads *readset.Recorder) (text string, ok bool) {
	var tried []string
	for _, src := range sources {
		rest, isModule := strings.CutPrefix(src, "puppet:///modules/")
		if !isModule {
			// puppet://SERVER/modules/... names the same mount.
			if after, found := strings.CutPrefix(src, "puppet://"); found {
				if _, path, hasPath := strings.Cut(after, "/"); hasPath {
					rest, isModule = strings.CutPrefix(path, "modules/")
				}
			}
		}
		if !isModule {
			continue
		}
		module, file, _ := strings.Cut(rest, "/")
		if module == "" || file == "" || !filepath.IsLocal(filepath.FromSlash(file)) {
			continue
		}
		tried = append(tried, src)
		mf := s.moduleFile(module, file)
		for _, p := range mf.probed {
			reads.File(p)
		}
		switch {
		case mf.dir:
			return fmt.Sprintf("(directory %s)", src), true
		case mf.found:
			return mf.text, true
		}
	}
	if len(tried) == 0 {
		return "", false
	}
	return fmt.Sprintf("(no such file in the modules: %s)", strings.Join(tried, ", ")), true
}

// sourceFile is what a side's modules hold for one module file
// (MODULE/files/FILE): the text of the first module path directory's that
// exists, and the paths looked at for it, found or not.
type sourceFile struct {
	found, dir bool
	text       string
	probed     []string
}

// moduleFile finds the file of a module's files/ directory, once per
// side: the code of a side does not change while it is compared, and a
// fleet's nodes name the same few files.
func (s *DiffSide) moduleFile(module, file string) *sourceFile {
	key := module + "/" + file
	if mf, ok := s.sources.Load(key); ok {
		return mf.(*sourceFile)
	}
	mf := &sourceFile{}
	for _, mp := range s.env.ModulePath {
		p := filepath.Join(mp, module, "files", filepath.FromSlash(file))
		mf.probed = append(mf.probed, p)
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		mf.found, mf.dir = true, st.IsDir()
		if !mf.dir {
			mf.text, _ = readSource(p, st.Size())
		}
		break
	}
	actual, _ := s.sources.LoadOrStore(key, mf)
	return actual.(*sourceFile)
}

func readSource(path string, size int64) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(unreadable: %v)", err), true
	}
	defer f.Close()
	if size > maxSourceBytes {
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return fmt.Sprintf("(unreadable: %v)", err), true
		}
		return fmt.Sprintf("(%d bytes, sha256 %x)", size, h.Sum(nil)), true
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fmt.Sprintf("(unreadable: %v)", err), true
	}
	if !utf8.Valid(data) {
		return fmt.Sprintf("(binary, %d bytes, sha256 %x)", len(data), sha256.Sum256(data)), true
	}
	return string(data), true
}
