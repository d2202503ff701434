//go:build c2mtools

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	skeleton := "version: 1\nvolumes:\n  data: {owner: \"\", mode: \"\", intent: \"\"}\n"
	report, err := json.Marshal(map[string]any{"modules": []map[string]string{{"module": "m", "skeleton": skeleton}}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(bytes.NewReader(report), &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `""`) || !strings.Contains(out.String(), "data:") {
		t.Errorf("not filled:\n%s", out.String())
	}
	for _, bad := range []string{"", "{", `{"modules":[]}`, `{"modules":[{},{}]}`} {
		if err := run(strings.NewReader(bad), &out); err == nil {
			t.Errorf("run(%q): no error", bad)
		}
	}
	out.Reset()
	if err := run(strings.NewReader(`{"modules":[{"module":"m"}]}`), &out); err != nil || out.Len() != 0 {
		t.Errorf("converted module: %v, %q", err, out.String())
	}
}
