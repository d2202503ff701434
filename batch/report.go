package batch

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// batchModule is one project's entry in the JSON report: SPEC section 8's
// module, with the project's folder.
type batchModule struct {
	Project string `json:"project"`
	// File is the compose file a project converted alone by
	// --include-file is made of, relative to Project.
	File string `json:"file,omitempty"`
	report.Module
	// Write says whether a converted module's manifest was written or
	// left unchanged.
	Write string `json:"write,omitempty"`
	// Kept is set when the manifest was kept without converting again.
	Kept    bool `json:"kept,omitempty"`
	Missing int  `json:"missing_declarations,omitempty"`
	// LeftOut names the services profiles left out; VolumesLeftOut is
	// set when every service with a volume is one of them.
	LeftOut        []string `json:"left_out_by_profiles,omitempty"`
	VolumesLeftOut bool     `json:"volumes_left_out,omitempty"`
}

// batchOrphan is an orphaned manifest in the JSON report.
type batchOrphan struct {
	File   string `json:"file"`
	Module string `json:"module"`
	From   string `json:"from,omitempty"`
}

// batchJSON is the JSON report of a batch: SPEC section 8's shape, plus
// the orphaned manifests and the summary.
type batchJSON struct {
	Version int           `json:"version"`
	Tool    *report.Tool  `json:"tool"`
	Modules []batchModule `json:"modules"`
	Orphans []batchOrphan `json:"orphans"`
	Skipped []Skipped     `json:"skipped"`
	Summary Summary       `json:"summary"`
	// UnfinishedCommit is set when DIR held the journal of a commit
	// killed halfway (Report.Unfinished).
	UnfinishedCommit *UnfinishedCommit `json:"unfinished_commit,omitempty"`
	// Shared and DefaultsFile: see Report.
	Shared       []SharedItem  `json:"shared_acknowledge,omitempty"`
	SharedMounts []SharedMount `json:"shared_mounts,omitempty"`
	DefaultsFile string        `json:"defaults_file,omitempty"`
}

// WriteJSON writes rep as the batch's JSON report (SPEC section 8's
// shape, plus each module's project folder, the orphaned manifests, the
// files not converted and the summary), made safe to print
// (report.SafeJSON). tool names the program; schemaComment, when not "",
// starts each skeleton with a yaml-language-server schema line.
func (rep *Report) WriteJSON(w io.Writer, tool *report.Tool, schemaComment string) error {
	out := batchJSON{Version: report.FormatVersion, Tool: tool, Modules: []batchModule{}, Orphans: []batchOrphan{}, Skipped: []Skipped{}, Summary: rep.Summary(), UnfinishedCommit: rep.Unfinished, Shared: rep.Shared, SharedMounts: rep.SharedMounts, DefaultsFile: rep.DefaultsFile}
	out.Skipped = append(out.Skipped, rep.Skipped...)
	for _, en := range rep.Entries {
		ds := en.Diagnostics
		if ds == nil {
			ds = []rules.Diagnostic{}
		}
		out.Modules = append(out.Modules, batchModule{
			Project: en.Project,
			File:    en.File,
			Module: report.Module{
				Module: en.Module, Status: string(en.Status), Output: en.Output,
				Skeleton: string(declare.WithSchemaComment(en.Skeleton, schemaComment)), Diagnostics: ds,
			},
			Write:          string(en.Write),
			Kept:           en.Kept,
			Missing:        en.Missing,
			LeftOut:        en.LeftOut,
			VolumesLeftOut: en.VolumesLeftOut,
		})
	}
	for _, o := range rep.Orphans {
		out.Orphans = append(out.Orphans, batchOrphan(o))
	}
	return report.EncodeJSON(w, out)
}

