package eval

import (
	"strconv"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestScopeManyVariables: past the point where a scope keeps an index,
// setting, reading, refusing a second assignment, replacing and iterating
// behave as with a few variables, through match scopes too.
func TestScopeManyVariables(t *testing.T) {
	for _, n := range []int{1, indexAfter, indexAfter + 1, 1000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			top := NewScope(TopScope, "", nil, nil)
			match := top.NewMatchScope(nil)
			for i := range n {
				if !match.Set("v"+strconv.Itoa(i), value.Integer(int64(i))) {
					t.Fatalf("Set(v%d) refused", i)
				}
			}
			child := NewScope(ClassScope, "c", top, nil)
			for i := range n {
				name := "v" + strconv.Itoa(i)
				if top.Set(name, value.Integer(-1)) {
					t.Fatalf("Set(%s) twice accepted", name)
				}
				if v, ok := child.Lookup(name); !ok || v != value.Integer(int64(i)) {
					t.Fatalf("Lookup(%s) = %v, %v", name, v, ok)
				}
				if v, ok := top.GetLocal(name); !ok || v != value.Integer(int64(i)) {
					t.Fatalf("GetLocal(%s) = %v, %v", name, v, ok)
				}
			}
			if _, ok := child.Lookup("missing"); ok {
				t.Error("Lookup(missing) found something")
			}
			top.Replace("v0", value.String("x"))
			top.Replace("new", value.String("y"))
			if v, _ := top.GetLocal("v0"); v != value.String("x") {
				t.Errorf("v0 after Replace = %v", v)
			}
			if v, _ := child.Lookup("new"); v != value.String("y") {
				t.Errorf("new after Replace = %v", v)
			}
			i := 0
			top.Each(func(name string, _ value.Value) {
				want := "v" + strconv.Itoa(i)
				if i == n {
					want = "new"
				}
				if name != want {
					t.Errorf("Each: variable %d is %s, want %s", i, name, want)
				}
				i++
			})
			if i != n+1 {
				t.Errorf("Each visited %d variables, want %d", i, n+1)
			}
		})
	}
}

// BenchmarkScopeSetFacts sets a top scope's worth of facts: linear in their
// number (it was quadratic: 150,000 facts took minutes).
func BenchmarkScopeSetFacts(b *testing.B) {
	for _, n := range []int{100, 10000, 150000} {
		names := make([]string, n)
		for i := range names {
			names[i] = "fact_" + strconv.Itoa(i)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				top := NewScope(TopScope, "", nil, nil)
				for _, name := range names {
					top.Set(name, value.True)
				}
			}
		})
	}
}
