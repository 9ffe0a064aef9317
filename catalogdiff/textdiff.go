package catalogdiff

import (
	"fmt"
	"strings"
)

// contextLines is how many unchanged lines are shown around changed ones.
const contextLines = 2

// maxLCSCells bounds the work of the line diff; past it, the changed middle
// is shown as all removed then all added.
const maxLCSCells = 4 << 20

// diffLine is one line of a line diff: op is ' ' (in both), '-' (only in
// the old text) or '+' (only in the new one).
type diffLine struct {
	op   byte
	text string
}

// lineOps is the line diff of a and b: the common prefix and suffix, and
// a longest common subsequence between them. A final newline on both is
// not a line of its own.
func lineOps(a, b string) []diffLine {
	if strings.HasSuffix(a, "\n") && strings.HasSuffix(b, "\n") {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var ops []diffLine
	p := 0
	for p < len(al) && p < len(bl) && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] {
		s++
	}
	for _, t := range al[:p] {
		ops = append(ops, diffLine{' ', t})
	}
	am, bm := al[p:len(al)-s], bl[p:len(bl)-s]
	if len(am)*len(bm) > maxLCSCells {
		for _, t := range am {
			ops = append(ops, diffLine{'-', t})
		}
		for _, t := range bm {
			ops = append(ops, diffLine{'+', t})
		}
	} else {
		// lcs[i][j] is the LCS length of am[i:] and bm[j:].
		lcs := make([][]int, len(am)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(bm)+1)
		}
		for i := len(am) - 1; i >= 0; i-- {
			for j := len(bm) - 1; j >= 0; j-- {
				if am[i] == bm[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(am) || j < len(bm) {
			switch {
			case i < len(am) && j < len(bm) && am[i] == bm[j]:
				ops = append(ops, diffLine{' ', am[i]})
				i++
				j++
			case i < len(am) && (j == len(bm) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, diffLine{'-', am[i]})
				i++
			default:
				ops = append(ops, diffLine{'+', bm[j]})
				j++
			}
		}
	}
	for _, t := range al[len(al)-s:] {
		ops = append(ops, diffLine{' ', t})
	}
	return ops
}

// lineDiff renders the line diff of two multi-line strings as unified
// diff hunks: an "@@ -l,n +l,n @@" header, then lines prefixed "- ", "+ "
// or "  " (context), contextLines of context around each change.
func lineDiff(a, b string) []string {
	ops := lineOps(a, b)
	keep := make([]bool, len(ops))
	for i, o := range ops {
		if o.op == ' ' {
			continue
		}
		for k := max(0, i-contextLines); k <= min(len(ops)-1, i+contextLines); k++ {
			keep[k] = true
		}
	}
	var out []string
	oldLine, newLine := 1, 1
	for i := 0; i < len(ops); {
		if !keep[i] {
			oldLine, newLine = advance(ops[i], oldLine, newLine)
			i++
			continue
		}
		end := i
		for end < len(ops) && keep[end] {
			end++
		}
		var oldN, newN int
		for _, o := range ops[i:end] {
			if o.op != '+' {
				oldN++
			}
			if o.op != '-' {
				newN++
			}
		}
		out = append(out, fmt.Sprintf("@@ -%s +%s @@", hunkRange(oldLine, oldN), hunkRange(newLine, newN)))
		for _, o := range ops[i:end] {
			out = append(out, string(o.op)+" "+o.text)
			oldLine, newLine = advance(o, oldLine, newLine)
		}
		i = end
	}
	return out
}

func advance(o diffLine, oldLine, newLine int) (int, int) {
	if o.op != '+' {
		oldLine++
	}
	if o.op != '-' {
		newLine++
	}
	return oldLine, newLine
}

// hunkRange is diff -u's "start,count" (an empty range starts at the line
// before it).
func hunkRange(start, n int) string {
	if n == 0 {
		start--
	}
	return fmt.Sprintf("%d,%d", start, n)
}