// WriteText writes every project's diagnostics, one line per
// project, the orphans and the summary. A project that failed has its
// error on its own line only: the diagnostic it comes from (the last, with
// no rule) is not listed with the others. quiet leaves out the lines of
// projects converted with all their volumes and the list of what was not
// converted (the summary counts both). text says how the diagnostics are
// written (report.WriteTextWith).
func (rep *Report) WriteText(w io.Writer, quiet bool, text report.TextOptions) {
	r := &report.Report{}
	for _, en := range rep.Entries {
		ds := en.Diagnostics
		if en.Status == convert.Failed && len(ds) > 0 && ds[len(ds)-1].Rule == "" {
			ds = ds[:len(ds)-1]
		}
		r.Modules = append(r.Modules, report.Module{Diagnostics: ds})
	}
	report.WriteTextWith(w, r, text)
	for _, en := range rep.Entries {
		if quiet && en.Status == convert.Converted && !en.VolumesLeftOut {
			continue
		}
		name := ""
		if en.Module != "" {
			name = fmt.Sprintf(" (module %q)", en.Module)
		}
		proj := report.Escape(en.Project, false)
		if en.File != "" {
			proj += " -f " + en.File
		}
		left := ""
		if n := len(en.LeftOut); n > 0 {
			left = fmt.Sprintf("; %s left out by profiles (%s)", report.Plural(n, "service"), strings.Join(en.LeftOut, ", "))
			if en.VolumesLeftOut {
				left += ", every service with a volume among them"
			}
		}
		if en.Status == convert.Converted && en.VolumesLeftOut {
			fmt.Fprintf(w, "%s%s: converted without its volumes: %s (%s)%s\n", proj, name, en.Output, en.Write, left)
			continue
		}
		switch en.Status {
		case convert.Converted:
			how := string(en.Write)
			if en.Kept {
				how = "kept: current, not converted again"
			}
			fmt.Fprintf(w, "%s%s: converted: %s (%s)%s\n", proj, name, en.Output, how, left)
		case convert.Refused:
			fmt.Fprintf(w, "%s%s: refused: %s, %s; nothing written%s\n", proj, name, report.CountErrors(en.Diagnostics), report.Plural(en.Missing, "missing declaration"), left)
		default:
			fmt.Fprintf(w, "%s%s: error: %s\n", proj, name, lastMessage(en.Diagnostics))
		}
	}
	for _, o := range rep.Orphans {
		from := ""
		if o.From != "" {
			from = fmt.Sprintf(" (from %s)", o.From)
		}
		fmt.Fprintf(w, "%s: orphaned: module %q%s was not produced by this run; not deleted\n", report.Escape(o.File, false), o.Module, report.Escape(from, false))
	}
	WriteUnfinished(w, rep.Unfinished)
	for _, sk := range rep.Skipped {
		if quiet {
			break
		}
		fmt.Fprintf(w, "%s: not converted: %s\n", report.Escape(sk.Path, false), report.Escape(sk.Reason, false))
	}
	s := rep.Summary()
	without := ""
	if s.Kept > 0 {
		without = fmt.Sprintf(", %d of them kept without converting", s.Kept)
	}
	if s.VolumesLeftOut > 0 {
		without += fmt.Sprintf("; %d without its volumes", s.VolumesLeftOut)
	}
	line := fmt.Sprintf("%s found: %d converted (%d written, %d unchanged%s), %d refused (%s), %d failed to load",
		report.Plural(s.Projects, "project"), s.Converted, s.Written, s.Unchanged, without, s.Refused, report.Plural(s.Missing, "missing declaration"), s.LoadFailed)
	if s.Internal > 0 {
		line += fmt.Sprintf(" (%s)", report.Plural(s.Internal, "internal error"))
	}
	if n := s.Failed - s.LoadFailed; n > 0 {
		line += fmt.Sprintf(", %d not written", n)
	}
	if s.LeftOut > 0 {
		line += fmt.Sprintf("; %s left out by profiles", report.Plural(s.LeftOut, "service"))
	}
	if s.SkippedFiles > 0 {
		line += fmt.Sprintf("; %s no project reads, not converted", report.Plural(s.SkippedFiles, "compose file"))
	}
	if s.SkippedLinks > 0 {
		line += fmt.Sprintf("; %s not followed", report.Plural(s.SkippedLinks, "symbolic link to a folder"))
	}
	if s.Orphans > 0 {
		line += fmt.Sprintf("; %s", report.Plural(s.Orphans, "orphaned manifest"))
	}
	if rep.Shard.On() {
		line += fmt.Sprintf("; shard %s, %s in the others", rep.Shard, report.Plural(s.OtherShards, "project"))
	}
	fmt.Fprintf(w, "compose2manifest: %s\n", line)
	if s.SkippedFiles > 0 {
		fmt.Fprintf(w, "compose2manifest: hint: --include-file GLOB converts such a file as a project of its own; compose_files: in the %s of a folder makes the files it names that folder's project (a folder needs no default compose file name then)\n", convert.DeclarationsFile)
	}
	if s.VolumesLeftOut > 0 {
		fmt.Fprintf(w, "compose2manifest: hint: a project converted without its volumes runs only with profiles; say them with profiles: in its %s\n", convert.DeclarationsFile)
	}
	switch {
	case s.Refused > 0 && s.Decisions == 0:
		fmt.Fprintf(w, "compose2manifest: hint: nothing left to fill in in the refused projects' skeletons: review the values they offer and save each as its %s (--format json gives each refused module's skeleton), or run convert, or compose2manifest ask, in its folder\n", convert.DeclarationsFile)
	case s.Refused > 0:
		fmt.Fprintf(w, "compose2manifest: hint: %s left in the refused projects' skeletons: --format json gives each refused module's skeleton; or run convert, or compose2manifest ask, in its folder\n", report.Plural(s.Decisions, "decision"))
	}
	writeShared(w, rep)
}

