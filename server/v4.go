package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

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
		// The values decode straight to a hash; only facts that are to be
		// stored are wrapped as Puppet's facts object (and checked by the
		// same decoder as v3's).
		facts = value.EmptyHash
		if len(req.Facts.Values) > 0 && string(req.Facts.Values) != "null" {
			v, err := dataformat.FromJSON(req.Facts.Values, "facts")
			if err != nil {
				return badRequest("Could not intern from json: %v", err)
			}
			h, ok := v.(*value.Hash)
			if !ok {
				return badRequest("Could not intern from json: the facts' values are no hash")
			}
			facts = h
		}
		if req.Persistence.Facts {
			obj, _ := json.Marshal(struct {
				Name   string          `json:"name"`
				Values json.RawMessage `json:"values"`
			}{req.Certname, req.Facts.Values})
			_, raw, err := parseFacts(obj, req.Certname)
			if err != nil {
				return err
			}
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
	logsJSON, err := json.Marshal(logs)
	if err != nil {
		return serverError(err.Error())
	}
	// {"catalog":CATALOG,"logs":[...]}, the catalog encoded straight to
	// the connection (no copy of it is validated and re-encoded).
	w.Header().Set("Content-Type", "application/json")
	writeCompressed(w, r, compressCatalog(r, result.Catalog), func(out io.Writer) error {
		if _, err := io.WriteString(out, `{"catalog":`); err != nil {
			return err
		}
		if err := result.Catalog.WriteJSON(trailingNewlineDropper{out}); err != nil {
			return err
		}
		if _, err := io.WriteString(out, `,"logs":`); err != nil {
			return err
		}
		if _, err := out.Write(logsJSON); err != nil {
			return err
		}
		_, err := io.WriteString(out, "}")
		return err
	})
	return nil
}

// trailingNewlineDropper drops the newline that ends a catalog's JSON, so
// that it can sit inside another object as a compact value: the catalog
// encoder writes no other raw newline (strings escape theirs), and only
// its last write ends with one.
type trailingNewlineDropper struct{ w io.Writer }

func (d trailingNewlineDropper) Write(p []byte) (int, error) {
	n := len(p)
	if n > 0 && p[n-1] == '\n' {
		p = p[:n-1]
	}
	if _, err := d.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}
