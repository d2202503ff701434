package images

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

func load(t *testing.T) *Table {
	t.Helper()
	tab, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return tab
}

// sourceProblems lists the rows of rows that lack an https source.
func sourceProblems(rows []Row) []string {
	var out []string
	for _, r := range rows {
		if !strings.HasPrefix(r.Source, "https://") {
			out = append(out, "table.yaml:"+strconv.Itoa(r.Line)+": "+r.Repository+" "+r.Path+" has no https source")
		}
	}
	return out
}

func TestLoadEveryRowHasSource(t *testing.T) {
	tab := load(t)
	if len(tab.Rows) < 40 {
		t.Fatalf("Load gave %d rows, want the full table", len(tab.Rows))
	}
	for _, p := range sourceProblems(tab.Rows) {
		t.Error(p)
	}
	for _, r := range tab.Rows {
		if r.Line <= 0 {
			t.Errorf("%s %s: no line", r.Repository, r.Path)
		}
		if r.Owner == "" && r.Mode == "" && r.Intent == "" {
			t.Errorf("table.yaml:%d: row gives nothing", r.Line)
		}
	}
	// Image rows (file_env:, volumes:, owner_uid:, steps_down_for:) cite their source too.
	if len(tab.Images) < 10 {
		t.Fatalf("Load gave %d image rows, want the full table", len(tab.Images))
	}
	for _, r := range tab.Images {
		if !strings.HasPrefix(r.Source, "https://") {
			t.Errorf("table.yaml:%d: image row %s has no https source", r.Line, r.Repository)
		}
		if len(r.FileEnv) == 0 && len(r.Volumes) == 0 && r.OwnerUID == "" && len(r.StepsDownFor) == 0 {
			t.Errorf("table.yaml:%d: image row gives nothing", r.Line)
		}
	}
}

// TestSourceCheckCanFail shows both guards bite: the check above flags a row
// without a source, and Parse refuses such a table in the first place.
func TestSourceCheckCanFail(t *testing.T) {
	if p := sourceProblems([]Row{{Repository: "postgres", Path: "/x", Line: 3}}); len(p) != 1 {
		t.Fatalf("sourceProblems missed a row without source: %v", p)
	}
	bad := strings.Replace(goodRow, "  source: https://example.org/Dockerfile\n", "", 1)
	if _, err := Parse("table.yaml", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "table.yaml:1:") {
		t.Fatalf("Parse of a row without source: %v", err)
	}
}

func TestLoadFresh(t *testing.T) {
	a, b := load(t), load(t)
	a.Rows[0].Owner = "changed"
	if b.Rows[0].Owner == "changed" {
		t.Fatal("Load returned shared rows")
	}
	if c := load(t); c.Rows[0].Owner == "changed" {
		t.Fatal("Load is affected by a caller's change")
	}
}

const goodRow = `- repository: postgres
  path: /var/lib/postgresql/data
  kind: directory
  owner: "999:999"
  mode: "0700"
  intent: state
  source: https://example.org/Dockerfile
`

