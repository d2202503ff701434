package convert

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
)

// TestSharedCredentialNames: the credential names the skeleton suggests
// for secrets held by several variables (issue 21 item 6), both ways: one
// project variable gives its name; equal values under different names
// the words they share; a placeholder shared only by value is two
// secrets; a second secret whose role name is taken, or whose names share
// nothing, is named after its first user; a declared credential's name is
// never given to another secret.
func TestSharedCredentialNames(t *testing.T) {
	for _, c := range []struct {
		name, compose, env, decl string
		want                     map[string]string // SERVICE.VARIABLE: credential
		// top is top-level YAML added to the compose file.
		top string
	}{
		{"one project variable", "a:\n  X_PASSWORD: ${DB_PASSWORD}\nb:\n  Y_PASSWORD: ${DB_PASSWORD}\n", "DB_PASSWORD=Tr0ub4dor-and-3\n", "",
			map[string]string{"a.X_PASSWORD": "db_password", "b.Y_PASSWORD": "db_password"}, ""},
		{"one project variable, a placeholder", "a:\n  X_PASSWORD: ${DB_PASSWORD}\nb:\n  Y_PASSWORD: ${DB_PASSWORD}\n", "DB_PASSWORD=changeme\n", "",
			map[string]string{"a.X_PASSWORD": "db_password", "b.Y_PASSWORD": "db_password"}, ""},
		{"equal placeholders are two", "a:\n  X_PASSWORD: ${P1}\nb:\n  Y_PASSWORD: ${P2}\n", "P1=changeme\nP2=changeme\n", "",
			map[string]string{"a.X_PASSWORD": "a_x_password", "b.Y_PASSWORD": "b_y_password"}, ""},
		{"equal values, a role", "a:\n  API_TOKEN: ${T1}\nb:\n  WORKER_API_TOKEN: ${T2}\n", "T1=Zx9-shared-token-77\nT2=Zx9-shared-token-77\n", "",
			map[string]string{"a.API_TOKEN": "api_token", "b.WORKER_API_TOKEN": "api_token"}, ""},
		{"equal literal plain words are one", "a:\n  DB_PASSWORD: casaos\nb:\n  POSTGRES_PASSWORD: casaos\n", "", "",
			map[string]string{"a.DB_PASSWORD": "password", "b.POSTGRES_PASSWORD": "password"}, ""},
		{"equal literal placeholders are two", "a:\n  DB_PASSWORD: changeme\nb:\n  POSTGRES_PASSWORD: changeme\n", "", "",
			map[string]string{"a.DB_PASSWORD": "a_db_password", "b.POSTGRES_PASSWORD": "b_postgres_password"}, ""},
		{"literal equal values", "a:\n  DB_PASS: Zx9-literal-9911\nb:\n  PASS: Zx9-literal-9911\n", "", "",
			map[string]string{"a.DB_PASS": "pass", "b.PASS": "pass"}, ""},
		{"nothing shared but the value", "a:\n  TOKEN: Zx9-literal-9911\nb:\n  PASSWORD: Zx9-literal-9911\n", "", "",
			map[string]string{"a.TOKEN": "a_token", "b.PASSWORD": "a_token"}, ""},
		{"a role taken", "a:\n  X_PASSWORD: Zx9-first-11aa\nb:\n  Y_PASSWORD: Zx9-first-11aa\nc:\n  Z_PASSWORD: Zx9-second-22bb\nd:\n  W_PASSWORD: Zx9-second-22bb\n", "", "",
			map[string]string{"a.X_PASSWORD": "password", "b.Y_PASSWORD": "password", "c.Z_PASSWORD": "c_z_password", "d.W_PASSWORD": "c_z_password"}, ""},
		{"a declared name is taken", "a:\n  X_PASSWORD: Zx9-first-11aa\nb:\n  Y_PASSWORD: Zx9-first-11aa\nc:\n  PASSWORD: Zx9-other-33cc\n", "", "c.PASSWORD: password\n",
			map[string]string{"a.X_PASSWORD": "a_x_password", "b.Y_PASSWORD": "a_x_password"}, ""},
		{"a compose secret's name is taken", "a:\n  X_PASSWORD: Zx9-first-11aa\nb:\n  Y_PASSWORD: Zx9-first-11aa\n", "", "",
			map[string]string{"a.X_PASSWORD": "a_x_password", "b.Y_PASSWORD": "a_x_password"}, "secrets:\n  password:\n    file: ./pw.txt\n"},
		{"a declared credential for the value", "a:\n  X_PASSWORD: ${DB_PASSWORD}\nb:\n  Y_PASSWORD: ${DB_PASSWORD}\nc:\n  Z_PASSWORD: ${DB_PASSWORD}\n", "DB_PASSWORD=Tr0ub4dor-and-3\n", "a.X_PASSWORD: pg\n",
			map[string]string{"b.Y_PASSWORD": "pg", "c.Z_PASSWORD": "pg"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var b strings.Builder
			b.WriteString("name: p\nservices:\n")
			for _, line := range strings.Split(strings.TrimSpace(c.compose), "\n") {
				if !strings.HasPrefix(line, " ") {
					b.WriteString("  " + line + "\n    image: example.org/app:1\n    environment:\n")
					continue
				}
				b.WriteString("    " + line + "\n")
			}
			b.WriteString(c.top)
			writeFile(t, filepath.Join(dir, "compose.yaml"), b.String())
			writeFile(t, filepath.Join(dir, ".env"), c.env)
			if c.decl != "" {
				writeFile(t, filepath.Join(dir, "compose2manifest.yaml"), "version: 1\ncredentials:\n  "+c.decl)
			}
			res, err := Convert(context.Background(), Options{ConfigFiles: []string{filepath.Join(dir, "compose.yaml")}, Environ: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, s := range res.Suggestions.Secrets {
				got[s.Service+"."+s.Variable] = s.Credential
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s: credential %q, want %q (all: %v)", k, got[k], v, got)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("suggestions %v, want %v", got, c.want)
			}
		})
	}
}

// TestSharedCredentialEnvFile: a variable an env_file sets holds the same
// secret as the project variable of the same name and value (immich's
// env_file is its .env, and the database reads ${DB_PASSWORD}), even
// when the value is a plain word no other field would be refused for.
func TestSharedCredentialEnvFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "compose.yaml"), "name: p\nservices:\n  server:\n    image: example.org/server:1\n    env_file: [.env]\n  database:\n    image: example.org/db:1\n    environment:\n      POSTGRES_PASSWORD: ${DB_PASSWORD}\n")
	writeFile(t, filepath.Join(dir, ".env"), "DB_PASSWORD=postgres\n")
	res, err := Convert(context.Background(), Options{ConfigFiles: []string{filepath.Join(dir, "compose.yaml")}, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range res.Suggestions.Secrets {
		got[s.Service+"."+s.Variable] = s.Credential
	}
	if got["server.DB_PASSWORD"] != "db_password" || got["database.POSTGRES_PASSWORD"] != "db_password" {
		t.Errorf("suggestions %v, want one credential db_password", got)
	}
}

// TestCredentialNameValid: CredentialName gives the name the regexp of
// declare.ValidCredential decides ("c" before a name that does not start
// with a letter or digit), and one it takes.
func TestCredentialNameValid(t *testing.T) {
	for _, c := range [][2]string{{"", ""}, {"", "-x"}, {"", ".x"}, {"", "_x"}, {"", "é"}, {"", "A"}, {"", "9a"}, {"db", "X"}, {"-db", "X"}, {"", "x y"}, {"Ébc", "v"}, {"c", "x"}} {
		name := strings.ToLower(c[1])
		if c[0] != "" {
			name = strings.ToLower(c[0]) + "_" + name
		}
		name = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
				return r
			}
			return '_'
		}, name)
		if !declare.ValidCredential(name) {
			name = "c" + name
		}
		if got := CredentialName(c[0], c[1]); got != name || !declare.ValidCredential(got) {
			t.Errorf("CredentialName(%q, %q) = %q, want %q", c[0], c[1], got, name)
		}
	}
}
