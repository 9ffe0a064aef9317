package syntax

import (
	"fmt"
	"sync"

	"github.com/marionette-dev/marionette/diag"
)

// nestingTooDeepMessage is the error for a tree deeper than
// MaxExpressionDepth, worded as Puppet words its own limits.
func nestingTooDeepMessage() string {
	return fmt.Sprintf("Expressions are nested more than MaxExpressionDepth (%d) deep (a fixed limit of marionette)", MaxExpressionDepth)
}

// tooDeep returns the first node (in source order of discovery) that lies
// more than MaxExpressionDepth levels below root, or nil. It walks with an
// explicit stack: the parser bounds its own recursion, but a left-deep chain
// (1 + 1 + ..., a -> b -> ..., f()()...) or chains nested in parentheses
// build trees deeper than the parser ever recursed, and every recursive pass
// after it (validator, evaluator, dumps) must only see bounded trees.
func tooDeep(root Node) Node {
	sp := depthStacks.Get().(*[]depthEntry)
	stack := append((*sp)[:0], depthEntry{root, 0})
	var found Node
	used := len(stack) // the most entries held, cleared before reuse
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.depth > MaxExpressionDepth {
			found = e.n
			break
		}
		eachChild(e.n, func(c Node) {
			if c != nil && !isNilNode(c) {
				stack = append(stack, depthEntry{c, e.depth + 1})
			}
		})
		used = max(used, len(stack))
	}
	if cap(stack) <= maxKeptDepthStack {
		clear(stack[:used])
		*sp = stack[:0]
		depthStacks.Put(sp)
	}
	return found
}

// depthEntry is a node tooDeep has still to visit, with its depth.
type depthEntry struct {
	n     Node
	depth int
}

// maxKeptDepthStack is the largest stack kept for reuse (a huge file's
// stays with it).
const maxKeptDepthStack = 1 << 12

// depthStacks keeps tooDeep's stacks between parses: a compile parses a
// file per class and define, each walk growing a stack of its own.
var depthStacks = sync.Pool{New: func() any { s := make([]depthEntry, 0, 64); return &s }}

// checkDepth reports a tree deeper than MaxExpressionDepth, at the node
// past the limit, unless the parse already failed.
func (p *parser) checkDepth(root Node) {
	if p.failed() {
		return
	}
	if n := tooDeep(root); n != nil {
		p.errorAtOffset(n.Pos().Offset(), diag.NestingTooDeep, nestingTooDeepMessage())
	}
}

// enterChain counts one more link of a left-deep chain (binary operators,
// relationships, postfix access and calls) as a level of nesting, so that a
// chain of millions of terms stops at the limit instead of building a tree
// the later passes cannot walk. It reports false once the limit is passed.
func (p *parser) enterChain() bool {
	p.depth++
	if p.depth > MaxExpressionDepth {
		p.errorAt(p.tok.off, diag.NestingTooDeep, nestingTooDeepMessage())
		return false
	}
	return true
}
