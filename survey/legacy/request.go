package legacy

import (
	"fmt"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/survey"
	"github.com/spf13/pflag"
)

// Synopsis is how compose2manifest survey is called.
const Synopsis = "survey [convert's flags] [-o FILE [--force]] [--legacy-project-directory DIR] [--user NAME]"

// Request is one run of compose2manifest survey.
type Request struct {
	// Convert reads the project; its WorkingDirectory is where Output is
	// taken from.
	Convert convert.Options
	// LegacyProjectDirectory is the project's checkout on the legacy host
	// ("" for the project directory): relative binds are under it.
	LegacyProjectDirectory string
	// User is whose home ~ is ("" for $SUDO_USER, else $USER, where the
	// script runs).
	User string
	// Output is the file to write the script to, "-" for w. A file
	// there that is not a survey script compose2manifest wrote is
	// replaced only with Force.
	Output string
	Force  bool
}

// Failure is why no script was written: a message, hints, and the exit
// status (2: bad usage or a project that does not load).
type Failure struct {
	Msg   string
	Hints []string
	Code  int
}

func (f *Failure) Error() string { return f.Msg }

// Problem returns what is wrong with r's flags, or "".
func (r Request) Problem() string {
	switch d := r.LegacyProjectDirectory; {
	case d != "" && !manifest.ValidPath(d):
		return fmt.Sprintf("--legacy-project-directory %q: want an absolute, clean path", d)
	case r.User != "" && !survey.ValidUser(r.User):
		return fmt.Sprintf("--user %q: want a login name (letters, digits, '.', '_', '-', not first)", r.User)
	case r.Output == "":
		return "-o needs a file, or - for stdout"
	}
	return ""
}

// Flags defines survey's own flags on fs and returns the Request they
// fill.
func Flags(fs *pflag.FlagSet) *Request {
	r := &Request{}
	fs.StringVarP(&r.Output, "output", "o", "-", "write the script to `FILE`, or - for stdout")
	fs.BoolVar(&r.Force, "force", false, "with -o: replace a file that is not a survey script compose2manifest wrote")
	fs.StringVar(&r.LegacyProjectDirectory, "legacy-project-directory", "", "the project's checkout `DIR` on the legacy host (default: the project directory)")
	fs.StringVar(&r.User, "user", "", "whose home ~ is on the legacy host, a login `NAME` (default: $SUDO_USER, else $USER, where the script runs)")
	return r
}