func TestParseModeBasis(t *testing.T) {
	rec := strings.Replace(goodRow, "  mode: \"0700\"\n", "  mode: \"0750\"\n  mode_basis: recommended\n", 1)
	tab, err := Parse("table.yaml", []byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.Rows[0].ModeBasis; got != ModeRecommended {
		t.Errorf("ModeBasis = %q, want %q", got, ModeRecommended)
	}
	for _, bad := range []string{
		strings.Replace(goodRow, "  mode: \"0700\"\n", "  mode_basis: recommended\n", 1),
		strings.Replace(goodRow, "  mode: \"0700\"\n", "  mode: \"0700\"\n  mode_basis: typical\n", 1),
	} {
		if _, err := Parse("table.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "mode_basis") {
			t.Errorf("Parse(%q) error = %v, want one naming mode_basis", bad, err)
		}
	}
}

func TestParseGood(t *testing.T) {
	tab, err := Parse("table.yaml", []byte("# c\n"+goodRow))
	if err != nil {
		t.Fatal(err)
	}
	want := Row{Repository: "postgres", Path: "/var/lib/postgresql/data", Kind: "directory",
		Owner: "999:999", Mode: "0700", ModeBasis: ModeRequired, Intent: manifest.IntentState,
		Source: "https://example.org/Dockerfile", Line: 2}
	if len(tab.Rows) != 1 || !reflect.DeepEqual(tab.Rows[0], want) {
		t.Fatalf("got %+v, want %+v", tab.Rows, want)
	}
}

// owner_unless names the variables that change a row's owner for its
// path alone; Parse keeps them in order.
func TestParseOwnerUnless(t *testing.T) {
	text := strings.Replace(goodRow, "kind: directory", "kind: directory\n  owner_unless: [DMS_VMAIL_UID, DMS_VMAIL_GID]", 1)
	tab, err := Parse("table.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.Rows[0].OwnerUnless; !reflect.DeepEqual(got, []string{"DMS_VMAIL_UID", "DMS_VMAIL_GID"}) {
		t.Fatalf("OwnerUnless %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	// Each case replaces one line of goodRow (or adds one) and expects the
	// error to name table.yaml:LINE and to contain a phrase.
	tests := []struct {
		name, from, to string
		line           int
		want           string
	}{
		{"missing source", "  source: https://example.org/Dockerfile\n", "", 1, "no source"},
		{"empty source", "source: https://example.org/Dockerfile", `source: ""`, 7, "no source"},
		{"http source", "source: https://", "source: http://", 7, "https URL"},
		{"not a URL", "source: https://example.org/Dockerfile", "source: docker-library postgres", 7, "https URL"},
		{"bad mode", `mode: "0700"`, `mode: "0800"`, 5, "octal"},
		{"symbolic mode", `mode: "0700"`, `mode: "u=rwx"`, 5, "octal"},
		{"long mode", `mode: "0700"`, `mode: "07000"`, 5, "octal"},
		{"integer mode", `mode: "0700"`, `mode: 0700`, 5, "integer"},
		{"integer mode 750", `mode: "0700"`, `mode: 750`, 5, "integer"},
		{"bad owner", `owner: "999:999"`, `owner: "postgres:postgres"`, 4, "numeric UID:GID"},
		{"owner without group", `owner: "999:999"`, `owner: "999"`, 4, "numeric UID:GID"},
		{"owner out of range", `owner: "999:999"`, `owner: "99999999999:0"`, 4, "out of range"},
		{"unknown intent", "intent: state", "intent: spool", 6, "unknown intent"},
		{"relative path", "path: /var/lib/postgresql/data", "path: var/lib/postgresql/data", 2, "absolute"},
		{"unclean path", "path: /var/lib/postgresql/data", "path: /var/lib/postgresql/data/", 2, "clean"},
		{"bad kind", "kind: directory", "kind: socket", 3, "directory or file"},
		{"owner every version without max_major", "kind: directory", "kind: directory\n  owner_every_version: true", 4, "needs an owner and a max_major"},
		{"owner every version false", "kind: directory", "kind: directory\n  owner_every_version: false", 4, "must be true"},
		{"unknown key", "kind: directory", "kind: directory\n  colour: blue", 4, "unknown key"},
		{"repeated key", "kind: directory", "kind: directory\n  kind: file", 4, "repeats"},
		{"tagged repository", "repository: postgres", "repository: postgres:16", 1, "normalised"},
		{"unnormalised repository", "repository: postgres", "repository: docker.io/library/postgres", 1, "normalised"},
		{"unknown variant", "repository: postgres", "repository: postgres\n  variant: bookworm", 2, "unknown variant"},
		{"nothing given", "  owner: \"999:999\"\n  mode: \"0700\"\n  intent: state\n", "", 1, "no owner, mode or intent"},
		{"null note", "intent: state", "intent: state\n  note:", 7, "must be a string"},
		{"path_from not a name", "kind: directory", "kind: directory\n  path_from: PG-DATA", 4, "not a variable name"},
		{"owner_unless not a name", "kind: directory", "kind: directory\n  owner_unless: [DMS-VMAIL-UID]", 4, "not a variable name"},
		{"owner_unless a digit first", "kind: directory", "kind: directory\n  owner_unless: [1UID]", 4, "not a variable name"},
		{"owner_unless without owner", "  owner: \"999:999\"\n", "  owner_unless: [UID]\n", 4, "needs an owner"},
		{"owner_unless repeated", "kind: directory", "kind: directory\n  owner_unless: [A]\n  owner_unless: [B]", 5, "repeats"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(goodRow, tc.from) {
				t.Fatalf("bad test: %q not in goodRow", tc.from)
			}
			// A first, valid row shifts the bad one down, so the line
			// number must come from the bad row itself.
			first := strings.Replace(goodRow, "/var/lib/postgresql/data", "/other", 1)
			text := first + strings.Replace(goodRow, tc.from, tc.to, 1)
			offset := strings.Count(first, "\n")
			_, err := Parse("table.yaml", []byte(text))
			if err == nil {
				t.Fatalf("no error for\n%s", text)
			}
			prefix := "table.yaml:" + strconv.Itoa(tc.line+offset) + ":"
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want prefix %q and %q", err, prefix, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.line+offset {
				t.Fatalf("error %#v is not an *Error at line %d", err, tc.line+offset)
			}
		})
	}
}

func TestParseDuplicateRow(t *testing.T) {
	_, err := Parse("table.yaml", []byte(goodRow+goodRow))
	if err == nil || !strings.HasPrefix(err.Error(), "table.yaml:8:") || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("got %v, want a repeat error at line 8 naming line 1", err)
	}
}

func TestParseBadDocuments(t *testing.T) {
	for name, text := range map[string]string{
		"empty":      "",
		"comment":    "# nothing\n",
		"mapping":    "repository: postgres\n",
		"scalar row": "- postgres\n",
		"syntax":     "- repository: [\n",
		"two docs":   goodRow + "---\n" + goodRow,
	} {
		if _, err := Parse("t.yaml", []byte(text)); err == nil || !strings.HasPrefix(err.Error(), "t.yaml:") {
			t.Errorf("%s: got %v, want an error naming t.yaml", name, err)
		}
	}
}

func TestTableRowsUseKnownVariants(t *testing.T) {
	for _, r := range load(t).Rows {
		if r.Variant == "" {
			continue
		}
		// The row must be reachable: some tag must give its variant.
		if Variant(r.Repository, "1-"+r.Variant) != r.Variant {
			t.Errorf("table.yaml:%d: variant %q is not reachable", r.Line, r.Variant)
		}
	}
}

