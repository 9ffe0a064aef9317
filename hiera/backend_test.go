package hiera

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// fakeBackends stands for a module's functions: each records its calls.
type fakeBackends struct {
	calls []string
}

func (f *fakeBackends) call(function string, args []value.Value) (value.Value, error) {
	lc := args[len(args)-1].(*LookupContext)
	opts := args[len(args)-2].(*value.Hash)
	f.calls = append(f.calls, fmt.Sprintf("%s%v", function, args[:len(args)-1]))
	if len(args) == 3 && (args[0] == value.String("lookup_options") || value.Identical(args[0], value.Array{value.String("lookup_options")})) {
		return lc.ContextMethod("not_found", nil)
	}
	switch function {
	case "m::hash":
		loc, _ := opts.GetString("path")
		return value.NewHash(value.String("k"), value.String(fmt.Sprintf("hash %v at %%{host}", loc)),
			value.String("n"), value.Integer(1)), nil
	case "m::keys":
		if args[0] != value.String("k") {
			return lc.ContextMethod("not_found", nil)
		}
		if v, _ := lc.ContextMethod("cache_has_key", args[:1]); v == value.True {
			return lc.ContextMethod("cached_value", args[:1])
		}
		iv, err := lc.ContextMethod("interpolate", []value.Value{value.String("key at %{host}")})
		if err != nil {
			return nil, err
		}
		return lc.ContextMethod("cache", []value.Value{args[0], iv})
	case "m::uri":
		u, _ := opts.GetString("uri")
		if !strings.HasSuffix(value.ToString(u), "/two") {
			return lc.ContextMethod("not_found", nil)
		}
		return u, nil
	case "m::dig":
		return value.String(fmt.Sprintf("dug %v", args[0])), nil
	case "m::context":
		env, _ := lc.ContextMethod("environment_name", nil)
		mod, _ := lc.ContextMethod("module_name", nil)
		return value.NewHash(value.String("k"), value.Array{env, mod}), nil
	case "m::not_a_hash":
		return value.String("oops"), nil
	}
	return nil, ErrUnknownBackend
}

func TestCustomBackends(t *testing.T) {
	tests := []struct {
		name, level, key string
		want             value.Value
		calls            int
		err              string
	}{
		{name: "data_hash without location", level: "data_hash: m::hash", key: "k", want: value.String("hash <nil> at h1"), calls: 1},
		{name: "data_hash called once for many keys", level: "data_hash: m::hash", key: "k n", want: value.Integer(1), calls: 1},
		{name: "data_hash with a path", level: "data_hash: m::hash\n    path: here.txt", key: "k", want: value.String("hash DATA/here.txt at h1"), calls: 1},
		{name: "data_hash skips missing paths", level: "data_hash: m::hash\n    paths: [gone.txt]", key: "k", calls: 0, err: "not found"},
		{name: "lookup_key caches and interpolates", level: "lookup_key: m::keys", key: "k k", want: value.String("key at h1"), calls: 1},
		{name: "lookup_key not_found", level: "lookup_key: m::keys", key: "other", calls: 1, err: "not found"},
		{name: "uris in order", level: "lookup_key: m::uri\n    uris: ['http://x/one', 'http://x/%{two}']", key: "k", want: value.String("http://x/two"), calls: 2},
		{name: "data_dig gets the whole key", level: "data_dig: m::dig", key: "k.a.0", want: value.String("dug [k a 0]"), calls: 1},
		{name: "context names", level: "data_hash: m::context", key: "k", want: value.Array{value.String("production"), value.Undef}, calls: 1},
		{name: "data_hash must give a hash", level: "data_hash: m::not_a_hash", key: "k", calls: 1,
			err: "Value returned from data_hash function 'm::not_a_hash', when using location '', has wrong type, expects a Hash value, got String"},
		{name: "unknown function", level: "lookup_key: m::nope", key: "k", calls: 1, err: "Unable to find 'lookup_key' function named 'm::nope' (file: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{
				"hiera.yaml":    "version: 5\nhierarchy:\n  - name: custom\n    " + tt.level + "\n",
				"data/here.txt": "",
			})
			fb := &fakeBackends{}
			s := NewSession(Options{GlobalConfig: filepath.Join(dir, "hiera.yaml"), Backend: fb.call, EnvironmentName: "production"},
				mapScope{"host": value.String("h1"), "two": value.String("two")})
			var v value.Value
			var err error
			for _, k := range strings.Fields(tt.key) {
				if v, err = s.Lookup(Request{Keys: []string{k}}); err != nil {
					break
				}
			}
			switch {
			case tt.err == "not found":
				if _, ok := err.(*NotFound); !ok {
					t.Fatalf("got %v, %v; want not found", v, err)
				}
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			default:
				want := tt.want
				if ws, ok := want.(value.String); ok {
					want = value.String(strings.ReplaceAll(string(ws), "DATA", filepath.Join(dir, "data")))
				}
				if !value.Identical(v, want) {
					t.Errorf("got %v, want %v", v, want)
				}
			}
			// lookup_options is asked first, once per location.
			keys := 0
			for _, c := range fb.calls {
				if !strings.Contains(c, "lookup_options") {
					keys++
				}
			}
			if got := keys; got != tt.calls {
				t.Errorf("%d calls, want %d (and lookup_options): %v", got, tt.calls, fb.calls)
			}
		})
	}
}

func TestCustomBackendWithoutHost(t *testing.T) {
	dir := writeTree(t, map[string]string{"hiera.yaml": "version: 5\nhierarchy:\n  - name: custom\n    lookup_key: m::keys\n"})
	_, err := NewSession(Options{GlobalConfig: filepath.Join(dir, "hiera.yaml")}, nil).Lookup(Request{Keys: []string{"k"}})
	if err == nil || !strings.Contains(err.Error(), "lookup_key function 'm::keys' is not supported here") {
		t.Fatalf("error %v", err)
	}
}
