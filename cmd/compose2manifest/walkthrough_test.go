package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeSection returns the README's section under "## heading", up to
// the next "## " heading; the test fails without one.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("README has no ## %s section", heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}

// readmeWalkthrough returns the commands of the README's "Your first
// project, end to end": each line of its sh block without its comment.
func readmeWalkthrough(t *testing.T) []string {
	t.Helper()
	section := readmeSection(t, "Your first project, end to end")
	m := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the walkthrough has no sh block")
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		cmd, _, _ := strings.Cut(line, " #")
		out = append(out, strings.TrimSpace(cmd))
	}
	return out
}

// TestREADMEWalkthrough runs the README's first project, end to end, as
// written, on a project with a database volume and a bind: convert
// refuses, ask (on a terminal, answering what it asks) writes the
// declarations, and convert, check, plan and inventory then succeed.
func TestREADMEWalkthrough(t *testing.T) {
	cmds := readmeWalkthrough(t)
	if len(cmds) < 6 || !strings.HasPrefix(cmds[1], "compose2manifest ask") {
		t.Fatalf("walkthrough commands: %q", cmds)
	}
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(filepath.Join(dir, "html"), 0o755); err != nil {
		t.Fatal(err)
	}
	compose := "services:\n  web:\n    image: nginx:1.27\n    volumes:\n      - ./html:/usr/share/nginx/html:ro\n  db:\n    image: postgres:16\n    volumes:\n      - dbdata:/var/lib/postgresql/data\nvolumes:\n  dbdata: {}\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(line string) (int, string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := run(cmds[0]); code != 1 || !strings.Contains(out, "refused") || !strings.Contains(out, "compose2manifest ask") {
		t.Fatalf("%s: exit %d, want a refusal naming ask:\n%s", cmds[0], code, out)
	}

	// ask, on a terminal: answer each question, taking a suggestion
	// where there is one.
	tm := startAsk(t, dir, strings.Fields(strings.TrimPrefix(cmds[1], "compose2manifest ask"))...)
	answers := map[string]string{"host_project_directory": "/opt/app", "volume_root": "/srv", "owner": "101:101", "mode": "0755"}
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-tm.done:
		default:
			scr := tm.screen()[tm.seen:]
			i := strings.LastIndex(scr, ": ")
			if i < 0 || !strings.HasSuffix(strings.TrimRight(scr, " "), ":") {
				if time.Now().After(deadline) {
					t.Fatalf("ask: no prompt; screen:\n%s", tm.screen())
				}
				time.Sleep(10 * time.Millisecond)
				continue
			}
			prompt := scr[strings.LastIndex(scr, "\n")+1:]
			tm.seen += len(scr)
			answer := ""
			if !strings.Contains(prompt, "[") {
				for k, v := range answers {
					if strings.HasPrefix(prompt, k) {
						answer = v
					}
				}
			}
			tm.key(answer + "\r")
			continue
		}
		break
	}
	if code := tm.exit(); code != 0 {
		t.Fatalf("%s: exit %d; screen:\n%s", cmds[1], code, tm.screen())
	}
	for _, line := range cmds[2:] {
		if code, out := run(line); code != 0 {
			t.Errorf("%s: exit %d:\n%s", line, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "app.yaml")); err != nil {
		t.Errorf("no manifest: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "plan.sh")); err != nil || !strings.HasPrefix(string(data), "#!/bin/sh") {
		t.Errorf("plan.sh: %v\n%.200s", err, data)
	}
}
