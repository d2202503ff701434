package declare

import (
	"errors"
	"testing"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte(goodFile))
	f.Add([]byte(roundTrip))
	f.Add([]byte("version: 1\nbinds:\n  ./a: {mode: 0750, owner: 5000, kind: host}\n"))
	f.Add([]byte("version: 1\nbinds:\n  ./a: &a {owner: \"0:0\"}\n  ./b: {<<: *a}\n  ./c: *a\n"))
	f.Add([]byte("version: 1\n---\n- x\n"))
	f.Add([]byte("{version: 1, anonymous: {\"a:/b\": {}}, acknowledge: [a.b, \"*.c\"]}"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.yaml"
		file, err := Parse(name, data)
		if err == nil {
			if file == nil || file.Version != 1 {
				t.Fatalf("no error but file %+v", file)
			}
		} else {
			if file != nil {
				t.Fatalf("error and a file")
			}
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %T %v is not a non-empty Errors", err, err)
			}
			for _, e := range es {
				if e == nil || (e.Pos.Line <= 0 && e.Pos.File != name) || e.Msg == "" {
					t.Fatalf("error without position or message: %#v", e)
				}
			}
		}
		// A document that loads can be edited and written back, and
		// what it writes back still loads.
		d, lerr := LoadDocument(name, data)
		if lerr != nil {
			return
		}
		d.SetEntry(SectionBinds, "./fuzz", Entry{Owner: "0:0", Mode: "0755", Intent: "state", Note: string(data)})
		d.SetScalar("volume_root", "/srv")
		b, berr := d.Bytes()
		if berr != nil {
			return
		}
		if _, err := LoadDocument(name, b); err != nil {
			t.Fatalf("written document does not load: %v\n%s", err, b)
		}
		if err == nil {
			if _, err := Parse(name, b); err != nil {
				t.Fatalf("valid document edited validly no longer parses: %v\n%s", err, b)
			}
		}
	})
}

// FuzzParseDefaults feeds ParseDefaults untrusted defaults files, mounts:
// keys among them: it never panics, and an error is a non-empty Errors
// or a message naming the file.
func FuzzParseDefaults(f *testing.F) {
	f.Add([]byte("version: 1\nlayout: fhs\nacknowledge: [\"*.container_name\", networks.*.external]\n"))
	f.Add([]byte("version: 1\nmounts:\n  \"localhost:5000/app:/data\": {owner: \"0:0\", mode: \"0755\", intent: state}\n  x/y:/f: {kind: file}\n"))
	f.Add([]byte("version: 1\nmounts:\n  \":/\": {}\n  \"a:/b:c\": {path: /x}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseDefaults("d.yaml", data)
		switch {
		case err == nil && (file == nil || file.Version != 1):
			t.Fatalf("no error but file %+v", file)
		case err != nil && file != nil:
			t.Fatal("error and a file")
		case err != nil && err.Error() == "":
			t.Fatal("an empty error")
		}
		if err == nil {
			for _, m := range file.Mounts {
				if _, target, ok := CutMountKey(m.Key); !ok || target == "" || m.Path != "" {
					t.Fatalf("mounts: entry %+v passed", m)
				}
			}
		}
	})
}
