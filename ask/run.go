package ask

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Config says what Run converts and asks about, and where it talks.
type Config struct {
	// Options say which project to convert and how, as convert's flags
	// give them, with WorkingDirectory and Environ set. The declarations
	// file Run reads and writes is DeclarationsFile (relative to
	// WorkingDirectory), or compose2manifest.yaml in the project
	// directory. Images nil means the built-in table.
	Options convert.Options
	// GitHub prints the questions as GitHub workflow annotations for a
	// reader that cannot answer, instead of a skeleton.
	GitHub bool
	// Terminal reports whether a person answers on In and reads Out;
	// without it, Run only prints the questions.
	Terminal bool
	// Write skips the confirmation before the file is written.
	Write bool
	// In is where answers are read, one a line.
	In io.Reader
	// Out is where the conversation goes: context, suggestions, prompts,
	// the preview of the change and what comes next.
	Out io.Writer
	// Stdout is where the questions go for a reader that cannot answer:
	// the skeleton or the annotations.
	Stdout io.Writer
	// SchemaComment, when not empty, is the JSON Schema the skeleton and
	// the written declarations file point yaml-language-server at, with
	// a first line "# yaml-language-server: $schema=SchemaComment"
	// (declare.WithSchemaComment; a file that has such a line keeps it).
	SchemaComment string
}

// Status says how Run ended; a command's exit code follows from it.
type Status int

const (
	// Done: nothing was left to ask, or the declarations were written
	// and convert accepts the module.
	Done Status = iota
	// Unanswered: the questions were printed for a reader who cannot
	// answer, or the author declined, stopped or ran out of input
	// (nothing was written), or convert still refuses the module.
	Unanswered
	// Failed: the project could not be converted, or reading or writing
	// the declarations failed; nothing was written.
	Failed
)

// Outcome is how Run ended and what is left to tell, in this order: the
// diagnostics, the message, the error, the hints.
type Outcome struct {
	Status Status
	// Report holds diagnostics that explain Err, or nil.
	Report *report.Module
	// Message is a closing remark, such as "nothing written"; "" for none.
	Message string
	// Err says why ask stopped short of Done, or what still stands in the
	// way; nil when nothing does.
	Err error
	// Hints say what to do next.
	Hints []string
}

// Run converts the project, and asks for what the conversion is missing:
// on a terminal, in a conversation on In and Out, writing the answers
// into the declarations file; elsewhere it prints the questions on Stdout
// (Status Unanswered). Interrupting ctx (Ctrl-C) stops it without writing
// anything.
func Run(ctx context.Context, cfg Config) Outcome {
	r := &runner{cfg: cfg, opts: cfg.Options}
	out := r.run(ctx, cfg)
	if len(r.unsettled) > 0 && out.Status != Done {
		// What no answer settles, said whatever ask asked.
		out.Hints = append(out.Hints, "convert also refuses the module for what no declaration settles (change the compose file, or set the variables in .env or with --env-file): "+strings.Join(r.unsettled, "; "))
	}
	return out
}

