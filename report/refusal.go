package report

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/compose2manifest/compose2manifest/declare"
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
	// File is the declarations file to save it as.
	File string
	// Whole is the whole skeleton, written to WholeFile (--skeleton,
	// relative to Dir) when that is set, replacing a file there that is
	// not a skeleton only with Force (declare.WriteSkeleton).
	Whole          []byte
	WholeFile, Dir string
	Force          bool
}

// Write writes the whole skeleton to WholeFile when asked to, then r to
// w as the tool's error and hint lines and the skeleton indented by four
// spaces, each line made safe (Block). It returns why the whole skeleton
// could not be written, and then writes nothing to w.
func (r Refusal) Write(w io.Writer) error {
	written := ""
	if r.WholeFile != "" && len(r.Whole) > 0 {
		p := r.WholeFile
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Dir, p)
		}
		if err := declare.WriteSkeleton(p, r.Whole, r.Force); err != nil {
			return err
		}
		written = r.WholeFile
	}
	line := func(kind, format string, args ...any) {
		fmt.Fprintf(w, "compose2manifest: %s: %s\n", kind, Line(fmt.Sprintf(format, args...)))
	}
	line("error", "module %q refused: %s; nothing written", r.Module, r.Errors)
	if len(r.Inline) == 0 {
		return nil
	}
	shown := Block(Indent(string(r.Inline), "    "))
	escaped := shown != Indent(string(r.Inline), "    ")
	if escaped {
		// Block escaped what a terminal must not show as it is (a line
		// break, U+202E in a name): pasted, such a key would no longer
		// match its source (C2M009).
		line("hint", "declare the missing sources; this skeleton, with characters escaped for the terminal, shows what to fill in:")
	} else if written != "" && r.Elided > 0 {
		line("hint", "declare the missing sources; this is the skeleton in %s without its credentials:", written)
	} else {
		line("hint", "declare the missing sources; this skeleton is ready to fill in and paste into %s:", r.File)
	}
	fmt.Fprintf(w, "\n%s\n", shown)
	// what names the skeleton to fill in: FILE once --skeleton wrote it,
	// whole, where the one above may leave credentials out or escape.
	what := "the skeleton above"
	switch {
	case written != "" && (r.Elided > 0 || escaped):
		what = written
	case written != "":
		what = written + " (the skeleton above)"
	case escaped:
		what = "the skeleton --skeleton FILE writes"
	}
	switch {
	case written != "" && r.Elided > 0:
		line("hint", "the whole skeleton, with the %s left out above, is in %s", Plural(r.Elided, "credential"), written)
	case written != "":
		line("hint", "the whole skeleton is in %s", written)
	case escaped:
		line("hint", "some characters above are escaped, so it is not what to paste: write the skeleton as it is with --skeleton FILE")
	case r.Elided > 0:
		line("hint", "%s left out above, each prefilled: write the whole skeleton with --skeleton FILE", Plural(r.Elided, "credential"))
	}
	next := fmt.Sprintf("%s left: fill in %s and save it as %s, or answer them one at a time with compose2manifest ask (and the same flags)", Plural(r.Decisions, "decision"), what, r.File)
	if r.Decisions == 0 {
		next = "nothing left to fill in: review " + what + " and save it as " + r.File + ", or go through it with compose2manifest ask (and the same flags)"
	}
	line("hint", "%s", next)
	return nil
}
