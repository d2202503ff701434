package check

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/compose2manifest/compose2manifest/report"
	"github.com/spf13/pflag"
)

// Formats are the values of check --format.
var Formats = []string{"text", "json", "sarif", "github"}

// Request is one run of compose2manifest check as its flags give it.
type Request struct {
	// Format is one of Formats.
	Format           string
	WarningsAsErrors bool
	Text             report.TextOptions
	// Against is --against ROOT ("" for a plain check); Config holds
	// what the flags set of Jobs, Reconvert, Exclude, Shard,
	// ProjectTimeout and Convert.
	Against string
	Config  Config
	// Previous, PreviousRev and Plan are --previous, --previous-rev and
	// --plan.
	Previous, PreviousRev, Plan string

	fs *pflag.FlagSet
}

// Flags defines check's flags on fs, --project-timeout defaulting to
// timeout, and returns the Request they fill in.
func Flags(fs *pflag.FlagSet, timeout time.Duration) *Request {
	r := &Request{fs: fs}
	c, conv := &r.Config, &r.Config.Convert
	fs.StringVar(&r.Format, "format", "text", "output `FORMAT` on stdout: text (the summary on stderr), json, sarif or github")
	fs.BoolVar(&r.WarningsAsErrors, "warnings-as-errors", false, "exit 1 on warnings too")
	fs.BoolVar(&r.Text.ShowAcknowledged, "show-acknowledged", false, "write each acknowledged finding, not only how many there are")
	fs.StringVar(&r.Against, "against", "", "also convert each manifest's compose project under `ROOT` again and compare")
	fs.IntVar(&c.Jobs, "jobs", 0, "with --against: convert and check `N` projects at once, 1 or more (default: GOMAXPROCS)")
	fs.BoolVar(&c.Reconvert, "reconvert", false, "with --against: convert every project again, even one whose manifest's fingerprint says it is current")
	fs.StringArrayVar(&c.Exclude, "exclude", nil, "with --against: leave out project folders under ROOT matching `GLOB`, as convert --batch does (repeatable)")
	fs.Var(&c.Shard, "shard", "with --against: check only part K/N of the projects under ROOT (1 <= K <= N; a stable split by path)")
	fs.DurationVar(&c.ProjectTimeout, "project-timeout", timeout, "with --against: a project still converting after `DURATION` fails and the check goes on; without: a check still running after DURATION fails (0: no limit)")
	fs.StringVar(&conv.VolumeRoot, "volume-root", "", "with --against: convert's --volume-root `DIR` (wins over converted_with)")
	fs.StringVar(&conv.HostProjectDirectory, "host-project-directory", "", "with --against: convert's --host-project-directory `DIR`")
	fs.StringVar(&conv.Layout, "layout", "", "with --against: convert's --layout `LAYOUT`")
	fs.BoolVar(&conv.Strict, "strict", false, "with --against: convert's --strict (else converted_with decides)")
	fs.StringArrayVar(&conv.Profiles, "profile", nil, "with --against: convert's --profile `PROFILE` (repeatable)")
	fs.StringVar(&conv.DefaultsFile, "defaults", "", "with --against: convert's --defaults `FILE` (default: ROOT/compose2manifest.defaults.yaml)")
	fs.StringArrayVar(&conv.EnvFiles, "env-file", nil, "with --against: convert's --env-file `FILE` (repeatable)")
	fs.StringVar(&r.Previous, "previous", "", "also hold the manifests against the manifests in `OLD_DIR` (a file or directory): a change that drops state is C2M022")
	fs.StringVar(&r.PreviousRev, "previous-rev", "", "as --previous, with the manifests as they were at git revision `REV` (git show REV:PATH)")
	fs.StringVar(&r.Plan, "plan", "", "with --previous or --previous-rev: the migration plan `FILE` (compose2manifest plan --format json) whose moves are meant")
	return r
}

// Problem returns what is wrong with the parsed flags and arguments,
// and a hint, or "" when nothing is.
func (r *Request) Problem() (msg, hint string) {
	c, conv := r.Config, r.Config.Convert
	switch {
	case !slices.Contains(Formats, r.Format):
		return fmt.Sprintf("--format %q: want %s", r.Format, strings.Join(Formats, ", ")), ""
	case r.fs.NArg() == 0:
		return "no manifests to check", "name manifest files or directories of them: compose2manifest check out/"
	case c.ProjectTimeout < 0 || (r.fs.Changed("jobs") && c.Jobs < 1):
		return fmt.Sprintf("--project-timeout %s, --jobs %d: want 0 (no limit) or more, and 1 or more", c.ProjectTimeout, c.Jobs), ""
	case r.Against == "" && (c.Reconvert || r.fs.Changed("jobs") || c.Shard.On() || len(c.Exclude) > 0 || conv.VolumeRoot != "" || conv.HostProjectDirectory != "" ||
		conv.Layout != "" || conv.Strict || len(conv.Profiles) > 0 || len(conv.EnvFiles) > 0 || conv.DefaultsFile != ""):
		return "conversion flags need --against ROOT", ""
	}
	return "", ""
}
