package images

import (
	"strings"
	"testing"
)

func TestParseReference(t *testing.T) {
	tests := []struct{ ref, repo, tag string }{
		{"postgres", "postgres", "latest"},
		{"postgres:16-alpine", "postgres", "16-alpine"},
		{"postgres:", "postgres", "latest"},
		{" postgres:16 ", "postgres", "16"},
		{"library/postgres:16", "postgres", "16"},
		{"docker.io/library/postgres", "postgres", "latest"},
		{"docker.io/library/postgres:16", "postgres", "16"},
		{"index.docker.io/library/postgres:16", "postgres", "16"},
		{"registry-1.docker.io/library/mongo:7", "mongo", "7"},
		{"mirror.gcr.io/library/redis", "redis", "latest"},
		{"mirror.gcr.io/bitnami/redis:7.2", "bitnami/redis", "7.2"},
		{"public.ecr.aws/docker/library/postgres:16", "postgres", "16"},
		{"public.ecr.aws/docker/library/a/b:1", "public.ecr.aws/docker/library/a/b", "1"},
		{"public.ecr.aws/bitnami/postgresql:16", "public.ecr.aws/bitnami/postgresql", "16"},
		{"docker.io/postgres:16", "postgres", "16"},
		{"DOCKER.IO/library/postgres", "postgres", "latest"},
		{"docker.io/bitnami/postgresql:16.3.0-debian-12-r0", "bitnami/postgresql", "16.3.0-debian-12-r0"},
		{"bitnami/postgresql", "bitnami/postgresql", "latest"},
		{"grafana/grafana:11.2.0", "grafana/grafana", "11.2.0"},
		{"ghcr.io/x/y:1@sha256:0123abcd", "ghcr.io/x/y", "1"},
		{"ghcr.io/x/y@sha256:0123abcd", "ghcr.io/x/y", "latest"},
		{"postgres@sha256:0123abcd", "postgres", "latest"},
		{"localhost:5000/a/b", "localhost:5000/a/b", "latest"},
		{"localhost:5000/a/b:2.1", "localhost:5000/a/b", "2.1"},
		{"localhost/a", "localhost/a", "latest"},
		{"registry.example.com:443/team/app:v1", "registry.example.com:443/team/app", "v1"},
		{"quay.io/prometheus/prometheus:v2.53.0", "quay.io/prometheus/prometheus", "v2.53.0"},
		{"GHCR.IO/Immich-App/immich-server", "ghcr.io/Immich-App/immich-server", "latest"},
		{"docker.io/library/library/x", "library/library/x", "latest"},
		{"", "", "latest"},
	}
	for _, tc := range tests {
		repo, tag := ParseReference(tc.ref)
		if repo != tc.repo || tag != tc.tag {
			t.Errorf("ParseReference(%q) = (%q, %q), want (%q, %q)", tc.ref, repo, tag, tc.repo, tc.tag)
		}
		// A normalised repository parses to itself.
		if tc.repo != "" {
			if again, tag := ParseReference(repo); again != repo || tag != "latest" {
				t.Errorf("ParseReference(%q) = (%q, %q), not a fixed point", repo, again, tag)
			}
		}
	}
}

func TestVariant(t *testing.T) {
	tests := []struct{ repo, tag, want string }{
		{"postgres", "latest", ""},
		{"postgres", "16", ""},
		{"postgres", "16-bookworm", ""},
		{"postgres", "16-alpine", "alpine"},
		{"postgres", "alpine", "alpine"},
		{"postgres", "alpine3.20", "alpine"},
		{"postgres", "16.4-alpine3.20", "alpine"},
		{"postgres", "16-ALPINE", "alpine"},
		{"nextcloud", "fpm-alpine", "alpine"},
		{"nextcloud", "29-fpm", ""},
		{"gitea/gitea", "1.22-rootless", "rootless"},
		{"mariadb", "11.4-ubi9", "ubi"},
		{"mariadb", "11.4-noble", ""},
		{"mysql", "8.4-oracle", ""},
		{"mysql", "8.0-debian", "debian"},
		{"bitnami/postgresql", "16.3.0-debian-12-r0", ""},
		{"grafana/grafana", "11.2.0-ubuntu", "ubuntu"},
		{"mongo", "8.0-windowsservercore-ltsc2022", "windowsservercore"},
		{"traefik", "v3.1-nanoserver-ltsc2022", "nanoserver"},
		{"x/y", "v1-distroless", "distroless"},
		{"wordpress", "cli", "cli"},
		{"wordpress", "cli-2.12-php8.3", "cli"},
		{"wordpress", "php8.3-apache", ""},
		{"wordpress", "6-fpm-alpine", "alpine"},
		{"filebrowser/filebrowser", "v2.63.23-s6", "s6"},
		{"filebrowser/filebrowser", "s6", "s6"},
		{"filebrowser/filebrowser", "v2.63.23", ""},
		{"x/y", "s", ""},
		{"x/y", "s66", ""},
		{"x/y", "client-1", ""},
		{"x/y", "alpineish", ""},
		{"x/y", "", ""},
	}
	for _, tc := range tests {
		if got := Variant(tc.repo, tc.tag); got != tc.want {
			t.Errorf("Variant(%q, %q) = %q, want %q", tc.repo, tc.tag, got, tc.want)
		}
	}
}

func TestVariantsFresh(t *testing.T) {
	v := Variants()
	v[0] = "changed"
	if Variants()[0] == "changed" {
		t.Fatal("Variants returns a shared slice")
	}
}

func FuzzParseReference(f *testing.F) {
	for _, s := range []string{
		"postgres", "postgres:16-alpine", "docker.io/library/postgres",
		"ghcr.io/x/y:1@sha256:abc", "localhost:5000/a/b", ":", "@", "/", "a:b:c",
		"library/", "docker.io/", "\x00:\xff", "localhost:5000",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		repo, tag := ParseReference(ref)
		if tag == "" {
			t.Fatalf("ParseReference(%q): empty tag", ref)
		}
		if strings.Contains(repo, "@") || strings.Contains(tag, "@") {
			t.Fatalf("ParseReference(%q) = (%q, %q): digest kept", ref, repo, tag)
		}
		if strings.Contains(tag, "/") {
			t.Fatalf("ParseReference(%q): tag %q has a slash", ref, tag)
		}
		v := Variant(repo, tag)
		if v != "" && !isVariant(v) {
			t.Fatalf("Variant(%q, %q) = %q, not a known variant", repo, tag, v)
		}
	})
}

func TestUntaggedDigest(t *testing.T) {
	for ref, want := range map[string]bool{
		"postgres@sha256:abc":                            true,
		" docker.io/library/postgres@sha256:abc ":        true,
		"localhost:5000/app@sha256:abc":                  true,
		"registry.example.org:443/a/b@sha256:abc":        true,
		"postgres:16@sha256:abc":                         false,
		"localhost:5000/app:1@sha256:abc":                false,
		"postgres":                                       false,
		"postgres:16":                                    false,
		"postgres@":                                      false,
		"registry.example.org:443/a/b:latest@sha256:abc": false,
	} {
		if got := untaggedDigest(ref); got != want {
			t.Errorf("untaggedDigest(%q) = %v, want %v", ref, got, want)
		}
	}
}
