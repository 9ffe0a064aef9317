package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

// DefaultPuppetDBQueue is how many PuppetDB commands may wait for
// submission when Config.PuppetDBQueue is 0.
const DefaultPuppetDBQueue = 1000

// pdbWorkers is how many queued commands are submitted at once.
const pdbWorkers = 4

// pdbCommand is one command for PuppetDB.
type pdbCommand struct {
	name     string
	version  int
	certname string
	payload  []byte
}

// pdbWriter submits the commands Puppet's termini submit: replace facts
// when a catalog request brings facts, replace catalog after a compile,
// store report on a report. A command whose failure does not fail the
// request (every command with soft_write_failure; store report always, as
// Puppet's report processors only log) need not be waited for: it is
// queued (bounded) and a worker submits it; a full queue makes the request
// submit its own command, so nothing is dropped. Otherwise the request
// submits and fails as Puppet's does. Every failure is logged.
type pdbWriter struct {
	client   *puppetdb.Client
	log      *slog.Logger
	producer string
	// soft is soft_write_failure: no command fails a request.
	soft bool
	// termini: what goes to PuppetDB.
	termini puppetdb.Termini
	queue   chan pdbCommand
	// mu guards closed; wg counts the worker.
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

func newPDBWriter(c *puppetdb.Client, queue int, log *slog.Logger, producer string, termini *puppetdb.Termini) *pdbWriter {
	t := puppetdb.AllTermini()
	if termini != nil {
		t = *termini
	}
	if c == nil || !t.Any() {
		return nil
	}
	if queue <= 0 {
		queue = DefaultPuppetDBQueue
	}
	w := &pdbWriter{client: c, log: log, producer: producer, soft: c.Config().SoftWriteFailure, termini: t}
	w.queue = make(chan pdbCommand, queue)
	// PuppetDB accepts a command in tens of milliseconds (it persists it
	// before answering): one worker would drain slower than compiles fill
	// the queue. Commands are independent (each carries its producer
	// timestamp), so order across workers does not matter.
	for i := 0; i < pdbWorkers; i++ {
		w.wg.Add(1)
		go w.work()
	}
	return w
}

func (w *pdbWriter) work() {
	defer w.wg.Done()
	for cmd := range w.queue {
		// The client logs a soft failure itself; the error is for the
		// others.
		if err := w.send(context.Background(), cmd); err != nil {
			w.log.Error(err.Error(), "node", cmd.certname, "command", cmd.name)
		}
	}
}

// send submits one command within the client's timeouts.
func (w *pdbWriter) send(ctx context.Context, cmd pdbCommand) error {
	_, err := w.client.SubmitCommand(ctx, cmd.name, cmd.version, cmd.certname, cmd.payload)
	return err
}

// submit queues or sends a command; an error is for the request to fail
// with (never when deferrable or with soft_write_failure).
func (w *pdbWriter) submit(ctx context.Context, cmd pdbCommand, deferrable bool) error {
	if deferrable || w.soft {
		w.mu.Lock()
		if !w.closed {
			select {
			case w.queue <- cmd:
				w.mu.Unlock()
				return nil
			default:
				w.log.Warn("PuppetDB command queue full: submitting in the request", "node", cmd.certname, "command", cmd.name)
			}
		}
		w.mu.Unlock()
	}
	err := w.send(ctx, cmd)
	if err != nil {
		w.log.Error(err.Error(), "node", cmd.certname, "command", cmd.name)
	}
	if deferrable {
		return nil
	}
	return err
}

// depth is how many commands wait in the queue.
func (w *pdbWriter) depth() int {
	if w == nil || w.queue == nil {
		return 0
	}
	return len(w.queue)
}

// close submits what is queued and stops the worker.
func (w *pdbWriter) close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.queue)
	}
	w.mu.Unlock()
	w.wg.Wait()
}

// storeFacts submits replace facts for a catalog request's facts, as the
// facts terminus saves them before the compile.
func (s *Server) storeFacts(ctx context.Context, certname, env string, facts *value.Hash, trusted *compiler.TrustedInfo) error {
	if s.pdb == nil || !s.pdb.termini.Facts || facts == nil {
		return nil
	}
	var th *value.Hash
	if trusted != nil {
		th = compiler.TrustedHash(trusted)
	}
	payload, err := puppetdb.Facts(certname, env, s.pdb.producer, time.Now(), facts, th)
	if err != nil {
		return serverError(fmt.Sprintf("Could not retrieve facts for %s: %v", certname, err))
	}
	if err := s.pdb.submit(ctx, pdbCommand{puppetdb.ReplaceFacts, puppetdb.ReplaceFactsVersion, certname, payload}, false); err != nil {
		return serverError(fmt.Sprintf("Failed when searching for node %s: Could not retrieve facts for %s: %v", certname, certname, err))
	}
	return nil
}

