package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompletedFlagValuesAccepted: each value completion offers for
// --format and --for is one its command accepts, and a value it does not
// offer is refused with the message naming the flag, so the lists in
// program cannot drift from the commands' checks.
func TestCompletedFlagValuesAccepted(t *testing.T) {
	tried := 0
	p := program()
	for _, c := range p.Commands {
		for _, flag := range []string{"format", "for"} {
			if c.Flags == nil || c.Flags.Lookup(flag) == nil {
				continue
			}
			values := c.FlagValues[flag]
			if values == nil {
				values = p.FlagValues[flag]
			}
			if values == nil {
				t.Errorf("%s --%s: completion offers no values", c.Name, flag)
				continue
			}
			refused := func(v string) bool {
				_, _, stderr := runIn(t.TempDir(), c.Name, "--"+flag, v)
				return strings.Contains(stderr, fmt.Sprintf("--%s %q: want", flag, v))
			}
			if !refused("nope") {
				t.Errorf("%s --%s nope: not refused by name; the test cannot tell a value accepted", c.Name, flag)
				continue
			}
			for _, v := range values {
				tried++
				if refused(v) {
					t.Errorf("%s --%s %s: completion offers it, the command refuses it", c.Name, flag, v)
				}
			}
		}
	}
	if tried < 10 {
		t.Errorf("tried only %d values", tried)
	}
}
