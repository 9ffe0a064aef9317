package stdlib

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// stdlib 9 moved its 4.x functions into the stdlib:: namespace and left
// deprecated shims under the old names (a warning, then the namespaced
// call), removed the is_* and most validate_* functions and a few other
// 3.x leftovers, and added new namespaced functions.

// FunctionsFor returns the table of stdlib functions for the given version
// of puppetlabs-stdlib (its metadata.json "version"): the 9.x set for major
// version 9 and later, the 8.5 set (Functions) otherwise or when the version
// cannot be read, with the older ensure_packages before 8.0, the older
// delete_undef_values before 5.1 and the older any2array before 5.0.
func FunctionsFor(version string) functions.Table {
	major, rest, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(version), "v"), ".")
	if n, err := strconv.Atoi(major); err == nil && n >= 9 {
		minorText, _, _ := strings.Cut(rest, ".")
		minor, _ := strconv.Atoi(minorText)
		// 9.0 and 9.1 generated every shim alike; 9.2 made the
		// ensure_packages shim pass on its caller's scope.
		t := functions9(n == 9 && minor < 2)
		if n == 9 && minor < 4 {
			// Until 9.4 fqdn_rotate was still the 3.x function (seeded
			// with all facts), and stdlib::fqdn_rotate did not exist.
			t["fqdn_rotate"] = legacy(fqdnRotateFactsSeed)
			delete(t, "stdlib::fqdn_rotate")
		}
		return t
	} else if err == nil && n < 8 {
		t := Functions()
		t["ensure_packages"] = arity("ensure_packages", 1, 2, ensurePackagesPre8)
		minorText, _, _ := strings.Cut(rest, ".")
		if n < 5 {
			t["any2array"] = legacy(any2arrayPre5)
		}
		if minor, _ := strconv.Atoi(minorText); n < 5 || n == 5 && minor < 1 {
			t["delete_undef_values"] = legacy(deleteUndefValuesPre51)
		}
		return t
	}
	return Functions()
}

// removedIn9 are the 8.5 functions stdlib 9 no longer ships.
var removedIn9 = []string{
	"dig44", "has_key", "hash", "is_absolute_path", "is_array", "is_bool",
	"is_domain_name", "is_email_address", "is_float", "is_function_available",
	"is_hash", "is_integer", "is_ip_address", "is_ipv4_address",
	"is_ipv6_address", "is_mac_address", "is_numeric", "is_string", "private",
	"sprintf_hash", "try_get_value", "type3x", "validate_absolute_path",
	"validate_array", "validate_bool", "validate_hash", "validate_integer",
	"validate_ip_address", "validate_ipv4_address", "validate_ipv6_address",
	"validate_numeric", "validate_re", "validate_slength", "validate_string",
}

// shimmedIn9 are the top-level names that stdlib 9 keeps as deprecated
// shims of stdlib::<name>.
var shimmedIn9 = []string{
	"batch_escape", "ensure_packages", "fqdn_rand_string", "fqdn_rotate",
	"has_interface_with", "merge", "os_version_gte", "parsehocon",
	"powershell_escape", "seeded_rand", "seeded_rand_string", "shell_escape",
	"to_json", "to_json_pretty", "to_python", "to_ruby", "to_toml", "to_yaml",
	"type_of", "validate_domain_name", "validate_email_address",
}

// functions9 is the 9.x table; topScopeEnsurePackages is set for 9.0 and
// 9.1, whose ensure_packages shim declares in the top scope.
func functions9(topScopeEnsurePackages bool) functions.Table {
	t := Functions()
	for _, name := range removedIn9 {
		delete(t, name)
	}
	// The 4.x functions whose behaviour 9 keeps, now under stdlib::.
	for _, name := range []string{
		"batch_escape", "ensure_packages", "os_version_gte",
		"powershell_escape", "shell_escape", "to_json", "to_json_pretty",
		"to_python", "to_ruby", "to_yaml", "type_of", "seeded_rand_string",
	} {
		t["stdlib::"+name] = renamed(name, "stdlib::"+name, t[name])
	}
	t["stdlib::merge"] = stdlibMerge
	t["stdlib::os_version_gte"] = osVersionGTE9
	t["stdlib::ensure_packages"] = renamed("ensure_packages", "stdlib::ensure_packages", ensurePackages9)
	t["stdlib::crc32"] = digestFunc("stdlib::crc32", func(b []byte) string {
		return strconv.FormatUint(uint64(crc32.ChecksumIEEE(b)), 16)
	})
	t["stdlib::sha256"] = digestFunc("stdlib::sha256", func(b []byte) string {
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])
	})
	t["stdlib::nested_values"] = functions.Dispatch("stdlib::nested_values",
		functions.Fixed(nestedValues, functions.P("hash", value.HashAny)))
	t["stdlib::to_toml"] = functions.Dispatch("stdlib::to_toml",
		functions.Fixed(toTOML, functions.P("data", value.HashAny)))
	t["stdlib::parsehocon"] = parseHOCON("stdlib::parsehocon")
	t["stdlib::has_function"] = functions.Dispatch("stdlib::has_function",
		functions.Fixed(hasFunction, functions.P("function_name", &value.StringType{Min: 1, Max: value.MaxInt})))
	t["stdlib::sort_by"] = sortBy()
	t["stdlib::fqdn_rand_string"] = fqdnRandString9()
	t["stdlib::fqdn_rotate"] = fqdnRotate9()
	t["stdlib::seeded_rand"] = seededRand9()
	t["stdlib::has_interface_with"] = hasInterfaceWith9()
	t["stdlib::validate_domain_name"] = patternValidator("stdlib::validate_domain_name",
		"Variant[Stdlib::Fqdn = Pattern[/"+fqdnPattern+"/], Stdlib::Dns::Zone = Pattern[/"+zonePattern+"/]]", fqdnPattern, zonePattern)
	t["stdlib::validate_email_address"] = patternValidator("stdlib::validate_email_address",
		"Stdlib::Email = Pattern[/"+emailPattern+"/]", emailPattern)
	t["deprecation"] = functions.Dispatch("deprecation", functions.Signature{
		Params: []functions.Param{
			functions.P("key", value.StringAny), functions.P("message", value.StringAny),
			functions.P("use_strict_setting", value.BooleanAny),
		},
		Required: 2, Impl: deprecation9,
	})
	for _, name := range shimmedIn9 {
		t[name] = shim(name, name != "ensure_packages" || topScopeEnsurePackages)
	}
	// time() calls the Puppet-language stdlib::time, which logs the
	// deprecation itself.
	t["time"] = func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		return callFunctionValue(c, "stdlib::time", args)
	}
	return t
}

