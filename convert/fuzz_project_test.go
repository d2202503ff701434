package convert

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzProject builds structured projects rather than one flat file: a
// main compose file, an included file in a subfolder (with its own
// .env), an override, an .env, an env_file, and a symbolic link chosen by
// the shape byte (to a file in the project, out of it, to /dev/zero, or
// a loop). Convert must never panic or hang, must give the same bytes
// twice, and must never read the files outside the project it links to.
func FuzzProject(f *testing.F) {
	f.Add([]byte("services:\n  web:\n    image: nginx:1\n    env_file: app.env\n    volumes:\n      - ./data:/data\n      - ./link:/l\ninclude:\n  - sub/compose.yaml\n"),
		[]byte("services:\n  db:\n    image: postgres:${TAG}\n    volumes: [\"./${DIR}:/var/lib/postgresql/data\"]\n"),
		[]byte("TAG=16\nDIR=pg\n"), []byte("A=1\nB=${A}x\n"), byte(0))
	f.Add([]byte("services:\n  web:\n    extends: {file: sub/compose.yaml, service: db}\n"), []byte("services:\n  db:\n    image: x\n    label_file: ../link\n"),
		[]byte("COMPOSE_PROFILES=a\n"), []byte(""), byte(5))
	f.Add([]byte("include: [{path: sub/compose.yaml, env_file: link}]\nservices: {a: {image: x}}\n"), []byte("services: {b: {image: y, volumes: [data:/d]}}\nvolumes: {data: {driver_opts: {type: none, o: bind, device: ./d}}}\n"),
		[]byte(""), []byte(""), byte(6))
	f.Fuzz(func(t *testing.T, compose, included, dotenv, envFile []byte, shape byte) {
		root := t.TempDir()
		dir := filepath.Join(root, "p")
		files := map[string][]byte{
			"compose.yaml":     compose,
			"sub/compose.yaml": included,
			"sub/.env":         dotenv,
			"app.env":          envFile,
			"data/keep":        nil,
			"conf.ini":         []byte("x\n"),
		}
		if shape&1 != 0 {
			files[".env"] = dotenv
		}
		if shape&8 != 0 {
			files["compose.override.yaml"] = included
		}
		for name, data := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		secret := filepath.Join(root, "secret.txt")
		if err := os.WriteFile(secret, []byte("SECRET=outside-the-project\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		targets := []string{"conf.ini", "data", secret, "/dev/zero", "link", "../secret.txt", "sub/compose.yaml", "nowhere"}
		if err := os.Symlink(targets[int(shape>>1)%len(targets)], filepath.Join(dir, "link")); err != nil {
			t.Skip(err)
		}
		opts := Options{WorkingDirectory: dir, Environ: []string{"HOME=/home/x"}, HostProjectDirectory: "/opt/p", VolumeRoot: "/srv"}
		res, err := Convert(context.Background(), opts)
		if res == nil {
			t.Fatalf("nil Result (err %v)", err)
		}
		again, err2 := Convert(context.Background(), opts)
		if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("two conversions fail differently: %v, then %v", err, err2)
		}
		if !bytes.Equal(res.Manifest, again.Manifest) || !bytes.Equal(res.Skeleton, again.Skeleton) || !reflect.DeepEqual(res.Diagnostics, again.Diagnostics) {
			t.Fatalf("two conversions differ")
		}
		if bytes.Contains(res.Manifest, []byte("outside-the-project")) {
			t.Fatalf("a file outside the project reached the manifest:\n%s", res.Manifest)
		}
		for _, d := range res.Diagnostics {
			if bytes.Contains([]byte(d.Message), []byte("outside-the-project")) {
				t.Fatalf("a file outside the project reached a diagnostic: %s", d)
			}
		}
	})
}