func TestMatch(t *testing.T) {
	tab := load(t)
	tests := []struct {
		ref, target string
		ok          bool
		owner, mode string
		intent      manifest.Intent
		kind        string
	}{
		{"postgres:16", "/var/lib/postgresql/data", true, "999:999", "0700", manifest.IntentState, "directory"},
		{"postgres:16-alpine", "/var/lib/postgresql/data", true, "70:70", "0700", manifest.IntentState, "directory"},
		{"postgres:16.4-alpine3.20", "/var/lib/postgresql/data/", true, "70:70", "0700", manifest.IntentState, "directory"},
		{"postgres", "/var/lib/postgresql/data", false, "", "", "", ""},    // latest is 18+: PGDATA moved
		{"postgres:18", "/var/lib/postgresql/data", false, "", "", "", ""}, // past max_major 17
		{"postgres:17.2-alpine", "/var/lib/postgresql/data", true, "70:70", "0700", manifest.IntentState, "directory"},
		{"docker.io/library/postgres:17-bookworm", "/var/lib/postgresql/data", true, "999:999", "0700", manifest.IntentState, "directory"},
		{"postgres:16@sha256:0123456789abcdef", "/var/lib/postgresql/./data", true, "999:999", "0700", manifest.IntentState, "directory"},
		{"postgres:16-alpine@sha256:0123456789abcdef", "/var/lib/postgresql/data", true, "70:70", "0700", manifest.IntentState, "directory"},
		// A digest without a tag: the variant is unknown, so no row.
		{"postgres@sha256:0123456789abcdef", "/var/lib/postgresql/data", false, "", "", "", ""},
		{"docker.io/library/postgres@sha256:0123456789abcdef", "/var/lib/postgresql/data", false, "", "", "", ""},
		{"redis@sha256:0123456789abcdef", "/data", false, "", "", "", ""},
		{"grafana/grafana@sha256:0123456789abcdef", "/var/lib/grafana", false, "", "", "", ""},
		{"localhost:5000/grafana/grafana@sha256:0123456789abcdef", "/var/lib/grafana", false, "", "", "", ""},
		{"postgres:16", "/var/lib/postgresql/data2", false, "", "", "", ""},
		{"postgres:16", "/var/lib/mysql", false, "", "", "", ""},
		{"postgres:16", "var/lib/postgresql/data", false, "", "", "", ""},
		{"postgres:16-windowsservercore", "/var/lib/postgresql/data", false, "", "", "", ""},
		{"mypostgres:16", "/var/lib/postgresql/data", false, "", "", "", ""},
		{"redis:7", "/data", true, "999:999", "0750", manifest.IntentState, "directory"},
		{"redis:7-alpine", "/data", true, "999:1000", "0750", manifest.IntentState, "directory"},
		{"grafana/grafana", "/var/lib/grafana", true, "472:0", "0750", manifest.IntentState, "directory"},
		{"docker.io/grafana/grafana:11.2.0", "/var/lib/grafana", true, "472:0", "0750", manifest.IntentState, "directory"},
		{"grafana/grafana:11.2.0-ubuntu", "/var/lib/grafana", false, "", "", "", ""},
		{"prom/prometheus:v2.53.0", "/prometheus", true, "65534:65534", "0750", manifest.IntentState, "directory"},
		{"docker.io/bitnami/postgresql:16.3.0-debian-12-r0", "/bitnami/postgresql", true, "1001:0", "0770", manifest.IntentState, "directory"},
		{"bitnami/redis:7.4", "/bitnami/redis/data", true, "1001:0", "0770", manifest.IntentState, "directory"},
		{"traefik:v3.1", "/letsencrypt/acme.json", true, "0:0", "0600", manifest.IntentState, "file"},
		{"traefik:v3.1", "/etc/traefik", true, "0:0", "0755", manifest.IntentConfig, "directory"},
		{"elasticsearch:8.15.0", "/usr/share/elasticsearch/data", true, "1000:0", "0770", manifest.IntentState, "directory"},
		{"docker.elastic.co/elasticsearch/elasticsearch:8.15.0", "/usr/share/elasticsearch/data", true, "1000:0", "0770", manifest.IntentState, "directory"},
		{"nextcloud:29-apache", "/var/www/html", true, "33:33", "0750", manifest.IntentState, "directory"},
		// Rows of issue 20 item 7, with the references as the shared corpus writes them.
		{"portainer/portainer-ce:alpine", "/data", true, "0:0", "0750", manifest.IntentState, "directory"},
		{"ghcr.io/getsentry/symbolicator:nightly", "/data", true, "", "", manifest.IntentCache, "directory"},
		{"eclipse-mosquitto:2.0.18-openssl", "/mosquitto/log", true, "1883:1883", "0750", manifest.IntentLogs, "directory"},
		{"wordpress:cli-2.11-php8.3", "/var/www/html", true, "82:82", "0750", manifest.IntentState, "directory"},
		{"wordpress:latest", "/var/www/html", true, "33:33", "0750", manifest.IntentState, "directory"},
		{"gitlab/gitlab-ce:latest", "/etc/gitlab", true, "", "", manifest.IntentState, "directory"},
		{"jc21/nginx-proxy-manager:latest", "/etc/letsencrypt", true, "0:0", "0750", manifest.IntentState, "directory"},
		{"ollama/ollama:latest", "/root/.ollama", true, "0:0", "0750", manifest.IntentState, "directory"},
		{"authelia/authelia:latest", "/config", true, "0:0", "0750", manifest.IntentState, "directory"},
		{"ghcr.io/open-webui/open-webui:main", "/app/backend/data", true, "0:0", "0750", manifest.IntentState, "directory"},
		{"photoprism/photoprism:latest", "/photoprism/originals", true, "", "", manifest.IntentContent, "directory"},
		{"filebrowser/filebrowser", "/srv", true, "", "", manifest.IntentContent, "directory"},
		{"stashapp/stash:latest", "/data", false, "", "", "", ""}, // set by the compose file's STASH_STASH
		{"wordpress:6.8-php8.3-fpm", "/var/www/html", true, "33:33", "0750", manifest.IntentState, "directory"},
		{"wordpress:6-fpm-alpine", "/var/www/html", true, "82:82", "0750", manifest.IntentState, "directory"},
		{"mattermost/mattermost-team-edition:10.5", "/mattermost/config", true, "2000:2000", "0750", manifest.IntentState, "directory"},
		{"deluan/navidrome:latest", "/music", true, "", "", manifest.IntentContent, "directory"},
		{"ghcr.io/mailcow/dovecot:2.3.21.1-2", "/var/vmail", true, "5000:5000", "0750", manifest.IntentState, "directory"},
		{"docker.io/netboxcommunity/netbox:v4.1-3.0.2", "/opt/netbox/netbox/media", true, "", "", manifest.IntentState, "directory"},
		{"confluentinc/cp-kafka:7.6.13", "/etc/kafka/secrets", true, "", "", manifest.IntentState, "directory"},
		{"docker.n8n.io/n8nio/n8n:stable", "/files", true, "1000:1000", "0750", manifest.IntentContent, "directory"},
		{"kibana:7.16.1", "/usr/share/kibana/config/kibana.yml", true, "", "", manifest.IntentConfig, "file"},
		{"nextcloud:29-fpm", "/var/www/html/data", true, "33:33", "0770", manifest.IntentState, "directory"},
		{"nextcloud:29-fpm-alpine", "/var/www/html", true, "82:82", "0750", manifest.IntentState, "directory"},
		{"nextcloud:fpm-alpine", "/var/www/html/data", true, "82:82", "0770", manifest.IntentState, "directory"},
		{"docker.io/valkey/valkey:8.0-alpine", "/data", true, "999:1000", "0750", manifest.IntentState, "directory"},
		{"rabbitmq:4-management-alpine", "/var/lib/rabbitmq", true, "100:101", "0750", manifest.IntentState, "directory"},
		{"caddy:latest", "/data", true, "0:0", "0750", manifest.IntentState, "directory"},
		{"caddy:2-alpine", "/etc/caddy/Caddyfile", true, "0:0", "0644", manifest.IntentConfig, "file"},
		{"influxdb:2.7-alpine", "/var/lib/influxdb2", true, "1000:1000", "0750", manifest.IntentState, "directory"},
		{"influxdb:3-core-alpine", "/var/lib/influxdb2", false, "", "", "", ""},
		{"docker.io/bitnami/redis-cluster:6.2", "/bitnami/redis/data", true, "1001:0", "0770", manifest.IntentState, "directory"},
		{"lscr.io/linuxserver/plex:latest", "/config", true, "911:911", "0750", manifest.IntentState, "directory"},
		{"linuxserver/wireguard", "/config", true, "911:911", "0750", manifest.IntentState, "directory"},
		{"ghcr.io/linuxserver/sonarr:4.0.0", "/config", true, "911:911", "0750", manifest.IntentState, "directory"},
		{"lscr.io/linuxserver/plex:latest", "/data", false, "", "", "", ""},
		{"itzg/minecraft-server:java21", "/data", true, "1000:1000", "0750", manifest.IntentState, "directory"},
		{"nginx:alpine-slim", "/etc/nginx/nginx.conf", true, "0:0", "0644", manifest.IntentConfig, "file"},
		{"nginx:1.27", "/etc/nginx/nginx.conf", true, "0:0", "0644", manifest.IntentConfig, "file"},
		{"nginx:stable-alpine", "/etc/nginx/conf.d", true, "0:0", "0755", manifest.IntentConfig, "directory"},
		{"caddy:latest", "/etc/caddy/Caddyfile", true, "0:0", "0644", manifest.IntentConfig, "file"},
		{"jellyfin/jellyfin:latest", "/cache", true, "0:0", "0750", manifest.IntentCache, "directory"},
		{"ghcr.io/paperless-ngx/paperless-ngx:latest", "/usr/src/paperless/consume", true, "1000:1000", "0750", manifest.IntentContent, "directory"},
		// linuxserver.io images: each image's own documented volumes, on all three registries.
		{"lscr.io/linuxserver/sonarr:latest", "/tv", true, "911:911", "0750", manifest.IntentContent, "directory"},
		{"linuxserver/radarr", "/movies", true, "911:911", "0750", manifest.IntentContent, "directory"},
		{"ghcr.io/linuxserver/transmission:4.0.6", "/watch", true, "911:911", "0750", manifest.IntentContent, "directory"},
		{"linuxserver/sonarr:latest", "/series", false, "", "", "", ""}, // a compose file's own choice
		{"linuxserver/sonarr:latest", "/movies", false, "", "", "", ""}, // radarr's, not sonarr's
		{"vaultwarden/server:latest-alpine", "/data", true, "0:0", "0700", manifest.IntentState, "directory"},
		{"nginx:stable-alpine", "/var/log/nginx", true, "0:0", "0750", manifest.IntentLogs, "directory"},
		{"postgres:16-alpine", "/docker-entrypoint-initdb.d", true, "70:70", "0755", manifest.IntentConfig, "directory"},
		{"postgres:14", "/docker-entrypoint-initdb.d", true, "999:999", "0755", manifest.IntentConfig, "directory"},
		{"mongo:4.4.4", "/docker-entrypoint-initdb.d", true, "999:999", "0755", manifest.IntentConfig, "directory"},
		{"influxdb:1.12", "/etc/influxdb/influxdb.conf", true, "", "", manifest.IntentConfig, "file"},
		{"influxdb:1.12-alpine", "/var/lib/influxdb", true, "", "", manifest.IntentState, "directory"},
		{"influxdb:2.7", "/var/lib/influxdb", false, "", "", "", ""}, // 1.x only
		{"ghcr.io/zammad/zammad:7.1.1-0035", "/opt/zammad/storage", true, "1000:1000", "0750", manifest.IntentState, "directory"},
		{"syncthing/syncthing", "/var/syncthing", true, "1000:1000", "0750", manifest.IntentState, "directory"},
		{"gitea/gitea:1.22", "/data", true, "1000:1000", "0750", manifest.IntentState, "directory"},
		{"gitea/gitea:1.22-rootless", "/etc/gitea", true, "1000:1000", "0750", manifest.IntentState, "directory"},
		{"gitea/gitea:1.22-rootless", "/data", false, "", "", "", ""},
		{"mysql:8.4-oracle", "/var/lib/mysql", true, "999:999", "0750", manifest.IntentState, "directory"},
		{"mysql:8.0-debian", "/var/lib/mysql", false, "", "", "", ""},
		{"mongo:8.0-noble", "/data/configdb", true, "999:999", "0750", manifest.IntentState, "directory"},
		{"mailserver/docker-mailserver:14", "/var/log/mail", true, "", "", manifest.IntentLogs, "directory"},
		{"GHCR.IO/immich-app/immich-server:release", "/data", true, "0:0", "", manifest.IntentState, "directory"},
	}
	for _, tc := range tests {
		r, ok := tab.Match(tc.ref, tc.target)
		if ok != tc.ok {
			t.Errorf("Match(%q, %q) ok = %v, want %v (row %+v)", tc.ref, tc.target, ok, tc.ok, r)
			continue
		}
		if !ok {
			if !reflect.DeepEqual(r, Row{}) {
				t.Errorf("Match(%q, %q) = %+v with ok false", tc.ref, tc.target, r)
			}
			continue
		}
		if r.Owner != tc.owner || r.Mode != tc.mode || r.Intent != tc.intent || r.Kind != tc.kind || r.Source == "" {
			t.Errorf("Match(%q, %q) = %s %s %s %s, want %s %s %s %s", tc.ref, tc.target,
				r.Owner, r.Mode, r.Intent, r.Kind, tc.owner, tc.mode, tc.intent, tc.kind)
		}
	}
}

