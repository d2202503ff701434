package convert

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/textsafe"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"go.yaml.in/yaml/v3"
)

// Skeleton returns a declarations document for exactly the sources of
// missing: every value known so far filled in, every other value "" for
// the author to fill, each entry with a comment saying where the source is
// used. module names the module in comments. Nil when missing is empty.
func Skeleton(module string, missing []Missing) []byte {
	return SkeletonFor(module, missing, Suggestions{})
}

// SecretSuggestion is a secret-looking environment variable the skeleton
// offers to declare under credentials:, with acknowledge as the
// alternative.
type SecretSuggestion struct {
	Service, Variable string
	// Credential is the suggested credential name.
	Credential string
	// FileEnv is set when the image table says the image reads
	// VARIABLE_FILE ("postgres table.yaml:905").
	FileEnv string
	Image   string
	// Existing is the credentials: item (SERVICE.VARIABLE) whose
	// credential delivers the same secret already: Credential is its
	// name.
	Existing string
	// Shared lists the other suggestions (SERVICE.VARIABLE) holding the
	// same secret, offered the same Credential.
	Shared []string
}

// secretSuggestions returns the secret-looking variables that are neither
// delivered as credentials nor acknowledged (or acknowledged though a
// credential delivers the same value). Variables holding one secret (the
// same value that could be a secret, or written as the same variable of
// the project environment: POSTGRES_PASSWORD of the database and
// DB_PASSWORD of the application, both ${DB_PASSWORD}) are offered one
// credential (shareSuggestions), so the mesh holds the value once. Equal
// placeholders alone are not enough: two that read the same
// (changePassword) stand for two secrets.
func (c *converter) secretSuggestions() []SecretSuggestion {
	var out []SecretSuggestion
	for _, s := range c.secrets {
		if s.Credential != "" || (s.Acknowledged && s.SameAs == "") || s.Field != "" || s.Config != "" {
			continue // a field or a config carrying a secret: no credentials: item covers it
		}
		out = append(out, SecretSuggestion{Service: s.Service, Variable: s.Variable, Credential: CredentialName(s.Service, s.Variable), FileEnv: s.FileEnv, Image: s.Image})
	}
	c.shareSuggestions(out)
	return out
}

// comment is the skeleton's comment beside the suggestion: how the
// credential reaches the container, the other variables that hold the
// same secret, and what acknowledge: could say instead (never plaintext
// for a credential's value: a credential's value is nowhere else in
// plaintext).
func (sg SecretSuggestion) comment() string {
	var b strings.Builder
	fmt.Fprintf(&b, "service %q: ", sg.Service)
	if sg.FileEnv != "" {
		fmt.Fprintf(&b, "image %s reads %s_FILE (%s)", sg.Image, sg.Variable, sg.FileEnv)
	} else {
		fmt.Fprintf(&b, "image %s is not known to read %s_FILE: the host sets %s from the credential", sg.Image, sg.Variable, sg.Variable)
	}
	switch {
	case sg.Existing != "":
		fmt.Fprintf(&b, "; the credential of credentials: %s, which holds the same value", sg.Existing)
	case len(sg.Shared) > 0:
		fmt.Fprintf(&b, "; one credential for the same value as %s", strings.Join(sg.Shared, ", "))
	}
	plaintext := declare.AckVariable(declare.AckEnvironment, sg.Service, sg.Variable)
	file := declare.AckVariable(declare.AckCredentials, sg.Service, sg.Variable)
	switch {
	case sg.Existing != "" && sg.FileEnv == "":
		fmt.Fprintf(&b, "; or acknowledge: [%s] if the image reads /run/secrets/%s", file, sg.Credential)
	case sg.Existing != "":
	case sg.FileEnv != "":
		fmt.Fprintf(&b, "; or, to carry the value in plaintext knowingly, acknowledge: [%s]", plaintext)
	default:
		fmt.Fprintf(&b, "; or acknowledge: [%s] if the image reads /run/secrets/%s, or [%s] to carry the value in plaintext knowingly", file, sg.Credential, plaintext)
	}
	return b.String()
}

