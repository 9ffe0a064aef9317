package puppetdb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// agentReport is the part of an agent's report (Puppet's report JSON,
// report_format 10 to 12) that store report carries.
type agentReport struct {
	Host                 string                     `json:"host"`
	Time                 string                     `json:"time"`
	ConfigurationVersion json.RawMessage            `json:"configuration_version"`
	TransactionUUID      *string                    `json:"transaction_uuid"`
	CatalogUUID          *string                    `json:"catalog_uuid"`
	CodeID               *string                    `json:"code_id"`
	JobID                *string                    `json:"job_id"`
	CachedCatalogStatus  *string                    `json:"cached_catalog_status"`
	ReportFormat         int                        `json:"report_format"`
	PuppetVersion        string                     `json:"puppet_version"`
	Status               string                     `json:"status"`
	Noop                 *bool                      `json:"noop"`
	NoopPending          *bool                      `json:"noop_pending"`
	Environment          *string                    `json:"environment"`
	CorrectiveChange     *bool                      `json:"corrective_change"`
	Logs                 []reportLog                `json:"logs"`
	Metrics              map[string]reportMetric    `json:"metrics"`
	ResourceStatuses     map[string]json.RawMessage `json:"resource_statuses"`
}

type reportLog struct {
	File    *string  `json:"file"`
	Line    *int     `json:"line"`
	Level   string   `json:"level"`
	Message string   `json:"message"`
	Source  string   `json:"source"`
	Tags    []string `json:"tags"`
	Time    string   `json:"time"`
}

type reportMetric struct {
	Name   string              `json:"name"`
	Values [][]json.RawMessage `json:"values"`
}

type resourceStatus struct {
	Title            string        `json:"title"`
	File             *string       `json:"file"`
	Line             *int          `json:"line"`
	ResourceType     string        `json:"resource_type"`
	ContainmentPath  []string      `json:"containment_path"`
	Time             string        `json:"time"`
	Skipped          bool          `json:"skipped"`
	CorrectiveChange *bool         `json:"corrective_change"`
	Events           []reportEvent `json:"events"`
}

type reportEvent struct {
	Status           *string         `json:"status"`
	Time             string          `json:"time"`
	Name             *string         `json:"name"`
	Property         *string         `json:"property"`
	DesiredValue     json.RawMessage `json:"desired_value"`
	PreviousValue    json.RawMessage `json:"previous_value"`
	CorrectiveChange *bool           `json:"corrective_change"`
	Message          *string         `json:"message"`
}

