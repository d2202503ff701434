package ask

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
)

// Skeleton returns convert's declarations skeleton for the plan's sources
// and its secrets and fields not carried (convert.Draft), with each
// entry's suggestions as comments above it: where each value filled in
// came from, and what the image table and the target path suggest for
// the values left "", the settings given as flags filled in, and at the
// end the plan's Directories as a commented, optional directories:
// block. Nil when the plan has no items and no secrets.
func Skeleton(p *Plan) []byte {
	d := p.Draft()
	d.Notes = make([][]string, len(p.Items))
	for i := range p.Items {
		d.Notes[i] = p.Items[i].suggestionLines()
	}
	d.Settings = p.Flags.draft()
	d.Tail = directoryLines(p.Directories)
	return d.Skeleton()
}

// Draft is what the plan is missing, as convert writes a skeleton of it:
// the items' Missing and convert's Suggestions.
func (p *Plan) Draft() *convert.Draft {
	d := &convert.Draft{Module: p.Module, Suggestions: p.Suggestions, Missing: make([]convert.Missing, len(p.Items))}
	for i := range p.Items {
		d.Missing[i] = p.Items[i].Missing
	}
	return d
}

// draft lists the settings of s for the skeleton, each saying the flag it
// was given as: a skeleton saved as the declarations file then converts
// without the flags ask was given.
func (s Settings) draft() []convert.DraftSetting {
	var out []convert.DraftSetting
	for _, kv := range []struct{ key, value, flag string }{
		{"host_project_directory", s.HostProjectDirectory, "--host-project-directory"},
		{"volume_root", s.VolumeRoot, "--volume-root"},
		{declare.KeyLayout, s.Layout, "--layout"},
	} {
		if kv.value != "" {
			out = append(out, convert.DraftSetting{Key: kv.key, Value: kv.value, Comment: "given as " + kv.flag + "; here, convert needs no flag"})
		}
	}
	return out
}

func (p *Plan) find(section, key string) *Item {
	for i := range p.Items {
		if p.Items[i].Missing.Section == section && p.Items[i].Missing.Key == key {
			return &p.Items[i]
		}
	}
	return nil
}

// suggestionLines lists an item's suggestions, one a line.
func (it *Item) suggestionLines() []string {
	var out []string
	add := func(field string, s Suggestion, filled bool) {
		switch {
		case s.Value == "" || s.From == "":
		case filled:
			out = append(out, fmt.Sprintf("%s %s (filled in) — %s", field, s.Value, s.Why()))
		default:
			out = append(out, fmt.Sprintf("%s %s? — %s", field, s.Value, s.Why()))
		}
	}
	k := it.Missing.Known
	if it.Missing.NeedsKind {
		out = append(out, "kind: required, file or directory — "+it.Missing.Source+" "+notShownAnd(&it.Missing)+" looks like a file; docker would create a directory there")
	}
	if it.Kind.Value != string(declare.KindDirectory) || it.Kind.Evidence {
		add("kind", it.Kind, string(k.Kind) == it.Kind.Value && it.Kind.Produced)
		if it.Kind.Value == string(declare.KindHost) && it.Kind.From != "" {
			out = append(out, "as a host path, the entry is {kind: host} alone: no owner, mode or intent")
		}
	}
	add("owner", it.Owner, k.Owner == it.Owner.Value)
	add("mode", it.Mode, k.Mode == it.Mode.Value)
	add("intent", it.Intent, k.Intent == it.Intent.Value)
	if rs := it.RowSource(); rs != "" {
		out = append(out, rs)
	}
	return out
}

