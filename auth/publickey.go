package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// ParsePublicKeys reads one or more PEM blocks: PKIX public keys ("PUBLIC KEY"), PKCS #1 RSA
// public keys ("RSA PUBLIC KEY") or X.509 certificates ("CERTIFICATE", whose public key is
// used). Each key must be RSA of at least MinRSAKeyBits or ECDSA on P-256; private keys and
// other block types are refused.
func ParsePublicKeys(data []byte) ([]crypto.PublicKey, error) {
	var keys []crypto.PublicKey
	rest := data
	for n := 1; ; n++ {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		key, err := parsePEMBlock(block)
		if err != nil {
			return nil, fmt.Errorf("PEM block %d: %w", n, err)
		}
		if err := checkPublicKey(key); err != nil {
			return nil, fmt.Errorf("PEM block %d: %w", n, err)
		}
		keys = append(keys, key)
	}
	if strings.TrimSpace(string(rest)) != "" {
		return nil, errors.New("unparseable PEM (text outside or after the PEM blocks)")
	}
	if len(keys) == 0 {
		return nil, errors.New("no PEM block found")
	}
	return keys, nil
}

func parsePEMBlock(block *pem.Block) (crypto.PublicKey, error) {
	switch block.Type {
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("unparseable public key: %w", err)
		}
		return k, nil
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("unparseable RSA public key: %w", err)
		}
		return k, nil
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("unparseable certificate: %w", err)
		}
		return cert.PublicKey, nil
	}
	if strings.Contains(block.Type, "PRIVATE KEY") {
		return nil, fmt.Errorf("%q is a private key; give the public key", block.Type)
	}
	return nil, fmt.Errorf("unsupported PEM block type %q", block.Type)
}

// checkPublicKey accepts the key types and sizes that RS256 and ES256 verify with.
func checkPublicKey(k crypto.PublicKey) error {
	switch k := k.(type) {
	case *rsa.PublicKey:
		if k.N.BitLen() < MinRSAKeyBits {
			return fmt.Errorf("RSA key of %d bits; at least %d are required", k.N.BitLen(), MinRSAKeyBits)
		}
		return nil
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return fmt.Errorf("ECDSA key on %s; ES256 needs P-256", k.Curve.Params().Name)
		}
		return nil
	}
	return fmt.Errorf("unsupported key type %T (RSA or ECDSA P-256 only)", k)
}
