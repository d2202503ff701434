package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// against compares manifests with the compose projects they were made from.
type against struct {
	root string
	opts convert.Options // the conversion settings, as convert's flags give them
	// byModule maps a module name to the projects under root that convert
	// to it, found by converting every project once (as convert --batch
	// discovers them); results holds the conversions of the modules that
	// manifests name. failed lists the projects that could not be
	// converted at all.
	byModule map[string][]string
	results  map[string]*convert.Result
	failed   []string
	// others caches conversions of folders found by a manifest's first
	// source when that is not a name convert --batch discovers.
	others map[string]*convert.Result
}

// newAgainst converts every compose project under root once, in parallel,
// and indexes them by module name. wanted names the modules whose
// conversions are kept for comparison.
func newAgainst(e *env, root string, opts convert.Options, wanted map[string]bool) (*against, error) {
	root = e.resolve(root)
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", root)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	projects, err := batch.Discover(root, nil)
	if err != nil {
		return nil, err
	}
	a := &against{root: root, opts: opts, byModule: map[string][]string{}, results: map[string]*convert.Result{}, others: map[string]*convert.Result{}}
	opts.Environ = e.environ
	var mu sync.Mutex
	err = batch.Each(context.Background(), projects, 0, opts, func(i int, res *convert.Result, err error) {
		mu.Lock()
		defer mu.Unlock()
		dir := projects[i].Dir
		name := moduleOf(res)
		if err != nil || name == "" {
			a.failed = append(a.failed, relPath(root, dir))
			return
		}
		a.byModule[name] = append(a.byModule[name], dir)
		if wanted[name] {
			a.results[dir] = res
		}
	})
	for _, dirs := range a.byModule {
		sort.Strings(dirs)
	}
	sort.Strings(a.failed)
	return a, err
}

// moduleOf returns the module a conversion produced or refused, or "".
func moduleOf(res *convert.Result) string {
	switch {
	case res == nil:
		return ""
	case res.Module != nil:
		return res.Module.Module
	case res.Candidate != nil:
		return res.Candidate.Module
	}
	return ""
}