// Report builds store report v8's payload from an agent's report as the
// report processor does: times in wire format, end_time from the total
// time metric, metrics flattened to category/name/value, event values as
// Ruby's to_s, unchanged resources left out unless includeUnchanged, noop
// derived from the events when the report does not say. producer is the
// compile server's certname.
func Report(data []byte, producer string, at time.Time, includeUnchanged bool) ([]byte, error) {
	var r agentReport
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("Could not intern from json: %v", err)
	}
	if r.Environment == nil {
		return nil, fmt.Errorf("Environment is nil, unable to submit report. This may be due a bug with Puppet. Ensure you are running the latest revision, see PUP-2508 for more details.")
	}
	start, err := parseReportTime(r.Time)
	if err != nil {
		return nil, err
	}
	total := 0.0
	metrics := []map[string]any{}
	for _, cat := range sortedKeys(r.Metrics) {
		m := r.Metrics[cat]
		for _, v := range m.Values {
			if len(v) == 0 {
				continue
			}
			var name string
			json.Unmarshal(v[0], &name)
			val := numberOf(v[len(v)-1])
			if m.Name == "time" && name == "total" {
				total, _ = strconv.ParseFloat(string(val), 64)
			}
			metrics = append(metrics, map[string]any{"category": m.Name, "name": name, "value": val})
		}
	}
	end := start.Add(time.Duration(total * float64(time.Second)))
	resources := []map[string]any{}
	anyNoop, anyEnforced := false, false
	for _, key := range sortedKeys(r.ResourceStatuses) {
		var rs resourceStatus
		if err := json.Unmarshal(r.ResourceStatuses[key], &rs); err != nil {
			return nil, fmt.Errorf("Could not intern from json: %v", err)
		}
		events := []map[string]any{}
		for _, e := range rs.Events {
			et, err := parseReportTime(e.Time)
			if err != nil {
				return nil, err
			}
			if e.Status != nil {
				if *e.Status == "noop" {
					anyNoop = true
				} else {
					anyEnforced = true
				}
			}
			events = append(events, map[string]any{
				"status": e.Status, "timestamp": WireTime(et), "name": e.Name, "property": e.Property,
				"new_value": rubyToS(e.DesiredValue), "old_value": rubyToS(e.PreviousValue),
				"corrective_change": e.CorrectiveChange, "message": e.Message,
			})
		}
		if !includeUnchanged && len(events) == 0 && !rs.Skipped {
			continue
		}
		rt, err := parseReportTime(rs.Time)
		if err != nil {
			return nil, err
		}
		resources = append(resources, map[string]any{
			"skipped": rs.Skipped, "timestamp": WireTime(rt), "resource_type": rs.ResourceType,
			"resource_title": rs.Title, "file": rs.File, "line": rs.Line, "containment_path": rs.ContainmentPath,
			"corrective_change": rs.CorrectiveChange, "events": events,
		})
	}
	noop := anyNoop && !anyEnforced
	if r.Noop != nil {
		noop = *r.Noop
	}
	logs := make([]map[string]any, 0, len(r.Logs))
	for _, l := range r.Logs {
		lt, err := parseReportTime(l.Time)
		if err != nil {
			return nil, err
		}
		tags := l.Tags
		if tags == nil {
			tags = []string{}
		}
		logs = append(logs, map[string]any{"file": l.File, "line": l.Line, "level": l.Level, "message": l.Message,
			"source": l.Source, "tags": tags, "time": WireTime(lt)})
	}
	catalogUUID := r.CatalogUUID
	if catalogUUID == nil {
		catalogUUID = r.TransactionUUID
	}
	return marshal(map[string]any{
		"certname": r.Host, "job_id": r.JobID, "puppet_version": r.PuppetVersion, "report_format": r.ReportFormat,
		"configuration_version": rubyToS(r.ConfigurationVersion), "producer_timestamp": WireTime(at),
		"start_time": WireTime(start), "end_time": WireTime(end), "environment": *r.Environment,
		"transaction_uuid": r.TransactionUUID, "status": r.Status, "noop": noop, "noop_pending": r.NoopPending,
		"corrective_change": r.CorrectiveChange, "logs": logs, "metrics": metrics, "resources": resources,
		"catalog_uuid": catalogUUID, "code_id": r.CodeID, "cached_catalog_status": r.CachedCatalogStatus,
		"producer": producer,
	})
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// parseReportTime reads a report's timestamp (Ruby's Time as JSON,
// RFC 3339 with up to nanoseconds).
func parseReportTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("Could not intern from json: invalid time %q", s)
	}
	return t, nil
}

// numberOf keeps a metric value as JSON (a number, or what was sent).
func numberOf(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// rubyToS renders a JSON value as Ruby's to_s of the value the report
// held: strings as they are, nil as "", arrays and hashes inspected.
func rubyToS(raw json.RawMessage) string {
	v, err := decodeAny(raw)
	if err != nil || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return rubyInspect(v)
}

func rubyInspect(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case string:
		b, _ := json.Marshal(v)
		return string(b)
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = rubyInspect(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var b bytes.Buffer
		b.WriteByte('{')
		for i, k := range sortedKeys(v) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(rubyInspect(k) + "=>" + rubyInspect(v[k]))
		}
		b.WriteByte('}')
		return b.String()
	}
	return fmt.Sprint(v)
}
