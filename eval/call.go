package eval

import (
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

func (ev *Evaluator) call(x *syntax.CallExpr, sc *Scope) (value.Value, error) {
	args, err := ev.evalList(x.Args, sc)
	if err != nil {
		return nil, err
	}
	if x.Callee != nil {
		// A parameterized type called as a function is new(Type, args...).
		t, err := ev.Eval(x.Callee, sc)
		if err != nil {
			return nil, err
		}
		if _, ok := t.(value.Type); !ok {
			return nil, errorAt(sc, x.Callee, "A %s is not callable", typeName(t))
		}
		return ev.invoke(sc, x, "new", append([]value.Value{t}, args...), x.Lambda)
	}
	return ev.invoke(sc, x, x.Name, args, x.Lambda)
}

func (ev *Evaluator) methodCall(x *syntax.MethodCall, sc *Scope) (value.Value, error) {
	recv, err := ev.Eval(x.Receiver, sc)
	if err != nil {
		return nil, err
	}
	rest, err := ev.evalList(x.Args, sc)
	if err != nil {
		return nil, err
	}
	args := make([]value.Value, 0, len(rest)+1)
	args = append(append(args, recv), rest...)
	return ev.invoke(sc, x, x.Name, args, x.Lambda)
}

// invoke handles the control-flow functions itself and hands every other
// call to the host.
func (ev *Evaluator) invoke(sc *Scope, at syntax.Node, name string, args []value.Value, lam *syntax.Lambda) (value.Value, error) {
	switch name {
	case "return":
		return nil, &returnSignal{Result: firstOrUndef(args), Pos: position(sc, at)}
	case "next":
		return nil, &nextSignal{Result: firstOrUndef(args), Pos: position(sc, at)}
	case "break":
		return nil, &breakSignal{Pos: position(sc, at)}
	}
	if ev.depth >= maxDepth {
		return nil, errorAt(sc, at, "Maximum call depth (%d) exceeded calling '%s' (MaxCallDepth, a fixed limit of marionette)", maxDepth, name)
	}
	if ev.due() {
		if err := ev.poll(sc, at); err != nil {
			return nil, err
		}
	}
	c := &Call{Name: name, Args: args, Node: at}
	if lam != nil {
		c.Lambda = &Lambda{Def: lam, Scope: sc}
	}
	ev.depth++
	v, err := ev.Host.CallFunction(ev, sc, c)
	ev.depth--
	return v, err
}

func firstOrUndef(args []value.Value) value.Value {
	if len(args) == 0 {
		return value.Undef
	}
	return args[0]
}

// ErrBreak reports that a lambda called break(); iteration functions stop
// iterating when CallLambda returns it.
var ErrBreak = errors.New("break")

// CallLambda calls a lambda with positional arguments. A next() inside it ends
// the call with next's value; break() comes back as ErrBreak; return()
// propagates to the enclosing function.
func (ev *Evaluator) CallLambda(l *Lambda, args []value.Value) (value.Value, error) {
	return ev.callLambda(l, args, true)
}

// RunLambda is CallLambda for a caller that ignores the lambda's value
// (each), which spares building the value of a final resource declaration.
func (ev *Evaluator) RunLambda(l *Lambda, args []value.Value) error {
	_, err := ev.callLambda(l, args, false)
	return err
}

func (ev *Evaluator) callLambda(l *Lambda, args []value.Value, wantValue bool) (value.Value, error) {
	// Iteration functions loop by calling lambdas: a loop over a huge
	// range stops here even when the lambda's body is empty (a body's
	// statements count a step of their own).
	if (l.Def.Body == nil || len(l.Def.Body.Stmts) == 0) && ev.due() {
		if err := ev.poll(l.Scope, l.Def); err != nil {
			return nil, err
		}
	}
	sc := newLambdaScope(l.Scope, len(l.Def.Params)+bodyAssigns(l.Def.Body))
	if err := ev.BindParams(sc, l.Def.Params, args, l.Def); err != nil {
		return nil, err
	}
	ev.depth++
	defer func() { ev.depth-- }()
	if ev.depth > maxDepth {
		return nil, errorAt(l.Scope, l.Def, "Maximum call depth (%d) exceeded (MaxCallDepth, a fixed limit of marionette)", maxDepth)
	}
	var v value.Value = value.Undef
	var err error
	if l.Def.Body != nil {
		v, err = ev.statements(l.Def.Body.Stmts, sc, wantValue)
	}
	if err != nil {
		var next *nextSignal
		var brk *breakSignal
		switch {
		case errors.As(err, &next):
			return next.Result, nil
		case errors.As(err, &brk):
			return nil, ErrBreak
		}
		return nil, err
	}
	return v, nil
}

// BindParams assigns a lambda's arguments to its parameters in sc: missing
// arguments take their defaults (evaluated in sc, so later defaults may use
// earlier parameters), a captures-rest parameter takes the remainder, and
// declared types are checked.
func (ev *Evaluator) BindParams(sc *Scope, params []*syntax.Parameter, args []value.Value, at syntax.Node) error {
	for i, p := range params {
		v, ok, err := ev.ArgValue(sc, params, i, args)
		if err != nil {
			return err
		}
		if !ok {
			// As Puppet binds a closure's parameters: the first one
			// without a value fails, at its own position.
			return IssueAt(sc, p, diag.MissingRequiredParameter, diag.Args{"param_name": p.Name}, "Parameter $%s is required but no value was given", p.Name)
		}
		if p.Type != nil {
			tv, err := ev.ParamType(p, sc)
			if err != nil {
				return err
			}
			t, ok := tv.(value.Type)
			if !ok {
				return errorAt(sc, p.Type, "parameter '%s' type is not a type", p.Name)
			}
			if ok, err := value.CheckInstance(t, v); err != nil {
				return err
			} else if !ok {
				// Not positioned: Puppet reports it as an error of the call
				// that passed the block.
				return fmt.Errorf("block parameter '%s' expects %s value, got %s", p.Name, withArticle(value.TypeString(t)), value.TypeString(value.Generalize(value.TypeOf(v))))
			}
		}
		sc.Set(p.Name, v)
	}
	if len(args) > len(params) && (len(params) == 0 || !params[len(params)-1].CapturesRest) {
		return errorAt(sc, at, "expects %d arguments, got %d", len(params), len(args))
	}
	return nil
}

// ArgValue is the value params[i] takes from a call's args: its argument,
// the remaining arguments for a captures-rest parameter, else its default
// evaluated in sc (where earlier parameters are set); ok is false when it
// has none of these. Lambdas and Puppet-language functions bind so.
func (ev *Evaluator) ArgValue(sc *Scope, params []*syntax.Parameter, i int, args []value.Value) (v value.Value, ok bool, err error) {
	p := params[i]
	switch {
	case p.CapturesRest:
		rest := value.Array{}
		if i < len(args) {
			rest = append(rest, args[i:]...)
		}
		return rest, true, nil
	case i < len(args):
		return args[i], true, nil
	case p.Default != nil:
		dv, err := ev.Eval(p.Default, sc)
		return dv, err == nil, err
	}
	return nil, false, nil
}

// RequiredCount is the number of parameters a call must give values for.
func RequiredCount(params []*syntax.Parameter) int {
	n := 0
	for _, p := range params {
		if p.Default == nil && !p.CapturesRest {
			n++
		}
	}
	return n
}

func withArticle(name string) string { return article(name) + " " + name }

// ReturnValue unwraps a return() that reached a function boundary; other
// errors pass through.
func ReturnValue(v value.Value, err error) (value.Value, error) {
	var ret *returnSignal
	if errors.As(err, &ret) {
		return ret.Result, nil
	}
	return v, err
}
