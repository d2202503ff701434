package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/skeletontest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// TestSecretsRefusedUntilDeclared is issue 11's done-when, end to end
// through the command, on the README example (with passwords added in its
// .env) and three corpus projects whose .env or env_file holds passwords:
// n8n-queue-mode (images that read VARIABLE_FILE and a runner image that
// does not), paperless-ngx (a secret key from an env_file, a literal
// database password) and ac-pihole-cloudflared-DoH (WEBPASSWORD, an image
// not known to read WEBPASSWORD_FILE). Each is refused with a C2M015 error
// per plaintext secret and no secret value anywhere in the output; the
// refusal's skeleton, filled in, converts with credentials and no secret
// value in the manifest; and check --against passes with no flags.
func TestSecretsRefusedUntilDeclared(t *testing.T) {
	corpus := os.Getenv(corpusEnv)
	type project struct {
		name, src, file string
		// prepare edits the copy before the first conversion.
		prepare func(t *testing.T, dir string)
		// secrets are the SERVICE.VARIABLE items C2M015 must refuse.
		secrets []string
	}
	projects := []project{
		{name: "example", src: "../../testdata/example/mail", file: "compose.yaml", prepare: func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "compose.yaml"), "      POSTGRES_USER: mail\n", "      POSTGRES_USER: mail\n      POSTGRES_PASSWORD: ${DB_PASSWORD}\n")
			edit(t, filepath.Join(dir, "compose.yaml"), "      MYHOSTNAME: ${MAIL_HOSTNAME:-mail.example.org}\n", "      MYHOSTNAME: ${MAIL_HOSTNAME:-mail.example.org}\n      RELAY_PASSWORD: ${RELAY_PASSWORD}\n      DB_PASSWORD: ${DB_PASSWORD}\n")
			if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("DB_PASSWORD=Tr0ub4dor&3-db\nRELAY_PASSWORD=correct-horse-relay\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// Start from no declarations but the ones the example
			// needs for its volumes: the skeleton brings the rest.
		}, secrets: []string{"db.POSTGRES_PASSWORD", "postfix.RELAY_PASSWORD", "postfix.DB_PASSWORD"}},
	}
	if corpus != "" {
		projects = append(projects,
			project{name: "n8n-queue-mode", src: filepath.Join(corpus, "n8n-queue-mode"), file: "docker-compose.yml", secrets: []string{
				"postgres.POSTGRES_PASSWORD", "postgres.POSTGRES_NON_ROOT_PASSWORD",
				"n8n.DB_POSTGRESDB_PASSWORD", "n8n.N8N_ENCRYPTION_KEY", "n8n.N8N_RUNNERS_AUTH_TOKEN",
				"n8n-worker.DB_POSTGRESDB_PASSWORD", "n8n-worker.N8N_ENCRYPTION_KEY", "n8n-worker.N8N_RUNNERS_AUTH_TOKEN",
				"n8n-runner.N8N_RUNNERS_AUTH_TOKEN", "n8n-worker-runner.N8N_RUNNERS_AUTH_TOKEN"}},
			project{name: "paperless-ngx", src: filepath.Join(corpus, "paperless-ngx"), file: "docker-compose.postgres-tika.yml", secrets: []string{
				"db.POSTGRES_PASSWORD", "webserver.PAPERLESS_SECRET_KEY"}},
			project{name: "ac-pihole-cloudflared-DoH", src: filepath.Join(corpus, "ac-pihole-cloudflared-DoH"), file: "compose.yaml", secrets: []string{
				"pihole.WEBPASSWORD"}},
		)
	} else {
		t.Logf("%s is not set: the README example only", corpusEnv)
	}
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, p.name)
			if err := os.CopyFS(dir, os.DirFS(p.src)); err != nil {
				t.Fatal(err)
			}
			if p.prepare != nil {
				p.prepare(t, dir)
			}
			values := secretValues(t, dir)
			if len(values) == 0 {
				t.Fatal("no secret values in the project's env files: nothing to look for")
			}
			out := filepath.Join(root, "manifests")
			code, stdout, stderr := runCLI(t, dir, "convert", "-f", p.file, "-o", out, "--format", "json")
			if code != exitFindings {
				t.Fatalf("exit %d, want 1 (refused)\n%s\n%s", code, stdout, stderr)
			}
			for _, v := range values {
				if strings.Contains(stdout, v) || strings.Contains(stderr, v) {
					t.Errorf("the refusal shows the secret value %q", v)
				}
			}
			rep := decodeReport(t, stdout)
			mod := rep.Modules[0]
			refused := map[string]bool{}
			for _, d := range mod.Diagnostics {
				if d.Rule == "C2M015" && d.Severity == rules.Error {
					if m := regexp.MustCompile(`environment (\w+)=`).FindStringSubmatch(d.Message); m != nil {
						refused[d.Service+"."+m[1]] = true
					}
				}
			}
			for _, s := range p.secrets {
				if !refused[s] {
					t.Errorf("%s is not refused as a plaintext secret; refused: %v", s, refused)
				}
				if !strings.Contains(mod.Skeleton, "  "+s+": ") {
					t.Errorf("the skeleton offers no credential for %s", s)
				}
			}
			if t.Failed() {
				t.FailNow()
			}

			// The skeleton, filled in, goes in as the declarations.
			filled, err := skeletontest.Fill([]byte(mod.Skeleton))
			if err != nil {
				t.Fatal(err)
			}
			decl := filepath.Join(dir, "compose2manifest.yaml")
			if old, err := os.ReadFile(decl); err == nil {
				filled = merge(t, old, filled)
			}
			if err := os.WriteFile(decl, filled, 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr = runCLI(t, dir, "convert", "-f", p.file, "-o", out)
			if code != exitOK {
				t.Fatalf("with the filled skeleton: exit %d\n%s\n%s\ndeclarations:\n%s", code, stdout, stderr, filled)
			}
			entries, err := os.ReadDir(out)
			if err != nil || len(entries) != 1 {
				t.Fatalf("want one manifest in %s: %v %v", out, entries, err)
			}
			manifest, err := os.ReadFile(filepath.Join(out, entries[0].Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range values {
				if bytes.Contains(manifest, []byte(v)) {
					t.Errorf("the manifest carries the secret value %q", v)
				}
			}
			if !bytes.Contains(manifest, []byte("\n  - credential: ")) {
				t.Errorf("the manifest declares no credential:\n%s", manifest)
			}
			for _, s := range p.secrets {
				_, variable, _ := strings.Cut(s, ".")
				// Set at all, it is set from a credential: {credential: NAME}.
				for _, line := range strings.Split(string(manifest), "\n") {
					if strings.Contains(line, " "+variable+": ") && !strings.Contains(line, "credential: ") {
						t.Errorf("the manifest still sets %s in its environment: %s", variable, line)
					}
				}
			}

			// check --against passes with no flags but the root.
			code, stdout, stderr = runCLI(t, root, "check", "--against", root, out)
			if code != exitOK {
				t.Errorf("check --against: exit %d\n%s\n%s", code, stdout, stderr)
			}
		})
	}
}

// edit replaces old with new in the file name, once; old must be there.
func edit(t *testing.T, name, old, new string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s lacks %q; adapt the test", name, old)
	}
	if err := os.WriteFile(name, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// secretValues returns the values of the env files in dir (.env and every
// *.env) whose variable's name looks like a secret (rules.LooksLikeSecret),
// quotes removed.
func secretValues(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.env"))
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, filepath.Join(dir, ".env"))
	var out []string
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			k, v, ok := strings.Cut(line, "=")
			if !ok || strings.HasPrefix(line, "#") {
				continue
			}
			v = strings.Trim(strings.TrimSpace(v), `'"`)
			if rules.LooksLikeSecret(k, v) {
				out = append(out, v)
			}
		}
		f.Close()
	}
	return out
}

// merge appends the filled skeleton's sections to existing declarations:
// the skeleton names only what they lack, so no key repeats but version.
func merge(t *testing.T, old, skeleton []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		b.WriteByte('\n')
	}
	for _, line := range strings.SplitAfter(string(skeleton), "\n") {
		if strings.HasPrefix(line, "version:") {
			continue
		}
		b.WriteString(line)
	}
	return b.Bytes()
}
