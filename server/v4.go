package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/value"
)

// v4Request is the body of POST /puppet/v4/catalog.
type v4Request struct {
	Certname    string `json:"certname"`
	Environment string `json:"environment"`
	Persistence struct {
		Facts   bool `json:"facts"`
		Catalog bool `json:"catalog"`
	} `json:"persistence"`
	Facts *struct {
		Values json.RawMessage `json:"values"`
	} `json:"facts"`
	TrustedFacts *struct {
		Values json.RawMessage `json:"values"`
	} `json:"trusted_facts"`
	TransactionUUID string `json:"transaction_uuid"`
	JobID           string `json:"job_id"`
	Options         struct {
		PreferRequestedEnvironment bool   `json:"prefer_requested_environment"`
		CaptureLogs                bool   `json:"capture_logs"`
		LogLevel                   string `json:"log_level"`
	} `json:"options"`
}

// v4Log is one captured log entry of a v4 compile.
type v4Log struct {
	Level   string `json:"level"`
	Message string `json:"message"`
	Source  string `json:"source"`
	Tags    []any  `json:"tags"`
	Time    string `json:"time"`
	File    any    `json:"file"`
	Line    any    `json:"line"`
}

// v4Catalog compiles for a service (POST /puppet/v4/catalog): the request
// is JSON and names the node, facts and trusted facts itself.
func (s *Server) v4Catalog(w http.ResponseWriter, r *http.Request) error {
	data, err := readBody(r)
	if err != nil {
		return err
	}
	var req v4Request
	if err := json.Unmarshal(data, &req); err != nil {
		return badRequest("Invalid catalog request: %v", err)
	}
	if !names.ValidCertname(req.Certname) {
		return badRequest("Invalid certname '%s'", req.Certname)
	}
	if req.Environment == "" {
		return badRequest("An environment parameter must be specified")
	}
	if !names.ValidEnvironment(req.Environment) {
		return badRequest("The environment must be purely alphanumeric, not '%s'", req.Environment)
	}
	minLevel := diag.Info
	if req.Options.LogLevel != "" {
		lvl, ok := diag.ParseSeverity(req.Options.LogLevel)
		if !ok {
			return badRequest("Invalid log_level '%s'", req.Options.LogLevel)
		}
		minLevel = lvl
	}
	var facts *value.Hash
	if req.Facts != nil {
		// Re-wrap as Puppet's facts object for parseFacts.
		obj, _ := json.Marshal(struct {
			Name   string          `json:"name"`
			Values json.RawMessage `json:"values"`
		}{req.Certname, req.Facts.Values})
		f, raw, err := parseFacts(obj, req.Certname)
		if err != nil {
			return err
		}
		facts = f
		if req.Persistence.Facts {
			if err := s.saveFacts(req.Certname, raw); err != nil {
				return serverError(err.Error())
			}
		}
	} else {
		facts = s.cachedFacts(req.Certname)
	}
	// puppetserver compiles with $trusted exactly as the request gives it
	// (no hostname or domain added), and an empty hash without one.
	trusted := &compiler.TrustedInfo{Hash: value.EmptyHash}
	if req.TrustedFacts != nil && len(req.TrustedFacts.Values) > 0 && string(req.TrustedFacts.Values) != "null" {
		v, err := dataformat.FromJSON(req.TrustedFacts.Values, "trusted_facts")
		if err != nil {
			return badRequest("Invalid trusted_facts: %v", err)
		}
		h, ok := v.(*value.Hash)
		if !ok {
			return badRequest("Invalid trusted_facts: the values must be a hash")
		}
		trusted.Hash = h
	}

	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.CompileTimeout)
	defer cancel()
	st := s.site.Load()
	n, err := classify(ctx, st, req.Certname, req.Environment)
	if err != nil {
		return err
	}
	if req.Options.PreferRequestedEnvironment {
		n.Environment = req.Environment
	}
	env, err := loadEnvironment(ctx, st, n)
	if err != nil {
		return err
	}
	creq, err := st.Request(n, facts)
	if err != nil {
		return serverError(err.Error())
	}
	// As before the site layer: this endpoint compiles without
	// collecting from PuppetDB.
	creq.Store = nil
	creq.Trusted = trusted
	creq.KeepExported = true
	creq.ServerFacts = s.serverFacts
	result, err := s.compile(ctx, env, creq)
	if err != nil {
		return err
	}
	if err := s.setConfigVersion(ctx, st, n.Environment, result); err != nil {
		return err
	}
	logs := []v4Log{}
	if req.Options.CaptureLogs {
		now := time.Now().UTC().Format(time.RFC3339Nano)
		for _, d := range result.Diagnostics {
			if d.Severity > minLevel {
				continue
			}
			var file, line any
			if d.Range.Start.Filename != "" {
				file = d.Range.Start.Filename
			}
			if d.Range.Start.Line > 0 {
				line = d.Range.Start.Line
			}
			logs = append(logs, v4Log{Level: d.Severity.String(), Message: d.Message, Source: "Puppet", Tags: []any{d.Severity.String()}, Time: now, File: file, Line: line})
		}
	}
	var cat json.RawMessage = catalogJSON(result.Catalog)
	writeJSON(w, http.StatusOK, struct {
		Catalog json.RawMessage `json:"catalog"`
		Logs    []v4Log         `json:"logs"`
	}{cat, logs})
	return nil
}

func catalogJSON(c *catalog.Catalog) []byte {
	var b jsonBuffer
	_ = c.WriteJSON(&b)
	return b.buf
}

// jsonBuffer collects a catalog's JSON.
type jsonBuffer struct{ buf []byte }

func (b *jsonBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	return len(p), nil
}