// CredentialName returns the credential name the skeleton and ask
// suggest for variable of service: both lower-cased, joined by _, each
// character a credential name may not hold made _, and c put before it
// when it would not start with a letter or digit ("" service: the
// variable alone). It is made of names only, never of a value.
func CredentialName(service, variable string) string {
	name := strings.ToLower(variable)
	if service != "" {
		name = strings.ToLower(service) + "_" + name
	}
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, name)
	// Of these characters, declare.ValidCredential wants only a letter
	// or a digit first (a regexp per name was a third of publicNames).
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= '0' && name[0] <= '9') {
		name = "c" + name
	}
	return name
}

// environSource returns the variable of the project environment that
// service's environment entry for variable is written as (${VAR}), from
// the last definition of the service that sets it.
func (c *converter) environSource(service, variable string) (string, bool) {
	defs := c.l.ServiceDefs(service)
	for i := len(defs) - 1; i >= 0; i-- {
		if _, ok := defs[i].EnvPos(variable); ok {
			return defs[i].EnvSource(variable)
		}
	}
	return "", false
}

// Suggestions are what a refusal's skeleton offers besides the sources
// of Missing.
type Suggestions struct {
	// Secrets are the plaintext secrets (C2M015) neither delivered as
	// credentials nor acknowledged, each with the credential name to
	// suggest.
	Secrets []SecretSuggestion
	// Uncarried are the fields the manifest does not carry (C2M007),
	// acknowledged or not.
	Uncarried []placement.Field
	// Roots are the module roots layout fhs places sources in that no
	// directories: entry declares (C2M013), in the order found.
	Roots []MissingRoot
	// Options are the volume options the manifest cannot carry and no
	// acknowledgement drops (C2M012), one per option name (z, Z,
	// propagation, nocopy), in the order found.
	Options []OptionUse
}

// OptionUse is a volume option the manifest cannot carry, by name, with
// the first mount that gives it and how many do.
type OptionUse struct {
	Name            string
	Service, Target string
	Mounts          int
}

// optionUses returns the volume options of c's mounts that C2M012 refuses
// and acknowledge: could drop. A mount whose target carries a known
// secret is left out: its item would name the secret (C2M015 refuses the
// target), and masked it would be no item.
func (c *converter) optionUses() []OptionUse {
	var out []OptionUse
	for _, m := range c.mounts {
		if c.carriesSecret(m.Target) {
			continue
		}
		for _, o := range m.Options {
			name := declare.OptionName(o)
			if name == "" || c.decl.AcknowledgesOption(m.Service, m.Target, name) {
				continue
			}
			i := slices.IndexFunc(out, func(u OptionUse) bool { return u.Name == name })
			if i < 0 {
				out = append(out, OptionUse{Name: name, Service: m.Service, Target: m.Target})
				i = len(out) - 1
			}
			out[i].Mounts++
		}
	}
	return out
}

// MissingRoot is a module root of layout fhs (/var/lib/MODULE) that no
// directories: entry declares.
type MissingRoot struct {
	Path string
	// Intent is the intent of the root's home (state for /var/lib).
	Intent manifest.Intent
	// Holds names the paths placed in it, in the order placed.
	Holds []string
}

// SkeletonFor is Skeleton with a directories: section for the module
// roots of layout fhs (owner and mode "", the intent of their home), a
// credentials: section for secrets (each comment saying how the
// credential reaches the container: VARIABLE_FILE where the image reads
// it, else the variable the host sets) and an acknowledge: section: an
// empty item, with the choices in its comment, for each field not
// carried and not acknowledged. Result.Skeleton is SkeletonFor of the Result's Missing
// and Suggestions.
//
// With a skeleton to give anyway, each field not carried and not
// acknowledged (C2M007, an error in check --against) gets an empty
// acknowledge: item too, so that the skeleton filled in ends where check
// passes: the author writes the item or carries the behaviour another way.
func SkeletonFor(module string, missing []Missing, s Suggestions) []byte {
	return (&Draft{Module: module, Missing: missing, Suggestions: s}).Skeleton()
}