// run is Run's work: convert, build the plan of what to ask, then ask
// on a terminal, or print the skeleton or the annotations off one.
func (r *runner) run(ctx context.Context, cfg Config) Outcome {
	if err := r.defaults(); err != nil {
		return failed(fmt.Errorf("ask: %w", err))
	}
	res, supplied, out, ok := r.convertTwice(ctx)
	if !ok {
		return out
	}
	plan := r.newPlan(ctx, res, supplied)
	if ctx.Err() != nil {
		return r.interrupted()
	}
	// What else convert or check --against refuses that a declaration
	// settles: fields not carried, images, plaintext secrets.
	refusals := NewRefusals(res.Diagnostics, res.Suggestions)
	ShareCredentials(refusals, plan.Suggestions.Secrets)
	for _, d := range res.Diagnostics {
		if rules.NoDeclarationSettles(d) {
			r.unsettled = append(r.unsettled, report.Escape(d.String(), false))
		}
	}
	// Every source declared, but parent directories are not: on a
	// terminal, offer them.
	if len(plan.Items) == 0 && cfg.Terminal && !cfg.GitHub && (len(res.UndeclaredAncestors) > 0 || len(refusals) > 0) {
		return r.terminal(ctx, plan, refusals, res)
	}
	// Off a terminal, plaintext secrets alone still get the skeleton of
	// their credentials (and the acknowledge: items beside them).
	offTerminal := !cfg.Terminal && !cfg.GitHub && (len(plan.Suggestions.Secrets) > 0 || len(plan.Suggestions.Roots) > 0)
	switch {
	case len(plan.Items) == 0 && !offTerminal:
		return nothingToAsk(plan.Module, res)
	case cfg.GitHub:
		rel := func(p manifest.Pos) string { return r.display(filepath.Join(res.ProjectDirectory, p.File)) }
		if err := WriteGitHub(cfg.Stdout, plan, r.declName, rel); err != nil {
			return failed(fmt.Errorf("ask: %w", err))
		}
		return Outcome{Status: Unanswered}
	case !cfg.Terminal:
		return r.printSkeleton(cfg, plan, res)
	}
	return r.terminal(ctx, plan, refusals, res)
}

// defaults fills in the image table and the working directory where the
// options leave them out.
func (r *runner) defaults() error {
	if r.opts.Images == nil {
		table, err := images.Default()
		if err != nil {
			return err
		}
		r.opts.Images = table
	}
	if r.opts.WorkingDirectory == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		r.opts.WorkingDirectory = wd
	}
	return nil
}

// convertTwice converts the project, and again strictly to tell the
// values the declarations supply from those convert produces (supplied;
// nil for a strict run). It reports false with the outcome when ask
// cannot go on.
func (r *runner) convertTwice(ctx context.Context) (res *convert.Result, supplied []convert.Missing, out Outcome, ok bool) {
	o := r.opts
	// The declarations file is the file ask writes: when it does not
	// exist yet, or holds nothing (blank lines and comments), ask
	// converts as if it held an empty declarations document, and creates
	// or fills it at the end.
	if p := o.DeclarationsFile; p != "" {
		r.blank = blankDeclarations(r.abs(p))
	}
	res, err := r.convertBlank(ctx, o)
	if err != nil && !r.blank && o.DeclarationsFile == "" && res != nil && res.ProjectDirectory != "" &&
		blankDeclarations(filepath.Join(res.ProjectDirectory, declare.DefaultFile)) {
		r.blank = true
		res, err = r.convertBlank(ctx, o)
	}
	if ctx.Err() != nil {
		return nil, nil, r.interrupted(), false
	}
	if res == nil || res.Status == convert.Failed || err != nil {
		out := Outcome{Status: Failed, Hints: []string{"ask needs a project convert can load; fix the errors above first"}}
		if res != nil {
			out.Report = &report.Module{Status: string(res.Status), Diagnostics: res.Diagnostics}
		}
		if err != nil {
			out.Err = fmt.Errorf("ask: %w", err)
		}
		return nil, nil, out, false
	}
	if o.Strict {
		return res, nil, Outcome{}, true
	}
	so := o
	so.Strict = true
	sres, err := r.convertBlank(ctx, so)
	if ctx.Err() != nil {
		return nil, nil, r.interrupted(), false
	}
	if err != nil || sres == nil {
		return nil, nil, failed(fmt.Errorf("ask: %w", err)), false
	}
	supplied = sres.Missing
	if supplied == nil {
		supplied = []convert.Missing{}
	}
	return res, supplied, Outcome{}, true
}

