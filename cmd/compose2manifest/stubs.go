package main

// Subcommands not built yet. Each moves to its own file when built.

func runCheck(e *env, args []string) int { errorf(e, "check: not implemented yet"); return exitUsage }
func runAsk(e *env, args []string) int   { errorf(e, "ask: not implemented yet"); return exitUsage }
func runRules(e *env, args []string) int { errorf(e, "rules: not implemented yet"); return exitUsage }
func runExplain(e *env, args []string) int {
	errorf(e, "explain: not implemented yet")
	return exitUsage
}
