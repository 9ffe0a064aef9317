package compiler

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// runaway is Puppet code that would compile for minutes or forever; each
// must stop soon after its compile's context is done.
var runaway = []struct {
	name string
	site string
	// pos says whether the error names the Puppet code that was running.
	pos bool
}{
	{"exponential recursion", "function f(Integer $n) { if $n > 0 { f($n - 1) f($n - 1) } }\nf(60)\n", true},
	// range() builds its array in one uninterruptible call (about 14 ms for
	// 100000 elements), so the loops here are nested rather than long.
	{"range each", "range(1, 20000).each |$x| { range(1, 20000).each |$y| { $z = \"${x}-${y}\" } }\n", true},
	{"nested Integer each", "Integer[1,1000000].each |$i| { Integer[1,1000000].each |$j| { } }\n", true},
	{"huge string", "$s = Integer[1,100000].reduce('') |$m, $x| { \"${m}xxxxxxxxxx\" }\nnotify { 'n': message => $s }\n", true},
	{"EPP forever", "$t = inline_epp('<% Integer[1,10000000].each |$x| { -%>x<% } -%>')\n", true},
	{"ERB forever", "$t = inline_template('<% i = 0; while true; i += 1; end %>')\n", false},
	{"defined type fan-out", "define d(Integer $n) { if $n > 0 { d { \"${title}a\": n => $n - 1 } d { \"${title}b\": n => $n - 1 } } }\nd { 'x': n => 40 }\n", false},
	{"collectors", "Integer[1,30000].each |$i| { @notify { \"n${i}\": } }\nInteger[1,30000].each |$i| { Notify <| title == \"n${i}x\" |> }\n", false},
}

// runawayEnv writes site (and an empty stdlib module, which makes stdlib's
// functions such as range() available) and loads it.
func runawayEnv(t *testing.T, site string) *Environment {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"manifests/site.pp":                site,
		"modules/stdlib/manifests/init.pp": "class stdlib { }\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "manifests"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// stopBound is how long after its context is done a compile may run on.
// It is measured from when the context was done rather than from the
// compile's start, so that a loaded machine firing the deadline's timer
// late does not count against the compile. The race detector's slowdown
// stretches it (timeScale).
const stopBound = 100 * time.Millisecond * timeScale

// whenDone returns a function that tells when ctx became done.
func whenDone(ctx context.Context) func() time.Time {
	at := make(chan time.Time, 1)
	context.AfterFunc(ctx, func() { at <- time.Now() })
	return func() time.Time { return <-at }
}

// TestCompileStops: each runaway compile, given a 50 ms deadline or
// cancelled after 50 ms, returns soon after with an error that is the
// context's and says so.
func TestCompileStops(t *testing.T) {
	for _, deadline := range []bool{true, false} {
		want, why := context.Canceled, "cancelled"
		if deadline {
			want, why = context.DeadlineExceeded, "deadline exceeded"
		}
		for _, tt := range runaway {
			t.Run(why+"/"+tt.name, func(t *testing.T) {
				env := runawayEnv(t, tt.site)
				// A loaded machine can starve one run; a second must
				// then be in time.
				for attempt := 1; ; attempt++ {
					res, late, err := stopCompile(env, deadline)
					if !errors.Is(err, want) || errors.Is(err, context.DeadlineExceeded) != deadline {
						t.Fatalf("error = %v, want one that is %v", err, want)
					}
					msg := err.Error()
					if !strings.HasPrefix(msg, "Compilation of node n1.example.com was stopped: "+why+" after ") {
						t.Errorf("error = %q", msg)
					}
					if res == nil || res.Catalog != nil {
						t.Errorf("result = %+v, want one without a catalog", res)
					}
					t.Logf("returned %v after the context was done: %s", late, msg)
					// A starved run may be stopped before evaluation
					// reached the runaway code, and then names none.
					named := !tt.pos || strings.Contains(msg, "(file: ")
					if late <= stopBound && named {
						break
					}
					if attempt == 2 {
						if !named {
							t.Fatalf("error %q does not name the code that was running", msg)
						}
						t.Fatalf("the compile returned %v after its context was done", late)
					}
				}
			})
		}
	}
}

// stopCompile compiles node n1.example.com of env with a context whose
// deadline is 50 ms away, or which is cancelled after 50 ms, and tells how
// long after the context was done the compile returned.
func stopCompile(env *Environment, deadline bool) (*Result, time.Duration, error) {
	var ctx context.Context
	var cancel context.CancelFunc
	if deadline {
		ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	} else {
		ctx, cancel = context.WithCancel(context.Background())
		timer := time.AfterFunc(50*time.Millisecond, cancel)
		defer timer.Stop()
	}
	defer cancel()
	doneAt := whenDone(ctx)
	res, err := Compile(ctx, env, &Request{Node: "n1.example.com"})
	return res, time.Since(doneAt()), err
}

// TestCompileWithDoneContext: a context done before the compile starts
// stops it before any stage runs.
func TestCompileWithDoneContext(t *testing.T) {
	env := runawayEnv(t, "notify { 'x': }\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Compile(ctx, env, &Request{Node: "n1"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v", err)
	}
	if len(res.Stages) != 0 {
		t.Errorf("stages run: %+v", res.Stages)
	}
	// The same environment still compiles with a live context.
	res, err = Compile(context.Background(), env, &Request{Node: "n1"})
	if err != nil || res.Catalog == nil {
		t.Fatalf("compile: %v", err)
	}
}

// errCountingContext counts how often a compile looks at whether it is done.
type errCountingContext struct {
	context.Context
	calls atomic.Int64
}

func (c *errCountingContext) Err() error {
	c.calls.Add(1)
	return c.Context.Err()
}

// TestFactsLoopPolls: setting a node's facts as top-scope variables looks
// at the compile's context as it goes (about every thousand facts), so a
// flood of facts cannot hold a compile past its deadline.
func TestFactsLoopPolls(t *testing.T) {
	env := runawayEnv(t, "notify { 'x': }\n")
	polls := func(n int) int64 {
		kv := make([]value.Value, 0, 2*n)
		for i := range n {
			kv = append(kv, value.String("f"+strconv.Itoa(i)), value.True)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		counting := &errCountingContext{Context: ctx}
		if _, err := Compile(counting, env, &Request{Node: "n1.example.com", Facts: value.NewHash(kv...)}); err != nil {
			t.Fatal(err)
		}
		return counting.calls.Load()
	}
	few, many := polls(10), polls(100_000)
	if many-few < 90 {
		t.Errorf("100,000 facts: %d looks at the context, 10 facts: %d; want about one per thousand facts more", many, few)
	}
}