// newPlan builds the plan of what to ask from the conversion res: its
// sources, where they land with the flags or the declarations, the
// module's roots and the paths already declared.
func (r *runner) newPlan(ctx context.Context, res *convert.Result, supplied []convert.Missing) *Plan {
	o := r.opts
	module := res.ProjectName
	if m := resultModule(res); m != nil {
		module = m.Module
	}
	plan := NewPlan(module, res.Missing, supplied, o.Images)
	plan.Suggestions = res.Suggestions
	if !o.Strict {
		r.markVariableOwners(ctx, plan, res)
	}
	r.declPath = r.declarationsPath(res)
	r.declName = r.display(r.declPath)

	// Where sources land, to show it: the flags, or the declarations.
	plan.HostProjectDirectory, plan.VolumeRoot = o.HostProjectDirectory, o.VolumeRoot
	plan.Flags = Settings{HostProjectDirectory: o.HostProjectDirectory, VolumeRoot: o.VolumeRoot, Layout: o.Layout}
	if old, _, err := atomicfile.ReadLF(r.declPath); err == nil {
		if f, err := declare.Parse(r.declName, old); err == nil {
			plan.settingsFrom(f)
		}
	}
	// The module's roots as convert recorded them (roots: of the sidecar
	// and of x-compose2manifest, host_project_directory), for C2M006.
	if m := resultModule(res); m != nil {
		for _, rt := range m.Roots {
			plan.Roots = append(plan.Roots, rt.Path)
		}
	}
	// The paths declared already, where no answer may relocate a source.
	plan.TakePaths(resultModule(res))
	return plan
}

// settingsFrom takes the settings the declarations file f sets already:
// the skeleton need not repeat them, and they say where sources land.
func (p *Plan) settingsFrom(f *declare.File) {
	if f.HostProjectDirectory != "" {
		p.Flags.HostProjectDirectory = ""
	}
	if f.VolumeRoot != "" {
		p.Flags.VolumeRoot = ""
	}
	if f.Layout != "" {
		p.Flags.Layout = ""
	}
	if p.HostProjectDirectory == "" {
		p.HostProjectDirectory = f.HostProjectDirectory
	}
	if p.VolumeRoot == "" {
		p.VolumeRoot = f.VolumeRoot
	}
	for _, rt := range f.Roots {
		p.Roots = append(p.Roots, rt.Path)
	}
}

// nothingToAsk is the outcome of a run with no source to ask about.
func nothingToAsk(module string, res *convert.Result) Outcome {
	out := Outcome{Status: Done, Message: fmt.Sprintf("module %q: nothing to ask: every volume source is declared", module)}
	if res.Status == convert.Refused {
		out.Message = fmt.Sprintf("module %q: nothing to ask", module)
		out.Hints = []string{fmt.Sprintf("convert still refuses the module (%s) for reasons ask does not ask about; run convert to see them", report.CountErrors(res.Diagnostics))}
	}
	return out
}

// printSkeleton prints, off a terminal, the skeleton of what is missing,
// and says how to go on without overwriting a declarations file.
func (r *runner) printSkeleton(cfg Config, plan *Plan, res *convert.Result) Outcome {
	plan.Directories = plan.PredictDirectories(resultModule(res))
	if _, err := io.WriteString(cfg.Stdout, report.Block(string(declare.WithSchemaComment(Skeleton(plan), cfg.SchemaComment)))); err != nil {
		return failed(fmt.Errorf("ask: %w", err))
	}
	out := Outcome{Status: Unanswered, Err: fmt.Errorf("module %q: %s, and this is not a terminal to ask on; nothing written", plan.Module, lacking(plan))}
	if _, err := os.Stat(r.declPath); err == nil && !r.blank {
		// Saving the skeleton as the file would wipe what it declares.
		out.Hints = []string{fmt.Sprintf("run compose2manifest ask on a terminal, which adds to %s (--write skips the final confirmation); or fill in the skeleton above and merge the skeleton's entries into %s: it already exists, and saving the skeleton over it would lose its declarations", r.declName, r.declName)}
	} else {
		out.Hints = []string{fmt.Sprintf("run compose2manifest ask on a terminal, or fill in the skeleton above and save it as %s", r.declName)}
	}
	return out
}

