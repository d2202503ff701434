package main

// Subcommands not built yet. Each moves to its own file when built.

func runAsk(e *env, args []string) int { errorf(e, "ask: not implemented yet"); return exitUsage }
