package invitations_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
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

	"usertasks/invitations"
)

// relay is an in-process SMTP server with STARTTLS and AUTH PLAIN that keeps what it receives.
type relay struct {
	host     string
	port     int
	pool     *x509.CertPool
	mu       sync.Mutex
	received []receivedMail
	refuse   string // a recipient answered 550
}

type receivedMail struct {
	user, from string
	to         []string
	data       []byte
	tls        bool
}

func startRelay(t *testing.T) *relay { return startRelayTLS(t, "starttls") }

// startRelayTLS starts the relay: "starttls" offers STARTTLS, "implicit" speaks TLS from the
// first byte (port 465 style), "none" offers no TLS at all.
func startRelayTLS(t *testing.T, mode string) *relay {
	t.Helper()
	cert, pool := selfSigned(t)
	r := &relay{pool: pool}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &relaySession{r: r, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 5*time.Second, 5*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "implicit":
		l = tls.NewListener(l, srv.TLSConfig)
	case "none":
		srv.TLSConfig, srv.AllowInsecureAuth = nil, true
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	r.host, r.port = "localhost", l.Addr().(*net.TCPAddr).Port
	return r
}

func (r *relay) mails() []receivedMail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]receivedMail(nil), r.received...)
}

type relaySession struct {
	r    *relay
	conn *smtp.Conn
	cur  receivedMail
}

func (s *relaySession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *relaySession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "mailer" || pass != "s3cret-pass" {
			return smtp.ErrAuthFailed
		}
		s.cur.user = user
		return nil
	}), nil
}
func (s *relaySession) Mail(from string, _ *smtp.MailOptions) error {
	if s.cur.user == "" {
		return smtp.ErrAuthRequired
	}
	s.cur.from = from
	return nil
}
func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == s.r.refuse {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user " + to}
	}
	s.cur.to = append(s.cur.to, to)
	return nil
}
func (s *relaySession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, s.cur.tls = s.conn.TLSConnectionState()
	s.cur.data = b
	s.r.mu.Lock()
	s.r.received = append(s.r.received, s.cur)
	s.r.mu.Unlock()
	return nil
}
func (s *relaySession) Reset()        { s.cur = receivedMail{user: s.cur.user} }
func (s *relaySession) Logout() error { return nil }

// selfSigned makes a certificate for localhost and a pool trusting it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
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