// runner holds what one Run knows.
type runner struct {
	cfg  Config
	opts convert.Options // cfg.Options with Images and WorkingDirectory set
	// blank reports whether the declarations file is missing or holds no
	// YAML, so ask converts as if it held "version: 1".
	blank bool
	// declPath is the declarations file ask writes; declName names it
	// for people.
	declPath, declName string
	// unsettled are convert's errors no declaration settles (unset
	// variables, volume kinds), as they print.
	unsettled []string
}

// terminal holds the conversation, then writes the declarations.
func (r *runner) terminal(ctx context.Context, plan *Plan, refusals []Refusal, res *convert.Result) Outcome {
	old, crlf, doc, stop := r.openDeclarations()
	if stop != nil {
		return *stop
	}
	// The session writes each answer into doc, the one document ask
	// edits and writes, and checks it by converting doc in memory.
	s := &Session{In: r.cfg.In, Out: r.cfg.Out, DeclarationsFile: r.declName, Doc: doc, Check: r.check(ctx)}
	a, settled, stop := r.converse(ctx, s, plan, refusals)
	if stop != nil {
		return *stop
	}
	// A setting a flag gives and the file does not is written into it,
	// so convert finds it without the flag (convert --batch refuses
	// those flags).
	fromFlags := settingsFromFlags(&r.opts, old, a)
	for _, f := range fromFlags {
		doc.SetScalar(f.setting, *f.opt(&r.opts))
	}
	ApplySettled(doc, settled)
	data, err := doc.Bytes()
	if err != nil {
		return failed(fmt.Errorf("ask: %s: %w", r.declName, err))
	}
	if data, stop = r.offerDirectories(ctx, s, doc, old, data, res); stop != nil {
		return *stop
	}
	if !bytes.Equal(data, old) {
		data = declare.WithSchemaComment(data, r.cfg.SchemaComment)
	}
	if _, err := declare.Parse(r.declName, data); err != nil {
		return failed(fmt.Errorf("ask: the declarations would not read back: %w; nothing written", err))
	}
	if stop := r.writeDeclarations(ctx, s, old, data, crlf, fromFlags); stop != nil {
		return *stop
	}
	return r.recheck(ctx, plan, fromFlags)
}

// openDeclarations reads the declarations file (a missing one reads as
// empty) and loads it for editing. A file with CRLF line endings is
// edited as LF and written back with CRLF (crlf). A non-nil Outcome ends
// ask: the file does not load, or cannot be written, found out before
// the first question so that answers are never lost to it.
func (r *runner) openDeclarations() (old []byte, crlf bool, doc *declare.Document, stop *Outcome) {
	old, crlf, err := atomicfile.ReadLF(r.declPath)
	if err != nil && !os.IsNotExist(err) {
		o := failed(fmt.Errorf("ask: %w", err))
		return nil, false, nil, &o
	}
	if doc, err = declare.LoadDocument(r.declName, old); err != nil {
		o := failed(fmt.Errorf("ask: %w", err))
		return nil, false, nil, &o
	}
	if err := canWrite(r.declPath); err != nil {
		return nil, false, nil, &Outcome{Status: Failed, Err: fmt.Errorf("ask: cannot write %s: %w; nothing asked", r.declName, err),
			Hints: []string{"make " + r.declName + " and its directory writable, or name another file with --declarations"}}
	}
	return old, crlf, doc, nil
}

// check returns the Session's Check: it converts the project as the
// options say with the declarations data in memory (nothing is written)
// and returns the rules' findings.
func (r *runner) check(ctx context.Context) func([]byte) ([]rules.Diagnostic, error) {
	return func(data []byte) ([]rules.Diagnostic, error) {
		res, err := r.convertData(ctx, r.opts, data)
		if err != nil {
			return nil, err
		}
		if res == nil {
			return nil, errors.New("no conversion")
		}
		return res.Diagnostics, nil
	}
}

// stopped returns the outcome that ends ask after a question asked
// through interruptible: interrupted on Ctrl-C (ok false), sessionFailed
// on err; nil when the answers came.
func (r *runner) stopped(ok bool, err error) *Outcome {
	var o Outcome
	switch {
	case !ok:
		o = r.interrupted()
	case err != nil:
		o = sessionFailed(err)
	default:
		return nil
	}
	return &o
}

