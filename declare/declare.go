// Package declare reads and writes the declarations an author supplies
// (SPEC section 5): the sidecar file compose2manifest.yaml, or the same
// document under the top-level key x-compose2manifest of a compose file.
//
// Parse and ParseNode validate strictly and report every problem at once,
// each with its file and line, as an Errors value. A declaration that lacks
// owner, mode or intent is not a parse error: a later rule reports
// incomplete declarations. A kind, owner, mode, intent or note given empty
// ("" or null, as a skeleton may write it) is no error either: the value
// stays empty and Entry.Fields records that the field was given, so a
// caller can tell "mode given empty" from "mode not given".
//
// Keys are matched against compose sources after normalisation:
// NormalizeBind for binds, the volume name as written for volumes, and
// AnonymousKey for anonymous volumes.
//
// Document keeps a declarations file as a yaml.v3 node tree, so the ask
// command can add declarations and write the file back with its comments
// and order kept. yaml.v3 re-encodes the whole tree, so only input in the
// style it writes itself survives byte for byte: 2-space indentation, no
// blank lines (yaml.v3 drops them), no padding to align values, comments on
// their own line above a key or at the end of a line, flow mappings written
// as {a: b, c: "d"} and strings quoted only where YAML needs it or with
// double quotes. Files in another style stay equivalent but are reformatted
// the first time ask writes them.
package declare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// DefaultFile is the name of the sidecar declarations file in the project
// directory.
const DefaultFile = "compose2manifest.yaml"

// ExtensionKey is the top-level key of a compose file that may hold the
// same declarations document.
const ExtensionKey = "x-compose2manifest"

// Version is the declarations format version this package reads.
const Version = 1

// Kind is the kind of path a declaration says its source is.
type Kind string

// The kinds an entry may give; KindNone means the entry did not say.
const (
	KindNone      Kind = ""
	KindDirectory Kind = "directory"
	KindFile      Kind = "file"
	KindHost      Kind = "host"
)

// Valid reports whether k is KindNone or one of the three kinds.
func (k Kind) Valid() bool {
	switch k {
	case KindNone, KindDirectory, KindFile, KindHost:
		return true
	}
	return false
}

// The section names of a declarations document that hold entries.
const (
	SectionBinds     = "binds"
	SectionVolumes   = "volumes"
	SectionAnonymous = "anonymous"
	// KeyLayout is the top-level key that chooses the layout.
	KeyLayout = "layout"
	// LayoutFHS places a declaration without a path by its intent, as the
	// FHS and systemd's StateDirectory= and the like do: state in
	// /var/lib/MODULE, content in /srv/MODULE, config in /etc/MODULE,
	// cache in /var/cache/MODULE, logs in /var/log/MODULE, runtime in
	// /run/MODULE.
	LayoutFHS = "fhs"
	// LayoutNone, in a project's declarations, is no layout where a
	// batch's defaults file gives one: host_project_directory and
	// volume_root place its declarations without a path, as if no
	// layout were given.
	LayoutNone = "none"
	// SectionDirectories declares host directories no volume mounts, such
	// as the parents of declared paths; keys are absolute host paths.
	SectionDirectories = "directories"
	// SectionMounts, in a defaults file only, declares every source an
	// image mounts at a target, in every project: keys are
	// "IMAGE:/TARGET", IMAGE a repository as written in image: without
	// tag or digest (getumbrel/app-proxy), for what a platform mounts
	// alike in each of its apps.
	SectionMounts = "mounts"
)

// The fields of an entry, as the document names them, in the order the
// writer uses.
const (
	FieldKind   = "kind"
	FieldPath   = "path"
	FieldOwner  = "owner"
	FieldMode   = "mode"
	FieldIntent = "intent"
	FieldNote   = "note"
	// FieldAcknowledgeMode (acknowledge_mode: true) says the entry's mode
	// is chosen knowingly though it is world-writable without the sticky
	// bit, or has setuid or setgid on a file (C2M021).
	FieldAcknowledgeMode = "acknowledge_mode"
)

// KeyCredentials is the top-level key that maps SERVICE.VARIABLE to the
// credential the mesh delivers in its place.
const KeyCredentials = "credentials"

// KeyRoots is the top-level key of the directories, other than the
// built-in data roots, in which the module may own paths.
const KeyRoots = "roots"

var (
	topKeys   = []string{"version", "module", KeyComposeFiles, KeyEnvFiles, KeyProfiles, "host_project_directory", "volume_root", KeyLayout, KeyRoots, SectionBinds, SectionVolumes, SectionAnonymous, SectionDirectories, SectionMounts, "acknowledge", "images", KeyCredentials}
	entryKeys = []string{FieldKind, FieldPath, FieldOwner, FieldMode, FieldIntent, FieldNote, FieldAcknowledgeMode}
)

// Entry is one declaration of a bind source, named volume or anonymous
// volume.
type Entry struct {
	// Key is the key as written: a bind source, a volume name, or
	// "SERVICE:TARGET".
	Key string
	// Kind is the kind given, or KindNone.
	Kind Kind
	// Path relocates the source to this absolute, clean host path.
	Path string
	// Owner is "USER:GROUP".
	Owner string
	// Mode is 3 or 4 octal digits.
	Mode string
	// Intent is one of manifest.Intents, as a string.
	Intent string
	// Note is free text from the author.
	Note string
	// Pos is the file and line of the key.
	Pos manifest.Pos
	// AcknowledgeMode is set by acknowledge_mode: true: the mode is
	// chosen knowingly though C2M021 would refuse it.
	AcknowledgeMode bool
	// Fields records which fields were given, and the position of each
	// field's key, so callers can tell "mode given" from "mode empty".
	Fields map[string]manifest.Pos
}

// Has reports whether the entry gave field (FieldOwner, FieldMode, …).
func (e *Entry) Has(field string) bool {
	_, ok := e.Fields[field]
	return ok
}

