package convert

import (
	"slices"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/project"
)

// A secret shared by several variables is one credential. Two
// environment entries hold the same secret when their value is the same
// and could be a secret (project.CouldBeSecret), when both are the same
// literal, even a plain word, that is no placeholder (DB_PASSWORD: casaos
// in the app and POSTGRES_PASSWORD: casaos in its database: compose runs
// them equal, and the app needs them equal), or when both are written
// as the same variable of the project environment (${DB_PASSWORD}, even
// a placeholder): equal placeholders alone are two secrets, which only
// read alike. A credential's value is nowhere else in plaintext: a
// secret-looking variable holding it is refused even when acknowledged
// (checkComposeSecret names the credential), and the skeleton suggests
// the credential already declared; a shared secret with none gets one
// name, after the project variable it is written as, else after the role
// its variables' names share (their common last words: PASSWORD), else
// after its first user, and each user's comment names the others.

// secretKey returns what makes variable of service one secret with
// others: "=VALUE" for a value that could be a secret, or a literal of
// the compose file that is no placeholder; else "$VAR" for the project
// variable it is written as; "" when none (a secret of its own).
func (c *converter) secretKey(service, variable string) string {
	src, fromVar := c.secretSource(service, variable)
	if c.l.Compose != nil {
		if svc, ok := c.l.Compose.Services[service]; ok {
			if v := svc.Environment[variable]; v != nil && (project.CouldBeSecret(*v) || !fromVar && strings.TrimSpace(*v) != "" && !project.Placeholder(*v)) {
				return "=" + *v
			}
		}
	}
	if fromVar {
		return "$" + src
	}
	return ""
}

// secretSource returns the variable of the project environment that
// variable of service is the value of: the one its environment: entry is
// written as (${VAR}), or, for a variable an env_file sets, the project
// variable of the same name and value (immich's env_file is its .env).
func (c *converter) secretSource(service, variable string) (string, bool) {
	if src, ok := c.environSource(service, variable); ok {
		return src, true
	}
	for _, d := range c.l.ServiceDefs(service) {
		if _, ok := d.EnvPos(variable); ok {
			return "", false // written in environment:, not as one variable
		}
	}
	if c.l.Compose == nil {
		return "", false
	}
	v := c.l.Compose.Services[service].Environment[variable]
	if pv, ok := c.l.Environment[variable]; ok && v != nil && *v == pv {
		return variable, true
	}
	return "", false
}

// sameSecret reports whether variable a of service sa and variable b of
// service sb hold the same secret (secretKey), by value or by source.
func (c *converter) sameSecret(sa, a, sb, b string) bool {
	if sa == sb && a == b {
		return false
	}
	ka, kb := c.secretKey(sa, a), c.secretKey(sb, b)
	if ka != "" && ka == kb {
		return true
	}
	// A value that could be a secret written as one variable in one
	// place and as the same literal in another is still one secret;
	// the same variable is one secret whatever its value.
	srcA, okA := c.secretSource(sa, a)
	srcB, okB := c.secretSource(sb, b)
	return okA && okB && srcA == srcB
}

// deliveredBy returns the credentials: item, other than one for variable
// of service itself, that delivers the same secret (sameSecret); ok is
// false when none does. The first in file order wins.
func (c *converter) deliveredBy(service, variable string) (declare.Credential, bool) {
	if c.decl == nil {
		return declare.Credential{}, false
	}
	for _, cr := range c.decl.Credentials {
		if c.sameSecret(service, variable, cr.Service, cr.Variable) {
			return cr, true
		}
	}
	return declare.Credential{}, false
}

// credentialOf returns the credentials: item whose variable holds the
// value of the project variable name (value its value): written as it,
// or the same value that could be a secret; ok is false when none does.
func (c *converter) credentialOf(name, value string) (declare.Credential, bool) {
	if c.decl == nil || c.l.Compose == nil {
		return declare.Credential{}, false
	}
	for _, cr := range c.decl.Credentials {
		if src, ok := c.secretSource(cr.Service, cr.Variable); ok && src == name {
			return cr, true
		}
		svc, ok := c.l.Compose.Services[cr.Service]
		if v := svc.Environment[cr.Variable]; ok && v != nil && *v == value && project.CouldBeSecret(value) {
			return cr, true
		}
	}
	return declare.Credential{}, false
}

// sharedName returns the credential name for one secret held by the
// variables items (SERVICE.VARIABLE, at least two): the project variable
// all are written as, else the last words their names share (the
// value's role: POSTGRES_PASSWORD and MARIADB_ROOT_PASSWORD share
// password), else "" (the caller names it after its first user).
func (c *converter) sharedName(items []SecretSuggestion) string {
	src, ok := c.secretSource(items[0].Service, items[0].Variable)
	for _, it := range items[1:] {
		s, o := c.secretSource(it.Service, it.Variable)
		ok = ok && o && s == src
	}
	if ok {
		return CredentialName("", src)
	}
	common := nameWords(items[0].Variable)
	for _, it := range items[1:] {
		w := nameWords(it.Variable)
		n := 0
		for n < len(common) && n < len(w) && common[len(common)-1-n] == w[len(w)-1-n] {
			n++
		}
		common = common[len(common)-n:]
	}
	if len(common) == 0 {
		return ""
	}
	return CredentialName("", strings.Join(common, "_"))
}

// nameWords splits a variable name into its lower-case words at every
// character that is not a letter or digit.
func nameWords(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// shareSuggestions gives the suggestions out that hold one secret the
// same credential: the one credentials: declares for it already, else
// one name (sharedName) unless another secret has it, and it lists each
// suggestion's fellow users in Shared.
func (c *converter) shareSuggestions(out []SecretSuggestion) {
	var groups [][]int
	for i := range out {
		placed := false
		for g, members := range groups {
			first := out[members[0]]
			if c.sameSecret(first.Service, first.Variable, out[i].Service, out[i].Variable) {
				groups[g] = append(groups[g], i)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []int{i})
		}
	}
	// Names taken: each group's own, every declared credential's, and
	// every compose secret's (a compose secret of the same name is the
	// same credential).
	taken := map[string]bool{}
	for _, cr := range c.decl.CredentialsOrNil() {
		taken[cr.Name] = true
	}
	if c.l.Compose != nil {
		for name := range c.l.Compose.Secrets {
			taken[name] = true
		}
	}
	names := make([]string, len(groups))
	for g, members := range groups {
		first := out[members[0]]
		if cr, ok := c.deliveredBy(first.Service, first.Variable); ok {
			names[g] = cr.Name
			for _, i := range members {
				out[i].Existing = declare.CredentialKey(cr.Service, cr.Variable)
			}
			continue
		}
		if len(members) > 1 {
			var items []SecretSuggestion
			for _, i := range members {
				items = append(items, out[i])
			}
			if n := c.sharedName(items); n != "" && !taken[n] && !slices.Contains(names, n) {
				names[g] = n
			}
		}
	}
	for g, members := range groups {
		if names[g] == "" {
			n := out[members[0]].Credential
			for k := 2; taken[n] || slices.Contains(names, n); k++ {
				n = out[members[0]].Credential + "_" + strconv.Itoa(k)
			}
			names[g] = n
		}
		for _, i := range members {
			out[i].Credential = names[g]
			for _, j := range members {
				if j != i {
					out[i].Shared = append(out[i].Shared, declare.CredentialKey(out[j].Service, out[j].Variable))
				}
			}
		}
	}
}