// A Draft is what is missing from a module's declarations, as one typed
// value: the sources a declaration is missing for (each Missing says
// which fields its entry needs, Missing.Needs) and the other suggestions,
// with what a driver such as ask adds to the skeleton written from it:
// settings it was given as flags, and comment lines above entries.
// Draft.Skeleton writes it; ask asks its questions from the same Missing.
type Draft struct {
	// Module names the module in comments.
	Module string
	// Missing are the sources to declare, in the order written.
	Missing []Missing
	// Suggestions are the module roots, secrets, fields not carried and
	// volume options to declare or acknowledge.
	Suggestions Suggestions
	// Settings are top-level settings written filled in, each with its
	// comment, right after version: (or, where the skeleton has the key
	// with a value to fill in, filling it in).
	Settings []DraftSetting
	// Notes, when not nil, holds for each Missing[i] the comment lines
	// written above its entry, without "# ".
	Notes [][]string
	// Tail are lines written after the document as they are (comments).
	Tail []string
}

// DraftSetting is a top-level setting of a Draft, such as
// host_project_directory, with the comment written beside it.
type DraftSetting struct {
	Key, Value, Comment string
}

// Skeleton writes the declarations skeleton of d; nil when there is
// nothing to declare.
func (d *Draft) Skeleton() []byte {
	doc, _ := d.write()
	return doc
}

// MaxInlineCredentials is how many credentials a refusal's skeleton
// shows inline (Result.Inline); more are left to the whole skeleton
// (convert --skeleton FILE), so that a refusal stays readable.
const MaxInlineCredentials = 8

// inlineSkeleton is the skeleton of missing and s with its credentials:
// left out and a comment saying how many, and where the whole one is:
// file, where --skeleton writes it, or the flag when file is "".
func inlineSkeleton(module string, missing []Missing, s Suggestions, file string) []byte {
	n := len(s.Secrets)
	s.Secrets = nil
	where := "the whole skeleton with --skeleton FILE"
	if file != "" {
		where = "the whole skeleton is in " + textsafe.Escape(file, false)
	}
	d := &Draft{Module: module, Missing: missing, Suggestions: s,
		Tail: []string{fmt.Sprintf("# credentials: %d variables that hold secrets, each offered a credential (prefilled: no decision), left out here: %s", n, where)}}
	doc, _ := d.write()
	if doc == nil {
		doc = []byte("version: 1\n" + d.Tail[0] + "\n")
	}
	return doc
}

// write returns the document Skeleton writes and how many values it
// leaves to fill in (Decisions), building it once; nil and 0 when there
// is nothing to declare.
func (d *Draft) write() ([]byte, int) {
	root := skeletonNode(d)
	if root == nil {
		return nil, 0
	}
	n := emptyValues(root)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, 0
	}
	enc.Close()
	for _, l := range d.Tail {
		buf.WriteString(l + "\n")
	}
	return buf.Bytes(), n
}

// skeleton returns the document SkeletonFor writes and how many values it
// leaves to fill in (Decisions).
func skeleton(module string, missing []Missing, s Suggestions) ([]byte, int) {
	return (&Draft{Module: module, Missing: missing, Suggestions: s}).write()
}

// Decisions returns how many values the skeleton of missing and s
// (SkeletonFor) leaves for a person to fill in: its "" fields and its
// empty acknowledge: items. 0 when there is no skeleton.
func Decisions(module string, missing []Missing, s Suggestions) int {
	_, n := skeleton(module, missing, s)
	return n
}

// emptyValues counts the double-quoted "" scalars under n: the values a
// skeleton leaves to fill in.
func emptyValues(n *yaml.Node) int {
	count := 0
	if n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == yaml.DoubleQuotedStyle {
		count++
	}
	for _, c := range n.Content {
		count += emptyValues(c)
	}
	return count
}