// Ack is one item of acknowledge: a compose field knowingly not carried
// (SERVICE.FIELD), an environment value knowingly carried in plaintext
// (SERVICE.environment.VARIABLE), a credential the image table does not
// say the image reads from a file (SERVICE.credentials.VARIABLE), or a
// volume option knowingly dropped, or an image's volume knowingly
// disposable (SERVICE.volumes.TARGET.OPTION, TARGET a container path or
// *).
type Ack struct {
	// Service is a service name, or "*" for every service.
	Service string
	// Field is the compose-spec name of a service field, such as "build",
	// or AckEnvironment, AckCredentials or AckVolumes.
	Field string
	// Variable is the environment variable of an AckEnvironment or
	// AckCredentials item.
	Variable string
	// Target and Option are the container path (or "*") and the option
	// of an AckVolumes item.
	Target, Option string
	Pos            manifest.Pos
	// Default reports an item of a defaults file (ParseDefaults): it
	// holds for every project under a batch's root, so matching nothing
	// in one of them is no mistake (C2M009 leaves it out).
	Default bool
}

// The Field of an acknowledge item that names more than a field.
const (
	AckEnvironment = "environment"
	AckCredentials = "credentials"
	AckVolumes     = "volumes"
)

// AckOptions are the volume options an acknowledge item may name: the
// manifest cannot carry them, and dropping them changes no owner or mode
// (SELinux relabelling, bind propagation, nocopy, a volume mount's labels);
// and AckDisposable,
// which says a volume an image declares holds nothing to keep.
var AckOptions = []string{"z", "Z", "propagation", "nocopy", "labels", AckDisposable}

// OptionName returns the AckOptions name of a volume option as
// project.Mount.Options writes it ("z", "selinux: Z", "rshared",
// "propagation: rslave", "propagation=shared", "nocopy"), or "" for an
// option no acknowledge item may drop (:U, subpath, consistency, …).
func OptionName(written string) string {
	v := written
	if strings.HasPrefix(written, "labels: ") {
		return "labels"
	}
	for _, prefix := range []string{"selinux: ", "propagation: ", "propagation="} {
		if strings.HasPrefix(written, prefix) {
			if prefix != "selinux: " {
				return "propagation"
			}
			v = strings.TrimPrefix(written, prefix)
		}
	}
	switch v {
	case "z", "Z", "nocopy":
		return v
	case "shared", "rshared", "slave", "rslave", "private", "rprivate":
		return "propagation"
	}
	return ""
}

// AcknowledgesOption reports whether f acknowledges dropping option (an
// AckOptions name) at target of service; false for a nil f.
func (f *File) AcknowledgesOption(service, target, option string) bool {
	if f == nil || option == "" {
		return false
	}
	for _, a := range f.Acknowledge {
		if a.MatchesOption(service, target, option) {
			return true
		}
	}
	return false
}

// AckDisposable is the option of SERVICE.volumes.TARGET.disposable: the
// image's volume at TARGET is disposable, and the manifest mounts a tmpfs
// there.
const AckDisposable = "disposable"

// String returns the item as written.
func (a Ack) String() string {
	switch {
	case a.Variable != "":
		return AckVariable(a.Field, a.Service, a.Variable)
	case a.Option != "":
		return a.Service + "." + a.Field + "." + a.Target + "." + a.Option
	}
	return a.Service + "." + a.Field
}

// Matches reports whether a acknowledges field of service. service is
// a service's name, a nested field's owner (web.deploy), or a top-level
// attribute's SECTION.NAME (networks.proxy), which an item
// SECTION.*.FIELD (networks.*.external) names for every NAME.
func (a Ack) Matches(service, field string) bool {
	if a.Variable != "" || a.Option != "" || a.Field != field {
		return false
	}
	if section, ok := strings.CutSuffix(a.Service, ".*"); ok {
		name, ok := strings.CutPrefix(service, section+".")
		return ok && name != ""
	}
	return a.Service == "*" || a.Service == service
}

// AckSections are the top-level sections whose attributes an
// acknowledge item names as SECTION.NAME.FIELD, or SECTION.*.FIELD for
// every NAME.
var AckSections = []string{"networks", "volumes", "secrets", "configs"}

// MatchesVariable reports whether a is the item SERVICE.KIND.VARIABLE
// (kind AckEnvironment or AckCredentials) for service and variable.
func (a Ack) MatchesVariable(kind, service, variable string) bool {
	return a.Field == kind && a.Variable == variable && (a.Service == "*" || a.Service == service)
}

// AcknowledgesVariable reports whether an item of acknowledge: names
// SERVICE.KIND.VARIABLE (or *.KIND.VARIABLE); false for a nil f.
func (f *File) AcknowledgesVariable(kind, service, variable string) bool {
	if f == nil {
		return false
	}
	return slices.ContainsFunc(f.Acknowledge, func(a Ack) bool { return a.MatchesVariable(kind, service, variable) })
}

// MatchesOption reports whether a acknowledges option at the volume target
// of service.
func (a Ack) MatchesOption(service, target, option string) bool {
	return a.Field == AckVolumes && a.Option == option && (a.Service == "*" || a.Service == service) && (a.Target == "*" || a.Target == target)
}

// Credential is one item of credentials: an environment variable of a
// service whose value the mesh delivers as a credential instead.
type Credential struct {
	Service, Variable string
	// Name is the credential's name.
	Name string
	Pos  manifest.Pos
}

// Image is one item of images: the image reference of a service that has
// build: and no image.
type Image struct {
	Service string
	Ref     string
	Pos     manifest.Pos
}

// The keys of a project's settings: how its author runs it, as docker
// compose's -f, --env-file and --profile would say.
const (
	KeyComposeFiles = "compose_files"
	KeyEnvFiles     = "env_files"
	KeyProfiles     = "profiles"
)

// Setting is one item of a settings list: a path relative to the project
// directory (slash-separated, clean, inside it) or a profile name, with
// the position of the item.
type Setting struct {
	Value string
	Pos   manifest.Pos
}

// Values returns the values of ss, in order; nil when ss is empty.
func Values(ss []Setting) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Value
	}
	return out
}

