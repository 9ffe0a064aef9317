package ruby

// node is a Ruby syntax tree node; line is its line in the template.
type node interface{ lineNo() int }

type at struct{ line int }

func (a at) lineNo() int { return a.line }

type (
	nText struct {
		at
		s string
	} // template text
	nOutput struct {
		at
		expr node
	} // <%= expr %>
	nSeq struct {
		at
		stmts []node
	}
	nNil  struct{ at }
	nBool struct {
		at
		v bool
	}
	nSelf struct{ at }
	nInt  struct {
		at
		v int64
	}
	nFloat struct {
		at
		v float64
	}
	nStr struct {
		at
		parts []strNode
	}
	nSym struct {
		at
		parts []strNode
	}
	// nMatchAssign is /(?<name>...)/ =~ s: the match, which also sets
	// a local variable per named group of the literal.
	nMatchAssign struct {
		at
		match *nCall
		names []string
	}
	nRegexp struct {
		at
		parts []strNode
		opts  string
		// compiled is the regexp of a literal without interpolation,
		// compiled once at parse time; nil if it did not compile, in which
		// case rendering reports the error when the literal is evaluated.
		compiled *rregexp
	}
	nArray struct {
		at
		elems []node
	}
	nHash struct {
		at
		keys, vals []node
	}
	nRange struct {
		at
		lo, hi node
		excl   bool
	}
	nIVar struct {
		at
		name string
	}
	nGVar struct {
		at
		name string
	}
	nLocal struct {
		at
		name string
	}
	nConst struct {
		at
		name string
	} // possibly qualified: A::B
	nSplat struct {
		at
		v node
	}
	nBlockPass struct {
		at
		v node
	}
	// nModule is a module definition: module A::B ... end.
	nModule struct {
		at
		name  string
		super string // a class's superclass, if named
		body  node
	}
	// nLambda is a lambda literal: ->(params) { body }.
	nLambda struct {
		at
		block *nBlock
	}
	// nCall is a method call; recv is nil for calls on self (the template).
	nCall struct {
		at
		recv    node
		name    string
		args    []node
		block   *nBlock
		safeNav bool
	}
	nBlock struct {
		at
		params []param
		body   node
	}
	nAssign struct {
		at
		target, value node
	}
	nOpAssign struct {
		at
		target node
		op     string // "||", "&&", "+", ...
		value  node
	}
	nMultiAssign struct {
		at
		targets []node
		value   node
	}
	nAnd struct {
		at
		l, r node
	}
	nOr struct {
		at
		l, r node
	}
	nNot struct {
		at
		v node
	}
	nDefined struct {
		at
		v node
	}
	nIf struct {
		at
		cond, then, els node
	}
	nWhile struct {
		at
		cond, body node
		until      bool
	}
	nFor struct {
		at
		vars []param
		iter node
		body node
	}
	nCase struct {
		at
		subject node
		whens   []whenClause
		els     node
	}
	nBreak struct {
		at
		v node
	}
	nNext struct {
		at
		v node
	}
	// nBegin is begin ... rescue ... else ... ensure ... end (also a def
	// body, and the statement modifier x rescue y).
	nBegin struct {
		at
		body    node
		rescues []rescueClause
		els     node // runs when the body raised nothing
		ensure  node
	}
	// nDoubleSplat is **h among a call's keyword arguments or a hash
	// literal's pairs: it stands as a key, its hash as the value.
	nDoubleSplat struct{ at }
)

// rescueClause is one rescue clause: the exception classes it catches, by
// name (none means StandardError), the variable of => var, and its body.
type rescueClause struct {
	classes []string
	// splat is set when the classes come from *list, which is only known
	// at run time: such a clause catches any StandardError.
	splat   bool
	varName string
	body    node
}

// strNode is a piece of a string literal: text, or an interpolated expression.
type strNode struct {
	lit  string
	expr node
}

// param is a block parameter; sub holds a destructuring pattern `(a, b)`.
type param struct {
	name  string
	sub   []param
	splat bool
	dflt  node // default value of an optional def parameter
	block bool // &name: the block the method was called with, as a Proc
}

type whenClause struct {
	conds []node
	body  node
}

// nReturn is `return [v]` inside a def.
type nReturn struct {
	at
	v node
}

// nDef defines a method on the template object, as some templates do for
// small helpers.
type nDef struct {
	at
	name   string
	params []param
	body   node
	// singleton is set for def self.name: a module function.
	singleton bool
}
