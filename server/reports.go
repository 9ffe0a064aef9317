package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// Puppet's report processors (the reports setting) that marionette
// serve runs: store (YAML files under reportdir), http (the YAML POSTed to
// reporturl), log (each report log line into the server's log), and
// puppetdb (the store report command, see puppetdb.go).

// reportProcessors are the processors of the reports setting, in order.
type reportProcessors struct {
	names []string
	store bool
	http  *url.URL
	log   bool
}

// ReportHTTPTimeout bounds the http processor's POST.
const ReportHTTPTimeout = 30 * time.Second

// parseReportProcessors reads the reports and reporturl settings; a
// processor marionette does not run is an error, so that a site does not
// silently lose its reports.
func parseReportProcessors(s *puppetconf.Settings) (*reportProcessors, error) {
	list := "store"
	if s.IsSet("reports") {
		list = s.Get("reports")
	}
	rp := &reportProcessors{names: []string{}}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case "", "none":
			continue
		case "store":
			rp.store = true
		case "log":
			rp.log = true
		case "puppetdb":
			// Sent as PuppetDB's store report command when the server has
			// a PuppetDB (storeconfigs, puppetdb.conf).
		case "http":
			raw := "http://localhost:3000/reports/upload"
			if s.IsSet("reporturl") {
				raw = s.Get("reporturl")
			}
			u, err := url.Parse(raw)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return nil, fmt.Errorf("reporturl %q: want an http or https URL", raw)
			}
			rp.http = u
		default:
			return nil, fmt.Errorf("reports: the report processor %q is not supported by marionette serve (store, http, log, puppetdb)", name)
		}
		rp.names = append(rp.names, name)
	}
	return rp, nil
}

// ReportYAML is a report (format 12 JSON, as agents send it) as Puppet's
// store and http processors write it: the report object's data as YAML,
// tagged as Puppet's report class.
func ReportYAML(reportJSON []byte) ([]byte, error) {
	v, err := dataformat.FromJSON(reportJSON, "report")
	if err != nil {
		return nil, err
	}
	if _, ok := v.(*value.Hash); !ok {
		return nil, fmt.Errorf("the report is not a JSON object")
	}
	doc, err := dataformat.YAML(v)
	if err != nil {
		return nil, err
	}
	body, ok := strings.CutPrefix(doc, "---")
	if !ok {
		return nil, fmt.Errorf("unexpected YAML document")
	}
	return []byte("--- !ruby/object:Puppet::Transaction::Report" + body), nil
}

// processReport runs the report processors on one node's report; their
// failures are logged, as Puppet logs them, and do not fail the agent's
// request.
func (s *Server) processReport(ctx context.Context, certname string, data []byte) error {
	rp := s.reports
	var yamlDoc []byte
	if rp.store || rp.http != nil {
		var err error
		if yamlDoc, err = ReportYAML(data); err != nil {
			return badRequest("Could not intern from json: %v", err)
		}
	}
	if rp.store {
		name := time.Now().UTC().Format("200601021504") + ".yaml"
		if err := writeFileAtomic(filepath.Join(s.reportDir, certname), name, yamlDoc); err != nil {
			return serverError(fmt.Sprintf("Could not write report for %s: %v", certname, err))
		}
	}
	if rp.http != nil {
		if err := s.postReport(ctx, rp.http, yamlDoc); err != nil {
			s.log.Error("Unable to submit report to "+redactURL(rp.http), "node", certname, "error", err)
		}
	}
	if rp.log {
		s.logReport(certname, data)
	}
	return nil
}

// postReport is the http processor: the YAML report POSTed to reporturl
// (basic authentication from its user info).
func (s *Server) postReport(ctx context.Context, u *url.URL, yamlDoc []byte) error {
	ctx, cancel := context.WithTimeout(ctx, ReportHTTPTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(yamlDoc))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-yaml")
	req.Header.Set("User-Agent", "Puppet/"+PuppetVersion)
	resp, err := s.reportClient().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("[%d] %s", resp.StatusCode, strings.TrimSpace(string(msg)))
	}
	return nil
}

// reportClient trusts the system's CAs and the Puppet CA, and presents
// the server's certificate, as Puppet's http processor does.
func (s *Server) reportClient() *http.Client {
	t := &http.Transport{Proxy: http.ProxyFromEnvironment, TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}
	if pool, err := x509.SystemCertPool(); err == nil {
		if pem, err := os.ReadFile(s.cfg.CAFile); err == nil {
			pool.AppendCertsFromPEM(pem)
		}
		t.TLSClientConfig.RootCAs = pool
	}
	if s.tls != nil {
		t.TLSClientConfig.Certificates = s.tls.Certificates
	}
	return &http.Client{Transport: t, Timeout: ReportHTTPTimeout}
}

func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// logReport is the log processor: each of the report's log lines into
// the server's log at its level.
func (s *Server) logReport(certname string, data []byte) {
	v, err := dataformat.FromJSON(data, "report")
	if err != nil {
		return
	}
	h, _ := v.(*value.Hash)
	logs, _ := hashGet(h, "logs").(value.Array)
	for _, l := range logs {
		e, ok := l.(*value.Hash)
		if !ok {
			continue
		}
		level := value.ToString(hashGet(e, "level"))
		lv := slog.LevelInfo
		switch level {
		case "debug":
			lv = slog.LevelDebug
		case "warning":
			lv = slog.LevelWarn
		case "err", "alert", "emerg", "crit":
			lv = slog.LevelError
		}
		s.log.Log(context.Background(), lv, value.ToString(hashGet(e, "source"))+": "+value.ToString(hashGet(e, "message")),
			"node", certname, "report_level", level)
	}
}