// File is a declarations document as read.
type File struct {
	// Name is the file name used in positions.
	Name string
	// Version is the format version, 1.
	Version int
	// Module, HostProjectDirectory and VolumeRoot are the top-level
	// scalars; empty when not given.
	Module, HostProjectDirectory, VolumeRoot          string
	ModulePos, HostProjectDirectoryPos, VolumeRootPos manifest.Pos
	// Layout is the layout: key, how a declaration without a path of its
	// own is placed: "" (volume_root and host_project_directory) or
	// LayoutFHS (by its intent); LayoutPos is where it was given.
	Layout    string
	LayoutPos manifest.Pos
	// ComposeFiles, EnvFiles and Profiles are the project's settings
	// (compose_files:, env_files:, profiles:), what docker compose's -f,
	// --env-file and --profile say: the compose files are read with them,
	// so only the sidecar file may give them (Parse; ParseNode refuses
	// them). Each is nil when not given, never empty when given.
	ComposeFiles, EnvFiles, Profiles []Setting
	// Binds, Volumes and Anonymous are the entries of each section, in
	// file order.
	Binds, Volumes, Anonymous []Entry
	// Directories are host directories declared without a volume (parents
	// of declared paths), keyed by absolute path, in file order.
	Directories []Entry
	// Mounts are a defaults file's mounts: entries, keyed
	// "IMAGE:/TARGET" (SectionMounts).
	Mounts []Entry
	// Roots are the directories roots: names, in which the module may own
	// paths beside the built-in data roots, in file order, each with the
	// position of its item.
	Roots []manifest.Root
	// Acknowledge lists the acknowledged fields, in file order.
	Acknowledge []Ack
	// Images lists the image references, in file order.
	Images []Image
	// Credentials lists the environment variables delivered as
	// credentials, in file order.
	Credentials []Credential
}

// CredentialsOrNil returns f's Credentials; nil for a nil f.
func (f *File) CredentialsOrNil() []Credential {
	if f == nil {
		return nil
	}
	return f.Credentials
}

// CredentialFor returns the credential declared for variable of service,
// if any.
func (f *File) CredentialFor(service, variable string) (Credential, bool) {
	if f == nil {
		return Credential{}, false
	}
	for _, c := range f.Credentials {
		if c.Service == service && c.Variable == variable {
			return c, true
		}
	}
	return Credential{}, false
}

// HasSettings reports whether f gives compose_files, env_files or
// profiles.
func (f *File) HasSettings() bool {
	return f != nil && (len(f.ComposeFiles) > 0 || len(f.EnvFiles) > 0 || len(f.Profiles) > 0)
}

// SettingsPos returns the position of the first settings key f gives, for
// messages about them all.
func (f *File) SettingsPos() manifest.Pos {
	for _, ss := range [][]Setting{f.ComposeFiles, f.EnvFiles, f.Profiles} {
		if len(ss) > 0 {
			return ss[0].Pos
		}
	}
	return manifest.Pos{File: f.Name}
}

// Bind returns the entry of f.Binds that declares the bind source src
// (compared after NormalizeBind), or nil.
func (f *File) Bind(src string) *Entry {
	if f == nil {
		return nil
	}
	return find(f.Binds, NormalizeBind(src), NormalizeBind)
}

// Volume returns the entry of f.Volumes for the named volume, or nil.
func (f *File) Volume(name string) *Entry {
	if f == nil {
		return nil
	}
	return find(f.Volumes, name, func(s string) string { return s })
}

// AnonymousVolume returns the entry of f.Anonymous for the anonymous volume
// of service at target, or nil.
func (f *File) AnonymousVolume(service, target string) *Entry {
	if f == nil {
		return nil
	}
	return find(f.Anonymous, AnonymousKey(service, target), normalizeAnonymous)
}

// Acknowledged reports whether f acknowledges field of service.
func (f *File) Acknowledged(service, field string) bool {
	if f == nil {
		return false
	}
	for _, a := range f.Acknowledge {
		if a.Matches(service, field) {
			return true
		}
	}
	return false
}

// ImageFor returns the image reference declared for service, if any.
func (f *File) ImageFor(service string) (string, bool) {
	if f == nil {
		return "", false
	}
	for _, im := range f.Images {
		if im.Service == service {
			return im.Ref, true
		}
	}
	return "", false
}

func find(es []Entry, want string, norm func(string) string) *Entry {
	for i := range es {
		if norm(es[i].Key) == want {
			return &es[i]
		}
	}
	return nil
}

// Error is one problem found in a declarations document, formatted as
// "FILE:LINE: msg"; the type is the manifest reader's.
type Error = manifest.Error

// Errors is every problem found in a document, in file order, one per line.
type Errors = manifest.Errors

// syntaxError turns an error of yaml.v3's parser reading data into an
// Error, with the line yaml reports, or the line of the byte its reader
// refused (manifest.YAMLErrorAt).
func syntaxError(name string, data []byte, err error) *Error {
	line, msg := manifest.YAMLErrorAt(data, err)
	return &Error{Pos: manifest.Pos{File: name, Line: line}, Msg: "YAML syntax error: " + msg}
}

// CutMountKey splits a mounts: key "IMAGE:/TARGET" at the first ":/"
// (a registry's port, host:5000/app, is no target), and reports whether
// it has both.
func CutMountKey(key string) (image, target string, ok bool) {
	i := strings.Index(key, ":/")
	if i < 0 {
		return "", "", false
	}
	return key[:i], key[i+1:], true
}

// Parse reads a declarations document. name is used in error positions.
// The error, when not nil, is an Errors listing every problem found.
func Parse(name string, data []byte) (*File, error) { return parseData(name, data, false) }

