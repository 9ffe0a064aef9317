package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"time"
)

// factsTemplate writes the facts of run n as volatileFacts does, byte for
// byte, without decoding and encoding the whole facts at every run: the
// facts that do not change are encoded once.
type factsTemplate struct {
	fallback json.RawMessage // the facts, when they are not an object
	keys     []string        // every fact, volatile ones included, sorted
	keyJSON  map[string][]byte
	static   map[string][]byte // the encoded value of each fact
	memory   map[string]map[string]any
}

func newFactsTemplate(facts json.RawMessage) *factsTemplate {
	t := &factsTemplate{fallback: facts}
	var values map[string]json.RawMessage
	if err := json.Unmarshal(facts, &values); err != nil {
		return t
	}
	t.keyJSON, t.static = map[string][]byte{}, map[string][]byte{}
	for k, v := range values {
		t.static[k], _ = json.Marshal(v)
	}
	for k := range volatileValues(1, nil) {
		if _, ok := values[k]; !ok {
			values[k] = nil
		}
	}
	var memory map[string]map[string]any
	if raw, ok := values["memory"]; ok && json.Unmarshal(raw, &memory) == nil && memory["system"] != nil {
		t.memory = memory
		values["memory"] = nil
	}
	for k := range values {
		t.keys = append(t.keys, k)
		t.keyJSON[k], _ = json.Marshal(k)
	}
	sort.Strings(t.keys)
	return t
}

// run is the facts of run n.
func (t *factsTemplate) run(n int64) json.RawMessage {
	if t.keys == nil {
		return t.fallback
	}
	vol := volatileValues(n, t.memory)
	out := make([]byte, 0, 16<<10)
	out = append(out, '{')
	for i, k := range t.keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, t.keyJSON[k]...)
		out = append(out, ':')
		if v, ok := vol[k]; ok {
			out = append(out, v...)
		} else {
			out = append(out, t.static[k]...)
		}
	}
	return append(out, '}')
}

// volatileValues are the volatile facts of run n, encoded: what
// volatileFacts sets (memory only when memory, decoded, has a system
// hash: a copy of it is changed).
func volatileValues(n int64, memory map[string]map[string]any) map[string][]byte {
	vol := make(map[string][]byte, 10)
	secs := 86400 + 1800*n
	days := append(append(strconv.AppendInt([]byte(`"`), secs/86400, 10), " days"...), '"')
	vol["uptime_seconds"] = strconv.AppendInt(nil, secs, 10)
	vol["uptime_hours"] = strconv.AppendInt(nil, secs/3600, 10)
	vol["uptime_days"] = strconv.AppendInt(nil, secs/86400, 10)
	vol["uptime"] = days[:len(days):len(days)]
	// Keys as encoding/json sorts them.
	up := append([]byte(`{"days":`), vol["uptime_days"]...)
	up = append(append(up, `,"hours":`...), vol["uptime_hours"]...)
	up = append(append(up, `,"seconds":`...), vol["uptime_seconds"]...)
	vol["system_uptime"] = append(append(append(up, `,"uptime":`...), days...), '}')
	free := 1<<30 + (n%97)<<20
	mib := float64(free) / (1 << 20)
	vol["memoryfree_mb"] = jsonFloat(nil, mib)
	vol["memoryfree"] = append(strconv.AppendFloat([]byte(`"`), mib, 'f', 2, 64), ` MiB"`...)
	la := append(jsonFloat([]byte(`{"15m":`), float64(n%5)/10), `,"1m":`...)
	la = append(jsonFloat(la, float64(n%13)/10), `,"5m":`...)
	vol["load_averages"] = append(jsonFloat(la, float64(n%7)/10), '}')
	if memory != nil {
		m := make(map[string]map[string]any, len(memory))
		for k, v := range memory {
			m[k] = v
		}
		system := make(map[string]any, len(memory["system"])+2)
		for k, v := range memory["system"] {
			system[k] = v
		}
		system["available_bytes"] = free
		system["available"] = fmt.Sprintf("%.2f MiB", mib)
		if total, ok := system["total_bytes"].(float64); ok {
			system["used_bytes"] = int64(total) - free
		}
		m["system"] = system
		vol["memory"], _ = json.Marshal(m)
	}
	return vol
}

// jsonFloat appends f as encoding/json writes a float64 of this range
// (no exponent).
func jsonFloat(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'f', -1, 64) }

// agentForm is the form body of an agent's catalog request, as
// url.Values.Encode writes it (keys sorted): values (compact JSON, as
// encoding/json writes it) in the facts object of the run at now, which is
// escaped twice as the agent does.
func agentForm(certname, env string, values json.RawMessage, now time.Time) []byte {
	name, _ := json.Marshal(certname)
	facts := make([]byte, 0, len(values)+256)
	facts = append(facts, `{"expiration":"`...)
	facts = now.Add(30*time.Minute).AppendFormat(facts, agentTime)
	facts = append(append(append(facts, `","name":`...), name...), `,"timestamp":"`...)
	facts = now.AppendFormat(facts, agentTime)
	facts = append(append(append(facts, `","values":`...), values...), '}')
	head := url.Values{"check_environment": {"true"}, "checksum_type": {"sha256.sha384.sha512.sha224.md5"}, "environment": {env}}.Encode()
	tail := url.Values{"facts_format": {"application/json"}, "static_catalog": {"true"}, "transaction_uuid": {"00000000-0000-4000-8000-000000000000"}}.Encode()
	body := make([]byte, 0, 3*len(facts)+len(head)+len(tail)+16)
	body = append(append(body, head...), "&facts="...)
	body = appendQueryEscapeTwice(body, facts)
	return append(append(body, '&'), tail...)
}

// agentTime is the agent's time format in the facts object.
const agentTime = "2006-01-02T15:04:05.000000000-07:00"

// appendQueryEscapeTwice appends s escaped as url.QueryEscape escapes it,
// then escaped so again, in one pass: a byte kept is kept, a space is
// "%2B" ('+' escaped), any other byte "%25HH" ('%' escaped, then its hex
// digits, which are kept).
func appendQueryEscapeTwice(dst, s []byte) []byte {
	const hex = "0123456789ABCDEF"
	if n := len(dst) + 3*len(s); cap(dst) < n {
		dst = append(make([]byte, 0, n), dst...)
	}
	start := 0
	for i, c := range s {
		switch queryKeep[c] {
		case 1:
			continue
		case 2:
			dst = append(append(dst, s[start:i]...), "%2B"...)
		default:
			dst = append(append(dst, s[start:i]...), '%', '2', '5', hex[c>>4], hex[c&15])
		}
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// queryKeep is 1 for the bytes url.QueryEscape keeps, 2 for the space.
var queryKeep = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			t[c] = 1
		}
	}
	t[' '] = 2
	return t
}()
