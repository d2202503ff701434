package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/ask"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// runAsk implements "ask": on a terminal it asks for what convert is
// missing and writes the declarations file; elsewhere it prints the
// questions (a skeleton, or GitHub annotations) and exits 1.
func runAsk(e *env, args []string) int {
	fs, cf := newConvertFlags("ask", e)
	write := fs.Bool("write", false, "write the declarations file without asking for a final confirmation")
	fs.StringVar(&cf.format, "format", "text", "off a terminal: text (a skeleton) or github (workflow annotations)")
	if code, ok := parseFlags(e, fs, "ask", "ask [convert's flags] [--write] [--format text|github]", args); !ok {
		return code
	}
	if cf.format != "text" && cf.format != "github" {
		errorf(e, "ask: --format %q: want text or github", cf.format)
		return exitUsage
	}

	cf.opts.Environ = e.environ
	cf.opts.WorkingDirectory = e.dir
	table, err := images.Load()
	if err != nil {
		errorf(e, "ask: %v", err)
		return exitUsage
	}
	cf.opts.Images = table
	// The declarations file is the file ask writes: when it does not
	// exist yet, or holds nothing (blank lines and comments), ask
	// converts as if it held an empty declarations document, and creates
	// or fills it at the end.
	blank := false
	if p := cf.opts.DeclarationsFile; p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.dir, p)
		}
		blank = blankDeclarations(p)
	}
	res, err := convertBlank(cf.opts, blank)
	if err != nil && !blank && cf.opts.DeclarationsFile == "" && res != nil && res.ProjectDirectory != "" &&
		blankDeclarations(filepath.Join(res.ProjectDirectory, declare.DefaultFile)) {
		blank = true
		res, err = convertBlank(cf.opts, blank)
	}
	if res == nil || res.Status == convert.Failed || err != nil {
		if res != nil {
			report.WriteText(e.stderr, &report.Report{Modules: []report.Module{{Status: string(res.Status), Diagnostics: res.Diagnostics}}})
		}
		if err != nil {
			errorf(e, "ask: %v", err)
		}
		hintf(e, "ask needs a project convert can load; fix the errors above first")
		return exitUsage
	}
	// A strict run tells the values the declarations supply from those
	// convert produces.
	var supplied []convert.Missing
	if !cf.opts.Strict {
		so := cf.opts
		so.Strict = true
		sres, err := convertBlank(so, blank)
		if err != nil || sres == nil {
			errorf(e, "ask: %v", err)
			return exitUsage
		}
		supplied = sres.Missing
		if supplied == nil {
			supplied = []convert.Missing{}
		}
	}
	module := res.ProjectName
	if res.Module != nil {
		module = res.Module.Module
	} else if res.Candidate != nil {
		module = res.Candidate.Module
	}
	plan := ask.NewPlan(module, res.Missing, supplied, res.ProjectDirectory, table)
	declPath := declarationsPath(e, cf, res)
	declName := displayPath(e, declPath)

	// Where sources land, to show it: the flags, or the declarations.
	plan.HostProjectDirectory, plan.VolumeRoot = cf.opts.HostProjectDirectory, cf.opts.VolumeRoot
	if old, err := os.ReadFile(declPath); err == nil {
		if f, err := declare.Parse(declName, bytes.ReplaceAll(old, []byte("\r\n"), []byte("\n"))); err == nil {
			if plan.HostProjectDirectory == "" {
				plan.HostProjectDirectory = f.HostProjectDirectory
			}
			if plan.VolumeRoot == "" {
				plan.VolumeRoot = f.VolumeRoot
			}
		}
	}

	// The paths declared already, where no answer may relocate a source.
	plan.TakePaths(resultModule(res))

	// Every source declared, but parent directories are not: on a
	// terminal, offer them.
	if len(plan.Items) == 0 && e.isTerminal && cf.format == "text" && len(res.UndeclaredAncestors) > 0 {
		return askTerminal(e, cf, plan, res, declPath, declName, *write)
	}
	if len(plan.Items) == 0 {
		fmt.Fprintf(e.stderr, "compose2manifest: module %q: nothing to ask: every volume source is declared\n", module)
		if res.Status == convert.Refused {
			hintf(e, "convert still refuses the module (%s) for reasons ask does not ask about; run convert to see them", countErrors(res.Diagnostics))
		}
		return exitOK
	}
	if cf.format == "github" {
		rel := func(p manifest.Pos) string { return displayPath(e, filepath.Join(res.ProjectDirectory, p.File)) }
		if err := ask.WriteGitHub(e.stdout, plan, declName, rel); err != nil {
			errorf(e, "ask: %v", err)
			return exitUsage
		}
		return exitFindings
	}
	if !e.isTerminal {
		plan.Directories = plan.PredictDirectories(resultModule(res))
		e.stdout.Write(ask.Skeleton(plan))
		errorf(e, "module %q: %s, and this is not a terminal to ask on; nothing written", module, lacking(plan))
		if _, err := os.Stat(declPath); err == nil && !blank {
			// Saving the skeleton as the file would wipe what it declares.
			hintf(e, "run compose2manifest ask on a terminal, which adds to %s (--write skips the final confirmation); or fill in the skeleton above and merge the skeleton's entries into %s: it already exists, and saving the skeleton over it would lose its declarations", declName, declName)
		} else {
			hintf(e, "run compose2manifest ask on a terminal, or fill in the skeleton above and save it as %s", declName)
		}
		return exitFindings
	}
	return askTerminal(e, cf, plan, res, declPath, declName, *write)
}