func TestMatchNilTable(t *testing.T) {
	var tab *Table
	if _, ok := tab.Match("postgres", "/var/lib/postgresql/data"); ok {
		t.Fatal("nil table matched")
	}
}

// TestOutOfVersion: a row Match passes over only for its major-version
// bound is found, so that a refusal can say why; any other miss is not.
func TestOutOfVersion(t *testing.T) {
	tab := load(t)
	for _, tc := range []struct {
		ref, target string
		ok          bool
		owner       string
	}{
		{"postgres", "/var/lib/postgresql/data", true, "999:999"},
		{"postgres:alpine", "/var/lib/postgresql/data", true, "70:70"},
		{"postgres:18", "/var/lib/postgresql/data", true, "999:999"},
		{"postgres:16", "/var/lib/postgresql/data", false, ""},          // Match matches
		{"postgres:16", "/var/lib/postgresql/data2", false, ""},         // no row at all
		{"postgres@sha256:0123", "/var/lib/postgresql/data", false, ""}, // variant unknown
		{"postgres", "data", false, ""},
		{"redis", "/data", false, ""}, // a row without a bound matches
	} {
		row, ok := tab.OutOfVersion(tc.ref, tc.target)
		if ok != tc.ok || row.Owner != tc.owner || (ok && row.MaxMajor == 0) {
			t.Errorf("OutOfVersion(%q, %q) = %+v, %v; want owner %q, %v", tc.ref, tc.target, row, ok, tc.owner, tc.ok)
		}
	}
	// Of those, the rows whose owner holds in every version give it.
	for _, tc := range []struct{ ref, target, owner string }{
		{"postgres", "/var/lib/postgresql/data", "999:999"},
		{"postgres:latest", "/var/lib/postgresql/data", "999:999"},
		{"postgres:alpine", "/var/lib/postgresql/data", "70:70"},
		{"postgres:18-alpine", "/var/lib/postgresql/data", "70:70"},
		{"postgres:16", "/var/lib/postgresql/data", ""}, // Match matches
		{"influxdb", "/var/lib/influxdb2", ""},          // bounded, owner not known beyond
	} {
		row, ok := tab.OwnerOutOfVersion(tc.ref, tc.target)
		if ok != (tc.owner != "") || row.Owner != tc.owner {
			t.Errorf("OwnerOutOfVersion(%q, %q) = %q, %v; want %q", tc.ref, tc.target, row.Owner, ok, tc.owner)
		}
	}
	var nilTab *Table
	if _, ok := nilTab.OutOfVersion("postgres", "/var/lib/postgresql/data"); ok {
		t.Error("nil table found a row")
	}
}

