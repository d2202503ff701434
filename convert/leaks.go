package convert

import (
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// A value known to be a secret never reaches a manifest by another field.
// Known secrets are the values of the variables credentials: delivers and
// of the literal values C2M015 judges secret (project.LooksLikeSecret), in
// any service, and the values of the project environment's secret-looking
// variables (.env, the env files, the process environment), each of at
// least project.MinSecretLen bytes and one that could be a secret
// (project.CouldBeSecret: no placeholder, common word, number or
// setting, which would match unrelated text), not carried in plaintext
// knowingly (acknowledge names a variable with that value, and no
// credential delivers it), and not contained in a name the project shows openly (its name, a service,
// network, volume, config or secret name, an image or hostname as a
// compose file writes it, not interpolated, a variable's name or the
// credential name the skeleton makes of it: masking touches values only,
// and never makes a name or key of a mask).
// Every string of a built container that contains one (an environment
// value, the command, the entrypoint, a label, the healthcheck test, an
// inline config's content, an annotation, anything) is C2M015: the value
// is masked out of the field (project.Mask) and the module is refused. No
// acknowledgement carries such a field: acknowledge SERVICE.environment.VAR
// carries only VAR itself. The way out is the container reading the value
// from where the mesh delivers it (a credential file, or the variable,
// "$$VAR" in a command).

// knownSecret is a value known to be a secret and what it is the value of
// ("environment POSTGRES_PASSWORD of service db", "DB_PASSWORD").
type knownSecret struct {
	value, of string
	// credential is set when credentials: delivers the value.
	credential bool
}

// knownSecrets returns the known secret values, longest first, computed
// once.
func (c *converter) knownSecrets() []knownSecret {
	if c.known != nil {
		return *c.known
	}
	carried, delivered := c.plaintextValues()
	s := &secretSet{public: c.publicNames(), carried: carried, delivered: delivered, seen: map[string]bool{}}
	if c.l.Compose != nil {
		c.addCredentialSecrets(s)
		c.addServiceSecrets(s)
	}
	for _, k := range slices.Sorted(maps.Keys(c.l.Environment)) {
		if v := c.l.Environment[k]; project.LooksLikeSecret(k, v) {
			s.add(v, k)
		}
	}
	for _, k := range s.inURLs {
		s.add(k.value, k.of)
	}
	out := s.out
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].value) > len(out[j].value) })
	c.known = &out
	return out
}

// publicNames returns the names the project shows openly: a value one of
// them contains (POSTGRES_PASSWORD=postgres beside image postgres:16) is
// no secret to keep, and would match every field naming it.
func (c *converter) publicNames() []string {
	var public []string
	if p := c.l.Compose; p != nil {
		public = append(public, p.Name)
		for _, m := range []map[string]bool{keysOf(p.Services), keysOf(p.Networks), keysOf(p.Volumes), keysOf(p.Configs), keysOf(p.Secrets)} {
			for k := range m {
				public = append(public, k)
			}
		}
		// Not container_name: the manifest does not carry it, so it
		// shows nothing openly. An image or hostname only as written:
		// one interpolated from a secret variable (hostname:
		// h${API_TOKEN}) shows nothing the files do not hide.
		for _, name := range slices.Sorted(maps.Keys(p.Services)) {
			for _, v := range []string{p.Services[name].Image, p.Services[name].Hostname} {
				if v != "" && c.l.Written(v) {
					public = append(public, v)
				}
			}
			// Variable names, and the credential names the skeleton
			// makes of them: masked, a name would be no name.
			for k := range p.Services[name].Environment {
				public = append(public, k, CredentialName(name, k))
			}
		}
	}
	for k := range c.l.Environment {
		public = append(public, k, CredentialName("", k))
	}
	return public
}

// plaintextValues returns the environment values carried in plaintext
// knowingly (acknowledge names the variable) and those credentials:
// delivers. A carried value is in the manifest anyway: it spreads
// nowhere, unless it is also a credential's value.
func (c *converter) plaintextValues() (carried, delivered map[string]bool) {
	carried, delivered = map[string]bool{}, map[string]bool{}
	if c.l.Compose == nil {
		return carried, delivered
	}
	for name, svc := range c.l.Compose.Services {
		for k, v := range svc.Environment {
			switch {
			case v == nil:
			case c.declaresCredential(name, k):
				delivered[*v] = true
			case c.decl.AcknowledgesVariable(declare.AckEnvironment, name, k):
				carried[*v] = true
			}
		}
	}
	return carried, delivered
}