// converse asks the plan's questions, if it has any, then how to settle
// each refusal. A non-nil Outcome ends ask (stopped).
func (r *runner) converse(ctx context.Context, s *Session, plan *Plan, refusals []Refusal) (*Answers, []Settled, *Outcome) {
	a := &Answers{}
	if len(plan.Items) > 0 {
		got, ok, err := interruptible(ctx, func() (*Answers, error) { return s.Run(plan) })
		if stop := r.stopped(ok, err); stop != nil {
			return nil, nil, stop
		}
		a = got
	}
	settled, ok, err := interruptible(ctx, func() ([]Settled, error) { return s.RunRefusals(refusals) })
	if stop := r.stopped(ok, err); stop != nil {
		return nil, nil, stop
	}
	return a, settled, nil
}

// offerDirectories offers the parent directories nothing declares and
// returns data, doc's bytes, with the directories answered applied to
// doc. Where the sources land decides their parent directories: it
// converts the declarations as answered (data, unless it equals old: then
// res, the conversion already made), and a conversion that fails (such
// as answers that would not read back, reported later) offers none. A
// non-nil Outcome ends ask.
func (r *runner) offerDirectories(ctx context.Context, s *Session, doc *declare.Document, old, data []byte, res *convert.Result) ([]byte, *Outcome) {
	pres := res
	if !bytes.Equal(data, old) {
		var err error
		if pres, err = r.convertData(ctx, r.opts, data); err != nil {
			pres = nil
		}
	}
	if pres == nil {
		pres = &convert.Result{}
	}
	dirs := NewDirectories(pres.UndeclaredAncestors, resultModule(pres))
	if len(dirs) == 0 {
		return data, nil
	}
	got, ok, err := interruptible(ctx, func() ([]Answer, error) { return s.RunDirectories(dirs) })
	if stop := r.stopped(ok, err); stop != nil {
		return nil, stop
	}
	if len(got) > 0 {
		Apply(doc, &Answers{Directories: got})
		if data, err = doc.Bytes(); err != nil {
			o := failed(fmt.Errorf("ask: %s: %w", r.declName, err))
			return nil, &o
		}
	}
	return data, nil
}

// writeDeclarations shows the lines data changes from old, and the
// settings taken from flags, then writes data to the declarations file
// (asking first unless Write is set); it says so when nothing changes.
// A non-nil Outcome ends ask: the write declined, interrupted, or failed
// (then data is printed on Stdout, for the author to save by hand).
func (r *runner) writeDeclarations(ctx context.Context, s *Session, old, data []byte, crlf bool, fromFlags []flagSetting) *Outcome {
	if bytes.Equal(data, old) {
		fmt.Fprintf(r.cfg.Out, "\n%s already says all that; nothing to write.\n", r.declName)
		return nil
	}
	fmt.Fprintf(r.cfg.Out, "\n%s:\n%s", r.declName, changedLines(old, data))
	for _, f := range fromFlags {
		fmt.Fprintf(r.cfg.Out, "  (%s from %s, so that convert finds it without the flag)\n", f.setting, f.flag)
	}
	if !r.cfg.Write {
		yes, ok, err := interruptible(ctx, func() (bool, error) { return s.Confirm("Write " + r.declName + "?") })
		if stop := r.stopped(ok, err); stop != nil {
			return stop
		}
		if !yes {
			return &Outcome{Status: Unanswered, Message: "nothing written"}
		}
	}
	if cur, _, err := atomicfile.ReadLF(r.declPath); (err == nil || !os.IsNotExist(err) || old != nil) && !bytes.Equal(cur, old) {
		// Someone changed the file while ask ran (an editor, another
		// ask): writing would drop their change. The answers are not
		// lost either: they are printed, to merge by hand.
		if r.cfg.Stdout != nil {
			io.WriteString(r.cfg.Stdout, report.Block(string(data)))
		}
		return &Outcome{Status: Failed, Err: fmt.Errorf("ask: %s changed since ask read it; not overwriting it, nothing written", r.declName),
			Hints: []string{"the declarations answered are printed on stdout: merge them into " + r.declName + " by hand, or run ask again"}}
	}
	if _, err := atomicfile.Rewrite(r.declPath, data, crlf); err != nil {
		// The answers are not lost: print what would have been
		// written, for the author to save by hand.
		if r.cfg.Stdout != nil {
			io.WriteString(r.cfg.Stdout, report.Block(string(data)))
		}
		return &Outcome{Status: Failed, Err: fmt.Errorf("ask: %w; nothing written", err),
			Hints: []string{"the declarations answered are printed on stdout: save them as " + r.declName}}
	}
	fmt.Fprintf(r.cfg.Out, "wrote %s\n", r.declName)
	return nil
}

