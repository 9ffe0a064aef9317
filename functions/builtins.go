package functions

import (
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/value"
)

// Builtins returns a new table of every function this package implements.
func Builtins() Table {
	t := Table{}
	addLogging(t)
	addIteration(t)
	addGrouping(t)
	addCalls(t)
	addStrings(t)
	addCollections(t)
	addNumbers(t)
	addTypes(t)
	addFiles(t)
	addGenerate(t)
	addStrftime(t)
	return t
}

// Types used in signatures.
var (
	tAny      = value.AnyType
	tString   = value.Type(value.StringAny)
	tInteger  = value.Type(value.IntegerAny)
	tNumeric  = value.NumericType
	tArray    = value.Type(value.ArrayAny)
	tHash     = value.Type(value.HashAny)
	tIterable = value.Type(value.IterableAny)
	tRegexp   = value.Type(value.RegexpAny)
	tBoolean  = value.Type(value.BooleanAny)
	tType     = value.Type(value.TypeAny)
)

// Shorthands for declaring signatures.

// withBlock is a signature with required parameters and a block called with
// n arguments.
func withBlock(n int, impl Func, params ...Param) Signature {
	return Signature{Params: params, Required: len(params), Block: RequiredBlock, BlockMin: n, BlockMax: n, Impl: impl}
}

func variant(ts ...value.Type) value.Type { return value.NewVariant(ts...) }

func optional(t value.Type) value.Type { return &value.OptionalType{Type: t} }

// optionalKey is the key type of an optional Struct member, written as
// Puppet prints it: Optional['name'].
func optionalKey(name string) value.Type {
	return &value.TypeReference{Name: "Optional[" + value.Literal(value.String(name)) + "]"}
}

// lambda returns the block of the call, nil when there is none.
func (c *Ctx) lambda() *eval.Lambda {
	if c.Call == nil {
		return nil
	}
	return c.Call.Lambda
}
