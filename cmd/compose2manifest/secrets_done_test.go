package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/skeletontest"
)

// TestSecretsCorpusDoneWhen is issue 21's done-when, end to end through
// the command, on the corpus projects with secrets: n8n-queue-mode,
// paperless-ngx, ac-pihole-cloudflared-DoH, sentry-self-hosted, mailcow
// (with the mailcow.conf its generate_config.sh writes, as .env) and
// immich (example.env renamed .env and given a password of the user's,
// as its guide says). Each refusal's skeleton is filled in as a user would
// (skeletontest.Fill) and merged into the declarations until convert
// accepts the module: each converts; no acknowledge: item carries a
// variable in plaintext (every image has _FILE or environment delivery);
// every credentials: variable is set from its credential or its file; no
// secret value of the env files appears in any output (every round's
// report, the manifest, check --against's); and check --against passes.
func TestSecretsCorpusDoneWhen(t *testing.T) {
	corpus := os.Getenv(corpusEnv)
	if corpus == "" {
		t.Skipf("%s is not set; .ci/run sets it to the shared corpus", corpusEnv)
	}
	type project struct {
		name, file string
		prepare    func(t *testing.T, dir string)
	}
	projects := []project{
		{name: "n8n-queue-mode", file: "docker-compose.yml"},
		{name: "paperless-ngx", file: "docker-compose.postgres-tika.yml"},
		{name: "ac-pihole-cloudflared-DoH", file: "compose.yaml"},
		{name: "sentry-self-hosted", file: "docker-compose.yml"},
		{name: "mailcow", file: "docker-compose.yml", prepare: func(t *testing.T, dir string) {
			writeEnv(t, filepath.Join(dir, ".env"), mailcowConf)
		}},
		{name: "immich", file: "docker-compose.yml", prepare: func(t *testing.T, dir string) {
			data, err := os.ReadFile(filepath.Join(dir, "example.env"))
			if err != nil {
				t.Fatal(err)
			}
			s := regexp.MustCompile(`(?m)^DB_PASSWORD=.*$`).ReplaceAllString(string(data), "DB_PASSWORD=u7Kq2mZx9RbW4tLp")
			if s == string(data) {
				t.Fatal("immich's example.env sets no DB_PASSWORD; adapt the test")
			}
			writeEnv(t, filepath.Join(dir, ".env"), s)
			if err := os.Remove(filepath.Join(dir, "example.env")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, p.name)
			if err := os.CopyFS(dir, os.DirFS(filepath.Join(corpus, p.name))); err != nil {
				t.Fatal(err)
			}
			if p.prepare != nil {
				p.prepare(t, dir)
			}
			values := secretValues(t, dir)
			if len(values) == 0 {
				t.Fatal("no secret values in the project's env files: nothing to look for")
			}
			shows := func(what string, outputs ...string) {
				t.Helper()
				for _, v := range values {
					for _, o := range outputs {
						if strings.Contains(o, v) {
							t.Errorf("%s shows the secret value %q", what, v)
						}
					}
				}
			}
			out := filepath.Join(root, "manifests")
			decl := filepath.Join(dir, declare.DefaultFile)
			for round := 0; ; round++ {
				code, stdout, stderr := runCLI(t, dir, "convert", "-f", p.file, "-o", out, "--format", "json")
				shows("convert", stdout, stderr)
				if code == exitOK {
					break
				}
				mod := decodeReport(t, stdout).Modules[0]
				if code != exitFindings || mod.Skeleton == "" || round == 4 {
					old, _ := os.ReadFile(decl)
					t.Fatalf("round %d: exit %d and no skeleton to fill in\n%s\n%s\ndeclarations:\n%s", round, code, stdout, stderr, old)
				}
				filled, err := skeletontest.Fill([]byte(mod.Skeleton))
				if err != nil {
					t.Fatal(err)
				}
				old, err := os.ReadFile(decl)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				merged, err := mergeDeclarations(old, filled)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(decl, merged, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(decl)
			if err != nil {
				t.Fatal(err)
			}
			f, err := declare.Parse(decl, data)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range f.Acknowledge {
				if a.Field == declare.AckEnvironment {
					t.Errorf("the declarations carry %s in plaintext", a)
				}
			}
			if len(f.Credentials) == 0 {
				t.Error("no credentials: declared")
			}
			entries, err := os.ReadDir(out)
			if err != nil || len(entries) != 1 {
				t.Fatalf("want one manifest in %s: %v %v", out, entries, err)
			}
			manifest, err := os.ReadFile(filepath.Join(out, entries[0].Name()))
			if err != nil {
				t.Fatal(err)
			}
			shows("the manifest", string(manifest))
			for _, cr := range f.Credentials {
				fromCredential := regexp.MustCompile(`(?m)^      ` + regexp.QuoteMeta(cr.Variable) + `: \{credential: ` + regexp.QuoteMeta(cr.Name) + `\}$`)
				fromFile := regexp.MustCompile(`(?m)^      ` + regexp.QuoteMeta(cr.Variable) + `_FILE: /run/secrets/` + regexp.QuoteMeta(cr.Name) + `$`)
				if !fromCredential.Match(manifest) && !fromFile.Match(manifest) {
					t.Errorf("%s.%s is set neither from credential %s nor from its file", cr.Service, cr.Variable, cr.Name)
				}
			}
			if bytes.Contains(manifest, []byte("acknowledged: plaintext")) {
				t.Error("the manifest carries an acknowledged plaintext value")
			}
			code, stdout, stderr := runCLI(t, root, "check", "--against", root, out)
			shows("check --against", stdout, stderr)
			if code != exitOK {
				t.Errorf("check --against: exit %d\n%s\n%s", code, stdout, stderr)
			}
		})
	}
}

// writeEnv writes an env file.
func writeEnv(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mailcowConf is a mailcow.conf as mailcow's generate_config.sh writes
// it (the settings the compose file reads), its passwords random.
const mailcowConf = `MAILCOW_HOSTNAME=mail.example.org
MAILCOW_PASS_SCHEME=BLF-CRYPT
DBNAME=mailcow
DBUSER=mailcow
DBPASS=q7RZk2bXw9LmN4vT8sYpE3cHa6Jd
DBROOT=Vh5tPq9Wm2XkR7nLs4YbC8eJz3Ga
REDISPASS=Lx4Tn8Qw2Zr6Yk9Pm3Vb7Hc5Jf
HTTP_PORT=80
HTTP_BIND=
HTTPS_PORT=443
HTTPS_BIND=
SMTP_PORT=25
SMTPS_PORT=465
SUBMISSION_PORT=587
IMAP_PORT=143
IMAPS_PORT=993
POP_PORT=110
POPS_PORT=995
SIEVE_PORT=4190
DOVEADM_PORT=127.0.0.1:19991
SQL_PORT=127.0.0.1:13306
REDIS_PORT=127.0.0.1:7654
TZ=Europe/Berlin
COMPOSE_PROJECT_NAME=mailcowdockerized
ACL_ANYONE=disallow
MAILDIR_GC_TIME=7200
ADDITIONAL_SAN=
AUTODISCOVER_SAN=y
ADDITIONAL_SERVER_NAMES=
SKIP_LETS_ENCRYPT=n
ENABLE_SSL_SNI=n
SKIP_IP_CHECK=n
SKIP_HTTP_VERIFICATION=n
SKIP_UNBOUND_HEALTHCHECK=n
SKIP_CLAMD=n
SKIP_OLEFY=n
SKIP_SOGO=n
SKIP_FTS=n
FTS_HEAP=128
FTS_PROCS=1
ALLOW_ADMIN_EMAIL_LOGIN=n
USE_WATCHDOG=y
WATCHDOG_NOTIFY_BAN=n
WATCHDOG_NOTIFY_START=y
WATCHDOG_EXTERNAL_CHECKS=n
WATCHDOG_VERBOSE=n
LOG_LINES=9999
IPV4_NETWORK=172.22.1
IPV6_NETWORK=fd4d:6169:6c63:6f77::/64
MAILDIR_SUB=Maildir
SOGO_EXPIRE_SESSION=480
SOGO_URL_ENCRYPTION_KEY=Rk8Tz3Wq6Ym9Xp2L
DOVECOT_MASTER_USER=
DOVECOT_MASTER_PASS=
WEBAUTHN_ONLY_TRUSTED_VENDORS=n
SPAMHAUS_DQS_KEY=
DISABLE_NETFILTER_ISOLATION_RULE=n
`
