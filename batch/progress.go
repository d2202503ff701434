package batch

import (
	"fmt"
	"io"
	"time"
)

// Progress draws one self-erasing line on a terminal, at most ten times a
// second: "converting 12/40 projects". A nil *Progress draws nothing.
type Progress struct {
	w    io.Writer
	line string // with two %d: done and total
	last time.Time
	drew bool
}

// NewProgress returns a Progress drawing on w, a terminal.
func NewProgress(w io.Writer) *Progress { return NewProgressLine(w, "converting %d/%d projects") }

// NewProgressLine returns a Progress drawing line on w, a terminal, with
// done and total in place of its two %d: "checking %d/%d manifests".
func NewProgressLine(w io.Writer, line string) *Progress { return &Progress{w: w, line: line} }

// Update draws done of total; it suits Config.Progress.
func (p *Progress) Update(done, total int) {
	if p == nil {
		return
	}
	if now := time.Now(); done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	} else {
		p.last = now
	}
	fmt.Fprintf(p.w, "\rcompose2manifest: "+p.line, done, total)
	p.drew = true
}

// Clear erases the line, if one was drawn.
func (p *Progress) Clear() {
	if p != nil && p.drew {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
