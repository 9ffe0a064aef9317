package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// minter issues client certificates from the CA's key, so that a fleet
// run can be many nodes without a CSR round trip per node: the server
// only checks the chain and the CN, as it does an agent's.
type minter struct {
	ca     *x509.Certificate
	caKey  crypto.Signer
	serial atomic.Int64
}

func newMinter(caFile, keyFile string) (*minter, error) {
	cert, err := readPEM(caFile, "CERTIFICATE")
	if err != nil {
		return nil, err
	}
	ca, err := x509.ParseCertificate(cert)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", caFile, err)
	}
	keyDER, err := readPEM(keyFile, "")
	if err != nil {
		return nil, err
	}
	var key any
	if key, err = x509.ParsePKCS8PrivateKey(keyDER); err != nil {
		if key, err = x509.ParsePKCS1PrivateKey(keyDER); err != nil {
			if key, err = x509.ParseECPrivateKey(keyDER); err != nil {
				return nil, fmt.Errorf("%s: not a private key", keyFile)
			}
		}
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%s: not a signing key", keyFile)
	}
	m := &minter{ca: ca, caKey: signer}
	// Serials far from the CA's own, unique within the run.
	m.serial.Store(time.Now().UnixNano())
	return m, nil
}

func readPEM(file, typ string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return nil, fmt.Errorf("%s: no %s PEM block", file, typ)
		}
		if typ == "" || b.Type == typ {
			return b.Bytes, nil
		}
	}
}

// cert issues a one-day client certificate for certname with a fresh
// P-256 key (cheap, unlike RSA key generation).
func (m *minter) cert(certname string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(m.serial.Add(1)),
		Subject:      pkix.Name{CommonName: certname},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, m.ca, &key.PublicKey, m.caKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

// fleetName is the certname of fleet node i.
func (c *config) fleetName(i int) string { return fmt.Sprintf(c.fleetPattern, i+1) }

// fleet runs -fleet nodes once each, as their agents would: its own
// certificate and connection, GET node then POST catalog, the facts with
// the facts file's certname replaced by the node's. -clients nodes run
// at once. Every node is counted (no warm-up).
func (l *loader) fleet() (map[string]any, error) {
	m, err := newMinter(l.c.caFile, l.c.caKeyFile)
	if err != nil {
		return nil, err
	}
	var orig struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(mustRead(l.c.factsFile), &orig)
	if orig.Name == "" {
		orig.Name = l.c.certname
	}
	var (
		next     atomic.Int64
		errs     atomic.Int64
		firstErr atomic.Value
		mu       sync.Mutex
		catLat   []time.Duration
		wg       sync.WaitGroup
	)
	ctx, cancel := context.WithTimeout(context.Background(), l.c.timeout)
	defer cancel()
	start := time.Now()
	for w := 0; w < l.c.clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= l.c.fleet {
					return
				}
				lat, err := l.fleetRun(ctx, m, l.c.fleetName(i), orig.Name)
				if err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err)
					continue
				}
				mu.Lock()
				catLat = append(catLat, lat)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	res := map[string]any{
		"mode": "fleet", "clients": l.c.clients, "environment": l.c.env,
		"nodes": l.c.fleet, "catalogs": len(catLat), "errors": errs.Load(),
		"seconds":          round(elapsed.Seconds(), 1),
		"catalogs_per_sec": round(float64(len(catLat))/elapsed.Seconds(), 2),
		"catalog_p50_ms":   ms(percentile(catLat, 50)),
		"catalog_p99_ms":   ms(percentile(catLat, 99)),
		"catalog_max_ms":   ms(percentile(catLat, 100)),
	}
	if ctx.Err() != nil {
		res["timed_out"] = true
	}
	if e, ok := firstErr.Load().(error); ok {
		res["first_error"] = e.Error()
	}
	return res, nil
}

func mustRead(file string) []byte {
	data, _ := os.ReadFile(file)
	return data
}

// fleetRun is one node's agent run; it returns the catalog's latency.
func (l *loader) fleetRun(ctx context.Context, m *minter, certname, factsName string) (time.Duration, error) {
	cert, err := m.cert(certname)
	if err != nil {
		return 0, err
	}
	nl := *l
	nl.c.certname = certname
	nl.c.mode = "v3" // the agent's requests, which write to PuppetDB
	nl.tls = l.tls.Clone()
	nl.tls.Certificates = []tls.Certificate{cert}
	if factsName != "" {
		nl.facts = bytes.ReplaceAll(l.facts, []byte(factsName), []byte(certname))
	}
	nl.tmplOnce, nl.tmpl = new(sync.Once), nil // this node's facts
	tr := nl.transport()
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: l.c.timeout}
	req, _ := http.NewRequestWithContext(ctx, "GET", nl.c.base+"/puppet/v3/node/"+url.PathEscape(certname)+"?environment="+url.QueryEscape(nl.c.env)+"&configured_environment="+url.QueryEscape(nl.c.env), nil)
	req.Header.Set("Accept", "application/json")
	chk := nl.newChecker()
	var buf bytes.Buffer
	if r := do(client, req, &buf, chk.node); r.err != nil {
		return 0, fmt.Errorf("%s: node: %v", certname, r.err)
	}
	creq, err := nl.catalogRequest(ctx)
	if err != nil {
		return 0, err
	}
	r := do(client, creq, &buf, chk.catalog)
	if r.err != nil {
		return 0, fmt.Errorf("%s: catalog: %v", certname, r.err)
	}
	return r.latency, nil
}

// errFleetFlags is the misuse of -fleet.
var errFleetFlags = errors.New("-fleet needs -cakey (the CA's private key, to issue each node's certificate) and -fleet-pattern with one %d")