// recheck checks the result as convert will see it: the settings written
// into the file need no flag any more, so it converts without them. The
// outcome is Done, with the command to run next, when convert accepts
// the module, and Unanswered with convert's errors otherwise.
func (r *runner) recheck(ctx context.Context, plan *Plan, fromFlags []flagSetting) Outcome {
	next, again := r.cfg.Options, r.opts
	for _, f := range fromFlags {
		*f.opt(&next), *f.opt(&again) = "", ""
	}
	res2, err := convert.Convert(ctx, again)
	if err == nil && res2.Status == convert.Converted {
		if n := len(res2.UndeclaredAncestors); n > 0 {
			fmt.Fprintf(r.cfg.Out, "%s left undeclared (%s): convert warns %sfor the paths in %s.\n", countDirectories(n), strings.Join(res2.UndeclaredAncestors, ", "), ruleOf(res2.Diagnostics), themIt(n))
		}
		fmt.Fprintf(r.cfg.Out, "convert now accepts module %q. Run next:\n\n    %s\n", plan.Module, nextCommand(next))
		return Outcome{Status: Done}
	}
	out := Outcome{
		Status: Unanswered,
		Err:    fmt.Errorf("ask: convert still refuses module %q for the reasons above", plan.Module),
		Hints:  []string{"fix them, then run: " + nextCommand(next)},
	}
	if res2 != nil {
		out.Report = &report.Module{Status: string(res2.Status), Diagnostics: errorsOnly(res2.Diagnostics)}
	}
	return out
}

// failed is the outcome of an error that stops ask: nothing written.
func failed(err error) Outcome { return Outcome{Status: Failed, Err: err} }

// interrupted is the outcome of Ctrl-C: nothing written. It ends the
// line the prompt was on.
func (r *runner) interrupted() Outcome {
	if r.cfg.Out != nil {
		fmt.Fprintln(r.cfg.Out)
	}
	return Outcome{Status: Unanswered, Err: errors.New("ask: interrupted; nothing written")}
}

// sessionFailed is the outcome of a session that ended without answers.
func sessionFailed(err error) Outcome {
	out := failed(fmt.Errorf("ask: %w; nothing written", err))
	if errors.Is(err, ErrEndOfInput) {
		out.Status = Unanswered
	}
	return out
}

// flagSetting is a setting a flag gave and ask writes into the file.
type flagSetting struct {
	setting, flag string
	// opt returns the option the flag set.
	opt func(*convert.Options) *string
}

// settingsFromFlags sets in a the settings --host-project-directory and
// --volume-root give (in o) that the declarations file (old) does not set
// and the author did not answer, and returns them.
func settingsFromFlags(o *convert.Options, old []byte, a *Answers) []flagSetting {
	var file declare.File
	if f, err := declare.Parse("", old); err == nil {
		file = *f
	}
	var out []flagSetting
	for _, s := range []struct {
		flagSetting
		inFile string
		answer *string
	}{
		{flagSetting{"host_project_directory", "--host-project-directory", func(o *convert.Options) *string { return &o.HostProjectDirectory }}, file.HostProjectDirectory, &a.HostProjectDirectory},
		{flagSetting{"volume_root", "--volume-root", func(o *convert.Options) *string { return &o.VolumeRoot }}, file.VolumeRoot, &a.VolumeRoot},
	} {
		v := *s.opt(o)
		if v == "" || s.inFile != "" || *s.answer != "" {
			continue
		}
		*s.answer = v
		out = append(out, s.flagSetting)
	}
	return out
}

