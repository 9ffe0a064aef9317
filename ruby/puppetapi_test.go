package ruby

import (
	"errors"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// hostScope is a Scope with settings and a log, as the compiler gives
// module functions.
type hostScope struct {
	funcScope
	logs []string
}

func (s *hostScope) Log(level, msg string) { s.logs = append(s.logs, level+": "+msg) }

func (s *hostScope) Setting(name string) (value.Value, bool) {
	if name == "vardir" {
		return value.String("/var/cache/puppet"), true
	}
	return nil, false
}

// TestPuppetModule checks Puppet[:setting] (nil for a setting Puppet does
// not know, as Puppet answers) and that Puppet.debug and the other log
// methods reach the scope's log and return nil.
func TestPuppetModule(t *testing.T) {
	src := `Puppet::Functions.create_function(:'t::host') do
  def host(x)
    r = [Puppet[:vardir], Puppet['vardir'], Puppet[:no_such_setting]]
    r << Puppet.debug("(#{x.class}) #{x.inspect}")
    Puppet.warning(x)
    Puppet.err(3)
    r
  end
end
`
	f, err := LoadRubyFunction("host.rb", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := &hostScope{}
	got, err := f.Call(s, []value.Value{value.Array{value.Integer(1), value.String("a")}})
	if err != nil {
		t.Fatal(err)
	}
	want := value.Array{value.String("/var/cache/puppet"), value.String("/var/cache/puppet"), value.Undef, value.Undef}
	if !value.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	wantLogs := []string{`debug: (Array) [1, "a"]`, `warning: [1, "a"]`, "err: 3"}
	if len(s.logs) != len(wantLogs) {
		t.Fatalf("logs %q, want %q", s.logs, wantLogs)
	}
	for i := range wantLogs {
		if s.logs[i] != wantLogs[i] {
			t.Errorf("log %d: %q, want %q", i, s.logs[i], wantLogs[i])
		}
	}
	// Without the compile's settings Puppet[:x] is unsupported, never a
	// wrong nil.
	if _, err := f.Call(funcScope{}, []value.Value{value.Integer(1)}); err == nil {
		t.Error("Puppet[:vardir] without settings: no error")
	}
}

// failScope's functions fail, rescuably (as Puppet::ParseError) or not.
type failScope struct {
	funcScope
	rescuable bool
}

type parseErr struct{ msg string }

func (e *parseErr) Error() string     { return e.msg }
func (e *parseErr) RubyClass() string { return "Puppet::ParseError" }

func (s failScope) CallFunction(name string, args []value.Value) (value.Value, error) {
	if s.rescuable {
		return nil, &parseErr{"Could not find module nosuch"}
	}
	return nil, errors.New("compile stopped")
}

// TestRescueCalledFunctionError checks that a called function's error is
// rescued as the class the scope gives it, and that another error, or one
// no clause rescues, surfaces unchanged.
func TestRescueCalledFunctionError(t *testing.T) {
	src := `Puppet::Functions.create_function(:'t::rescuer') do
  def rescuer(kind)
    begin
      call_function('get_module_path', 'nosuch')
    rescue ArgumentError
      'argument'
    rescue Puppet::ParseError => e
      kind == 'reraise' ? raise : "rescued: #{e.message}"
    end
  end
end
`
	f, err := LoadRubyFunction("rescuer.rb", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Call(failScope{rescuable: true}, []value.Value{value.String("x")})
	if err != nil || got != value.String("rescued: Could not find module nosuch") {
		t.Errorf("rescuable: got %v, %v", got, err)
	}
	_, err = f.Call(failScope{rescuable: true}, []value.Value{value.String("reraise")})
	var pe *parseErr
	// As under Puppet, the called function's own error, which the call
	// of this function wraps (no file:line of the Ruby code).
	if !errors.As(err, &pe) || err.Error() != "Could not find module nosuch" {
		t.Errorf("re-raised: got %v, want the called function's error", err)
	}
	_, err = f.Call(failScope{}, []value.Value{value.String("x")})
	if err == nil || !strings.Contains(err.Error(), "compile stopped") {
		t.Errorf("not rescuable: got %v", err)
	}
}

func (s *hostScope) ResourceParameters() (*value.Hash, bool) {
	b := value.NewHashBuilder(2)
	b.Set(value.String("port"), value.String("80"))
	b.Set(value.String("name"), value.String("one"))
	return b.Build(), true
}

// TestScopeResource checks scope.resource.to_hash (Symbol keys, in order)
// and #[], as extlib::dump_params uses them.
func TestScopeResource(t *testing.T) {
	src := `Puppet::Functions.create_function(:'t::params', Puppet::Functions::InternalFunction) do
  dispatch :params do
    scope_param
  end
  def params(scope)
    h = scope.resource.to_hash
    [h.keys.map(&:inspect).join(','), scope.resource[:port], h.transform_keys(&:to_s).reject { |k, _| k == 'name' }]
  end
end
`
	f, err := LoadRubyFunction("params.rb", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Call(&hostScope{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := value.NewHashBuilder(1)
	b.Set(value.String("port"), value.String("80"))
	want := value.Array{value.String(":port,:name"), value.String("80"), b.Build()}
	if !value.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := f.Call(funcScope{}, nil); err == nil || !strings.Contains(err.Error(), "unsupported Ruby") {
		t.Errorf("without resources: got %v, want unsupported Ruby", err)
	}
}

// editorScope is a Scope with a catalog of Notify['a'] and Notify['b'].
type editorScope struct {
	funcScope
	have map[string]bool
}

func (s *editorScope) HasResource(typ, title string) bool { return s.have[typ+"["+title+"]"] }
func (s *editorScope) RemoveResource(typ, title string)   { delete(s.have, typ+"["+title+"]") }

// TestRemoveResource checks the catalog access of extlib::remove_resource:
// find_resource_type, findresource (nil when absent), remove_resource and
// resources.delete, and a Resource type's type_name and title.
func TestRemoveResource(t *testing.T) {
	src := `Puppet::Functions.create_function(:'t::rm', Puppet::Functions::InternalFunction) do
  dispatch :rm do
    scope_param
    param 'Type[Resource]', :resource
  end
  def rm(scope, resource)
    type = Puppet::Pops::Evaluator::Runtime3ResourceSupport.find_resource_type(scope, resource.type_name)
    r = scope.compiler.findresource(type, resource.title)
    return "#{resource.type_name}['#{resource.title}'] missing" unless r
    scope.catalog.remove_resource(r)
    scope.compiler.resources.delete(r)
    "removed; again: #{scope.compiler.findresource(type, resource.title).inspect}"
  end
end
`
	f, err := LoadRubyFunction("rm.rb", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := &editorScope{have: map[string]bool{"Notify[a]": true, "Notify[b]": true}}
	for _, c := range []struct{ title, want string }{
		{"a", "removed; again: nil"},
		{"a", "Notify['a'] missing"},
		{"c", "Notify['c'] missing"},
	} {
		got, err := f.Call(s, []value.Value{&value.ResourceType{Type: "Notify", Title: c.title}})
		if err != nil || got != value.String(c.want) {
			t.Errorf("Notify[%s]: got %v, %v; want %q", c.title, got, err, c.want)
		}
	}
	if !s.have["Notify[b]"] || len(s.have) != 1 {
		t.Errorf("catalog after: %v", s.have)
	}
}
