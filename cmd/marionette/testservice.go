package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/marionette-dev/marionette/testcompile"
)

// runTestService implements "marionette test-service [--socket PATH]": the
// warm compile service module test suites call (package testcompile), one
// JSON request per line on stdin and one response per line on stdout, or
// on each connection to a unix socket.
func runTestService(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("test-service", flag.ContinueOnError)
	fs.SetOutput(stderr)
	socket := fs.String("socket", "", "serve on this unix socket instead of stdin and stdout")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: marionette test-service [--socket PATH]")
		fmt.Fprintln(fs.Output(), "Compiles catalogs and calls functions for rspec-puppet suites (rspec/marionette_rspec.rb).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	confdir, err := testcompile.TempConfdir()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	defer os.RemoveAll(confdir)
	svc := testcompile.New(confdir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *socket == "" {
		if err := svc.Serve(ctx, os.Stdin, stdout); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		return 0
	}
	ln, err := net.Listen("unix", *socket)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return 0
			}
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		go func() {
			defer conn.Close()
			if err := svc.Serve(ctx, conn, conn); err != nil {
				fmt.Fprintf(stderr, "Error: %v\n", err)
			}
		}()
	}
}
