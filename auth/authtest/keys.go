// Package authtest makes the key material that tests of token verification need: RSA and
// P-256 keys generated once per test binary, and their PEM encodings as an operator would
// configure them.
package authtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"sync"
	"testing"
	"time"
)

// RSAKey and ECKey are generated once per test binary; RSA generation is the slow part.
var (
	RSAKey = sync.OnceValue(func() *rsa.PrivateKey { return MustRSA(2048) })
	ECKey  = sync.OnceValue(func() *ecdsa.PrivateKey { return MustEC(elliptic.P256()) })
)

// MustRSA generates an RSA key of the given size.
func MustRSA(bits int) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		panic(err)
	}
	return k
}

// MustEC generates an ECDSA key on the curve.
func MustEC(c elliptic.Curve) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		panic(err)
	}
	return k
}

// PublicKeyPEM encodes a public key as a PKIX PEM block.
func PublicKeyPEM(t testing.TB, pub crypto.PublicKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// PrivateKeyPEM encodes a private key as a PKCS #8 PEM block (what must be refused where a
// public key is expected).
func PrivateKeyPEM(t testing.TB, key crypto.Signer) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// CertificatePEM encodes a self-signed certificate for priv, valid for two hours from notBefore.
func CertificatePEM(t testing.TB, priv crypto.Signer, notBefore time.Time) []byte {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "issuer"},
		NotBefore:    notBefore,
		NotAfter:     notBefore.Add(2 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, priv.Public(), priv)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