// secretSet collects known secrets for knownSecrets, each value once.
type secretSet struct {
	public             []string // names shown openly (publicNames)
	carried, delivered map[string]bool
	seen               map[string]bool
	out                []knownSecret
	// inURLs holds the passwords inside URL values, secrets of their
	// own wherever the rest of the URL is not; added after every whole
	// value, so a value is named after the variable it is the whole of.
	inURLs []knownSecret
}

// add adds v, the value of of, unless it could be no secret, is already
// known, is carried knowingly and delivered by no credential, or is
// contained in a public name.
func (s *secretSet) add(v, of string) {
	if !project.CouldBeSecret(v) || s.seen[v] || (s.carried[v] && !s.delivered[v]) {
		return
	}
	for _, pub := range s.public {
		if strings.Contains(pub, v) {
			return
		}
	}
	s.seen[v] = true
	s.out = append(s.out, knownSecret{value: v, of: of, credential: s.delivered[v]})
	if p := project.URLPassword(v); p != "" && p != v {
		s.inURLs = append(s.inURLs, knownSecret{value: p, of: of, credential: s.delivered[v]})
	}
}

// addCredentialSecrets adds the value of each credential credentials:
// delivers, named after the credential: a field holding it names both
// places. It is added first, before any other name for the same value.
func (c *converter) addCredentialSecrets(s *secretSet) {
	for _, cr := range c.decl.CredentialsOrNil() {
		if svc, ok := c.l.Compose.Services[cr.Service]; ok {
			if v := svc.Environment[cr.Variable]; v != nil {
				s.add(*v, "environment "+cr.Variable+" of service "+cr.Service+", delivered as credential "+cr.Name)
			}
		}
	}
}

// addServiceSecrets adds the literal environment values of every
// service that C2M015 judges secret (project.LooksLikeSecret), services
// and variables in sorted order.
func (c *converter) addServiceSecrets(s *secretSet) {
	for _, name := range slices.Sorted(maps.Keys(c.l.Compose.Services)) {
		svc := c.l.Compose.Services[name]
		for _, k := range sortedEnvKeys(svc.Environment) {
			v := svc.Environment[k]
			if v == nil {
				continue
			}
			if project.LooksLikeSecret(k, *v) {
				s.add(*v, "environment "+k+" of service "+name)
			}
		}
	}
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// envSecret reports whether an environment variable holds a secret of
// its own, judged as a variable: its name and value look like one
// (project.LooksLikeSecret; of is ""), or its whole value is a value
// known to be a secret (of names what it is the value of: DBROOT holding
// MYSQL_ROOT_PASSWORD's value is settled like that variable, by a
// credential, not refused as a field no declaration can settle).
func (c *converter) envSecret(name, value string) (of string, ok bool) {
	if project.LooksLikeSecret(name, value) {
		return "", true
	}
	for _, k := range c.knownSecrets() {
		if k.value == value {
			return k.of, true
		}
	}
	return "", false
}

// declaresCredential reports whether credentials: names variable of
// service (without marking the item used).
func (c *converter) declaresCredential(service, variable string) bool {
	if c.decl == nil {
		return false
	}
	for _, cr := range c.decl.Credentials {
		if cr.Service == service && cr.Variable == variable {
			return true
		}
	}
	return false
}

// secretFields refuses (C2M015) each field of ct that carries a known
// secret, masking the value out of it. A secret-looking variable's own
// value is left to environment (it is carried only when acknowledged).
func (c *converter) secretFields(svc types.ServiceConfig, ct *manifest.Container, pos manifest.Pos) {
	w := &secretWalk{c: c, service: svc.Name, ct: ct, pos: pos, known: c.knownSecrets(), reported: map[string]bool{}}
	w.walk(reflect.ValueOf(ct).Elem(), "", func(reflect.Value) {})
}

// secretWalk walks a built container for secretFields, masking each
// known secret it finds and reporting it once per field.
type secretWalk struct {
	c        *converter
	service  string
	ct       *manifest.Container // its Image names the refusal, as masked so far
	pos      manifest.Pos
	known    []knownSecret
	reported map[string]bool // field and what the value is of
}

// walk masks the secrets in v, the value of field (a path of yaml names,
// "" for the container itself), calling set with a replacement value
// when v cannot be set in place.
func (w *secretWalk) walk(v reflect.Value, field string, set func(reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		w.walkString(v, field, set)
	case reflect.Pointer, reflect.Interface:
		w.walkIndirect(v, field, set)
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			e := v.Index(i)
			w.walk(e, field, func(n reflect.Value) { e.Set(n) })
		}
	case reflect.Map:
		w.walkMap(v, field)
	case reflect.Struct:
		w.walkStruct(v, field)
	}
}