// parseData is Parse; defaults reports a defaults file, which alone may
// give mounts:.
func parseData(name string, data []byte, defaults bool) (*File, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, Errors{{Pos: manifest.Pos{File: name}, Msg: "empty document; want a mapping starting with version: 1"}}
		}
		return nil, Errors{syntaxError(name, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Errors{{Pos: manifest.Pos{File: name, Line: extra.Line}, Msg: "more than one YAML document; a declarations file holds one"}}
	} else if !errors.Is(err, io.EOF) {
		return nil, Errors{syntaxError(name, data, err)}
	}
	return parse(name, &doc, true, defaults)
}

// ParseNode reads the declarations from an already-parsed YAML node (the
// value of x-compose2manifest in a compose file), with positions from the
// node. name is used in error positions. The error, when not nil, is an
// Errors listing every problem found.
//
// compose_files, env_files and profiles are refused there: the compose
// files are read with them, so they must be known before any compose file
// is; they belong in the sidecar file.
func ParseNode(name string, n *yaml.Node) (*File, error) {
	return parse(name, n, false, false)
}

func parse(name string, n *yaml.Node, sidecar, defaults bool) (*File, error) {
	p := &parser{name: name, sidecar: sidecar, defaults: defaults}
	f := p.file(n)
	if len(p.errs) > 0 {
		p.errs.SortByLine()
		return nil, p.errs
	}
	return f, nil
}

type parser struct {
	name     string
	sidecar  bool // the sidecar file, which may give settings
	defaults bool // a defaults file (ParseDefaults), which may give mounts:
	errs     Errors
}

func (p *parser) pos(n *yaml.Node) manifest.Pos {
	if n == nil {
		return manifest.Pos{File: p.name}
	}
	return manifest.Pos{File: p.name, Line: n.Line}
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{Pos: p.pos(n), Msg: fmt.Sprintf(format, args...)})
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "nothing (null)"
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		case "!!str":
			return strconv.Quote(n.Value)
		default:
			return "a " + n.ShortTag() + " value"
		}
	case yaml.AliasNode:
		return "an unresolved alias"
	case yaml.DocumentNode:
		return "a document"
	}
	return "nothing"
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// str reads a string scalar; what names it in messages.
func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		got := "nothing"
		if n != nil {
			got = kindName(n)
		}
		p.errorf(n, "%s: want a string, got %s", what, got)
		return "", false
	}
	if n.ShortTag() != "!!str" {
		if isNull(n) {
			p.errorf(n, "%s: want a string, got nothing (null)", what)
		} else {
			p.errorf(n, "%s: want a string, got %s; quote it: %q", what, kindName(n), n.Value)
		}
		return "", false
	}
	return n.Value, true
}

type pair struct {
	key  string
	k, v *yaml.Node
}

// mapping reads the pairs of a mapping, reporting non-string keys, merge
// keys, duplicate keys and, when allowed is not nil, unknown keys. Bad
// pairs are left out.
func (p *parser) mapping(n *yaml.Node, what string, allowed []string) []pair {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		got := "nothing"
		if n != nil {
			got = kindName(n)
		}
		p.errorf(n, "%s: want a mapping, got %s", what, got)
		return nil
	}
	var out []pair
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		rk := resolve(k)
		if rk != nil && rk.Kind == yaml.ScalarNode && rk.ShortTag() == "!!merge" {
			p.errorf(k, "%s: merge keys (<<) are not supported; write the keys out", what)
			continue
		}
		key, ok := p.str(k, what+": key")
		if !ok {
			continue
		}
		if first, dup := seen[key]; dup {
			p.errorf(k, "%s: duplicate key %q (first at line %d)", what, key, first)
			continue
		}
		seen[key] = k.Line
		if allowed != nil && !slices.Contains(allowed, key) {
			p.errorf(k, "%s: unknown key %q (allowed: %s)", what, key, strings.Join(allowed, ", "))
			continue
		}
		out = append(out, pair{key: key, k: k, v: v})
	}
	return out
}

func (p *parser) file(n *yaml.Node) *File {
	f := &File{Name: p.name}
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			p.errorf(n, "empty document; want a mapping starting with version: 1")
			return f
		}
		n = n.Content[0]
	}
	root := resolve(n)
	if root == nil || root.Kind != yaml.MappingNode {
		got := "nothing"
		if root != nil {
			got = kindName(root)
		}
		p.errorf(root, "declarations: want a mapping starting with version: 1, got %s", got)
		return f
	}
	haveVersion := false
	for _, kv := range p.mapping(root, "declarations", topKeys) {
		switch kv.key {
		case "version":
			haveVersion = true
			p.version(f, kv.v)
		case "module":
			if s, ok := p.str(kv.v, "module"); ok {
				if !manifest.ValidModule(s) {
					p.errorf(kv.v, "module: %q is not a module name: want a lowercase letter or digit, then lowercase letters, digits, '.', '_' or '-', at most %d bytes", s, manifest.MaxModuleLen)
				}
				f.Module, f.ModulePos = s, p.pos(kv.k)
			}
		case KeyComposeFiles, KeyEnvFiles, KeyProfiles:
			if !p.sidecar {
				p.errorf(kv.k, "%s: only %s may give it, not %s: the compose files are read with it, before this is", kv.key, DefaultFile, ExtensionKey)
				continue
			}
			ss := p.settings(kv.key, kv.v)
			switch kv.key {
			case KeyComposeFiles:
				f.ComposeFiles = ss
			case KeyEnvFiles:
				f.EnvFiles = ss
			default:
				f.Profiles = ss
			}
		case "host_project_directory", "volume_root":
			if v := resolve(kv.v); v != nil && v.Kind == yaml.ScalarNode && v.Tag == "!!str" && v.Value == "" {
				// Left empty, as the skeleton writes it: not given, so
				// the sources it would place are refused for want of it
				// (C2M013), as other empty fields are.
				continue
			}
			if kv.key == "volume_root" {
				if s, ok := p.absPath(kv.v, "volume_root"); ok {
					f.VolumeRoot, f.VolumeRootPos = s, p.pos(kv.k)
				}
				continue
			}
			if s, ok := p.absPath(kv.v, "host_project_directory"); ok {
				f.HostProjectDirectory, f.HostProjectDirectoryPos = s, p.pos(kv.k)
			}
		case KeyLayout:
			if kv.v.Kind != yaml.ScalarNode || kv.v.Tag != "!!str" || !isOneOf(DeclaredLayouts, kv.v.Value) {
				p.errorf(kv.v, "layout: want one of %s", strings.Join(DeclaredLayouts, ", "))
				continue
			}
			f.Layout, f.LayoutPos = kv.v.Value, p.pos(kv.k)
		case SectionBinds:
			f.Binds = p.entries(SectionBinds, kv.v)
		case SectionVolumes:
			f.Volumes = p.entries(SectionVolumes, kv.v)
		case SectionAnonymous:
			f.Anonymous = p.entries(SectionAnonymous, kv.v)
		case SectionDirectories:
			f.Directories = p.entries(SectionDirectories, kv.v)
		case SectionMounts:
			if !p.defaults {
				p.errorf(kv.k, "%s: only a defaults file (%s) gives it, for every project under a batch's root; a project declares its own sources under binds:, volumes: or anonymous:", kv.key, DefaultsFile)
				continue
			}
			f.Mounts = p.entries(SectionMounts, kv.v)
		case KeyRoots:
			f.Roots = p.roots(kv.v)
		case "acknowledge":
			f.Acknowledge = p.acknowledge(kv.v)
		case "images":
			f.Images = p.images(kv.v)
		case KeyCredentials:
			f.Credentials = p.credentials(kv.v)
		}
	}
	if !haveVersion {
		p.errorf(root, "version missing; want version: 1 as the first key")
	}
	return f
}

