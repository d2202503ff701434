package convert

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// convertService converts a one-service project whose service web has the
// given YAML lines (indented by four spaces), plus top-level YAML.
func convertService(t *testing.T, service, top, decl string) *Result {
	t.Helper()
	dir := t.TempDir()
	doc := "name: t\nservices:\n  web:\n    image: nginx\n" + service + top
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if decl != "" {
		if err := os.WriteFile(filepath.Join(dir, DeclarationsFile), []byte("version: 1\n"+decl), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Convert(context.Background(), Options{WorkingDirectory: dir, Environ: []string{"SET=value"}})
	if err != nil {
		t.Fatalf("Convert: %v\n%s", err, doc)
	}
	return res
}

// TestFieldMapping converts one field at a time and checks the manifest
// line it gives, and that the manifest reads back.
func TestFieldMapping(t *testing.T) {
	for _, tc := range []struct{ field, yaml, want string }{
		{"command", "    command: echo hi\n", "command:\n      - echo\n      - hi"},
		{"entrypoint", "    entrypoint: [/bin/sh, -c]\n", "entrypoint:\n      - /bin/sh\n      - -c"},
		{"working_dir", "    working_dir: /app\n", "working_dir: /app"},
		{"user", "    user: \"1000:1000\"\n", `user: "1000:1000"`},
		{"group_add", "    group_add: [video]\n", "group_add:\n      - video"},
		{"environment", "    environment: [A=1]\n", `A: "1"`},
		{"environment $$", "    environment: {P: \"$$HOME\"}\n", "P: $HOME"},
		{"environment ${SET}", "    environment: {P: \"${SET}\"}\n", "P: value"},
		{"ports", "    ports: [\"8080:80/udp\"]\n", `- {host_ip: "", published: "8080", target: 80, protocol: udp}`},
		{"expose", "    expose: [3000]\n", `expose:
      - "3000"`},
		{"tmpfs", "    tmpfs: /tmp\n", "- {target: /tmp}"},
		{"restart", "    restart: always\n", "restart: always"},
		{"healthcheck", "    healthcheck: {test: [CMD, \"true\"], interval: 1m}\n", "interval: 1m0s"},
		{"depends_on", "    depends_on: [db]\n  db:\n    image: example/db:1\n", "- service: db\n        condition: service_started"},
		{"labels", "    labels: [a=b]\n", "labels:\n      a: b"},
		{"hostname", "    hostname: h\n", "hostname: h"},
		{"domainname", "    domainname: example.org\n", "domainname: example.org"},
		{"extra_hosts", "    extra_hosts: {b: 10.0.0.2}\n", "- b=10.0.0.2"},
		{"dns", "    dns: 8.8.8.8\n", "dns:\n      - 8.8.8.8"},
		{"cap_add", "    cap_add: [SYS_ADMIN]\n", "cap_add:\n      - SYS_ADMIN"},
		{"cap_drop", "    cap_drop: [ALL]\n", "cap_drop:\n      - ALL"},
		{"privileged", "    privileged: true\n", "privileged: true"},
		{"read_only", "    read_only: true\n", "read_only: true"},
		{"security_opt", "    security_opt: [\"label:disable\"]\n", "- label:disable"},
		{"devices", "    devices: [\"/dev/dri:/dev/dri\"]\n", "- {source: /dev/dri, target: /dev/dri, permissions: rwm}"},
		{"devices host", "    devices: [\"/dev/dri:/dev/dri\"]\n", `- host: /dev/dri # produced: device of service "web"`},
		{"sysctls", "    sysctls: [net.ipv4.ip_forward=1]\n", `net.ipv4.ip_forward: "1"`},
		{"ulimits", "    ulimits: {nofile: 1024}\n", "nofile:\n        soft: 1024\n        hard: 1024"},
		{"shm_size", "    shm_size: 1gb\n", "shm_size: 1073741824"},
		{"init", "    init: false\n", "init: false"},
		{"stop_signal", "    stop_signal: SIGTERM\n", "stop_signal: SIGTERM"},
		{"stop_grace_period", "    stop_grace_period: 90s\n", "stop_grace_period: 1m30s"},
		{"logging", "    logging: {driver: syslog}\n", "logging:\n      driver: syslog"},
		{"network_mode", "    network_mode: none\n", "network_mode: none"},
		{"networks", "    networks: {front: {aliases: [w]}}\nnetworks: {front: {}}\n", "networks:\n      front:\n        aliases:\n          - w"},
		{"mem_limit", "    mem_limit: 1k\n", "mem_limit: 1024"},
		{"cpus", "    cpus: 2\n", `cpus: "2"`},
		{"pids_limit", "    pids_limit: -1\n", "pids_limit: -1"},
		{"deploy", "    deploy: {replicas: 3, resources: {limits: {memory: 1m}}}\n", "replicas: 3\n      resources:\n        limits:\n          memory: 1048576"},
		{"platform", "    platform: linux/arm64\n", "platform: linux/arm64"},
		{"pull_policy", "    pull_policy: never\n", "pull_policy: never"},
		{"tty", "    tty: true\n", "tty: true"},
		{"stdin_open", "    stdin_open: true\n", "stdin_open: true"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			res := convertService(t, tc.yaml, "", "")
			if res.Status != Converted {
				t.Fatalf("status %s: %v", res.Status, res.Diagnostics)
			}
			if !strings.Contains(string(res.Manifest), tc.want) {
				t.Errorf("manifest lacks %q:\n%s", tc.want, res.Manifest)
			}
			for _, d := range res.Diagnostics {
				if d.Rule == "C2M007" {
					t.Errorf("carried field reported: %s", d)
				}
			}
			if _, err := manifest.Decode("m.yaml", res.Manifest); err != nil {
				t.Errorf("manifest does not read back: %v", err)
			}
		})
	}
}

// TestNotCarriedReported checks that a field the manifest does not carry is
// a C2M007 naming service, field and reason, unless acknowledged, and that
// an acknowledgement of a field not in the input is C2M009.
func TestNotCarriedReported(t *testing.T) {
	for _, tc := range []struct {
		name, service, top, decl string
		want                     []string
	}{
		{"plain", "    container_name: legacy\n", "", "", []string{`C2M007 warning: service "web": field container_name is not carried by the manifest: the mesh names containers itself`}},
		{"acknowledged", "    container_name: legacy\n", "", "acknowledge: [web.container_name]\n", nil},
		{"star", "    container_name: legacy\n", "", "acknowledge: [\"*.container_name\"]\n", nil},
		{"nested", "    deploy: {mode: global}\n", "", "", []string{"field deploy.mode is not carried"}},
		{"nested acknowledged", "    deploy: {mode: global}\n", "", "acknowledge: [web.deploy.mode]\n", nil},
		{"stale", "", "", "acknowledge: [web.links]\n", []string{"C2M009 error: acknowledge web.links matches no field"}},
		{"top-level", "", "volumes:\n  data:\n    labels: {a: b}\n", "", []string{"C2M007 warning: volume data: field labels is not carried"}},
		{"top-level acknowledged", "", "volumes:\n  data:\n    labels: {a: b}\n", "acknowledge: [volumes.data.labels]\n", nil},
		{"profile", "  tools:\n    image: busybox\n    profiles: [tools]\n    links: [web]\n", "", "acknowledge: [tools.links]\n", []string{`C2M019 warning: service "tools": not converted: left out by profiles tools (--profile tools brings it in)`}},
		{"plaintext", "    environment: {DB_PASSWORD: hunter2}\n", "", "", []string{"C2M015 error: service \"web\": environment DB_PASSWORD=******** is a literal value"}},
		{"plaintext acknowledged", "    environment: {DB_PASSWORD: hunter2}\n", "", "acknowledge: [web.environment.DB_PASSWORD]\n", []string{"C2M015 warning: service \"web\": environment DB_PASSWORD=******** is a literal value that looks like a secret; acknowledged"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := convertService(t, tc.service, tc.top, tc.decl)
			var got []string
			for _, d := range res.Diagnostics {
				switch d.Rule {
				case "C2M007", "C2M009", "C2M015", "C2M019":
					got = append(got, d.String())
				}
				if strings.Contains(d.String(), "hunter2") {
					t.Errorf("a report shows the secret: %s", d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d diagnostics %q, want %d %q", len(got), got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("diagnostic %q, want it to contain %q", got[i], tc.want[i])
				}
			}
		})
	}
}

// TestSecretsAndConfigs checks that a secret becomes a credential whose
// content is never read, and a file config a declared read-only bind.
func TestSecretsAndConfigs(t *testing.T) {
	top := "secrets:\n  db:\n    file: ./db.txt\nconfigs:\n  conf:\n    file: ./app.conf\n  inline:\n    content: \"a=$${b}\"\n"
	svc := "    secrets: [db]\n    configs: [conf, {source: inline, target: /etc/inline}]\n"
	res := convertService(t, svc, top, "")
	if res.Status != Refused {
		t.Fatalf("status %s, want refused for the undeclared config file", res.Status)
	}
	var named bool
	for _, d := range res.Diagnostics {
		if (d.Rule == "C2M001" || d.Rule == "C2M013") && d.Source == "./app.conf" && d.Target == "/conf" {
			named = true
		}
	}
	if !named {
		t.Errorf("the config file is not reported as an undeclared source: %v", res.Diagnostics)
	}
	if !strings.Contains(string(res.Skeleton), "./app.conf") {
		t.Errorf("skeleton lacks the config file:\n%s", res.Skeleton)
	}

	res = convertService(t, svc, top, "binds:\n  ./app.conf: {kind: file, owner: \"0:0\", mode: \"0644\", intent: config, path: /etc/t/app.conf}\n")
	if res.Status != Converted {
		t.Fatalf("status %s: %v", res.Status, res.Diagnostics)
	}
	out := string(res.Manifest)
	for _, want := range []string{
		"- credential: db # compose secret; legacy: file ./db.txt (not read)\n    target: /run/secrets/db",
		"- {source: /etc/t/app.conf, target: /conf, read_only: true}",
		"- source: inline\n        target: /etc/inline\n        content: a=${b}",
		"secrets:\n      - source: db\n        target: /run/secrets/db",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("manifest lacks %q:\n%s", want, out)
		}
	}
}

// TestSecretFileNeverRead converts the fields fixture and checks that the
// content of its file secret is nowhere in the manifest or the report.
func TestSecretFileNeverRead(t *testing.T) {
	dir := "../testdata/convert/fields"
	secret, err := os.ReadFile(filepath.Join(dir, "secrets/db_password.txt"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Convert(context.Background(), Options{WorkingDirectory: dir})
	if err != nil {
		t.Fatal(err)
	}
	needle := strings.TrimSpace(string(secret))
	if strings.Contains(string(res.Manifest), needle) {
		t.Errorf("the manifest holds the secret's content")
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.String(), needle) || strings.Contains(d.String(), "hunter2") {
			t.Errorf("a diagnostic holds a secret: %s", d)
		}
	}
}