// check converts m's project again and returns what differs: C2M008 for a
// changed, gone or new source; the conversion's own errors; C2M007 as an
// error; C2M018 for a manifest that differs from its unchanged sources.
// file is the manifest's file name as the user named it.
func (a *against) check(e *env, file string, m *manifest.Module) []rules.Diagnostic {
	at := func(p manifest.Pos, rule, format string, args ...any) rules.Diagnostic {
		if p.File == "" {
			p = manifest.Pos{File: file, Line: m.Pos.Line}
		}
		return rules.Diagnostic{Rule: rule, Severity: rules.Error, File: p.File, Line: p.Line, Module: m.Module, Message: fmt.Sprintf(format, args...)}
	}
	if len(m.Sources) == 0 {
		return []rules.Diagnostic{at(m.Pos, "C2M008", "the manifest records no sources, so its compose project under %s cannot be found", a.root)}
	}
	dir, res, err, others := a.find(e, m)
	if len(others) > 0 {
		return []rules.Diagnostic{at(m.Pos, "C2M017", "projects %s under %s all convert to module %q: check cannot tell which one the manifest was made from", strings.Join(others, ", "), a.root, m.Module)}
	}
	if dir == "" {
		msg := fmt.Sprintf("no compose project under %s converts to module %q", a.root, m.Module)
		if len(a.failed) > 0 {
			msg += fmt.Sprintf(" (%s could not be converted: %s)", countNoun(len(a.failed), "project"), abbreviate(a.failed, 5))
		}
		return []rules.Diagnostic{at(m.Sources[0].Pos, "C2M008", "%s", msg)}
	}
	rel := relPath(e.dir, dir)
	var out []rules.Diagnostic
	stale := false
	recorded := map[string]bool{}
	for _, s := range m.Sources {
		recorded[s.File] = true
		p := filepath.Join(dir, filepath.FromSlash(s.File))
		if filepath.IsAbs(filepath.FromSlash(s.File)) || !within(a.root, p) {
			// A manifest must not make check read files outside ROOT.
			stale = true
			out = append(out, at(s.Pos, "C2M008", "source %s lies outside %s; not read", s.File, a.root))
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			stale = true
			out = append(out, at(s.Pos, "C2M008", "source %s is gone from %s", s.File, rel))
			continue
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != s.SHA256 {
			stale = true
			out = append(out, at(s.Pos, "C2M008", "source %s has changed since the manifest was made (sha256 %.12s…, now %.12s…)", path.Join(rel, s.File), s.SHA256, got))
		}
	}
	if err != nil || res == nil {
		return append(out, at(m.Pos, "", "converting %s again: %v", rel, err))
	}
	cur := res.Module
	if cur == nil {
		cur = res.Candidate
	}
	for _, s := range cur.Sources {
		if !recorded[s.File] {
			stale = true
			out = append(out, at(m.Sources[0].Pos, "C2M008", "%s now feeds the conversion, but the manifest does not record it", path.Join(rel, s.File)))
		}
	}
	for _, d := range res.Diagnostics {
		if d.Rule == "C2M007" {
			d.Severity = rules.Error
		}
		if d.Severity != rules.Error {
			continue
		}
		if d.File != "" {
			d.File = path.Join(rel, d.File)
		}
		d.Module = m.Module
		out = append(out, d)
	}
	if res.Status != convert.Converted {
		return out
	}
	rule := "C2M018"
	if stale {
		rule = "C2M008"
	}
	if m.Header != res.Module.Header {
		r, msg := rule, fmt.Sprintf("the header line is %q, but the conversion writes %q", m.Header, res.Module.Header)
		if m.Header == "" {
			msg = "the generated header line is missing, so convert would take the file for one a person wrote and not replace it"
		}
		if r == "C2M018" {
			msg = "edited by hand: " + msg
		}
		out = append(out, at(m.Pos, r, "%s", msg))
	}
	for _, df := range manifest.Diff(m, res.Module) {
		p := manifest.Pos{File: file, Line: m.Pos.Line}
		if df.Old != nil {
			p = df.Old.Pos
		}
		msg := df.Message
		if df.New != nil && df.New.Pos.File != "" {
			msg += fmt.Sprintf(" (the conversion has it from %s)", path.Join(rel, df.New.Pos.String()))
		}
		r := rule
		switch {
		case df.Old != nil && df.New != nil && fileOrDirectory(df.Old.Kind) && fileOrDirectory(df.New.Kind) && df.Old.Kind != df.New.Kind:
			// The conversion knows from the project (or its declaration)
			// which it is: the manifest has the wrong kind of path.
			r = "C2M004"
			msg = fmt.Sprintf("%s is declared as a %s, but the mount's source is a %s", df.Key, df.Old.Kind, df.New.Kind)
			if df.New.Pos.File != "" {
				msg += fmt.Sprintf(" (%s)", path.Join(rel, df.New.Pos.String()))
			}
		case r == "C2M018":
			msg = "edited by hand: " + msg
		}
		out = append(out, at(p, r, "%s", msg))
	}
	return out
}

// find returns the project directory under root that converts to m's
// module, and that conversion; or, when several do, their paths relative
// to root. A manifest whose first source is not a name convert --batch
// discovers is looked for among the folders holding that file (inside
// root), each converted once.
func (a *against) find(e *env, m *manifest.Module) (string, *convert.Result, error, []string) {
	if dirs := a.byModule[m.Module]; len(dirs) > 1 {
		var rels []string
		for _, d := range dirs {
			rels = append(rels, relPath(a.root, d))
		}
		return "", nil, nil, rels
	} else if len(dirs) == 1 {
		return dirs[0], a.results[dirs[0]], nil, nil
	}
	first := filepath.FromSlash(m.Sources[0].File)
	if isDefaultComposeName(m.Sources[0].File) || filepath.IsAbs(first) || strings.HasPrefix(path.Clean(m.Sources[0].File), "..") {
		return "", nil, nil, nil
	}
	var found []string
	var foundRes *convert.Result
	var lastErr error
	err := filepath.WalkDir(a.root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if name := d.Name(); dir != a.root && (name == ".git" || name == "node_modules") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(dir, first)); err != nil {
			return nil
		}
		res, ok := a.others[dir]
		if !ok {
			opts := a.opts
			opts.ProjectDirectory, opts.WorkingDirectory = dir, dir
			opts.Environ = e.environ
			opts.ConfigFiles = []string{filepath.Join(dir, first)}
			var err error
			if res, err = convert.Convert(context.Background(), opts); err != nil {
				lastErr, res = err, nil
			}
			a.others[dir] = res
		}
		if moduleOf(res) == m.Module {
			found = append(found, relPath(a.root, dir))
			foundRes = res
		}
		return nil
	})
	switch {
	case err != nil:
		return "", nil, err, nil
	case len(found) > 1:
		return "", nil, nil, found
	case len(found) == 1:
		return filepath.Join(a.root, filepath.FromSlash(found[0])), foundRes, nil, nil
	}
	return "", nil, lastErr, nil
}

// within reports whether p lies in dir (or is dir).
func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// isDefaultComposeName reports whether a source is a compose file docker
// compose finds by itself, with its override file.
func isDefaultComposeName(name string) bool {
	for _, n := range cli.DefaultFileNames {
		if name == n {
			return true
		}
	}
	return false
}

// relPath returns p relative to base when it lies below it, else p.
func relPath(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// sortDiagnostics orders diagnostics by file and line.
func sortDiagnostics(ds []rules.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].File != ds[j].File {
			return ds[i].File < ds[j].File
		}
		return ds[i].Line < ds[j].Line
	})
}

func fileOrDirectory(k manifest.Kind) bool {
	return k == manifest.KindFile || k == manifest.KindDirectory
}

// abbreviate joins the first n items of list and counts the rest.
func abbreviate(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(list[:n], ", "), len(list)-n)
}