// skeletonNode builds the document Draft.Skeleton writes, nil when there
// is nothing to declare. Every value left to a person is a double-quoted
// "" scalar (quoted), which Decisions counts.
func skeletonNode(d *Draft) *yaml.Node {
	missing, s := d.Missing, d.Suggestions
	if len(missing) == 0 && len(s.Secrets) == 0 && len(s.Roots) == 0 && len(s.Options) == 0 {
		return nil
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	// Its first words are declare.SkeletonHeader, by which --skeleton
	// FILE knows a skeleton it may replace.
	root.HeadComment = strings.TrimPrefix(declare.SkeletonHeader, "# ") + " Fill in every \"\" (intent: state, content, config, logs, cache\nor runtime; mode: quoted octal such as \"0750\"; owner: \"USER:GROUP\") and paste into " + DeclarationsFile + "."
	addKV(root, "version", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	skeletonSettings(root, d.Module, missing)
	skeletonKeepRoots(root, missing)
	for _, section := range []string{declare.SectionBinds, declare.SectionVolumes, declare.SectionAnonymous} {
		if sec := skeletonSection(section, missing); len(sec.Content) > 0 {
			addKV(root, section, sec)
		}
	}
	if len(s.Roots) > 0 {
		addKV(root, declare.SectionDirectories, skeletonRoots(s.Roots))
	}
	if len(s.Secrets) > 0 {
		sec := &yaml.Node{Kind: yaml.MappingNode}
		for _, sg := range s.Secrets {
			k := plain(declare.CredentialKey(sg.Service, sg.Variable))
			v := plain(sg.Credential)
			v.LineComment = sg.comment()
			sec.Content = append(sec.Content, k, v)
		}
		addKV(root, "credentials", sec)
		root.Content[len(root.Content)-2].HeadComment = "The mesh delivers each credential; put its value there, never in a file of the module."
	}
	if acks := skeletonAcks(s); len(acks.Content) > 0 {
		addKV(root, "acknowledge", acks)
		root.Content[len(root.Content)-2].HeadComment = "Fill in each item with one of the choices its comment gives: a volume option or a field the manifest does not\ncarry (check --against refuses a field until acknowledged)."
	}
	draftSettings(root, d.Settings)
	escapeComments(root)
	d.notes(root)
	return root
}

// draftSettings sets each setting in the skeleton's mapping root, after
// version:, or fills in the value of the key where root has it.
func draftSettings(root *yaml.Node, settings []DraftSetting) {
	at := 2 // after version: 1
	for _, st := range settings {
		if i := slices.IndexFunc(root.Content, func(n *yaml.Node) bool { return n.Value == st.Key }); i >= 0 && i%2 == 0 {
			root.Content[i+1].Value, root.Content[i+1].LineComment = st.Value, st.Comment
			continue
		}
		root.Content = slices.Insert(root.Content, at, plain(st.Key), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: st.Value, LineComment: st.Comment})
		at += 2
	}
}

// notes writes d.Notes above the entries of d.Missing in root, each line
// escaped (internal/textsafe) and commented.
func (d *Draft) notes(root *yaml.Node) {
	if d.Notes == nil {
		return
	}
	for i := range d.Missing {
		m := &d.Missing[i]
		if i >= len(d.Notes) || len(d.Notes[i]) == 0 {
			continue
		}
		key := entryKey(root, m.Section, declare.EscapeKey(m.Key))
		if key == nil {
			continue
		}
		lines := make([]string, len(d.Notes[i]))
		for j, l := range d.Notes[i] {
			lines[j] = "# " + textsafe.Escape(l, false)
		}
		key.HeadComment = strings.Join(lines, "\n")
	}
}

// entryKey returns the key node of section's entry key in root; nil when
// there is none.
func entryKey(root *yaml.Node, section, key string) *yaml.Node {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != section || root.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		sec := root.Content[i+1]
		for j := 0; j+1 < len(sec.Content); j += 2 {
			if sec.Content[j].Value == key {
				return sec.Content[j]
			}
		}
	}
	return nil
}

