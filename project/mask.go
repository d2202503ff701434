package project

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/template"
	"go.yaml.in/yaml/v3"
)

// Load errors never show a secret. compose-go quotes what it cannot parse
// or convert (an env file line with an unterminated quote or template, an
// interpolated port), so before an error leaves Load, the value of every
// environment variable whose name looks like a secret (LooksLikeSecret),
// from the env files (the project's, and a service's env_file that fails
// to parse) and Options.Environ, is masked in its message (Mask),
// and so is the raw text after KEY= of each such env file line: the form
// compose-go quotes when the line does not parse. So is what the compose
// files write of such a variable: a service's environment: value and the
// values of its env_file: files, which
// a field can repeat, through an anchor or by hand), and the default of a
// reference (${DB_PASSWORD:-hunter2}), as written and interpolated.
//
// Masking touches values only. A value that could be a secret
// (CouldBeSecret) is masked wherever it occurs; any other (a common word
// such as postgres or host, a placeholder, a short value) only where it
// stands alone (maskToken): masked inside other text it would corrupt
// the message (compose.yaml read as ********.yaml, hostPort as
// ********Port) and show by its place the very value it hides.

// failedRead matches compose-go's message for an env file it could not
// parse: "failed to read PATH: PROBLEM".
var failedRead = regexp.MustCompile(`failed to read ([^:\n]+): `)

// maskError returns err with every secret value of opts' environment and
// of the env files masked in its message; err itself when none occurs.
func maskError(err error, opts Options, in *inputs, l *Project) error {
	if err == nil {
		return nil
	}
	// values maps each value to mask to whether it is masked wherever
	// it occurs (true) or only where it stands alone.
	values := map[string]bool{}
	add := func(name, value string) {
		if !LooksLikeSecret(name, value) {
			return
		}
		// A message may quote a URL up to its @ only: its password is
		// masked on its own too.
		for _, v := range []string{value, strings.TrimSpace(value), URLPassword(value)} {
			if v == "" {
				continue
			}
			anywhere := CouldBeSecret(v)
			for _, w := range []string{v, quotedForm(v)} {
				values[w] = values[w] || anywhere
			}
		}
	}
	for _, kv := range opts.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			add(k, v)
		}
	}
	if l != nil {
		for k, v := range l.Environment {
			add(k, v)
		}
		for _, kv := range l.raw.writtenValues() {
			add(kv[0], kv[1])
		}
	}
	files := envFileCandidates(opts, in)
	if l != nil {
		// A service's env_file: its values reach no field, but a field
		// may repeat one as written.
		files = append(files, l.raw.serviceEnvFiles()...)
	}
	// A service's env_file compose-go could not parse names itself.
	for _, m := range failedRead.FindAllStringSubmatch(err.Error(), -1) {
		f := m[1]
		if !filepath.IsAbs(f) {
			switch {
			case l != nil && l.Dir != "":
				f = filepath.Join(l.Dir, f)
			case in != nil:
				f = filepath.Join(in.dir, f)
			}
		}
		files = append(files, f)
	}
	var reads envReads
	if in != nil {
		reads = in.reads
	}
	for _, f := range files {
		for _, kv := range rawEnvValues(f, reads) {
			k, raw := kv[0], kv[1]
			add(k, raw)
			for _, q := range []string{`"`, `'`} {
				if s, ok := strings.CutPrefix(raw, q); ok {
					add(k, s)
					add(k, strings.TrimSuffix(s, q))
				}
			}
		}
	}
	if len(values) == 0 {
		return err
	}
	list := make([]string, 0, len(values))
	for v := range values {
		list = append(list, v)
	}
	// Longest first, so that a value is masked whole before a part of it.
	sort.Slice(list, func(i, j int) bool {
		if len(list[i]) != len(list[j]) {
			return len(list[i]) > len(list[j])
		}
		return list[i] < list[j]
	})
	msg := err.Error()
	masked := msg
	for _, v := range list {
		if values[v] {
			masked = strings.ReplaceAll(masked, v, Mask(v))
		} else {
			masked = maskToken(masked, v)
		}
	}
	if masked == msg {
		return err
	}
	return &stableErr{msg: masked, err: err}
}

// envFileCandidates returns the env files a load may have read: those
// resolved, else the ones named, else the .env beside the first compose
// file and in the project and working directories.
func envFileCandidates(opts Options, in *inputs) []string {
	var out []string
	if in != nil {
		out = append(out, in.envFiles...)
		out = append(out, in.read...)
	}
	wd := opts.WorkingDirectory
	abs := func(p string) string {
		if filepath.IsAbs(p) || wd == "" {
			return p
		}
		return filepath.Join(wd, p)
	}
	for _, f := range opts.EnvFiles {
		out = append(out, abs(f))
	}
	if len(opts.ConfigFiles) > 0 {
		out = append(out, filepath.Join(filepath.Dir(abs(opts.ConfigFiles[0])), ".env"))
	}
	if opts.ProjectDirectory != "" {
		out = append(out, filepath.Join(abs(opts.ProjectDirectory), ".env"))
	}
	out = append(out, abs(".env"))
	return out
}