// questions lists what the author must still say about an item, for
// people: the fields of its entry (Missing.Need, as the skeleton writes
// them) the declarations do not supply, in the order the conversation
// asks them, then where it lands.
func (it *Item) questions(p *Plan) []string {
	m, sup := &it.Missing, it.Supplied
	kind := sup.Kind
	if kind == declare.KindNone {
		kind = m.Known.Kind
	}
	have := map[string]string{declare.FieldKind: string(sup.Kind), declare.FieldOwner: sup.Owner, declare.FieldMode: sup.Mode, declare.FieldIntent: sup.Intent}
	sugg := map[string]Suggestion{declare.FieldKind: it.Kind, declare.FieldOwner: it.Owner, declare.FieldMode: it.Mode, declare.FieldIntent: it.Intent}
	what := map[string]string{
		declare.FieldKind:   "directory, file or host",
		declare.FieldOwner:  "USER:GROUP on the target host",
		declare.FieldMode:   "3 or 4 octal digits, quoted",
		declare.FieldIntent: "state, content, config, logs, cache or runtime",
	}
	var out []string
	for _, field := range []string{declare.FieldKind, declare.FieldOwner, declare.FieldMode, declare.FieldIntent} {
		n, ok := m.Need(kind, field)
		switch {
		case !ok, field == declare.FieldKind && m.Section != declare.SectionBinds:
			// A host path has no owner, mode or intent; only a bind a kind.
		case field == declare.FieldKind && n.Required && sup.Kind == declare.KindNone:
			out = append(out, suggested("kind? required, as "+m.Source+" "+notShownAnd(m)+" looks like a file, where docker would create a directory: file or directory (or host)", it.Kind))
		case have[field] == "":
			out = append(out, suggested(field+"? "+what[field], sugg[field]))
		}
	}
	switch {
	case m.LinkOutside != "":
		out = append(out, "path? "+m.LinkOutside+": an absolute path on the target host, unless it is declared {kind: host}")
	case m.NeedsPath:
		out = append(out, "path? the legacy host's home is unknown here: an absolute path on the target host")
	case m.NeedsHostProjectDirectory:
		out = append(out, "host_project_directory? where the project lives on the target host (or give this source its own path)")
	case m.NeedsVolumeRoot:
		out = append(out, "volume_root? where volumes land, at VOLUME_ROOT/"+p.Module+"/NAME (or give this volume its own path)")
	}
	return out
}

// suggested is the question q with the suggestion s and where it comes
// from, if any.
func suggested(q string, s Suggestion) string {
	if s.Value != "" && s.From != "" {
		q += "; suggested: " + s.Value + " (" + s.Why() + ")"
	}
	return q
}

// WriteGitHub writes one GitHub workflow annotation for each source of p,
// on the compose file line of its first mount, asking what the author
// must still declare:
//
//	::warning file=mail/compose.yaml,line=13,title=declare bind ./data/spool::…
//
// file turns a position's file (relative to the project directory) into
// the path GitHub knows, relative to the repository root.
func WriteGitHub(w io.Writer, p *Plan, declarations string, file func(manifest.Pos) string) error {
	var b strings.Builder
	for i := range p.Items {
		it := &p.Items[i]
		if len(it.Missing.Mounts) == 0 {
			continue
		}
		first := it.Missing.Mounts[0]
		var props []string
		if first.Pos.File != "" {
			props = append(props, "file="+report.GitHubProperty(file(first.Pos)))
			if first.Pos.Line > 0 {
				props = append(props, "line="+strconv.Itoa(first.Pos.Line))
			}
		}
		props = append(props, "title="+report.GitHubProperty("declare "+it.What()))
		needs := "a declaration"
		if it.OnlyLocation() {
			needs = "a location"
		}
		msg := fmt.Sprintf("%s needs %s in %s (service %q → %s; data today: %s):", it.What(), needs, declarations, first.Service, first.Target, it.Today())
		for _, q := range it.questions(p) {
			msg += "\n- " + q
		}
		if rs := it.RowSource(); rs != "" {
			msg += "\n(" + rs + ")"
		}
		msg += "\nRun compose2manifest ask on a terminal to answer, or fill in the skeleton it prints."
		b.WriteString("::warning " + strings.Join(props, ",") + "::" + report.GitHubData(msg) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
