// Signing: sign (detached signatures) and inline-sign (one-pass-signed
// messages and the cleartext signature framework).
package main

import (
	"bytes"
	"crypto"
	"io"
	"os"
	"unicode/utf8"

	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	pgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// signConfig leaves the hash to go-crypto: with SHA-256 as the configured
// default it signs with SHA-256 for SLH-DSA-SHAKE-128s/128f (when the key
// prefers it) and SHA-512 for SLH-DSA-SHAKE-256s, which it never pairs with a
// hash shorter than 512 bits.
func signConfig() *packet.Config {
	return &packet.Config{DefaultHash: crypto.SHA256}
}

// readSignInput reads the data to sign and the signing mode from --as.
func readSignInput(o *opts, modes ...string) (data []byte, mode string, err error) {
	mode = o.get("as", "binary")
	ok := false
	for _, m := range modes {
		ok = ok || m == mode
	}
	if !ok {
		return nil, "", fail(exitUnsupportedOption, "unsupported --as=%s", mode)
	}
	if data, err = readStdin(); err != nil {
		return nil, "", err
	}
	if mode != "binary" && !utf8.Valid(data) {
		return nil, "", fail(exitExpectedText, "--as=%s needs UTF-8 text", mode)
	}
	return data, mode, nil
}

func runSign(o *opts) error {
	keys, err := readSecretKeys(o.args)
	if err != nil {
		return err
	}
	data, mode, err := readSignInput(o, "binary", "text")
	if err != nil {
		return err
	}
	params := &pgp.SignParams{TextSig: mode == "text", Config: signConfig()}
	return output(o.has("no-armor"), pgp.SignatureType, func(w io.Writer) error {
		return pgp.DetachSignWithParams(w, keys, bytes.NewReader(data), params)
	})
}

func runInlineSign(o *opts) error {
	keys, err := readSecretKeys(o.args)
	if err != nil {
		return err
	}
	data, mode, err := readSignInput(o, "binary", "text", "clearsigned")
	if err != nil {
		return err
	}
	config := signConfig()
	if mode == "clearsigned" {
		if o.has("no-armor") {
			return fail(exitIncompatibleOptions, "--as=clearsigned cannot be --no-armor")
		}
		return clearSign(keys, data, config)
	}
	params := &pgp.SignParams{
		TextSig: mode == "text",
		Hints:   &pgp.FileHints{IsUTF8: mode == "text"},
		Config:  config,
	}
	return output(o.has("no-armor"), pgp.MessageType, func(w io.Writer) error {
		in, err := pgp.SignWithParams(w, keys, params)
		if err != nil {
			return err
		}
		if _, err := in.Write(data); err != nil {
			return err
		}
		return in.Close()
	})
}

// clearSign writes a cleartext-signed message (RFC 9580 section 7). go-crypto's
// clearsign package takes one hash for all signers and, unlike openpgp/v2,
// does not know that SLH-DSA-SHAKE-256s needs a 512-bit digest (RFC 9980), so
// SHA-512 is asked for whenever a 256s key signs.
func clearSign(keys pgp.EntityList, data []byte, config *packet.Config) error {
	var signers []*packet.PrivateKey
	for _, e := range keys {
		k, ok := e.SigningKey(config.Now(), config)
		if !ok || k.PrivateKey == nil {
			return fail(exitBadData, "%X has no usable signing key", e.PrimaryKey.Fingerprint)
		}
		if k.PublicKey.PubKeyAlgo == packet.PubKeyAlgoSlhdsaShake256s {
			config.DefaultHash = crypto.SHA512
		}
		signers = append(signers, k.PrivateKey)
	}
	w, err := clearsign.EncodeMulti(os.Stdout, signers, config)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	_, err = os.Stdout.Write([]byte("\n"))
	return err
}
