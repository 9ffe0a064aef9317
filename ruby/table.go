package ruby

import (
	"strings"
	"sync"
)

// method implements one Ruby method of the values of type T. name is the
// name it was called by (one implementation may serve several aliases). It
// returns ok false when the arguments do not fit a form this package
// implements, so that the caller reports the call as unsupported (or as
// NoMethodError where Ruby lacks the method).
type method[T any] func(in *interp, line int, recv T, name string, args []any, blk *blockVal) (v any, ok bool, err error)

// methodTable holds the methods of one class, by name. Adding a method to
// a class is one def in its table's constructor.
type methodTable[T any] map[string]method[T]

// def adds m under each of the space-separated names.
func (t methodTable[T]) def(names string, m method[T]) {
	for _, n := range strings.Fields(names) {
		t[n] = m
	}
}

// methodTables are the method tables of the core classes this package
// implements. They are built once per process and only read afterwards.
type methodTables struct {
	object     methodTable[any] // every value's (Kernel and Object)
	nilClass   methodTable[struct{}]
	boolean    methodTable[bool]
	symbol     methodTable[symbol]
	integer    methodTable[int64]
	float      methodTable[float64]
	str        methodTable[*rstr]
	regexp     methodTable[*rregexp]
	matchData  methodTable[*matchData]
	array      methodTable[*rarray]
	hash       methodTable[*rhash]
	rng        methodTable[*rrange]
	enumerator methodTable[*enumerator]
	ipAddr     methodTable[*ipAddr]
	gemVersion methodTable[*gemVersion]
	proc       methodTable[*procVal]
	digest     methodTable[*osslDigest]
	hmac       methodTable[*osslHMAC]
	class      classTable // methods of classes themselves (File.join)
}

// builtinMethods builds the tables on first use. The interpreter reaches
// them through interp.methods, not this variable, so that the methods'
// own calls back into the interpreter make no initialization cycle.
var builtinMethods = sync.OnceValue(func() *methodTables {
	return &methodTables{
		object:     objectMethods(),
		nilClass:   nilMethods(),
		boolean:    boolMethods(),
		symbol:     symbolMethods(),
		integer:    integerMethods(),
		float:      floatMethods(),
		str:        strMethods(),
		array:      arrayMethods(),
		hash:       hashMethods(),
		rng:        rngMethods(),
		enumerator: enumeratorMethods(),
		regexp:     regexpMethods(),
		matchData:  matchDataMethods(),
		ipAddr:     ipAddrMethods(),
		gemVersion: gemVersionMethods(),
		proc:       procMethods(),
		digest:     digestMethods(),
		hmac:       hmacMethods(),
		class:      classMethods(),
	}
})