func smtpDispatcher(t *testing.T, r *relay, pass string, trust bool) *invitations.SMTP {
	t.Helper()
	tc := &tls.Config{ServerName: "localhost", RootCAs: r.pool}
	if !trust {
		tc = &tls.Config{ServerName: "localhost"}
	}
	d, err := invitations.NewSMTP(invitations.SMTPConfig{Host: r.host, Port: r.port, Username: "mailer", Password: pass,
		From: "User Tasks <tasks@example.org>", TLSConfig: tc, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var smtpMessage = invitations.Message{Tenant: "t1", TaskID: "task-1", InvitationID: "inv-1", Recipient: "guest@example.net",
	Link: invitations.Link("https://tasks.example.org/app", "tok_EN-x"), Code: "042137", ExpiresAt: time.Date(2026, 12, 10, 9, 30, 0, 0, time.UTC)}

func TestSMTPSendsOverSTARTTLSWithAuth(t *testing.T) {
	r := startRelay(t)
	if err := smtpDispatcher(t, r, "s3cret-pass", true).Dispatch(context.Background(), smtpMessage); err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	got := r.mails()
	if len(got) != 1 {
		t.Fatalf("%d mails received", len(got))
	}
	m := got[0]
	if !m.tls || m.user != "mailer" || m.from != "tasks@example.org" || len(m.to) != 1 || m.to[0] != "guest@example.net" {
		t.Fatalf("envelope %+v", m)
	}
	msg, err := mail.ReadMessage(strings.NewReader(string(m.data)))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Header.Get("Subject") != "You are invited to complete a task" || !strings.Contains(msg.Header.Get("To"), "guest@example.net") {
		t.Fatalf("headers %v", msg.Header)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q %v", mt, err)
	}
	parts := map[string]string{}
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
	text, html := parts["text/plain"], parts["text/html"]
	for _, want := range []string{smtpMessage.Link, "042137", "10 December 2026, 09:30 UTC"} {
		if !strings.Contains(text, want) {
			t.Errorf("plain text lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(html, `href="https://tasks.example.org/app/guest?t=tok_EN-x"`) || !strings.Contains(html, "042137") {
		t.Errorf("html body:\n%s", html)
	}
}

func TestSMTPSendsOverImplicitTLS(t *testing.T) {
	r := startRelayTLS(t, "implicit")
	d, err := invitations.NewSMTP(invitations.SMTPConfig{Host: r.host, Port: r.port, Username: "mailer", Password: "s3cret-pass",
		From: "tasks@example.org", TLS: invitations.SMTPTLS, TLSConfig: &tls.Config{ServerName: "localhost", RootCAs: r.pool}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Dispatch(context.Background(), smtpMessage); err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	if got := r.mails(); len(got) != 1 || !got[0].tls || got[0].user != "mailer" {
		t.Fatalf("mails %+v", got)
	}
	t.Run("STARTTLSRequiredButNotOffered", func(t *testing.T) {
		// A relay that speaks TLS at once cannot be reached by a client expecting STARTTLS.
		d, _ := invitations.NewSMTP(invitations.SMTPConfig{Host: r.host, Port: r.port, From: "tasks@example.org",
			TLSConfig: &tls.Config{ServerName: "localhost", RootCAs: r.pool}, Timeout: time.Second})
		if err := d.Dispatch(context.Background(), smtpMessage); err == nil {
			t.Fatal("sent without the TLS the configuration requires")
		}
	})
}

func TestSMTPFailuresAreRetriedWithASafeCode(t *testing.T) {
	r := startRelay(t)
	r.refuse = "nobody@example.net"
	cases := []struct {
		name string
		d    *invitations.SMTP
		m    invitations.Message
		want string
	}{
		{"WrongPassword", smtpDispatcher(t, r, "wrong-password-xyz", true), smtpMessage, "smtp-auth-535"},
		{"RecipientRefused", smtpDispatcher(t, r, "s3cret-pass", true), func() invitations.Message {
			m := smtpMessage
			m.Recipient = r.refuse
			return m
		}(), "smtp-rcpt-550"},
		{"UntrustedCertificate", smtpDispatcher(t, r, "s3cret-pass", false), smtpMessage, "smtp-tls"},
		{"NoRecipient", smtpDispatcher(t, r, "s3cret-pass", true), invitations.Message{Link: "x"}, invitations.CodeUnknownRecipient},
		{"BadRecipient", smtpDispatcher(t, r, "s3cret-pass", true), invitations.Message{Recipient: "not an address\r\nBcc: x@y"}, "smtp-bad-recipient"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.d.Dispatch(context.Background(), c.m)
			if got := invitations.ErrorCode(err); got != c.want {
				t.Fatalf("code %q (%v), want %q", got, err, c.want)
			}
			for _, secret := range []string{"wrong-password-xyz", "s3cret-pass", "example.net", "tok_EN-x", "042137", "no such user"} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error %q repeats %q", err, secret)
				}
			}
		})
	}
	if n := len(r.mails()); n != 0 {
		t.Fatalf("%d mails went out", n)
	}
	t.Run("RelayWithoutSTARTTLS", func(t *testing.T) {
		plain := startRelayTLS(t, "none")
		err := smtpDispatcher(t, plain, "s3cret-pass", true).Dispatch(context.Background(), smtpMessage)
		if got := invitations.ErrorCode(err); got != "smtp-tls" || len(plain.mails()) != 0 {
			t.Fatalf("code %q (%v), %d mails", got, err, len(plain.mails()))
		}
	})
	t.Run("Unreachable", func(t *testing.T) {
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		d, _ := invitations.NewSMTP(invitations.SMTPConfig{Host: "127.0.0.1", Port: port, From: "a@example.org", Timeout: time.Second})
		if got := invitations.ErrorCode(d.Dispatch(context.Background(), smtpMessage)); got != "smtp-unreachable" {
			t.Fatalf("code %q", got)
		}
	})
}

func TestSMTPConfigRefusals(t *testing.T) {
	for name, cfg := range map[string]invitations.SMTPConfig{
		"NoHost":         {From: "a@example.org"},
		"BadTLSMode":     {Host: "h", From: "a@example.org", TLS: "ssl"},
		"PasswordNoUser": {Host: "h", From: "a@example.org", Password: "p"},
		"BadFrom":        {Host: "h", From: "not an address"},
		"NoFrom":         {Host: "h"},
		"BadPort":        {Host: "h", From: "a@example.org", Port: 70000},
	} {
		if _, err := invitations.NewSMTP(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
