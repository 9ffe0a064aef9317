package diag

// DidYouMean returns the detail "did you mean 'NAME'?" for the candidate
// closest to name, or "" when none is close: a misspelling, not another
// word. Close is an edit distance (insertions, deletions, substitutions and
// swaps of neighbours) of at most a third of the name's length, and at most
// 3; ties go to the earlier candidate, so callers pass them in a stable
// order.
func DidYouMean(name string, candidates []string) string {
	best := Suggest(name, candidates)
	if best == "" {
		return ""
	}
	return "did you mean '" + best + "'?"
}

// Suggest returns the candidate closest to name (see DidYouMean), or "".
func Suggest(name string, candidates []string) string {
	limit := min(3, max(1, len([]rune(name))/3))
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if c == name {
			continue
		}
		if d := editDistance(name, c, bestDist); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// counted in characters; it gives up (returning limit) once the distance
// cannot be less than limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	// Three rows of the distance table: two back, one back, this one.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if rowMin >= limit {
			return limit
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(rb)], limit)
}