// askTerminal holds the conversation, then writes the declarations.
func askTerminal(e *env, cf *convertFlags, plan *ask.Plan, res *convert.Result, declPath, declName string, write bool) int {
	// A file with CRLF line endings is edited as LF and written back with
	// CRLF.
	old, crlf, err := atomicfile.ReadLF(declPath)
	if err != nil && !os.IsNotExist(err) {
		errorf(e, "ask: %v", err)
		return exitUsage
	}
	doc, err := declare.LoadDocument(declName, old)
	if err != nil {
		errorf(e, "ask: %v", err)
		return exitUsage
	}
	s := &ask.Session{In: e.stdin, Out: e.stderr, DeclarationsFile: declName}

	// Ctrl-C stops the session without writing anything: the read in
	// progress is abandoned, and the process exits.
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	defer signal.Stop(interrupt)
	stopped := func() int {
		fmt.Fprintln(e.stderr)
		errorf(e, "ask: interrupted; nothing written")
		return exitFindings
	}
	a := &ask.Answers{}
	if len(plan.Items) > 0 {
		got, ok, err := interruptible(interrupt, func() (*ask.Answers, error) { return s.Run(plan) })
		switch {
		case !ok:
			return stopped()
		case err != nil:
			return askFailed(e, err)
		}
		a = got
	}
	// A setting a flag gives and the file does not is written into it,
	// so convert finds it without the flag (convert --batch refuses
	// those flags).
	fromFlags := settingsFromFlags(cf, old, a)
	ask.Apply(doc, a)
	data, err := doc.Bytes()
	if err != nil {
		errorf(e, "ask: %s: %v", declName, err)
		return exitUsage
	}

	// Where the sources land decides their parent directories: convert
	// the declarations as answered, then offer the parents nothing
	// declares.
	// A conversion that fails (such as answers that would not read back,
	// reported below) offers none.
	pres := res
	if !bytes.Equal(data, old) {
		if pres, err = convertWith(cf, data); err != nil {
			pres = nil
		}
	}
	if pres == nil {
		pres = &convert.Result{}
	}
	if dirs := ask.NewDirectories(pres.UndeclaredAncestors, resultModule(pres)); len(dirs) > 0 {
		got, ok, err := interruptible(interrupt, func() ([]ask.Answer, error) { return s.RunDirectories(dirs) })
		switch {
		case !ok:
			return stopped()
		case err != nil:
			return askFailed(e, err)
		}
		if len(got) > 0 {
			ask.Apply(doc, &ask.Answers{Directories: got})
			if data, err = doc.Bytes(); err != nil {
				errorf(e, "ask: %s: %v", declName, err)
				return exitUsage
			}
		}
	}
	if _, err := declare.Parse(declName, data); err != nil {
		errorf(e, "ask: the declarations would not read back: %v; nothing written", err)
		return exitUsage
	}
	if bytes.Equal(data, old) {
		fmt.Fprintf(e.stderr, "\n%s already says all that; nothing to write.\n", declName)
	} else {
		fmt.Fprintf(e.stderr, "\n%s:\n%s", declName, changedLines(old, data))
		for _, f := range fromFlags {
			fmt.Fprintf(e.stderr, "  (%s from %s, so that convert finds it without the flag)\n", f.setting, f.flag)
		}
		if !write {
			yes, ok, err := interruptible(interrupt, func() (bool, error) { return s.Confirm("Write " + declName + "?") })
			switch {
			case !ok:
				return stopped()
			case err != nil:
				return askFailed(e, err)
			case !yes:
				fmt.Fprintln(e.stderr, "compose2manifest: nothing written")
				return exitFindings
			}
		}
		if _, err := atomicfile.Rewrite(declPath, data, crlf); err != nil {
			errorf(e, "ask: %v; nothing written", err)
			return exitUsage
		}
		fmt.Fprintf(e.stderr, "wrote %s\n", declName)
	}

	// Check the result as convert will see it. The settings written into
	// the file need no flag any more.
	ncf := *cf
	for _, f := range fromFlags {
		*f.opt(&ncf.opts) = ""
	}
	next := nextCommand(&ncf)
	res2, err := convert.Convert(context.Background(), cf.opts)
	switch {
	case err == nil && res2.Status == convert.Converted:
		if n := len(res2.UndeclaredAncestors); n > 0 {
			fmt.Fprintf(e.stderr, "%s left undeclared (%s): convert warns C2M011 for the paths in %s.\n", countDirectories(n), strings.Join(res2.UndeclaredAncestors, ", "), themIt(n))
		}
		fmt.Fprintf(e.stderr, "convert now accepts module %q. Run next:\n\n    %s\n", plan.Module, next)
		return exitOK
	default:
		if res2 != nil {
			report.WriteText(e.stderr, &report.Report{Modules: []report.Module{{Status: string(res2.Status), Diagnostics: errorsOnly(res2.Diagnostics)}}})
		}
		errorf(e, "ask: convert still refuses module %q for the reasons above", plan.Module)
		hintf(e, "fix them, then run: %s", next)
		return exitFindings
	}
}