func (p *parser) version(f *File, n *yaml.Node) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		got := "nothing"
		if n != nil {
			got = kindName(n)
		}
		p.errorf(n, "version: want the integer 1, got %s", got)
		return
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil || v != Version {
		p.errorf(n, "version: unsupported version %s; this compose2manifest reads version 1", n.Value)
		return
	}
	f.Version = v
}

// absPath reads a string that must be an absolute, clean path.
// roots reads roots: a list of absolute, clean paths, each once. Whether
// a root is a place a module may take is the rules' to judge (C2M006).
func (p *parser) roots(n *yaml.Node) []manifest.Root {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		got := "nothing"
		if n != nil {
			got = kindName(n)
		}
		p.errorf(n, "%s: want a list of absolute directory paths, got %s", KeyRoots, got)
		return nil
	}
	var out []manifest.Root
	seen := map[string]manifest.Pos{}
	for _, item := range n.Content {
		s, ok := p.absPath(item, KeyRoots)
		if !ok {
			continue
		}
		if first, dup := seen[s]; dup {
			p.errorf(item, "%s: %s is listed twice; first at %s", KeyRoots, s, first)
			continue
		}
		seen[s] = p.pos(item)
		out = append(out, manifest.Root{Path: s, Pos: p.pos(item)})
	}
	return out
}

func (p *parser) absPath(n *yaml.Node, what string) (string, bool) {
	s, ok := p.str(n, what)
	if !ok {
		return "", false
	}
	if !manifest.ValidPath(s) {
		p.errorf(n, "%s: %s", what, pathProblem(s))
		return "", false
	}
	return s, true
}

func pathProblem(s string) string {
	switch {
	case s == "":
		return "empty path; want an absolute path such as /srv/mail"
	case !strings.HasPrefix(s, "/"):
		return fmt.Sprintf("%q is not absolute; want an absolute, clean path such as /srv/mail", s)
	case manifest.PathLengthProblem(s) != "":
		return manifest.PathLengthProblem(s)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Sprintf("%q holds a control character (a newline, a tab): a host path with one is a mistake or an attack", s)
	case path.Clean(s) == s:
		return fmt.Sprintf("%q is not a path the manifest accepts (an absolute, clean path of printable characters)", s)
	default:
		return fmt.Sprintf("%q is not clean (no .., no // or trailing /); write %q", s, path.Clean(s))
	}
}