// storeFactsDuring starts storeFacts for a catalog request and returns
// the wait for its outcome. Without soft_write_failure the agent waits
// for PuppetDB to accept the facts before it gets a catalog, and a
// failure fails the request with Puppet's message; the submission runs
// while the catalog compiles, and the caller waits for it before it
// looks at the compile's outcome or submits the catalog, so the agent
// sees what it would see with the facts stored first (PuppetDB gets facts
// before the catalog too), one PuppetDB round trip sooner.
func (s *Server) storeFactsDuring(ctx context.Context, certname, env string, facts *value.Hash, trusted *compiler.TrustedInfo) (wait func() error) {
	if s.pdb == nil || !s.pdb.termini.Facts || facts == nil || s.pdb.soft {
		// Nothing to do, or only queued: no round trip to hide.
		err := s.storeFacts(ctx, certname, env, facts, trusted)
		return func() error { return err }
	}
	done := make(chan error, 1)
	go func() { done <- s.storeFacts(ctx, certname, env, facts, trusted) }()
	return func() error { return <-done }
}

// storeCatalog submits replace catalog after a successful compile, as the
// catalog terminus caches it.
func (s *Server) storeCatalog(ctx context.Context, env *compiler.Environment, res *compiler.Result, transactionUUID, jobID string) error {
	if s.pdb == nil || !s.pdb.termini.Catalogs || res.StoreCatalog == nil {
		return nil
	}
	payload, err := puppetdb.Catalog(res.StoreCatalog, puppetdb.CatalogInfo{
		TransactionUUID: transactionUUID, JobID: jobID, Producer: s.pdb.producer, At: time.Now(),
		KeyAttributes: puppetdb.TypeKeys(env.Types),
	})
	if err != nil {
		return serverError(err.Error() + " on node " + res.StoreCatalog.Name)
	}
	if err := s.pdb.submit(ctx, pdbCommand{puppetdb.ReplaceCatalog, puppetdb.ReplaceCatalogVersion, res.StoreCatalog.Name, payload}, false); err != nil {
		var ce *puppetdb.CommandError
		if errors.As(err, &ce) {
			err = ce.Err
		}
		return serverError(err.Error())
	}
	return nil
}

// lookupFacts finds a node's facts in PuppetDB for a catalog request
// that brings none, as the puppetdb facts terminus does; ok is false when
// PuppetDB is not the facts terminus.
func (s *Server) lookupFacts(ctx context.Context, certname string) (facts *value.Hash, ok bool, err error) {
	if s.pdb == nil || !s.pdb.termini.FactsFind {
		return nil, false, nil
	}
	facts, err = s.site.Load().Facts(ctx, site.FactsSource{Kind: site.FactsPuppetDB}, certname)
	if errors.Is(err, puppetdb.ErrNoFacts) {
		return value.EmptyHash, true, nil
	}
	if err != nil {
		return nil, true, serverError(fmt.Sprintf("Failed when searching for node %s: %v", certname, err))
	}
	return facts, true, nil
}

// storeReport submits store report for an agent's report, as the
// puppetdb report processor does; its failure is logged, never the
// request's.
func (s *Server) storeReport(ctx context.Context, certname string, report []byte) {
	if s.pdb == nil {
		return
	}
	payload, err := puppetdb.Report(report, s.pdb.producer, time.Now(), s.pdb.client.Config().IncludeUnchangedResources)
	if err != nil {
		s.log.Error("Report processor failed: "+err.Error(), "node", certname)
		return
	}
	_ = s.pdb.submit(ctx, pdbCommand{puppetdb.StoreReport, puppetdb.StoreReportVersion, certname, payload}, true)
}

// Close submits the PuppetDB commands still queued, writes the facts
// still queued, stops both writers and releases catalog reuse's directory
// watches; the server should not serve afterwards.
func (s *Server) Close() {
	s.pdb.close()
	s.factsOut.close()
	if s.reuse != nil {
		s.reuse.close()
	}
}

// PuppetDBQueueDepth is how many PuppetDB commands wait for submission.
func (s *Server) PuppetDBQueueDepth() int { return s.pdb.depth() }
