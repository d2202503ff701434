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

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// against compares manifests with the compose projects they were made from.
type against struct {
	root string
	opts convert.Options // the conversion settings, as convert's flags give them
	// dirs lists the directories under root, found once.
	dirs []string
}

// newAgainst lists the directories under root, leaving out .git,
// node_modules and hidden directories.
func newAgainst(e *env, root string, opts convert.Options) (*against, error) {
	root = e.resolve(root)
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", root)
	}
	a := &against{root: root, opts: opts}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if p != root && (name == ".git" || name == "node_modules" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		a.dirs = append(a.dirs, p)
		return nil
	})
	return a, err
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
	dir, res, err := a.find(e, m)
	if dir == "" {
		msg := fmt.Sprintf("no compose project under %s converts to module %q (looked for %s)", a.root, m.Module, m.Sources[0].File)
		if err != nil {
			msg += ": " + err.Error()
		}
		return []rules.Diagnostic{at(m.Sources[0].Pos, "C2M008", "%s", msg)}
	}
	rel := relPath(e.dir, dir)
	var out []rules.Diagnostic
	stale := false
	recorded := map[string]bool{}
	for _, s := range m.Sources {
		recorded[s.File] = true
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.File)))
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
	if err != nil {
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

// find returns the project directory under root whose conversion gives
// m's module, and that conversion. Candidates are the directories that
// hold m's first source file; the first in path order that converts to
// the same module name wins.
func (a *against) find(e *env, m *manifest.Module) (string, *convert.Result, error) {
	first := filepath.FromSlash(m.Sources[0].File)
	var lastErr error
	for _, dir := range a.dirs {
		if _, err := os.Stat(filepath.Join(dir, first)); err != nil {
			continue
		}
		opts := a.opts
		opts.ProjectDirectory = dir
		opts.WorkingDirectory = dir
		opts.Environ = e.environ
		opts.ConfigFiles = nil
		if !isDefaultComposeName(m.Sources[0].File) {
			opts.ConfigFiles = []string{filepath.Join(dir, first)}
		}
		res, err := convert.Convert(context.Background(), opts)
		if err != nil {
			lastErr = err
			continue
		}
		name := ""
		if res.Module != nil {
			name = res.Module.Module
		} else if res.Candidate != nil {
			name = res.Candidate.Module
		}
		if name == m.Module {
			return dir, res, nil
		}
	}
	return "", nil, lastErr
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
