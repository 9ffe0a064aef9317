package puppetdb

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// TestActiveNodesPages: the listing asks page by page with limit, offset
// and order_by, stops after a short page, and stops when fn fails.
func TestActiveNodesPages(t *testing.T) {
	all := []string{"a", "b", "c", "d", "e"}
	var asked []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path != "/pdb/query/v4/nodes" || q.Get("order_by") == "" || !strings.Contains(q.Get("query"), "facts_timestamp") {
			http.Error(w, "unexpected "+r.URL.String(), http.StatusBadRequest)
			return
		}
		limit, _ := strconv.Atoi(q.Get("limit"))
		offset, _ := strconv.Atoi(q.Get("offset"))
		asked = append(asked, q.Get("offset"))
		var rows []string
		for i := offset; i < offset+limit && i < len(all); i++ {
			rows = append(rows, `{"certname":"`+all[i]+`"}`)
		}
		w.Write([]byte("[" + strings.Join(rows, ",") + "]"))
	}))
	defer ts.Close()
	c, err := NewURL(ts.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := c.ActiveNodes(context.Background(), 2, func(n string) error { got = append(got, n); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "a b c d e" || strings.Join(asked, " ") != "0 2 4" {
		t.Errorf("got %v after offsets %v", got, asked)
	}
	stop := errors.New("stop")
	asked = nil
	err = c.ActiveNodes(context.Background(), 2, func(n string) error {
		if n == "c" {
			return stop
		}
		return nil
	})
	if err != stop || strings.Join(asked, " ") != "0 2" {
		t.Errorf("err %v after offsets %v", err, asked)
	}
}

// TestNodeFactsAnswers: facts in the terminus's order with integral numbers as
// Integer; an unknown node is ErrNoFacts; a server error is worded as the
// facts terminus words it.
func TestNodeFactsAnswers(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pdb/query/v4/nodes/web01/facts":
			w.Write([]byte(`[{"certname":"web01","name":"os","value":{"family":"Debian"}},{"certname":"web01","name":"count","value":2}]`))
		case "/pdb/query/v4/nodes/bad/facts":
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte("no\nway"))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"No information is known about node nope"}`))
		}
	}))
	defer ts.Close()
	c, err := NewURL(ts.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	f, err := c.NodeFacts(ctx, "web01")
	if err != nil {
		t.Fatal(err)
	}
	if got := value.ToString(f); got != "{count => 2, os => {family => Debian}}" {
		t.Errorf("facts %s", got)
	}
	if n, _ := f.GetString("count"); n != value.Integer(2) {
		t.Errorf("count is %#v, want Integer 2", n)
	}
	if _, err := c.NodeFacts(ctx, "nope"); !errors.Is(err, ErrNoFacts) {
		t.Errorf("unknown node: %v", err)
	}
	_, err = c.NodeFacts(ctx, "bad")
	if want := "Failed to find facts from PuppetDB at  [400 Bad Request] noway"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestLiveActiveNodesAndFacts: a node whose facts were replaced is listed
// (across pages of one) and its facts read back equal.
func TestLiveActiveNodesAndFacts(t *testing.T) {
	c := livePuppetDB(t)
	ctx := context.Background()
	name := uniqueCertname("fleet")
	facts := value.NewHash(value.String("role"), value.String("web"), value.String("cpus"), value.Integer(4))
	fp, err := Facts(name, "production", "marionette.test", time.Now(), facts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(ctx, ReplaceFacts, ReplaceFactsVersion, name, fp); err != nil {
		t.Fatal(err)
	}
	waitFor(t, c, "nodes/"+name+"/facts", nil, func(rows []any) bool { return len(rows) > 0 })
	var listed []string
	if err := c.ActiveNodes(ctx, 1, func(n string) error { listed = append(listed, n); return nil }); err != nil {
		t.Fatal(err)
	}
	found := false
	for i, n := range listed {
		found = found || n == name
		if i > 0 && listed[i-1] >= n {
			t.Errorf("not in certname order or repeated: %s after %s", n, listed[i-1])
		}
	}
	if !found {
		t.Errorf("%s not among %d active nodes", name, len(listed))
	}
	got, err := c.NodeFacts(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"role", "cpus"} {
		want, _ := facts.GetString(k)
		if v, _ := got.GetString(k); !value.Equal(v, want) {
			t.Errorf("%s = %v, want %v", k, v, want)
		}
	}
	batched, err := c.NewFactsBatch([]string{name, "never.example.com"}, 0).Facts(ctx, name)
	if err != nil || value.ToString(batched) != value.ToString(got) {
		t.Errorf("batch read %v (%v), NodeFacts %v", batched, err, got)
	}
	if _, err := c.NodeFacts(ctx, uniqueCertname("never")); !errors.Is(err, ErrNoFacts) {
		t.Errorf("unknown node: %v", err)
	}
}

// TestFactsBatchPages: one POST per page of nodes, facts in the
// terminus's order; a page is dropped once all its nodes were asked for; a node of
// the list PuppetDB lacks is ErrNoFacts; a node outside the list is read
// on its own.
func TestFactsBatchPages(t *testing.T) {
	var mu sync.Mutex
	posts, gets := 0, 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodGet {
			gets++
			w.Write([]byte(`[{"name":"solo","value":true}]`))
			return
		}
		posts++
		var q struct{ Query []any }
		json.NewDecoder(r.Body).Decode(&q)
		names := q.Query[2].([]any)[2].([]any)[1].([]any)
		var rows []string
		for _, n := range names {
			if n == "gone" {
				continue
			}
			rows = append(rows, `{"certname":"`+n.(string)+`","facts":{"data":[{"name":"z","value":1},{"name":"a","value":"`+n.(string)+`"}]}}`)
		}
		w.Write([]byte("[" + strings.Join(rows, ",") + "]"))
	}))
	defer ts.Close()
	c, err := NewURL(ts.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	b := c.NewFactsBatch([]string{"n1", "n2", "gone", "n4", "n5"}, 2)
	for _, n := range []string{"n1", "n2", "n4", "n5"} {
		f, err := b.Facts(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		if got := value.ToString(f); got != "{z => 1, a => "+n+"}" {
			t.Errorf("%s: %s", n, got)
		}
	}
	if _, err := b.Facts(ctx, "gone"); !errors.Is(err, ErrNoFacts) {
		t.Errorf("gone: %v", err)
	}
	if _, err := b.Facts(ctx, "other"); err != nil {
		t.Errorf("other: %v", err)
	}
	if posts != 3 || gets != 1 {
		t.Errorf("%d POSTs and %d GETs, want 3 and 1", posts, gets)
	}
	if len(b.pages) != 0 {
		t.Errorf("%d pages kept after every node was read", len(b.pages))
	}
}

// TestFactsOrderWhateverTheAnswer: a PuppetDB whose two endpoints answer
// the same facts in different orders (each unlike the stored order) still
// gives one $facts order, the terminus's, read alone or in a batch; a fact
// named twice keeps its last value.
func TestFactsOrderWhateverTheAnswer(t *testing.T) {
	// The terminus's order: jsonb's (shorter first, then bytewise), reversed.
	want := "{zeta => 1, aaa => 5, é => 8, os => {z => 1, a => 2}, mm => 3, bb => 4, Zz => 7, a => 9, B => 6}"
	single := `[{"name":"a","value":2},{"name":"B","value":6},{"name":"mm","value":3},{"name":"Zz","value":7},{"name":"zeta","value":1},` +
		`{"name":"os","value":{"z":1,"a":2}},{"name":"bb","value":4},{"name":"é","value":8},{"name":"aaa","value":5},{"name":"a","value":9}]`
	batch := `[{"certname":"n1","facts":{"data":[{"name":"é","value":8},{"name":"a","value":2},{"name":"bb","value":4},{"name":"zeta","value":1},` +
		`{"name":"Zz","value":7},{"name":"os","value":{"z":1,"a":2}},{"name":"aaa","value":5},{"name":"mm","value":3},{"name":"B","value":6},{"name":"a","value":9}]}}]`
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Write([]byte(single))
			return
		}
		w.Write([]byte(batch))
	}))
	defer ts.Close()
	c, err := NewURL(ts.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	alone, err := c.NodeFacts(ctx, "n1")
	if err != nil {
		t.Fatal(err)
	}
	batched, err := c.NewFactsBatch([]string{"n1"}, 0).Facts(ctx, "n1")
	if err != nil {
		t.Fatal(err)
	}
	for what, f := range map[string]*value.Hash{"NodeFacts": alone, "FactsBatch": batched} {
		if got := value.ToString(f); got != want {
			t.Errorf("%s: %s\nwant %s", what, got, want)
		}
	}
}

// TestLiveFactsOrder: against a real PuppetDB, a node's facts read on
// their own and in a batch come in one order, terminusFacts', whatever
// order PuppetDB answers in (it guarantees none: two fresh PuppetDB 7
// starts answered /nodes/<certname>/facts in jsonb's key order and in its
// reverse), with every fact PuppetDB holds; for names that differ in
// length, case and encoding.
func TestLiveFactsOrder(t *testing.T) {
	c := livePuppetDB(t)
	ctx := context.Background()
	name := uniqueCertname("order")
	var kv []value.Value
	for i, k := range []string{"zeta", "a", "mm", "bb", "aaa", "B", "Zz", "é", "os_release", "_x", "9", "kernel", "A-b.c", "ÉÉ"} {
		kv = append(kv, value.String(k), value.Integer(int64(i)))
	}
	facts := value.NewHash(kv...)
	fp, err := Facts(name, "production", "marionette.test", time.Now(), facts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(ctx, ReplaceFacts, ReplaceFactsVersion, name, fp); err != nil {
		t.Fatal(err)
	}
	rows := waitFor(t, c, "nodes/"+name+"/facts", nil, func(r []any) bool { return len(r) > 0 })
	var answer []string
	for _, r := range rows {
		answer = append(answer, r.(map[string]any)["name"].(string))
	}
	got, err := c.NodeFacts(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, k := range got.Keys() {
		keys = append(keys, string(k.(value.String)))
	}
	sortedKeys, sortedAnswer := slices.Sorted(slices.Values(keys)), slices.Sorted(slices.Values(answer))
	if !slices.Equal(sortedKeys, sortedAnswer) {
		t.Errorf("facts %q\nPuppetDB's answer %q", keys, answer)
	}
	if !slices.IsSortedFunc(keys, terminusCompare) {
		t.Errorf("facts not in terminusFacts' order: %q", keys)
	}
	batched, err := c.NewFactsBatch([]string{name}, 0).Facts(ctx, name)
	if err != nil || value.ToString(batched) != value.ToString(got) {
		t.Errorf("batch read %v (%v), NodeFacts %v", batched, err, got)
	}
}