// walkString masks a password written in a URL and every known secret
// out of the string v, reporting each.
func (w *secretWalk) walkString(v reflect.Value, field string, set func(reflect.Value)) {
	s := v.String()
	masked := s
	// A password written in a URL (curl http://u:pw@host, a
	// label, a healthcheck) is a secret wherever it is.
	if p := project.URLPassword(masked); p != "" && len(p) >= project.MinSecretLen/2 {
		masked = strings.ReplaceAll(masked, p, project.Mask(p))
		w.report(field, "\x00url", "a password in a URL")
	}
	for _, k := range w.known {
		if !strings.Contains(masked, k.value) {
			continue
		}
		masked = strings.ReplaceAll(masked, k.value, project.Mask(k.value))
		w.report(field, "\x00"+k.of, k.of)
	}
	if masked != s {
		set(reflect.ValueOf(masked).Convert(v.Type()))
	}
}

// report records C2M015 for field holding the value of of, unless the
// same field and key were reported already.
func (w *secretWalk) report(field, key, of string) {
	if id := field + key; !w.reported[id] {
		w.reported[id] = true
		w.c.secrets = append(w.c.secrets, rules.EnvSecret{Service: w.service, Image: w.ct.Image, Field: field, Of: of, Pos: w.pos})
	}
}

// walkIndirect walks what a non-nil pointer or interface v holds. An
// interface's value is walked as a copy, set back only when it changed.
func (w *secretWalk) walkIndirect(v reflect.Value, field string, set func(reflect.Value)) {
	if v.IsNil() {
		return
	}
	e := v.Elem()
	if v.Kind() == reflect.Pointer {
		w.walk(e, field, func(n reflect.Value) { e.Set(n) })
		return
	}
	cp := reflect.New(e.Type()).Elem()
	cp.Set(e)
	w.walk(cp, field, func(n reflect.Value) { cp.Set(n) })
	if !reflect.DeepEqual(cp.Interface(), e.Interface()) {
		set(cp)
	}
}

// walkMap walks each entry of the map v in key order, as field KEY,
// writing back the entries that changed. A secret-looking environment
// variable's own value is skipped: environment refuses it.
func (w *secretWalk) walkMap(v reflect.Value, field string) {
	iter := v.MapRange()
	type entry struct{ k, v reflect.Value }
	var entries []entry
	for iter.Next() {
		entries = append(entries, entry{iter.Key(), iter.Value()})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].k.String() < entries[j].k.String() })
	for _, en := range entries {
		key := en.k.String()
		if field == "environment" && en.v.Kind() == reflect.String {
			if _, own := w.c.envSecret(key, en.v.String()); own {
				continue // its own value: C2M015 in environment
			}
		}
		cp := reflect.New(en.v.Type()).Elem()
		cp.Set(en.v)
		changed := false
		w.walk(cp, field+" "+key, func(n reflect.Value) { cp.Set(n); changed = true })
		if changed || !reflect.DeepEqual(cp.Interface(), en.v.Interface()) {
			v.SetMapIndex(en.k, cp)
		}
	}
}

// walkStruct walks each exported field of the struct v, named by its
// yaml name (its lower-cased Go name without one); a file reference's
// fields are named after its source as well.
func (w *secretWalk) walkStruct(v reflect.Value, field string) {
	t := v.Type()
	for _, f := range w.c.walkFields(t) {
		sub := f.name
		switch {
		case field == "":
		case t == fileRefType:
			sub = field + " " + v.FieldByName("Source").String() + " " + f.name
		default:
			sub = field + " " + f.name
		}
		fv := v.Field(f.index)
		w.walk(fv, sub, func(n reflect.Value) { fv.Set(n) })
	}
}