// renamed is a function under a new name: argument errors that name the
// function ("'to_json' expects 1 argument", "The function 'merge' was
// called ...") name it by its new name, as Puppet's dispatcher would.
func renamed(old, name string, f functions.Func) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		v, err := f(c, args)
		if err != nil {
			return nil, functions.RenameArgumentError(err, old, name)
		}
		return v, nil
	}
}

// shim is stdlib 9's deprecated top-level name of stdlib::<name>: it logs
// the deprecation (once per compile) and calls the namespaced function with
// the same arguments and block, so argument errors name stdlib::<name>.
// inTop says the shim calls it through its own call_function, which runs
// in the top scope, rather than through its caller's scope.
func shim(name string, inTop bool) functions.Func {
	target := "stdlib::" + name
	msg := "This function is deprecated, please use " + target + " instead."
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		deprecate(c, name, msg)
		if !inTop || c.Scope == nil {
			return callFunctionValue(c, target, args)
		}
		// The shim's call_function runs in its closure scope, the top
		// scope, not the caller's: what it declares (stdlib 9.0 and 9.1's
		// ensure_packages) is Class[main]'s, tagged as its, while keeping
		// the file and line of the call (a local scope of the top one, in
		// the caller's file).
		top := *c
		top.Scope = eval.NewScope(eval.LocalScope, "", c.Scope.Top(), c.Scope.File)
		return callFunctionValue(&top, target, args)
	}
}

// callFunctionValue calls a function by name through the evaluator's host (so a
// Puppet-language function is found too), passing on the call's block.
func callFunctionValue(c *functions.Ctx, name string, args []value.Value) (value.Value, error) {
	if c.Eval == nil || c.Eval.Host == nil {
		return nil, errorf("%s: not available: no evaluator", name)
	}
	call := &eval.Call{Name: name, Args: args}
	if c.Call != nil {
		call.Node = c.Call.Node
		call.Lambda = c.Call.Lambda
	}
	return c.Eval.Host.CallFunction(c.Eval, c.Scope, call)
}

// deprecation9 is stdlib 9's deprecation(key, message, use_strict_setting):
// Puppet's default strict setting (warning) logs the message either way.
func deprecation9(c *functions.Ctx, args []value.Value) (value.Value, error) {
	deprecate(c, string(args[0].(value.String)), string(args[1].(value.String)))
	return value.Undef, nil
}

// digestFunc is stdlib::crc32 and stdlib::sha256: the hex digest of the
// value's string form (a Sensitive is unwrapped). marionette has no Binary
// values, so only the ScalarData alternatives can match.
func digestFunc(name string, digest func([]byte) string) functions.Func {
	binary := value.BinaryType
	param := functions.Param{
		Name: "my_data",
		Type: value.NewVariant(value.ScalarDataType, &value.SensitiveType{Type: value.ScalarDataType}, binary, &value.SensitiveType{Type: binary}),
		Accepts: func(v value.Value) bool {
			if s, ok := v.(*value.Sensitive); ok {
				v = s.Value
			}
			return value.IsInstance(value.ScalarDataType, v)
		},
	}
	return functions.Dispatch(name, functions.Fixed(func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		v := args[0]
		if s, ok := v.(*value.Sensitive); ok {
			v = s.Value
		}
		return value.String(digest([]byte(value.RubyString(v)))), nil
	}, param))
}

// nestedValues is stdlib::nested_values: the non-hash values of a hash,
// nested hashes flattened depth first.
func nestedValues(c *functions.Ctx, args []value.Value) (value.Value, error) {
	out := value.Array{}
	var walk func(h *value.Hash)
	walk = func(h *value.Hash) {
		for i := range h.Len() {
			_, v := h.At(i)
			if nested, ok := v.(*value.Hash); ok {
				walk(nested)
			} else {
				out = append(out, v)
			}
		}
	}
	walk(args[0].(*value.Hash))
	return out, nil
}

// hasFunction is stdlib::has_function: whether a function of that name
// can be called.
func hasFunction(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return value.Boolean(c.Svc().FunctionExists(string(args[0].(value.String)))), nil
}

// stdlibMerge is stdlib::merge: 8.5's merge, whose parameters stdlib 9
// declares as repeated ("args*") with a plain block parameter, which shows
// in the messages of rejected calls.
func stdlibMerge(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return mergeAs(merge9, c, args)
}