// writeShared offers, on w, what several projects leave to decide alike
// as a defaults file that gives each once for every project: the
// acknowledge: items they ask for, and the mounts: entries of what one
// image mounts at one target in each; nothing when there is neither.
func writeShared(w io.Writer, rep *Report) {
	if len(rep.Shared) == 0 && len(rep.SharedMounts) == 0 {
		return
	}
	var what []string
	if n := len(rep.Shared); n > 0 {
		asked := 0
		for _, it := range rep.Shared {
			asked += it.Projects
		}
		what = append(what, fmt.Sprintf("%s (%s in all)", report.Plural(n, "acknowledge item"), report.Plural(asked, "item")))
	}
	if n := len(rep.SharedMounts); n > 0 {
		asked := 0
		for _, m := range rep.SharedMounts {
			asked += m.Projects
		}
		what = append(what, fmt.Sprintf("%s of an image at a target (%s in all)", report.Plural(n, "mount"), report.Plural(asked, "source")))
	}
	fmt.Fprintf(w, "compose2manifest: hint: %s that several projects leave to decide are one decision each for the whole batch: review them, fill in each \"\", and give the ones you accept once in %s, which holds for every project under the root:\n",
		strings.Join(what, " and "), report.Escape(rep.DefaultsFile, false))
	fmt.Fprintf(w, "\n    version: 1\n")
	if len(rep.Shared) > 0 {
		fmt.Fprintf(w, "    acknowledge:\n")
		for _, it := range rep.Shared {
			fmt.Fprintf(w, "      - %s # %s: left behind knowingly: %s\n", report.Escape(quoteItem(it.Item), false), report.Plural(it.Projects, "project"), report.Escape(it.Reason, false))
		}
	}
	if len(rep.SharedMounts) > 0 {
		fmt.Fprintf(w, "    mounts:\n")
		for _, m := range rep.SharedMounts {
			fields := ""
			if m.NeedsKind || m.Kind != "" {
				fields = fmt.Sprintf("kind: %q, ", m.Kind)
			}
			fields += fmt.Sprintf("owner: %q, mode: %q, intent: %q", m.Owner, m.Mode, m.Intent)
			fmt.Fprintf(w, "      %s: {%s} # %s mount it alike\n", report.Escape(strconv.Quote(m.Key), false), report.Escape(fields, false), report.Plural(m.Projects, "project"))
		}
	}
	fmt.Fprintln(w)
}

// quoteItem returns an acknowledge: item as a YAML list item writes it:
// in double quotes when it starts with *, which YAML reads as an alias.
func quoteItem(item string) string {
	if strings.HasPrefix(item, "*") {
		return `"` + item + `"`
	}
	return item
}

func lastMessage(ds []rules.Diagnostic) string {
	if len(ds) == 0 {
		return ""
	}
	return strings.Join(strings.Fields(report.Body(ds[len(ds)-1])), " ")
}

// WriteUnfinished says, on w, what the journal of a commit killed halfway
// says; nothing when uc is nil.
func WriteUnfinished(w io.Writer, uc *UnfinishedCommit) {
	if uc == nil {
		return
	}
	fmt.Fprintf(w, "compose2manifest: warning: a batch (pid %d, %s) was killed while writing its manifests: %d of its %d were written (new), the others were left as they were; this run writes again every module it converts\n",
		uc.PID, uc.Started.Format(time.RFC3339), len(uc.Written), len(uc.Manifests))
}

// ExitCode is the worst outcome of the batch, as the command exits: 3
// when a project failed with an internal error (a bug to report), else 2
// when a project failed, 1 when one was refused, else 0. Orphans do not
// change it.
func (rep *Report) ExitCode() int {
	code := 0
	for _, en := range rep.Entries {
		switch {
		case en.Internal:
			return 3
		case en.Status == convert.Failed:
			code = 2
		case en.Status == convert.Refused && code == 0:
			code = 1
		}
	}
	return code
}

// WriteInterrupted writes for people what an interrupted batch did: the
// projects it left unfinished (WriteUnfinished), and a last line saying
// that nothing was written, each line made safe (report.Block).
func (rep *Report) WriteInterrupted(w io.Writer) error {
	var text strings.Builder
	WriteUnfinished(&text, rep.Unfinished)
	s := rep.Summary()
	fmt.Fprintf(&text, "compose2manifest: %s found: interrupted after %d converted; nothing written\n", report.Plural(s.Projects, "project"), s.Finished)
	_, err := io.WriteString(w, report.Block(text.String()))
	return err
}
