package report

import (
	"fmt"
	"io"
)

// Refusal is what a refused conversion tells a person after its
// findings: that nothing was written, the skeleton to fill in (Inline:
// whole, or without the credentials Elided counts, which the whole
// skeleton written elsewhere holds), and what to do next.
type Refusal struct {
	// Module is the module refused, Errors how many errors refused it
	// ("3 errors", CountErrors).
	Module, Errors string
	// Inline is the skeleton shown; Elided how many credentials it
	// leaves out; Decisions how many values it leaves to fill in.
	Inline            []byte
	Elided, Decisions int
	// File is the declarations file to save it as; Written where the
	// whole skeleton was written (--skeleton), "" for nowhere.
	File, Written string
}

// Write writes r to w as the tool's error and hint lines and the
// skeleton indented by four spaces, each line made safe (Block).
func (r Refusal) Write(w io.Writer) {
	line := func(kind, format string, args ...any) {
		fmt.Fprintf(w, "compose2manifest: %s: %s\n", kind, Line(fmt.Sprintf(format, args...)))
	}
	line("error", "module %q refused: %s; nothing written", r.Module, r.Errors)
	if len(r.Inline) == 0 {
		return
	}
	line("hint", "declare the missing sources; this skeleton is ready to fill in and paste into %s:", r.File)
	fmt.Fprintf(w, "\n%s\n", Block(Indent(string(r.Inline), "    ")))
	if r.Written != "" {
		line("hint", "the whole skeleton is in %s", r.Written)
	} else if r.Elided > 0 {
		line("hint", "%s left out above, each prefilled: write the whole skeleton with --skeleton FILE", Plural(r.Elided, "credential"))
	}
	next := fmt.Sprintf("%s left: fill in the skeleton above and save it as %s, or answer them one at a time with compose2manifest ask (and the same flags)", Plural(r.Decisions, "decision"), r.File)
	if r.Decisions == 0 {
		next = "nothing left to fill in: review the skeleton above and save it as " + r.File + ", or go through it with compose2manifest ask (and the same flags)"
	}
	line("hint", "%s", next)
}
