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
	last time.Time
	drew bool
}

// NewProgress returns a Progress drawing on w, a terminal.
func NewProgress(w io.Writer) *Progress { return &Progress{w: w} }

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
	fmt.Fprintf(p.w, "\rcompose2manifest: converting %d/%d projects", done, total)
	p.drew = true
}

// Clear erases the line, if one was drawn.
func (p *Progress) Clear() {
	if p != nil && p.drew {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