// fileRefType is manifest.FileRef's type: walkStruct names its fields
// after its source.
var fileRefType = reflect.TypeFor[manifest.FileRef]()

// walkField is an exported field of a struct type, by its index and the
// name walkStruct gives it: its yaml name, or its lower-cased Go name
// without one.
type walkField struct {
	index int
	name  string
}

// walkFields returns the exported fields of the struct type t
// (manifest.YAMLFields, those yaml.v3 leaves out too), found once per
// conversion (secretFields walks each container).
func (c *converter) walkFields(t reflect.Type) []walkField {
	if fs, ok := c.secretWalkFields[t]; ok {
		return fs
	}
	var fs []walkField
	for _, f := range manifest.YAMLFields(t) {
		fs = append(fs, walkField{f.Index, f.Name})
	}
	if c.secretWalkFields == nil {
		c.secretWalkFields = map[reflect.Type][]walkField{}
	}
	c.secretWalkFields[t] = fs
	return fs
}

// secretSources refuses (C2M015) each mount whose source carries a known
// secret (a bind of /srv/app/${API_KEY}): the host path would be written
// in the manifest, and the report would show it.
func (c *converter) secretSources() {
	known := c.knownSecrets()
	for _, m := range c.mounts {
		for _, k := range known {
			if !strings.Contains(m.Source, k.value) {
				continue
			}
			dup := slices.ContainsFunc(c.secrets, func(s rules.EnvSecret) bool {
				return s.Service == m.Service && s.Of == k.of && strings.HasPrefix(s.Field, "volume")
			})
			if !dup {
				c.secrets = append(c.secrets, rules.EnvSecret{Service: m.Service, Field: "volume source", Of: k.of, Pos: m.Pos})
			}
		}
	}
}

// maskResult masks every known secret out of what res shows: each
// diagnostic's message, source, target and related messages, the
// skeleton, and the missing sources ask shows. A value may reach them by
// a path (a bind of /srv/app/${API_KEY}); secretSources refuses it.
func (c *converter) maskResult(res *Result) {
	known := c.knownSecrets()
	if len(known) == 0 {
		return
	}
	mask := func(s string) string {
		for _, k := range known {
			s = strings.ReplaceAll(s, k.value, project.Mask(k.value))
		}
		return s
	}
	res.mask = mask
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		d.Message, d.Source, d.Target = mask(d.Message), mask(d.Source), mask(d.Target)
		for j := range d.Related {
			d.Related[j].Message = mask(d.Related[j].Message)
		}
	}
	res.Skeleton = []byte(mask(string(res.Skeleton)))
	res.Inline = []byte(mask(string(res.Inline)))
	for i := range res.Missing {
		ms := &res.Missing[i]
		ms.Key, ms.Source, ms.Known.Key, ms.Known.Path, ms.Reason = mask(ms.Key), mask(ms.Source), mask(ms.Known.Key), mask(ms.Known.Path), mask(ms.Reason)
	}
	for i, p := range res.UndeclaredAncestors {
		res.UndeclaredAncestors[i] = mask(p)
	}
}

// maskComments masks each known secret out of the provenance comments of
// rs: a Docker volume or a credential named with a secret variable
// (name: vol_${DB_PASSWORD}) is named in its comment. The fields
// themselves are secretFields' to judge.
func (c *converter) maskComments(rs []manifest.Resource) {
	for i := range rs {
		rs[i].Comment = c.maskSecrets(rs[i].Comment)
	}
}

// maskSecrets returns s with each known secret masked out of it.
func (c *converter) maskSecrets(s string) string {
	for _, k := range c.knownSecrets() {
		s = strings.ReplaceAll(s, k.value, project.Mask(k.value))
	}
	return s
}

// carriesSecret reports whether s contains a known secret.
func (c *converter) carriesSecret(s string) bool {
	for _, k := range c.knownSecrets() {
		if strings.Contains(s, k.value) {
			return true
		}
	}
	return false
}