// rawEnvValues returns, in order, for each KEY=VALUE (or export KEY=VALUE) line of
// the env file at path, the raw text after "=", trimmed; nil when the file
// is not a regular file of at most MaxInputSize bytes. A file reads holds
// (read by this load already) is not read again.
func rawEnvValues(path string, reads envReads) [][2]string {
	if path == "" || CheckInputFile("env file", path) != nil {
		return nil
	}
	var data []byte
	var err error
	if reads != nil {
		data, err = reads.read(path)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil
	}
	var out [][2]string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "export "))
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		out = append(out, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
	}
	return out
}

// quotedForm returns v as %q writes it, without the quotes.
func quotedForm(v string) string {
	q := strconv.Quote(v)
	return q[1 : len(q)-1]
}

// maskToken returns s with each occurrence of v that stands alone masked:
// one not joined to a letter, digit, _ or - on either side, nor by a . or
// / to a letter or digit (services.host.image, compose.yaml, ./host/data
// keep their words).
func maskToken(s, v string) string {
	var b strings.Builder
	for i := 0; ; {
		j := strings.Index(s[i:], v)
		if j < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		start, end := i+j, i+j+len(v)
		b.WriteString(s[i:start])
		if alone(s, start, end) {
			b.WriteString(Mask(v))
		} else {
			b.WriteString(v)
		}
		i = end
	}
}

// alone reports whether s[start:end] stands alone in s (maskToken).
func alone(s string, start, end int) bool {
	word := func(c byte) bool {
		return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	if start > 0 {
		c := s[start-1]
		if word(c) || (c == '.' || c == '/') && start > 1 && word(s[start-2]) {
			return false
		}
	}
	if end < len(s) {
		c := s[end]
		if word(c) || (c == '.' || c == '/') && end+1 < len(s) && word(s[end+1]) {
			return false
		}
	}
	return true
}

// writtenValues returns, as name and value, what the compose files write
// of a variable: each service's environment: entry (mapping or list
// form), as written and interpolated with its file's environment, and
// the default or alternative value of each ${NAME:-VALUE}, ${NAME-VALUE},
// ${NAME:+VALUE} or ${NAME+VALUE} reference anywhere, for maskError to
// judge by LooksLikeSecret. Nil for a nil index.
func (ix *rawIndex) writtenValues() [][2]string {
	if ix == nil {
		return nil
	}
	var out [][2]string
	for _, f := range ix.files {
		both := func(name, v string) {
			out = append(out, [2]string{name, v})
			if strings.Contains(v, "$") {
				out = append(out, [2]string{name, f.subst(v)})
			}
		}
		for _, kv := range pairs(get(f.root, "services")) {
			env := resolve(get(kv[1], "environment"))
			if env == nil {
				continue
			}
			switch env.Kind {
			case yaml.MappingNode:
				for _, e := range pairs(env) {
					if v := resolve(e[1]); v != nil && v.Kind == yaml.ScalarNode {
						both(e[0].Value, v.Value)
					}
				}
			case yaml.SequenceNode:
				for _, item := range env.Content {
					if item = resolve(item); item != nil && item.Kind == yaml.ScalarNode {
						if k, v, ok := strings.Cut(item.Value, "="); ok {
							both(k, v)
						}
					}
				}
			}
		}
		seen := map[string]bool{}
		walkScalars(f.root, nil, func(_ []string, n *yaml.Node) {
			if !strings.Contains(n.Value, "${") || seen[n.Value] {
				return
			}
			seen[n.Value] = true
			for name, v := range template.ExtractVariables(map[string]any{"v": n.Value}, template.DefaultPattern) {
				for _, d := range []string{v.DefaultValue, v.PresenceValue} {
					if d != "" {
						both(name, d)
					}
				}
			}
		})
	}
	return out
}

// serviceEnvFiles returns the env_file: files of every service of the
// compose files, absolute (a relative one against its file's folder),
// interpolated: string, list of strings, or list of {path: …}. Nil for a
// nil index.
func (ix *rawIndex) serviceEnvFiles() []string {
	if ix == nil {
		return nil
	}
	var out []string
	for _, f := range ix.files {
		add := func(n *yaml.Node) {
			if n = resolve(n); n == nil || n.Kind != yaml.ScalarNode || n.Value == "" {
				return
			}
			p := f.subst(n.Value)
			if !filepath.IsAbs(p) {
				p = filepath.Join(f.workDir, filepath.FromSlash(p))
			}
			out = append(out, p)
		}
		for _, kv := range pairs(get(f.root, "services")) {
			ef := resolve(get(kv[1], "env_file"))
			if ef == nil {
				continue
			}
			if ef.Kind != yaml.SequenceNode {
				add(ef)
				continue
			}
			for _, item := range ef.Content {
				if it := resolve(item); it != nil && it.Kind == yaml.MappingNode {
					add(get(it, "path"))
				} else {
					add(item)
				}
			}
		}
	}
	return out
}
