package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/compiler"
)

// runBench compiles one node repeatedly in one process, the environment and
// data files parsed once (what a compile server does), and prints the
// timings as one JSON line: the counterpart of the shared benchmark's
// puppet-warm.rb, whose output fields it mirrors.
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	runs := fs.Int("runs", 20, "number of compiles")
	timeout := addTimeoutFlag(fs)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "usage: marionette bench NODE [--runs N] [compile flags]")
		fmt.Fprintln(w, "compiles NODE N times in one process and prints {env, n, resources, first_ms, median_ms, min_ms, stage_median_ms, rss_kb}")
		fs.PrintDefaults()
	}
	if !parseNodeArgs(fs, args, &f.node) {
		return 2
	}
	if f.node == "" || *runs < 1 {
		fs.Usage()
		return 2
	}
	if err := checkTimeout(*timeout); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	ctx := context.Background()
	pctx, cancel := context.WithTimeout(ctx, *timeout)
	st, env, req, err := prepareNode(pctx, &f, stderr, true, false)
	cancel()
	if err != nil {
		reportError(stderr, deadlineError(pctx, err, *timeout), f.node)
		return 1
	}
	defer st.Close()
	times := make([]time.Duration, *runs)
	stageTimes := map[string][]time.Duration{}
	var stageOrder []string
	resources := 0
	for i := range times {
		start := time.Now()
		cctx, cancel := context.WithTimeout(ctx, *timeout)
		res, err := compiler.Compile(cctx, env, req)
		if err == nil {
			err = res.Catalog.WriteJSON(io.Discard)
		}
		cancel()
		if err != nil {
			reportError(stderr, deadlineError(cctx, err, *timeout), f.node)
			return 1
		}
		times[i] = time.Since(start)
		resources = len(res.Catalog.Resources)
		for _, st := range res.Stages {
			if _, seen := stageTimes[st.Name]; !seen {
				stageOrder = append(stageOrder, st.Name)
			}
			stageTimes[st.Name] = append(stageTimes[st.Name], st.Duration)
		}
	}
	first := times[0]
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	stages := make(map[string]float64, len(stageOrder))
	for _, name := range stageOrder {
		stages[name] = ms(median(stageTimes[name]))
	}
	med := median(times)
	return writeJSONLine(stdout, stderr, map[string]any{
		"env": env.Name, "n": *runs, "resources": resources,
		"first_ms": ms(first), "median_ms": ms(med), "min_ms": ms(times[0]),
		"stage_median_ms": stages,
		"rss_kb":          peakRSSKB(),
	})
}

// median sorts ds and returns its middle element.
func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func writeJSONLine(stdout, stderr io.Writer, v any) int {
	if err := json.NewEncoder(stdout).Encode(v); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// peakRSSKB is the process's peak resident set (VmHWM), 0 where /proc is
// not available.
func peakRSSKB() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}