// flagSetting is a setting a flag gave and ask writes into the file.
type flagSetting struct {
	setting, flag string
	// opt returns the option the flag set.
	opt func(*convert.Options) *string
}

// settingsFromFlags sets in a the settings --host-project-directory and
// --volume-root give that the declarations file (old) does not set and
// the author did not answer, and returns them.
func settingsFromFlags(cf *convertFlags, old []byte, a *ask.Answers) []flagSetting {
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
		v := *s.opt(&cf.opts)
		if v == "" || s.inFile != "" || *s.answer != "" {
			continue
		}
		*s.answer = v
		out = append(out, s.flagSetting)
	}
	return out
}

// interruptible runs f (a part of the conversation) until it returns or
// Ctrl-C arrives on interrupt; ok is false on Ctrl-C, when f's read is
// abandoned.
func interruptible[T any](interrupt <-chan os.Signal, f func() (T, error)) (v T, ok bool, err error) {
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
	case <-interrupt:
		return v, false, nil
	case o := <-done:
		return o.v, true, o.err
	}
}

// blankDeclarations reports whether the declarations file at p does not
// exist or holds no YAML: only blank lines and comments.
func blankDeclarations(p string) bool {
	data, err := os.ReadFile(p)
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

// convertBlank converts the project as o says; with blank, as if the
// declarations file held only "version: 1".
func convertBlank(o convert.Options, blank bool) (*convert.Result, error) {
	if !blank {
		return convert.Convert(context.Background(), o)
	}
	return convertData(o, []byte("version: 1\n"))
}

// convertWith converts the project as cf says, with data as the
// declarations file (written to a temporary file, removed after).
func convertWith(cf *convertFlags, data []byte) (*convert.Result, error) {
	return convertData(cf.opts, data)
}

// convertData converts the project as o says, with data as the
// declarations file (written to a temporary file, removed after).
func convertData(o convert.Options, data []byte) (*convert.Result, error) {
	f, err := os.CreateTemp("", "compose2manifest-ask-*.yaml")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	o.DeclarationsFile = f.Name()
	return convert.Convert(context.Background(), o)
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

// countDirectories counts n directories: "1 parent directory", "2
// parent directories".
func countDirectories(n int) string {
	if n == 1 {
		return "1 parent directory"
	}
	return fmt.Sprintf("%d parent directories", n)
}

func themIt(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// askFailed reports why a session ended without answers.
func askFailed(e *env, err error) int {
	if errors.Is(err, ask.ErrEndOfInput) {
		errorf(e, "ask: %v; nothing written", err)
		return exitFindings
	}
	errorf(e, "ask: %v; nothing written", err)
	return exitUsage
}

// declarationsPath is the file ask writes: --declarations (relative to
// the working directory), or compose2manifest.yaml in the project
// directory.
func declarationsPath(e *env, cf *convertFlags, res *convert.Result) string {
	p := cf.opts.DeclarationsFile
	if p == "" {
		return filepath.Join(res.ProjectDirectory, declare.DefaultFile)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.dir, p)
	}
	return p
}

// displayPath names p relative to the working directory when it is
// inside it.
func displayPath(e *env, p string) string {
	if rel, err := filepath.Rel(e.dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// changedLines shows how data differs from old, line by line: a line
// removed or replaced is prefixed "- ", a line added "+ ", and the
// unchanged lines between them are elided. Lines that differ only in
// blanks (yaml.v3 writes one space before a line comment whatever the
// file had) count as unchanged: the preview shows what ask changed, not
// how the YAML library reflowed the rest.
func changedLines(old, data []byte) string {
	split := func(b []byte) []string {
		s := strings.TrimSuffix(string(b), "\n")
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	a, b := split(old), split(data)
	norm := func(l string) string { return strings.Join(strings.Fields(l), " ") }
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if norm(a[i]) == norm(b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	elided := false
	same := func() {
		if !elided {
			out.WriteString("    …\n")
			elided = true
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && norm(a[i]) == norm(b[j]):
			same()
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] > lcs[i+1][j]):
			out.WriteString("  + " + b[j] + "\n")
			elided = false
			j++
		default:
			out.WriteString("  - " + a[i] + "\n")
			elided = false
			i++
		}
	}
	return out.String()
}

// nextCommand is the convert command with ask's flags.
func nextCommand(cf *convertFlags) string {
	args := []string{"compose2manifest", "convert"}
	o := cf.opts
	for _, f := range o.ConfigFiles {
		args = append(args, "-f", shellQuote(f))
	}
	add := func(flag, v string) {
		if v != "" {
			args = append(args, flag, shellQuote(v))
		}
	}
	add("--project-directory", o.ProjectDirectory)
	for _, f := range o.EnvFiles {
		add("--env-file", f)
	}
	for _, p := range o.Profiles {
		add("--profile", p)
	}
	add("-p", o.ProjectName)
	add("--declarations", o.DeclarationsFile)
	add("--host-project-directory", o.HostProjectDirectory)
	add("--volume-root", o.VolumeRoot)
	if o.Strict {
		args = append(args, "--strict")
	}
	return strings.Join(args, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
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

// lacking says how many of the plan's sources lack a declaration (an
// entry in the skeleton) and how many more only their location (a
// setting in the skeleton): "2 sources lack a declaration; 1 more only
// needs host_project_directory".
func lacking(p *ask.Plan) string {
	decl, loc := 0, 0
	var hostDir, volRoot bool
	for i := range p.Items {
		it := &p.Items[i]
		if !it.OnlyLocation() {
			decl++
			continue
		}
		loc++
		hostDir = hostDir || it.Missing.NeedsHostProjectDirectory
		volRoot = volRoot || it.Missing.NeedsVolumeRoot
	}
	setting := "its location"
	switch {
	case hostDir && volRoot:
		setting = "host_project_directory or volume_root"
	case hostDir:
		setting = "host_project_directory"
	case volRoot:
		setting = "volume_root"
	}
	switch {
	case loc == 0:
		return countSources(decl, "lacks", "lack") + " a declaration or a location"
	case decl == 0 && loc == 1:
		return "1 source only needs " + setting
	case decl == 0:
		return fmt.Sprintf("%d sources only need %s", loc, setting)
	}
	return fmt.Sprintf("%s a declaration; %d more only need%s %s", countSources(decl, "lacks", "lack"), loc, singularS(loc), setting)
}

func singularS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// countSources counts n sources with the verb that agrees: "1 source
// lacks", "2 sources lack".
func countSources(n int, singular, plural string) string {
	if n == 1 {
		return "1 source " + singular
	}
	return fmt.Sprintf("%d sources %s", n, plural)
}
