package auth

import (
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"

	"usertasks/auth/authtest"
)

func TestParsePublicKeys(t *testing.T) {
	t.Run("PKCS1RSA", func(t *testing.T) {
		block := pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&rsaKey().PublicKey)})
		keys, err := ParsePublicKeys(block)
		if err != nil {
			t.Fatal(err)
		}
		if !rsaKey().PublicKey.Equal(keys[0]) {
			t.Fatal("parsed key differs")
		}
	})
	t.Run("ErrEmpty", func(t *testing.T) {
		if _, err := ParsePublicKeys(nil); err == nil || !strings.Contains(err.Error(), "no PEM block") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrTrailingText", func(t *testing.T) {
		data := string(authtest.PublicKeyPEM(t, &ecKey().PublicKey)) + "trailing"
		if _, err := ParsePublicKeys([]byte(data)); err == nil || !strings.Contains(err.Error(), "unparseable PEM") {
			t.Fatalf("err = %v", err)
		}
	})
}
