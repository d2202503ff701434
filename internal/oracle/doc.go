// Package oracle holds no code of its own: its test converts every project
// of the shared corpus and compares the manifest with what docker compose
// itself resolves for the project (docker compose config --format json),
// service by service: images, volume targets, environment and ports (with
// mode: host); and each attribute of a top-level network, which must be a
// C2M007 field, since the manifest carries none.
package oracle
