package check_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
)

// setUp copies the example mail project into a new folder as
// services/mail, converts it, and writes its manifest to
// manifests/mail.yaml there. It returns the folder.
func setUp() string {
	dir, err := os.MkdirTemp("", "check-example")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "services", "mail"), os.DirFS("../testdata/example/mail")); err != nil {
		log.Fatal(err)
	}
	project := filepath.Join(dir, "services", "mail")
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: project, WorkingDirectory: project})
	if err != nil || res.Status != convert.Converted {
		log.Fatalf("converting the example: %v %v", res.Status, err)
	}
	if err := os.Mkdir(filepath.Join(dir, "manifests"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifests", "mail.yaml"), res.Manifest, 0o644); err != nil {
		log.Fatal(err)
	}
	return dir
}

func ExampleManifests() {
	dir := setUp()
	defer os.RemoveAll(dir)

	res := check.Manifests(check.Config{Dir: dir}, []string{"manifests", "missing.yaml"})
	for _, err := range res.Errors {
		fmt.Println("error:", err)
	}
	for _, m := range res.Report.Modules {
		fmt.Printf("%s (%s): %s, %d findings\n", m.File, m.Module, m.Status, len(m.Diagnostics))
	}
	// Output:
	// error: missing.yaml: no such file or directory
	// manifests/mail.yaml (mail): checked, 0 findings
}

func ExampleAgainst() {
	dir := setUp()
	defer os.RemoveAll(dir)

	// Edit the manifest by hand: the note on the mail spool.
	file := filepath.Join(dir, "manifests", "mail.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	edited := strings.Replace(string(data), "note: queue and mailboxes", "note: the queue", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		log.Fatal(err)
	}

	res, err := check.Against(context.Background(), check.Config{Dir: dir}, "services", []string{"manifests"})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Report.Modules {
		fmt.Printf("%s: %s\n", m.File, m.Status)
		for _, d := range m.Diagnostics {
			fmt.Println(d)
			for _, r := range d.Related {
				fmt.Printf("  related: %s:%d: %s\n", r.File, r.Line, r.Message)
			}
		}
	}
	// Output:
	// manifests/mail.yaml: findings
	// manifests/mail.yaml:23: C2M018 error: edited by hand: directory /opt/mail/data/spool: note "the queue", conversion gives "queue and mailboxes" (the conversion declares it at services/mail/compose2manifest.yaml:7)
	//   related: services/mail/compose2manifest.yaml:7: the conversion declares it here
}