// skeletonSettings adds host_project_directory and volume_root, to fill
// in, where a source of missing needs them.
func skeletonSettings(root *yaml.Node, module string, missing []Missing) {
	needHost, needRoot := false, false
	for _, m := range missing {
		needHost = needHost || m.NeedsHostProjectDirectory
		needRoot = needRoot || m.NeedsVolumeRoot
	}
	if needHost {
		n := quoted("")
		n.LineComment = "where the project lives on the target host, such as /opt/" + module
		addKV(root, "host_project_directory", n)
	}
	if needRoot {
		n := quoted("")
		n.LineComment = "where named and anonymous volumes land: VOLUME_ROOT/" + module + "/NAME"
		addKV(root, "volume_root", n)
	}
}

// skeletonSection is the binds:, volumes: or anonymous: section of the
// sources of missing in it: each entry with the values known and "" for
// the others, and a comment saying where the source is used.
func skeletonSection(section string, missing []Missing) *yaml.Node {
	sec := &yaml.Node{Kind: yaml.MappingNode}
	for _, m := range missing {
		if m.Section != section {
			continue
		}
		if m.OnlyLocation() {
			continue // every value is known; only its location is missing
		}
		v := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, n := range m.Needs() {
			if n.Known != "" || n.Required {
				addKV(v, n.Field, needNode(n))
			}
		}
		v.LineComment = m.where()
		key := plain(declare.EscapeKey(m.Key))
		if strings.ContainsAny(key.Value, ":#{}[]") {
			key.Style = yaml.DoubleQuotedStyle
		}
		sec.Content = append(sec.Content, key, v)
	}
	return sec
}

// heldInPlace reports whether the skeleton keeps m's data where it is,
// with roots: [KeepRoot]: inside what another project of the batch
// mounts (HeldBy), its data may not move from under it.
func (m *Missing) heldInPlace() bool {
	return len(m.HeldBy) > 0 && m.KeepRoot != "" && !m.NeedsPath
}

