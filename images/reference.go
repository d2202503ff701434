package images

import "strings"

// ParseReference splits an image reference into its normalised repository
// and its tag. It uses these rules, a subset of Docker's reference grammar
// (it validates nothing and never fails):
//
//   - Surrounding white space is dropped, and so is a digest: everything from
//     the first "@" ("name:tag@sha256:…" keeps its tag).
//   - The part before the first "/" is a registry host when it contains "."
//     or ":" or is "localhost"; hosts are lower-cased. "localhost:5000/a/b"
//     is repository "localhost:5000/a/b": a port is not a tag.
//   - The tag is what follows the last ":" after the last "/".
//     An empty or missing tag is "latest".
//   - Docker Hub is written without its host: "docker.io/",
//     "index.docker.io/" and "registry-1.docker.io/" (its registry API's
//     host) are dropped, and so is "library/" before an official image's
//     single-component name: "docker.io/library/postgres",
//     "library/postgres" and "postgres" are all "postgres";
//     "docker.io/bitnami/postgresql" is "bitnami/postgresql".
//   - Mirrors of Docker Hub's images are Docker Hub: "mirror.gcr.io/"
//     (Google's cache of Docker Hub,
//     https://cloud.google.com/artifact-registry/docs/pull-cached-dockerhub-images)
//     is dropped, and "public.ecr.aws/docker/library/NAME" (the Docker
//     Official Images on Amazon ECR Public, https://gallery.ecr.aws/docker)
//     is NAME: the same images, the same VOLUMEs.
//
// Examples: "postgres:16-alpine" gives ("postgres", "16-alpine");
// "ghcr.io/x/y:1@sha256:…" gives ("ghcr.io/x/y", "1").
func ParseReference(ref string) (repository, tag string) {
	ref = strings.TrimSpace(ref)
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		ref = ref[:i]
	}

	host, name := "", ref
	if i := strings.IndexByte(ref, '/'); i >= 0 {
		first := ref[:i]
		if strings.ContainsAny(first, ".:") || first == "localhost" {
			host, name = strings.ToLower(first), ref[i+1:]
		}
	}

	slash := strings.LastIndexByte(name, '/')
	if i := strings.LastIndexByte(name, ':'); i > slash {
		name, tag = name[:i], name[i+1:]
	}
	if tag == "" {
		tag = "latest"
	}

	switch {
	case host == "docker.io" || host == "index.docker.io" || host == "registry-1.docker.io" || host == "mirror.gcr.io":
		host = ""
	case host == "public.ecr.aws" && strings.HasPrefix(name, "docker/library/") && !strings.Contains(strings.TrimPrefix(name, "docker/library/"), "/"):
		host, name = "", strings.TrimPrefix(name, "docker/")
	}
	if host == "" {
		if rest, ok := strings.CutPrefix(name, "library/"); ok && rest != "" && !strings.Contains(rest, "/") {
			name = rest
		}
		return name, tag
	}
	return host + "/" + name, tag
}

// Variants lists the variant words Variant recognises in a tag, the only
// non-empty values a table row's variant may take. It returns a new slice on
// every call.
func Variants() []string {
	return []string{
		"alpine",
		"cli",
		"debian",
		"distroless",
		"nanoserver",
		"rootless",
		"s6",
		"ubi",
		"ubuntu",
		"windowsservercore",
	}
}

// Variant returns the variant the tag of an image of the (normalised)
// repository names, or "" for the repository's default variant.
//
// The tag is lower-cased and split at "-", "_" and "."; trailing digits are
// dropped from each piece ("alpine3.20" gives "alpine", "ubi9" gives "ubi").
// The first piece that is one of Variants names the variant: "16-alpine",
// "alpine3.20", "fpm-alpine" give "alpine"; "1.22-rootless" gives
// "rootless"; "cli" and "cli-2.12-php8.3", wordpress's wp-cli tags (built
// on another base image than its default tags), give "cli". Anything else,
// such as "16", "16-bookworm", "8.4-oracle" or "latest", is the default
// variant. "s6", a piece of its own ("v2.63.23-s6", filebrowser's tags
// built on linuxserver.io's s6-overlay base image, whose process runs as
// its abc user), is matched before its digit is dropped. One exception:
// Bitnami builds only on Debian, so for a repository under "bitnami/" a
// "debian" piece ("16.3.0-debian-12-r0") names the default variant.
func Variant(repository, tag string) string {
	pieces := strings.FieldsFunc(strings.ToLower(tag), func(r rune) bool {
		return r == '-' || r == '_' || r == '.'
	})
	for _, p := range pieces {
		if p == "s6" {
			return p
		}
		p = strings.TrimRight(p, "0123456789")
		if p == "debian" && strings.HasPrefix(repository, "bitnami/") {
			continue
		}
		if isVariant(p) {
			return p
		}
	}
	return ""
}

// isVariant reports whether w is one of Variants.
func isVariant(w string) bool {
	for _, v := range Variants() {
		if w == v {
			return true
		}
	}
	return false
}

// untaggedDigest reports whether ref pins an image by digest without
// naming a tag ("postgres@sha256:…"): its tag, and so its variant, is
// unknown. A port of a registry host is not a tag
// ("localhost:5000/app@sha256:…" has none).
func untaggedDigest(ref string) bool {
	name, digest, ok := strings.Cut(strings.TrimSpace(ref), "@")
	if !ok || digest == "" {
		return false
	}
	if i := strings.IndexByte(name, '/'); i >= 0 {
		if first := name[:i]; strings.ContainsAny(first, ".:") || first == "localhost" {
			name = name[i+1:]
		}
	}
	return strings.LastIndexByte(name, ':') <= strings.LastIndexByte(name, '/')
}