var (
	serviceRE = regexp.MustCompile(`^[a-zA-Z0-9._-]+$`)
	fieldRE   = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// ValidService reports whether s can be a compose service name.
func ValidService(s string) bool { return serviceRE.MatchString(s) }

// SplitAnonymous splits an anonymous key "SERVICE:/TARGET" into its
// service and target; ok is false when key is not of that form or the
// target is not an absolute, clean path.
func SplitAnonymous(key string) (service, target string, ok bool) {
	service, target, ok = strings.Cut(key, ":")
	if !ok || !ValidService(service) || !manifest.ValidPath(target) {
		return "", "", false
	}
	return service, target, true
}

// AnonymousKey returns the key of the anonymous volume of service at
// target, as SERVICE:TARGET with the target cleaned.
func AnonymousKey(service, target string) string {
	return service + ":" + path.Clean(target)
}

func normalizeAnonymous(key string) string {
	s, t, ok := strings.Cut(key, ":")
	if !ok || t == "" {
		return key
	}
	return AnonymousKey(s, t)
}

// SplitAck splits an acknowledge item "SERVICE.FIELD" or "*.FIELD" at its
// last dot (service names may hold dots, field names do not); ok is false
// when item is not of that form.
func SplitAck(item string) (service, field string, ok bool) {
	i := strings.LastIndexByte(item, '.')
	if i < 0 {
		return "", "", false
	}
	service, field = item[:i], item[i+1:]
	if section, ok := strings.CutSuffix(service, ".*"); ok && slices.Contains(AckSections, section) {
		return service, field, fieldRE.MatchString(field)
	}
	if (service != "*" && !ValidService(service)) || !fieldRE.MatchString(field) {
		return "", "", false
	}
	return service, field, true
}

func (p *parser) entries(section string, n *yaml.Node) []Entry {
	if isNull(resolve(n)) {
		return nil
	}
	norm := func(s string) string { return s }
	switch section {
	case SectionBinds:
		norm = NormalizeBind
	case SectionAnonymous:
		norm = normalizeAnonymous
	}
	var out []Entry
	seen := map[string]pair{}
	for _, kv := range p.mapping(n, section, nil) {
		what := fmt.Sprintf("%s: %q", section, kv.key)
		switch section {
		case SectionBinds:
			if strings.TrimSpace(kv.key) == "" {
				p.errorf(kv.k, "%s: empty key; want a bind source as the compose file writes it", section)
				continue
			}
		case SectionVolumes:
			if kv.key == "" || strings.ContainsAny(kv.key, " \t\n/:") {
				p.errorf(kv.k, "%s: %q is not a volume name", section, kv.key)
				continue
			}
		case SectionDirectories:
			if why := manifest.PathLengthProblem(kv.key); why != "" {
				p.errorf(kv.k, "%s: key %s", section, why) // the key is too long to print whole
				continue
			}
			if !manifest.ValidPath(kv.key) {
				p.errorf(kv.k, "%s: key %q: %s", section, kv.key, pathProblem(kv.key))
				continue
			}
		case SectionMounts:
			im, t, ok := CutMountKey(kv.key)
			switch {
			case !ok || im == "" || strings.ContainsAny(im, " \t\n@") || strings.LastIndexByte(im, ':') > strings.LastIndexByte(im, '/'):
				p.errorf(kv.k, "%s: key %q is not IMAGE:/TARGET, IMAGE a repository without tag or digest (such as \"getumbrel/app-proxy:/data\")", section, kv.key)
				continue
			case !manifest.ValidPath(t):
				p.errorf(kv.k, "%s: key %q: target %s", section, kv.key, pathProblem(t))
				continue
			case strings.Contains(t, ":"):
				p.errorf(kv.k, "%s: key %q: the target holds ':' (a mount option such as :ro belongs in the compose file, not the key)", section, kv.key)
				continue
			case strings.ToLower(im) != im:
				p.errorf(kv.k, "%s: key %q: an image repository is lowercase (docker refuses %q)", section, kv.key, im)
				continue
			}
		case SectionAnonymous:
			s, t, ok := strings.Cut(kv.key, ":")
			switch {
			case !ok || !ValidService(s) || !strings.HasPrefix(t, "/"):
				p.errorf(kv.k, "%s: key %q is not SERVICE:/TARGET (such as \"postfix:/var/lib/postfix\")", section, kv.key)
				continue
			case manifest.PathLengthProblem(t) != "":
				p.errorf(kv.k, "%s: key %q: target %s", section, s+":…", manifest.PathLengthProblem(t))
				continue
			case !manifest.ValidPath(t):
				p.errorf(kv.k, "%s: key %q: target %s", section, kv.key, pathProblem(t))
				continue
			}
		}
		nk := norm(kv.key)
		if first, dup := seen[nk]; dup {
			p.errorf(kv.k, "%s names the same source as %q (line %d)", what, first.key, first.k.Line)
			continue
		}
		seen[nk] = kv
		e := p.entry(section, what, kv)
		out = append(out, e)
	}
	return out
}

func (p *parser) entry(section, what string, kv pair) Entry {
	e := Entry{Key: kv.key, Pos: p.pos(kv.k), Fields: map[string]manifest.Pos{}}
	if isNull(resolve(kv.v)) {
		return e
	}
	if v := resolve(kv.v); v.Kind != yaml.MappingNode {
		p.errorf(kv.v, "%s: want a mapping such as {owner: \"0:0\", mode: \"0755\", intent: state}, got %s", what, kindName(v))
		return e
	}
	for _, f := range p.mapping(kv.v, what, entryKeys) {
		fw := what + ": " + f.key
		if f.key == FieldMode {
			if m, ok := p.mode(f.v, fw); ok {
				e.Mode = m
				e.Fields[f.key] = p.pos(f.k)
			}
			continue
		}
		if f.key == FieldAcknowledgeMode {
			if v := resolve(f.v); v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" {
				e.AcknowledgeMode = v.Value == "true"
				e.Fields[f.key] = p.pos(f.k)
			} else {
				p.errorf(f.v, "%s: want true or false", fw)
			}
			continue
		}
		if isNull(resolve(f.v)) && f.key != FieldPath {
			// Given empty, as a skeleton writes it: no value.
			e.Fields[f.key] = p.pos(f.k)
			continue
		}
		if v := resolve(f.v); f.key == FieldOwner && v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() != "!!str" && manifest.ValidOwner(v.Value+":"+v.Value) {
			// owner: 1000 is one id, and an owner has two parts.
			p.errorf(f.v, "%s: want a string \"UID:GID\" (both parts), got %s; quote it with its group: %q", fw, kindName(v), v.Value+":"+v.Value)
			continue
		}
		s, ok := p.str(f.v, fw)
		if !ok {
			continue
		}
		if s == "" && f.key != FieldPath {
			e.Fields[f.key] = p.pos(f.k)
			continue
		}
		switch f.key {
		case FieldKind:
			if k := Kind(s); !k.Valid() {
				p.errorf(f.v, "%s: unknown kind %q (want directory, file or host)", fw, s)
				continue
			}
			e.Kind = Kind(s)
		case FieldPath:
			if !manifest.ValidPath(s) {
				p.errorf(f.v, "%s: %s", fw, pathProblem(s))
				continue
			}
			e.Path = s
		case FieldOwner:
			if problem := manifest.OwnerProblem(s); problem != "" {
				if both := s + ":" + s; !strings.Contains(s, ":") && manifest.ValidOwner(both) {
					problem += fmt.Sprintf("; for the same user and group write %q", both)
				}
				p.errorf(f.v, "%s: %q %s", fw, s, problem)
				continue
			}
			e.Owner = s
		case FieldIntent:
			if !manifest.Intent(s).Valid() {
				p.errorf(f.v, "%s: unknown intent %q (want state, content, config, logs, cache or runtime)", fw, s)
				continue
			}
			e.Intent = s
		case FieldNote:
			e.Note = s
		case FieldAcknowledgeMode:
			p.errorf(f.v, "%s: want true or false", fw)
			continue
		}
		e.Fields[f.key] = p.pos(f.k)
	}
	if section == SectionMounts {
		if pos, ok := e.Fields[FieldPath]; ok {
			p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf("%s: path is not allowed in mounts: (it answers for many sources: layout, volume_root or host_project_directory places each)", what)})
		}
	}
	if section == SectionDirectories {
		if pos, ok := e.Fields[FieldPath]; ok {
			p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf("%s: path is not allowed in directories: (the key is the directory's path)", what)})
		}
		if pos, ok := e.Fields[FieldKind]; ok && e.Kind != KindHost {
			p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf("%s: kind in directories: can only be host (a directory another module or the host owns)", what)})
		}
	}
	if e.Kind == KindHost {
		switch {
		case section == SectionVolumes && e.Path == "":
			p.errorf(kv.k, "%s: kind: host needs path: for a named volume (the host path, another module's or the host's, that the volume is on the target host)", what)
		case section != SectionBinds && section != SectionDirectories && section != SectionMounts && section != SectionVolumes:
			p.errorf(kv.k, "%s: kind: host is for binds and named volumes only (an anonymous volume is its container's own)", what)
		}
		for _, fk := range []string{FieldOwner, FieldMode, FieldIntent, FieldAcknowledgeMode} {
			if pos, ok := e.Fields[fk]; ok {
				p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf("%s: %s is not allowed on a kind: host entry (the module uses the path but does not own it; only path and note are allowed)", what, fk)})
			}
		}
	}
	return e
}

