package fleet

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Reporter is a Progress that writes to W. On a terminal it redraws one
// line in place (count/total, rate, ETA); otherwise it prints a plain line
// every Interval or every 10% of the nodes, whichever comes first.
type Reporter struct {
	W io.Writer
	// TTY selects the in-place line; see IsTerminal.
	TTY bool
	// Interval is the longest gap between plain lines (default 10s).
	Interval time.Duration
	// Now is the clock (default time.Now); tests replace it.
	Now func() time.Time

	total      int
	start      time.Time
	last       time.Time // last line written
	lastDecile int
	width      int // length of the last in-place line
}

// ttyRedraw is the shortest gap between two redraws of the in-place line.
const ttyRedraw = 100 * time.Millisecond

// IsTerminal reports whether f is a terminal. A character device is not
// enough: /dev/null is one too, and output sent there must not be treated
// as meant for a person (indented, coloured).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && isTTY(f)
}

func (p *Reporter) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Start begins a run of total nodes.
func (p *Reporter) Start(total int) {
	p.total = total
	p.start = p.now()
	p.last = p.start
	p.lastDecile = 0
	p.width = 0
}

// Update reports that done nodes have finished, failed of them failing.
func (p *Reporter) Update(done, failed int) {
	now := p.now()
	if p.TTY {
		if now.Sub(p.last) >= ttyRedraw {
			p.draw(now, done, failed)
		}
		return
	}
	interval := p.Interval
	if interval <= 0 {
		interval = 10 * time.Second
	}
	decile := 0
	if p.total > 0 {
		decile = done * 10 / p.total
	}
	if decile > p.lastDecile || now.Sub(p.last) >= interval {
		p.lastDecile = decile
		if done < p.total { // Finish writes the last line
			p.line(now, done, failed)
		}
	}
}

// Finish writes the final state and ends the in-place line.
func (p *Reporter) Finish(done, failed int) {
	now := p.now()
	if p.TTY {
		p.draw(now, done, failed)
		fmt.Fprintln(p.W)
		return
	}
	p.line(now, done, failed)
}

// draw redraws the in-place line, blanking what is left of a longer one.
func (p *Reporter) draw(now time.Time, done, failed int) {
	s := p.status(now, done, failed)
	pad := ""
	if n := p.width - len(s); n > 0 {
		pad = fmt.Sprintf("%*s", n, "")
	}
	p.width = len(s)
	fmt.Fprintf(p.W, "\r%s%s", s, pad)
	p.last = now
}

// line writes one plain progress line.
func (p *Reporter) line(now time.Time, done, failed int) {
	fmt.Fprintln(p.W, p.status(now, done, failed))
	p.last = now
}

// status is the progress text: count/total, percentage, failures, rate, ETA.
func (p *Reporter) status(now time.Time, done, failed int) string {
	elapsed := now.Sub(p.start)
	pct := 100
	if p.total > 0 {
		pct = done * 100 / p.total
	}
	s := fmt.Sprintf("%d/%d nodes (%d%%)", done, p.total, pct)
	if failed > 0 {
		s += fmt.Sprintf(", %d failed", failed)
	}
	if elapsed > 0 && done > 0 {
		rate := float64(done) / elapsed.Seconds()
		s += fmt.Sprintf(", %.1f nodes/s", rate)
		if done < p.total {
			eta := time.Duration(float64(p.total-done) / rate * float64(time.Second))
			s += fmt.Sprintf(", ETA %s", eta.Round(time.Second))
		} else {
			s += fmt.Sprintf(", %s", elapsed.Round(10*time.Millisecond))
		}
	}
	return s
}