func TestLeadingMajor(t *testing.T) {
	for tag, want := range map[string]int{"16": 16, "16.4-alpine": 16, "v3.1": 3, "17-bookworm": 17, "latest": 0, "alpine": 0, "": 0} {
		got, ok := leadingMajor(tag)
		if got != want || ok != (want != 0) {
			t.Errorf("leadingMajor(%q) = %d, %v; want %d", tag, got, ok, want)
		}
	}
	if _, err := Parse("t.yaml", []byte("- repository: postgres\n  path: /x\n  kind: directory\n  intent: state\n  max_major: \"17\"\n  source: https://example.org\n")); err == nil {
		t.Error("a quoted max_major was accepted")
	}
}

func TestImageRows(t *testing.T) {
	tab := load(t)
	for _, tc := range []struct {
		ref, variable string
		ok            bool
	}{
		{"postgres:16", "POSTGRES_PASSWORD", true},
		{"docker.io/library/postgres:16-alpine", "POSTGRES_PASSWORD", true},
		{"postgres:16", "PGPASSWORD", false},
		{"mariadb:11", "MARIADB_ROOT_PASSWORD", true},
		{"mariadb:11", "MYSQL_PASSWORD", true},
		{"mysql:8.4", "MYSQL_ROOT_PASSWORD", true},
		{"redis:7", "REDIS_PASSWORD", false},
		{"example.org/app:1", "POSTGRES_PASSWORD", false},
		{"postgres@sha256:0123", "POSTGRES_PASSWORD", false},
		{"wordpress:6-apache", "WORDPRESS_DB_PASSWORD", true},
		{"wordpress:6-apache", "WORDPRESS_CONFIG_EXTRA", false},
	} {
		if _, ok := tab.FileEnv(tc.ref, tc.variable); ok != tc.ok {
			t.Errorf("FileEnv(%q, %q) = %v, want %v", tc.ref, tc.variable, ok, tc.ok)
		}
	}
	for _, tc := range []struct {
		ref  string
		want []string
	}{
		{"postgres:16", []string{"/var/lib/postgresql/data"}},
		{"postgres:16-alpine", []string{"/var/lib/postgresql/data"}},
		{"postgres:18", []string{"/var/lib/postgresql"}},
		// No major version: every version-bounded row's path counts.
		{"postgres:latest", []string{"/var/lib/postgresql/data", "/var/lib/postgresql"}},
		{"postgres", []string{"/var/lib/postgresql/data", "/var/lib/postgresql"}},
		// A digest alone names no version nor variant: every row's path
		// (it matched none, and the database's VOLUME went undeclared).
		{"postgres@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"/var/lib/postgresql/data", "/var/lib/postgresql"}},
		{"mongo@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"/data/db", "/data/configdb"}},
		{"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", nil},
		{"mongo:8", []string{"/data/db", "/data/configdb"}},
		{"redis:7-alpine", []string{"/data"}},
		{"nginx:1.27", nil},
		{"valkey/valkey:8-alpine", []string{"/data"}},
		{"vaultwarden/server:1.32.0", []string{"/data"}},
		{"gitea/gitea:1.22-rootless", []string{"/var/lib/gitea", "/etc/gitea"}},
		{"influxdb:2.7", []string{"/var/lib/influxdb2", "/etc/influxdb2"}},
		{"influxdb:1.8", []string{"/var/lib/influxdb"}},
		{"itzg/minecraft-server", []string{"/data"}},
		{"syncthing/syncthing:1.27", []string{"/var/syncthing"}},
		{"paperlessngx/paperless-ngx:2.11", []string{"/usr/src/paperless/data", "/usr/src/paperless/media", "/usr/src/paperless/consume", "/usr/src/paperless/export"}},
		// symbolicator declares /etc/symbolicator a VOLUME only since 25.10.0: from 26 on here.
		{"ghcr.io/getsentry/symbolicator:26.8.0", []string{"/data", "/etc/symbolicator"}},
		{"ghcr.io/getsentry/symbolicator:25.9.0", []string{"/data"}},
		{"confluentinc/cp-kafka:7.6.13", []string{"/var/lib/kafka/data", "/etc/kafka/secrets"}},
		{"eclipse-mosquitto:2", []string{"/mosquitto/data", "/mosquitto/log"}},
	} {
		var got []string
		for _, v := range tab.Volumes(tc.ref) {
			got = append(got, v.Path)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Volumes(%q) = %v, want %v", tc.ref, got, tc.want)
		}
	}
	row, ok := tab.Match("postgres:16", "/var/lib/postgresql/data")
	if !ok || !row.Accepts("0750") || !row.Accepts("700") || row.Accepts("0755") {
		t.Errorf("postgres data row accepts: %+v", row)
	}
}

func TestImageRowProblems(t *testing.T) {
	for _, tc := range []struct{ name, row, want string }{
		{"both", "- repository: postgres\n  file_env: [A]\n  volumes: [/x]\n  source: https://example.org\n", "not two"},
		{"bad var", "- repository: postgres\n  file_env: [A-B]\n  source: https://example.org\n", "not an environment variable"},
		{"relative volume", "- repository: postgres\n  volumes: [x]\n  source: https://example.org\n", "absolute and clean"},
		{"no source", "- repository: postgres\n  volumes: [/x]\n", "https URL"},
		{"path in image row", "- repository: postgres\n  path: /x\n  volumes: [/x]\n  source: https://example.org\n", "unknown key"},
		{"empty list", "- repository: postgres\n  volumes: []\n  source: https://example.org\n", "non-empty list"},
		{"steps down with volumes", "- repository: postgres\n  steps_down_for: [postgres]\n  volumes: [/x]\n  source: https://example.org\n", "not two"},
		{"steps down for a flag", "- repository: postgres\n  steps_down_for: [--help]\n  source: https://example.org\n", "not a program name"},
		{"steps down for two words", "- repository: postgres\n  steps_down_for: [\"pg ctl\"]\n  source: https://example.org\n", "not a program name"},
		{"accepted without required", "- repository: postgres\n  path: /x\n  kind: directory\n  mode: \"0700\"\n  mode_basis: recommended\n  accepted_modes: [\"0750\"]\n  source: https://example.org\n", "needs a required mode"},
	} {
		_, err := Parse("t.yaml", []byte(tc.row))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// TestStepsDown: an image row's steps_down_for holds for the image's own
// command, a command starting with a listed program or, where "-" is
// listed, with a flag; never under an entrypoint: of the service's own.
func TestStepsDown(t *testing.T) {
	tab, err := Parse("t.yaml", []byte("- repository: postgres\n  steps_down_for: [postgres, \"-\"]\n  source: https://example.org\n- repository: redis\n  steps_down_for: [redis-server]\n  source: https://example.org\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref        string
		command    []string
		entrypoint bool
		want       bool
	}{
		{"postgres:16", nil, false, true},
		{"postgres:16-alpine", []string{"postgres", "-c", "max_connections=200"}, false, true},
		{"postgres", []string{"-c", "fsync=off"}, false, true},
		{"postgres:16", []string{"bash", "-c", "postgres"}, false, false},
		{"postgres:16", nil, true, false},
		{"redis:7", []string{"redis-server", "--appendonly", "yes"}, false, true},
		{"redis:7", []string{"--appendonly", "yes"}, false, false},
		{"redis:7", []string{"sh", "-c", "redis-server"}, false, false},
		{"mysql:8", nil, false, false},
	} {
		if _, got := tab.StepsDown(tc.ref, tc.command, tc.entrypoint); got != tc.want {
			t.Errorf("StepsDown(%q, %q, %v) = %v, want %v", tc.ref, tc.command, tc.entrypoint, got, tc.want)
		}
	}
}

// TestDefault: the shared table is parsed once, is the embedded table,
// and its digest is Digest's.
func TestDefault(t *testing.T) {
	a, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Default()
	fresh, _ := Load()
	if a != b || len(a.Rows) != len(fresh.Rows) || a.Digest != Digest() || fresh.Digest != Digest() {
		t.Errorf("Default() = %p, %p (%d rows, digest %s); Load has %d rows; Digest() = %s", a, b, len(a.Rows), a.Digest, len(fresh.Rows), Digest())
	}
}

// TestRunAs: the owner-changing variables an image documents give the
// owner its process runs as; unset ones take the row's default.
func TestRunAs(t *testing.T) {
	tab, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref   string
		env   map[string]string
		want  string
		ok    bool
		isErr bool
	}{
		{"gitea/gitea:1.22", map[string]string{"USER_UID": "1001", "USER_GID": "1001"}, "1001:1001", true, false},
		{"gitea/gitea:1.22", map[string]string{"USER_UID": "1001"}, "1001:1000", true, false},
		{"gitea/gitea:1.22", map[string]string{}, "", false, false},
		{"gitea/gitea:1.22-rootless", map[string]string{"USER_UID": "1001"}, "", false, false},
		{"lscr.io/linuxserver/plex:latest", map[string]string{"PUID": "1000", "PGID": "1000"}, "1000:1000", true, false},
		{"linuxserver/wireguard", map[string]string{"PGID": "100"}, "911:100", true, false},
		{"ghcr.io/linuxserver/sonarr:4", map[string]string{"PUID": "abc"}, "", true, true},
		{"ghcr.io/paperless-ngx/paperless-ngx:2", map[string]string{"USERMAP_UID": "1002", "USERMAP_GID": "100"}, "1002:100", true, false},
		{"itzg/minecraft-server:java21", map[string]string{"UID": "0"}, "0:1000", true, false},
		{"syncthing/syncthing:1.27", map[string]string{"PUID": "1026", "PGID": "100"}, "1026:100", true, false},
		{"postgres:16", map[string]string{"PUID": "1000"}, "", false, false},
		{"lscr.io/linuxserver/a/b", map[string]string{"PUID": "1000"}, "", false, false},
		{"wordpress:6-apache", map[string]string{"APACHE_RUN_USER": "#1000"}, "", true, true},
		{"wordpress:cli", map[string]string{"APACHE_RUN_USER": "#1000"}, "", false, false},
		{"ghcr.io/gethomepage/homepage:v1", map[string]string{"PUID": "1000", "PGID": "1000"}, "1000:1000", true, false},
		{"ghcr.io/gethomepage/homepage:v1", map[string]string{"PUID": "1000"}, "1000:0", true, false},
		// nginx-proxy-manager makes an unset PGID follow PUID: no default, so one alone is no owner.
		{"jc21/nginx-proxy-manager:latest", map[string]string{"PUID": "1000"}, "", true, true},
		{"jc21/nginx-proxy-manager:2", map[string]string{"PUID": "1000", "PGID": "1000"}, "1000:1000", true, false},
		{"ghcr.io/authelia/authelia:4.39", map[string]string{"PUID": "1000", "PGID": "1000"}, "1000:1000", true, false},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		got, _, _, ok, err := tab.RunAs(tc.ref, lookup)
		if got != tc.want || ok != tc.ok || (err != nil) != tc.isErr {
			t.Errorf("RunAs(%q, %v) = %q, %v, %v; want %q, %v, error %v", tc.ref, tc.env, got, ok, err, tc.want, tc.ok, tc.isErr)
		}
	}
}

// TestFamily: a family row holds for every repository directly under
// its prefix, and a row of the repository itself wins over it.
func TestFamily(t *testing.T) {
	tab, err := Parse("t.yaml", []byte(`
- repository: example.org/team/*
  path: /config
  kind: directory
  owner: "911:911"
  source: https://example.org/base
- repository: example.org/team/special
  path: /config
  kind: directory
  owner: "0:0"
  source: https://example.org/special
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ref, owner string }{
		{"example.org/team/app:1", "911:911"},
		{"example.org/team/special:1", "0:0"},
		{"example.org/team/a/b:1", ""},
		{"example.org/other/app", ""},
	} {
		row, ok := tab.Match(tc.ref, "/config")
		if ok != (tc.owner != "") || row.Owner != tc.owner {
			t.Errorf("Match(%q) = %q, %v; want %q", tc.ref, row.Owner, ok, tc.owner)
		}
	}
	for _, bad := range []string{"*", "example.org/*/x", "docker.io/team/*", "team/*/*"} {
		_, err := Parse("t.yaml", []byte("- repository: "+bad+"\n  path: /x\n  kind: directory\n  owner: \"0:0\"\n  source: https://example.org\n"))
		if err == nil {
			t.Errorf("repository %q parsed, want an error", bad)
		}
	}
	for _, tc := range []struct{ name, row, want string }{
		{"uid only", "- repository: x/y\n  owner_uid: PUID\n  source: https://example.org\n", "both owner_uid and owner_gid"},
		{"bad default", "- repository: x/y\n  owner_uid: PUID\n  owner_gid: PGID\n  owner_default: abc\n  source: https://example.org\n", "numeric UID:GID"},
		{"bad name", "- repository: x/y\n  owner_uid: P-UID\n  owner_gid: PGID\n  source: https://example.org\n", "not an environment variable"},
		{"with volumes", "- repository: x/y\n  owner_uid: PUID\n  owner_gid: PGID\n  volumes: [/x]\n  source: https://example.org\n", "not two"},
	} {
		_, err := Parse("t.yaml", []byte(tc.row))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// TestMinMajor holds rows bounded from below (min_major): a tag before
// the bound, or naming no version, matches the earlier row or none, and
// OutOfVersion names the bounded row; two rows of one path may split the
// versions but not share one, and a bound after max_major is refused.
func TestMinMajor(t *testing.T) {
	const table = `- repository: pi
  path: /etc/pi
  kind: directory
  min_major: 2025
  owner: "1000:1000"
  intent: state
  source: https://example.org/v6
- repository: pi
  path: /etc/pi
  kind: directory
  max_major: 2024
  owner: "0:0"
  intent: state
  source: https://example.org/v5
`
	tab, err := Parse("table.yaml", []byte(table))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref, owner   string
		outOfVersion bool
	}{
		{"pi:2025.02.0", "1000:1000", false},
		{"pi:2026.07.2-alpine", "", false}, // another variant: no row at all
		{"pi:2026.07.2", "1000:1000", false},
		{"pi:2024.07.0", "0:0", false},
		{"pi:latest", "", true},
		{"pi", "", true},
	} {
		row, ok := tab.Match(tc.ref, "/etc/pi")
		if ok != (tc.owner != "") || row.Owner != tc.owner {
			t.Errorf("Match(%q) = %q, %v; want %q", tc.ref, row.Owner, ok, tc.owner)
		}
		if _, ok := tab.OutOfVersion(tc.ref, "/etc/pi"); ok != tc.outOfVersion {
			t.Errorf("OutOfVersion(%q) = %v, want %v", tc.ref, ok, tc.outOfVersion)
		}
	}
	// Rows of one path whose versions overlap would leave the file's
	// order to choose between them: refused, naming the earlier row.
	for _, second := range []string{
		strings.Replace(table[strings.Index(table, "- repository: pi\n  path: /etc/pi\n  kind: directory\n  max_major"):], "max_major: 2024", "max_major: 2025", 1),
		strings.Replace(table[strings.Index(table, "- repository: pi\n  path: /etc/pi\n  kind: directory\n  max_major"):], "  max_major: 2024\n", "", 1),
	} {
		first := table[:strings.Index(table, "- repository: pi\n  path: /etc/pi\n  kind: directory\n  max_major")]
		if _, err := Parse("table.yaml", []byte(first+second)); err == nil || !strings.Contains(err.Error(), "holds for major versions the row at line 1 holds for too") {
			t.Errorf("Parse of overlapping rows:\n%s\nerror %v", first+second, err)
		}
	}
	bad := strings.Replace(goodRow, "  kind: directory\n", "  kind: directory\n  min_major: 18\n  max_major: 17\n", 1)
	if _, err := Parse("table.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "min_major 18 is after max_major 17") {
		t.Errorf("Parse of min_major after max_major: error %v", err)
	}
	bad = strings.Replace(goodRow, "  kind: directory\n", "  kind: directory\n  min_major: zero\n", 1)
	if _, err := Parse("table.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "min_major must be a positive integer") {
		t.Errorf("Parse of min_major: zero: error %v", err)
	}
}

// MatchFor matches a row with path_from where the service sets the
// variable to the target (postgres's PGDATA), saying so in At and Named;
// the row's own bounds and variant still hold, and Match's own row wins.
func TestMatchFor(t *testing.T) {
	tab, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	pg := env(map[string]string{"PGDATA": "/var/lib/postgresql/data/pgdata/"})
	tests := []struct {
		ref, target string
		lookup      func(string) (string, bool)
		want        string // Named, "" for no match
	}{
		{"postgres:16", "/var/lib/postgresql/data/pgdata", pg, "postgres /var/lib/postgresql/data at PGDATA=/var/lib/postgresql/data/pgdata/"},
		{"postgres:16-alpine", "/var/lib/postgresql/data/pgdata", pg, "postgres /var/lib/postgresql/data at PGDATA=/var/lib/postgresql/data/pgdata/"},
		{"postgres:16", "/var/lib/postgresql/data", pg, "postgres /var/lib/postgresql/data"},
		{"postgres:16", "/var/lib/postgresql/data/pgdata", nil, ""},
		{"postgres:16", "/var/lib/postgresql/data/pgdata", env(nil), ""},
		{"postgres:16", "/var/lib/postgresql/data/other", pg, ""},
		{"postgres:18", "/var/lib/postgresql/data/pgdata", pg, ""},     // the row holds up to 17
		{"postgres:latest", "/var/lib/postgresql/data/pgdata", pg, ""}, // and for no unversioned tag
		{"redis:7", "/var/lib/postgresql/data/pgdata", pg, ""},
		{"postgres:16", "/data", env(map[string]string{"PGDATA": "data"}), ""}, // relative: not a path
	}
	for _, tc := range tests {
		r, ok := tab.MatchFor(tc.ref, tc.target, tc.lookup)
		got := ""
		if ok {
			got = r.Named()
		}
		if got != tc.want {
			t.Errorf("MatchFor(%s, %s) = %q, want %q", tc.ref, tc.target, got, tc.want)
		}
	}
}

// OwnerChangedBy names the first owner_unless variable set to a value;
// an empty value, or none of them set, leaves the owner.
func TestOwnerChangedBy(t *testing.T) {
	r := Row{Owner: "5000:5000", OwnerUnless: []string{"DMS_VMAIL_UID", "DMS_VMAIL_GID"}}
	tests := []struct {
		env  map[string]string
		want string
	}{
		{nil, ""},
		{map[string]string{"DMS_VMAIL_UID": ""}, ""},
		{map[string]string{"DMS_VMAIL_UID": "", "DMS_VMAIL_GID": "100"}, "DMS_VMAIL_GID=100"},
		{map[string]string{"DMS_VMAIL_UID": "1000", "DMS_VMAIL_GID": "100"}, "DMS_VMAIL_UID=1000"},
		{map[string]string{"OTHER": "1"}, ""},
	}
	for _, tc := range tests {
		name, value, ok := r.OwnerChangedBy(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
		got := ""
		if ok {
			got = name + "=" + value
		}
		if got != tc.want {
			t.Errorf("OwnerChangedBy(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}