// mode reads a mode, which must be a quoted string of 3 or 4 octal digits.
func (p *parser) mode(n *yaml.Node, what string) (string, bool) {
	r := resolve(n)
	if r != nil && r.Kind == yaml.ScalarNode && (r.ShortTag() == "!!int" || r.ShortTag() == "!!float") {
		p.errorf(n, "%s: %s is a YAML integer, which YAML readers disagree on (octal or decimal); quote it: %q", what, r.Value, r.Value)
		return "", false
	}
	if isNull(r) {
		return "", true
	}
	s, ok := p.str(n, what)
	if !ok {
		return "", false
	}
	if s != "" && !manifest.ValidMode(s) {
		p.errorf(n, "%s: %q is not a mode; want 3 or 4 octal digits, quoted, such as \"0750\"", what, s)
		return "", false
	}
	return s, true
}

func (p *parser) acknowledge(n *yaml.Node) []Ack {
	n = resolve(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "acknowledge: want a list of SERVICE.FIELD items, got %s", kindName(n))
		return nil
	}
	var out []Ack
	seen := map[string]int{}
	for _, item := range n.Content {
		s, ok := p.str(item, "acknowledge item")
		if !ok {
			continue
		}
		if strings.TrimSpace(s) == "" {
			p.errorf(item, "acknowledge: empty item; fill it in (a skeleton's comment beside it gives the choices)")
			continue
		}
		a, ok := ParseAck(s)
		if !ok {
			p.errorf(item, "acknowledge: %q is not SERVICE.FIELD or *.FIELD (such as postfix.build), SECTION.NAME.FIELD or SECTION.*.FIELD for a top-level attribute (networks.*.external), SERVICE.environment.VARIABLE, SERVICE.credentials.VARIABLE (VARIABLE in double quotes when it holds other characters than letters, digits and _: web.environment.\"sonar.jdbc.password\"), jobs.NAME (a job), or SERVICE.volumes.TARGET.OPTION with TARGET a container path or * and OPTION one of %s", s, strings.Join(AckOptions, ", "))
			continue
		}
		if first, dup := seen[s]; dup {
			p.errorf(item, "acknowledge: %q listed twice (first at line %d)", s, first)
			continue
		}
		seen[s] = item.Line
		a.Pos = p.pos(item)
		out = append(out, a)
	}
	return out
}

// ParseAck parses an acknowledge item: SERVICE.FIELD or *.FIELD,
// SERVICE.environment.VARIABLE, SERVICE.credentials.VARIABLE, or
// SERVICE.volumes.TARGET.OPTION (TARGET an absolute, clean container path
// or *, OPTION one of AckOptions); ok is false when item is none of them.
// The first ".environment.", ".credentials." or ".volumes." decides the
// form, so a service name holding one of them cannot be acknowledged by
// field.
func ParseAck(item string) (Ack, bool) {
	// A quoted variable may hold any text: the form is decided before it.
	head := item
	if i := strings.IndexByte(item, '"'); i >= 0 {
		head = item[:i]
	}
	for _, kind := range []string{AckEnvironment, AckCredentials} {
		if i := strings.Index(head, "."+kind+"."); i >= 0 {
			svc, rest := item[:i], item[i+len(kind)+2:]
			v, ok := parseVariable(rest)
			if (svc != "*" && !ValidService(svc)) || !ok {
				return Ack{}, false
			}
			return Ack{Service: svc, Field: kind, Variable: v}, true
		}
	}
	if svc, rest, ok := strings.Cut(item, "."+AckVolumes+"."); ok {
		i := strings.LastIndexByte(rest, '.')
		if i < 0 || (svc != "*" && !ValidService(svc)) {
			return Ack{}, false
		}
		target, opt := rest[:i], rest[i+1:]
		if (target != "*" && !manifest.ValidPath(target)) || !slices.Contains(AckOptions, opt) {
			return Ack{}, false
		}
		return Ack{Service: svc, Field: AckVolumes, Target: target, Option: opt}, true
	}
	svc, field, ok := SplitAck(item)
	if !ok {
		return Ack{}, false
	}
	return Ack{Service: svc, Field: field}, true
}

// envRE is an environment variable's name as credentials: and acknowledge
// items write it unquoted.
var envRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Variable names. docker compose accepts any non-empty name in a service's
// environment (sonar.jdbc.password, a-b, even with spaces), and so do
// credentials: keys and acknowledge items: a name of letters, digits and
// _ not starting with a digit is written as it is (db.POSTGRES_PASSWORD),
// any other in double quotes, with Go's (and JSON's) backslash escapes
// for a " or \ inside (sonarqube."sonar.jdbc.password",
// sonarqube.environment."sonar.jdbc.password"). A service name holds no
// ", so the first " starts the variable.

