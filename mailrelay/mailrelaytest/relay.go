// Package mailrelaytest is an in-process SMTP relay for tests (github.com/emersion/go-smtp):
// STARTTLS or implicit TLS with a certificate the test trusts, AUTH PLAIN, and every message it
// accepted kept for the test to read back.
package mailrelaytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"usertasks/mailrelay"
)

// The relay's one account.
const (
	User     = "mailer"
	Password = "s3cret-pass"
)

// Relay is a running relay.
type Relay struct {
	Host string
	Port int
	Pool *x509.CertPool // trusts the relay's certificate
	// CertPEM is the relay's certificate in PEM, for a process of its own to trust (a child
	// `web serve` reads it through SSL_CERT_FILE).
	CertPEM []byte

	mu       sync.Mutex
	received []Mail
	refuse   string
}

// Mail is one accepted message.
type Mail struct {
	User, From string
	To         []string
	Data       []byte
	TLS        bool
}

// Start starts a relay offering STARTTLS and AUTH PLAIN; it stops with the test.
func Start(t testing.TB) *Relay {
	t.Helper()
	cert, pool := selfSigned(t)
	r := &Relay{Pool: pool, CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{r: r, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 5*time.Second, 5*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	r.Host, r.Port = "localhost", l.Addr().(*net.TCPAddr).Port
	return r
}

// Config is a relay configuration that reaches r over STARTTLS with its account.
func (r *Relay) Config(from string) mailrelay.Config {
	return mailrelay.Config{Host: r.Host, Port: r.Port, Username: User, Password: Password, From: from,
		TLSConfig: &tls.Config{ServerName: "localhost", RootCAs: r.Pool}, Timeout: 5 * time.Second}
}

// Refuse makes the relay answer RCPT TO address with 550.
func (r *Relay) Refuse(address string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refuse = address
}

// Mails are the messages accepted so far.
func (r *Relay) Mails() []Mail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Mail(nil), r.received...)
}

// Read parses m: its header and its parts by media type (text/plain, text/html), with the
// transfer encoding undone.
func Read(t testing.TB, m Mail) (mail.Header, map[string]string) {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(string(m.Data)))
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("content type: %v", err)
	}
	parts := map[string]string{}
	if !strings.HasPrefix(mt, "multipart/") {
		b, _ := io.ReadAll(msg.Body)
		parts[mt] = string(b)
		return msg.Header, parts
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p) // multipart.Reader undoes quoted-printable
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		parts[ct] = string(b)
	}
	return msg.Header, parts
}

type session struct {
	r    *Relay
	conn *smtp.Conn
	cur  Mail
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != User || pass != Password {
			return smtp.ErrAuthFailed
		}
		s.cur.User = user
		return nil
	}), nil
}
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.cur.User == "" {
		return smtp.ErrAuthRequired
	}
	s.cur.From = from
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.r.mu.Lock()
	refused := to == s.r.refuse
	s.r.mu.Unlock()
	if refused {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user " + to}
	}
	s.cur.To = append(s.cur.To, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, s.cur.TLS = s.conn.TLSConnectionState()
	s.cur.Data = b
	s.r.mu.Lock()
	s.r.received = append(s.r.received, s.cur)
	s.r.mu.Unlock()
	return nil
}
func (s *session) Reset()        { s.cur = Mail{User: s.cur.User} }
func (s *session) Logout() error { return nil }

// selfSigned makes a certificate for localhost and a pool trusting it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