// skeletonKeepRoots writes roots: for the sources whose data the
// skeleton keeps where it is (heldInPlace), each root once.
func skeletonKeepRoots(root *yaml.Node, missing []Missing) {
	var keep []string
	for i := range missing {
		if m := &missing[i]; m.heldInPlace() && !slices.Contains(keep, m.KeepRoot) {
			keep = append(keep, m.KeepRoot)
		}
	}
	if len(keep) == 0 {
		return
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, r := range keep {
		seq.Content = append(seq.Content, plain(r))
	}
	addKV(root, declare.KeyRoots, seq)
	root.Content[len(root.Content)-2].HeadComment = "Kept where it is: another project of the batch mounts a folder holding it, which would no longer see it once moved."
}

// needNode is the value the skeleton writes for n: the value known, or ""
// to fill in; owner, mode and path are always quoted, as a declarations
// file writes them.
func needNode(n Need) *yaml.Node {
	switch {
	case n.Field == declare.FieldOwner, n.Field == declare.FieldMode, n.Field == declare.FieldPath, n.Known == "":
		return quoted(n.Known)
	}
	return plain(n.Known)
}

// skeletonRoots is the directories: section of the module roots layout
// fhs places sources in, owner and mode to fill in.
func skeletonRoots(roots []MissingRoot) *yaml.Node {
	dirs := &yaml.Node{Kind: yaml.MappingNode}
	for _, r := range roots {
		v := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		addKV(v, "owner", quoted(""))
		addKV(v, "mode", quoted(""))
		addKV(v, "intent", plain(string(r.Intent)))
		v.LineComment = "module root of layout fhs, holding " + strings.Join(r.Holds, ", ")
		dirs.Content = append(dirs.Content, plain(r.Path), v)
	}
	return dirs
}

// skeletonAcks is the acknowledge: list: an item to fill in for each
// field not carried and not acknowledged, and each volume option the
// manifest cannot carry, each with its choices in a comment.
func skeletonAcks(s Suggestions) *yaml.Node {
	acks := &yaml.Node{Kind: yaml.SequenceNode}
	// A field several services write is one item, offered in its
	// wildcard form (*.container_name): one decision, not one a service.
	services := map[string]int{}
	for _, f := range s.Uncarried {
		if !f.Acknowledged && f.Service != "" && f.Config == "" && !strings.Contains(f.Name, ".") {
			services[f.Name]++ // *.FIELD holds for a field of the service itself
		}
	}
	seen := map[string]bool{}
	for _, f := range s.Uncarried {
		item := f.AckItem()
		if f.Acknowledged || seen[item] {
			continue
		}
		seen[item] = true
		a := quoted("")
		if n := services[f.Name]; n > 1 && f.Service != "" && f.Config == "" && !strings.Contains(f.Name, ".") {
			if seen["*."+f.Name] {
				continue
			}
			seen["*."+f.Name] = true
			a.LineComment = declare.AckChoiceComment(
				declare.AckChoice{Item: "*." + f.Name, Means: fmt.Sprintf("left behind knowingly in all %d services that write it: %s", n, f.Reason)},
				declare.AckChoice{Item: item, Means: "the first of them; one item each"}) + "; or carry it another way and drop this item"
			acks.Content = append(acks.Content, a)
			continue
		}
		a.LineComment = declare.AckChoiceComment(declare.AckChoice{Item: item, Means: "left behind knowingly: " + f.Reason}) + "; or carry it another way and drop this item"
		acks.Content = append(acks.Content, a)
	}
	for _, o := range s.Options {
		a := quoted("")
		one := AckOption(o.Service, o.Target, o.Name)
		if o.Mounts == 1 {
			a.LineComment = declare.AckChoiceComment(declare.AckChoice{Item: one, Means: "drop it knowingly: the manifest cannot carry it"}) + "; or remove it from the compose file and drop this item"
		} else {
			a.LineComment = declare.AckChoiceComment(
				declare.AckChoice{Item: "*.volumes.*." + o.Name, Means: fmt.Sprintf("drop it knowingly from all %d mounts that give it: the manifest cannot carry it", o.Mounts)},
				declare.AckChoice{Item: one, Means: "the first of them; one item each"}) + "; or remove it from the compose file"
		}
		acks.Content = append(acks.Content, a)
	}
	return acks
}

// escapeComments escapes, in every line comment under n, what would break
// the comment's line or mislead a terminal (internal/textsafe): a volume's
// name: or a service's name may hold a line break, which would start a
// line of its own in the skeleton. Head comments are ours, with their own
// line breaks.
func escapeComments(n *yaml.Node) {
	if n == nil {
		return
	}
	n.LineComment = textsafe.Escape(n.LineComment, false)
	n.HeadComment = textsafe.Escape(n.HeadComment, true)
	for _, c := range n.Content {
		escapeComments(c)
	}
}

// AckOption is the acknowledge: item that drops option of service's mount
// at target: SERVICE.volumes.TARGET.OPTION.
func AckOption(service, target, option string) string {
	return service + ".volumes." + target + "." + option
}

// where says where a missing source is used: position, services, target,
// legacy volume, and why no owner was produced.
func (m *Missing) where() string {
	first := m.Mounts[0]
	var services []string
	for _, mt := range m.Mounts {
		if len(services) == 0 || services[len(services)-1] != mt.Service {
			services = append(services, mt.Service)
		}
	}
	where := fmt.Sprintf("%s: service %q", first.Pos, first.Service)
	if len(services) > 1 {
		where = fmt.Sprintf("%s: services %s", first.Pos, quoteList(services))
	}
	where += " → " + first.Target
	if m.Kind == project.NamedBind {
		where += fmt.Sprintf("; the device of volume %q (driver_opts type: none, o: bind)", m.Source)
	}
	if m.Legacy != "" {
		where += "; legacy Docker volume " + m.Legacy
	}
	if len(m.Evidence) > 0 {
		where += "; " + strings.Join(m.Evidence, "; ")
	}
	if m.NoOwner != "" {
		where += "; no owner produced: " + m.NoOwner
	}
	if m.OutOfVersion != "" {
		where += "; " + m.OutOfVersion
	}
	switch {
	case m.NeedsKind && (strings.HasPrefix(m.Key, "/") || strings.HasPrefix(m.Key, "~")):
		where += "; the checkout cannot show it: kind file or directory?"
	case m.NeedsKind:
		where += "; not in the checkout: kind file or directory?"
	}
	if m.LinkOutside != "" {
		where += "; " + m.LinkOutside + ": a path, or {kind: host} alone"
	}
	switch {
	case m.OwnedBy != "":
		where += "; project " + m.OwnedBy + " of this batch owns a copy of the Docker volume: kind host at its path is offered, so that this module uses that copy (two copies would drift apart: C2M005); or let this module own it and the other name it kind: host"
	case len(m.SharedWith) > 0:
		verb := "mount"
		if len(m.SharedWith) == 1 {
			verb = "mounts"
		}
		where += fmt.Sprintf("; %s of this batch also %s it or a path inside it: data several modules share is the host's, so kind host is offered; or let one module own it (owner, mode, intent) and name it kind: host in the others", describeProjects(m.SharedWith), verb)
	case m.NotOwnable != "":
		where += "; the module may not own it there (" + m.NotOwnable + "): a path where its data moves, or {kind: host} alone"
	case m.heldInPlace():
		verb := "mount"
		if len(m.HeldBy) == 1 {
			verb = "mounts"
		}
		where += "; inside what " + describeHolders(m.HeldBy) + " of this batch " + verb + ": moving its data would take it from under that (C2M005), so the skeleton keeps it where it is, roots: [" + m.KeepRoot + "]; or {kind: host} alone"
	case m.Moves != "" && m.NeedsPath:
		where += "; " + m.Moves + ": give it a path"
	case m.Moves != "":
		where += "; " + m.Moves + ": as given, this entry places it by its intent (layout fhs); or give it a path, or {kind: host} alone"
	}
	if len(m.HeldBy) > 0 && !m.heldInPlace() {
		verb := "mount"
		if len(m.HeldBy) == 1 {
			verb = "mounts"
		}
		where += "; inside what " + describeHolders(m.HeldBy) + " of this batch " + verb + ": moving its data takes it from under that (C2M005)"
	}
	if m.KeepRoot != "" && len(m.SharedWith) == 0 && !m.heldInPlace() {
		where += "; or keep its data where it is: roots: [" + m.KeepRoot + "]"
	}
	if m.Inside != "" {
		where += "; inside bind " + m.Inside + ": it lands inside that one's place"
	}
	if rm := m.RefusedMode; rm != nil && m.Known.Mode == "" && rm.Suggest != "" {
		where += fmt.Sprintf("; mode %s? (%s found %s, not carried: %s)", rm.Suggest, rm.From, rm.Found, rm.Why)
	}
	if m.Known.Intent == "" && m.Known.Kind != declare.KindHost {
		if intent, why := IntentHint(m.Key, m.Mounts); intent != "" {
			where += "; intent " + intent + "? (" + why + ")"
		}
	}
	return where
}

func addKV(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, plain(key), v)
}

func plain(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

func quoted(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: yaml.DoubleQuotedStyle}
}

// describeProjects names projects for a comment: "project a", "projects
// a and b", or the first three and how many more.
func describeProjects(ps []string) string {
	switch len(ps) {
	case 1:
		return "project " + ps[0]
	case 2:
		return "projects " + ps[0] + " and " + ps[1]
	case 3:
		return "projects " + ps[0] + ", " + ps[1] + " and " + ps[2]
	}
	return fmt.Sprintf("projects %s, %s, %s and %d more", ps[0], ps[1], ps[2], len(ps)-3)
}

// describeHolders names the projects that mount a path above a source,
// each given as "FOLDER (PATH)": "project a (/mnt)", or the first two
// and how many more.
func describeHolders(hs []string) string {
	switch len(hs) {
	case 1:
		return "project " + hs[0]
	case 2:
		return "projects " + hs[0] + " and " + hs[1]
	}
	return fmt.Sprintf("projects %s, %s and %d more", hs[0], hs[1], len(hs)-2)
}