// Variable returns variable as credentials: keys and acknowledge items
// write it: as it is when envRE matches it, else quoted (strconv.Quote).
func Variable(variable string) string {
	if envRE.MatchString(variable) {
		return variable
	}
	return strconv.Quote(variable)
}

// CredentialKey returns the credentials: key that declares variable of
// service: SERVICE.VARIABLE, the variable written by Variable.
func CredentialKey(service, variable string) string {
	return service + "." + Variable(variable)
}

// AckVariable returns the acknowledge item SERVICE.KIND.VARIABLE (kind
// AckEnvironment or AckCredentials), the variable written by Variable.
func AckVariable(kind, service, variable string) string {
	return service + "." + kind + "." + Variable(variable)
}

// parseVariable returns the variable s writes (Variable): a name envRE
// matches, or a quoted non-empty name; ok is false for anything else.
func parseVariable(s string) (string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return s, envRE.MatchString(s)
	}
	v, err := strconv.Unquote(s)
	if err != nil || v == "" {
		return "", false
	}
	return v, true
}

// credentialRE is a credential's name.
var credentialRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)

// ValidCredential reports whether s is a credential name credentials: may
// give.
func ValidCredential(s string) bool { return credentialRE.MatchString(s) }

// SplitCredentialKey splits a credentials: key SERVICE.VARIABLE: at the
// dot before its first " when the variable is quoted (Variable), else at
// its last dot (service names may hold dots, unquoted variable names do
// not).
func SplitCredentialKey(key string) (service, variable string, ok bool) {
	i := strings.IndexByte(key, '"') - 1
	if i < 0 {
		i = strings.LastIndexByte(key, '.')
	}
	if i < 0 || key[i] != '.' {
		return "", "", false
	}
	service, variable = key[:i], key[i+1:]
	if variable, ok = parseVariable(variable); !ok || !ValidService(service) {
		return "", "", false
	}
	return service, variable, true
}

func (p *parser) credentials(n *yaml.Node) []Credential {
	if isNull(resolve(n)) {
		return nil
	}
	var out []Credential
	for _, kv := range p.mapping(n, KeyCredentials, nil) {
		svc, v, ok := SplitCredentialKey(kv.key)
		if !ok {
			p.errorf(kv.k, "credentials: %q is not SERVICE.VARIABLE (such as db.POSTGRES_PASSWORD, or sonarqube.\"sonar.jdbc.password\" for a name with other characters than letters, digits and _)", kv.key)
			continue
		}
		name, ok := p.str(kv.v, fmt.Sprintf("credentials: %q", kv.key))
		if !ok {
			continue
		}
		if !ValidCredential(name) {
			p.errorf(kv.v, "credentials: %q: %q is not a credential name (letters, digits, '.', '_', '-', such as db_password)", kv.key, name)
			continue
		}
		out = append(out, Credential{Service: svc, Variable: v, Name: name, Pos: p.pos(kv.k)})
	}
	return out
}

func (p *parser) images(n *yaml.Node) []Image {
	if isNull(resolve(n)) {
		return nil
	}
	var out []Image
	for _, kv := range p.mapping(n, "images", nil) {
		if !ValidService(kv.key) {
			p.errorf(kv.k, "images: %q is not a service name", kv.key)
			continue
		}
		ref, ok := p.str(kv.v, fmt.Sprintf("images: %q", kv.key))
		if !ok {
			continue
		}
		if ref == "" || strings.ContainsAny(ref, " \t\n") {
			p.errorf(kv.v, "images: %q: %q is not an image reference (such as registry.example.org/web:1.2)", kv.key, ref)
			continue
		}
		out = append(out, Image{Service: kv.key, Ref: ref, Pos: p.pos(kv.k)})
	}
	return out
}

// EscapeKey returns a key of the binds:, volumes: or anonymous: section
// as it must be written in a declarations file: keys are interpolated as
// compose values are (so ${VAR} in a key matches the source the variable
// gives), and a literal $ is therefore written $$. A source the compose
// file writes ./a$$b is the path ./a$b, and its key is written ./a$$b.
func EscapeKey(key string) string { return strings.ReplaceAll(key, "$", "$$") }

// Layouts are the values of --layout.
var Layouts = []string{LayoutFHS}

// DeclaredLayouts are the values of layout: in a declarations file:
// Layouts and LayoutNone.
var DeclaredLayouts = []string{LayoutFHS, LayoutNone}

func isOneOf(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// AckChoice is one choice a refusal skeleton offers for an empty
// acknowledge: item: the item to write, and what writing it means.
type AckChoice struct{ Item, Means string }

// AckChoiceComment is the comment of a refusal skeleton's empty
// acknowledge: item: "choose: ITEM (MEANS) | ITEM (MEANS)". For a
// credential whose image is not known to read VARIABLE_FILE the choices
// are SERVICE.credentials.VARIABLE (the image is made to read
// /run/secrets/CREDENTIAL) and SERVICE.environment.VARIABLE (the value is
// carried in plaintext); for a field not carried, SERVICE.FIELD (left
// behind knowingly). AckChoices reads the items back.
func AckChoiceComment(choices ...AckChoice) string {
	parts := make([]string, len(choices))
	for i, c := range choices {
		parts[i] = c.Item + " (" + c.Means + ")"
	}
	return "choose: " + strings.Join(parts, " | ")
}

// AckChoices returns the items AckChoiceComment wrote into comment, in
// order; nil when comment is not such a comment.
func AckChoices(comment string) []string {
	rest, found := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(comment), "#")), "choose: ")
	if !found {
		return nil
	}
	var out []string
	for _, part := range strings.Split(rest, " | ") {
		item, _, _ := strings.Cut(part, " ")
		if item == "" {
			return nil
		}
		out = append(out, item)
	}
	return out
}