// interruptible runs f (a part of the conversation) until it returns or
// ctx is done (Ctrl-C); ok is false when ctx is done first, and f's read
// is abandoned.
func interruptible[T any](ctx context.Context, f func() (T, error)) (v T, ok bool, err error) {
	type outcome struct {
		v   T
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		v, err := f()
		done <- outcome{v, err}
	}()
	select {
	case <-ctx.Done():
		return v, false, nil
	case o := <-done:
		return o.v, true, o.err
	}
}

// blankDeclarations reports whether the declarations file at p does not
// exist or holds no YAML: only blank lines and comments.
func blankDeclarations(p string) bool {
	data, _, err := atomicfile.ReadLF(p) // bounded; a FIFO is refused, not waited on
	if os.IsNotExist(err) {
		return true
	}
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

// convertBlank converts the project as o says; with r.blank, as if the
// declarations file held only "version: 1".
func (r *runner) convertBlank(ctx context.Context, o convert.Options) (*convert.Result, error) {
	if !r.blank {
		return convert.Convert(ctx, o)
	}
	return r.convertData(ctx, o, []byte("version: 1\n"))
}

// convertData converts the project as o says, with data as the
// declarations file's content (in memory: nothing is written).
func (r *runner) convertData(ctx context.Context, o convert.Options, data []byte) (*convert.Result, error) {
	o.Declarations = &convert.Declarations{Data: data}
	return convert.Convert(ctx, o)
}

// resultModule is the module a conversion built: converted or candidate.
func resultModule(res *convert.Result) *manifest.Module {
	if res == nil {
		return nil
	}
	if res.Module != nil {
		return res.Module
	}
	return res.Candidate
}

// abs makes p absolute against the working directory.
func (r *runner) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.opts.WorkingDirectory, p)
}

// declarationsPath is the file ask writes: DeclarationsFile (relative to
// the working directory), or compose2manifest.yaml in the project
// directory.
func (r *runner) declarationsPath(res *convert.Result) string {
	if p := r.opts.DeclarationsFile; p != "" {
		return r.abs(p)
	}
	return filepath.Join(res.ProjectDirectory, declare.DefaultFile)
}

// display names p relative to the working directory when it is inside
// it.
func (r *runner) display(p string) string {
	if rel, err := filepath.Rel(r.opts.WorkingDirectory, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// ruleOf returns the ID of the rule that warns in ds about the
// undeclared parent directories, followed by a space; "" when none does.
func ruleOf(ds []rules.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == rules.Warning && rules.UndeclaredParent(d) {
			return d.Rule + " "
		}
	}
	return ""
}

func errorsOnly(ds []rules.Diagnostic) []rules.Diagnostic {
	var out []rules.Diagnostic
	for _, d := range ds {
		if d.Severity == rules.Error {
			out = append(out, d)
		}
	}
	return out
}

// canWrite reports why the declarations file at p could not be written
// as atomicfile.Rewrite writes it (a temporary file beside it, renamed
// over it), by creating and removing such a temporary file; nil when it
// can. A missing directory is judged by the nearest one that exists,
// which Rewrite would create it in.
func canWrite(p string) error {
	if t, err := filepath.EvalSymlinks(p); err == nil {
		p = t
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", p)
	}
	dir := filepath.Dir(p)
	for {
		fi, err := os.Stat(dir)
		if err == nil && !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		if err == nil || !os.IsNotExist(err) || filepath.Dir(dir) == dir {
			break
		}
		dir = filepath.Dir(dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return err
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
