// Verification: verify (detached signatures) and inline-verify (one-pass-signed
// messages and cleartext-signed messages), with SOP VERIFICATIONS lines.
package main

import (
	"bytes"
	goerrors "errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	"github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	pgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

var algoNames = map[packet.PublicKeyAlgorithm]string{
	packet.PubKeyAlgoSlhdsaShake128s: "SLH-DSA-SHAKE-128s",
	packet.PubKeyAlgoSlhdsaShake128f: "SLH-DSA-SHAKE-128f",
	packet.PubKeyAlgoSlhdsaShake256s: "SLH-DSA-SHAKE-256s",
}

// window is the --not-before / --not-after range a good signature's
// creation time must fall in.
type window struct{ notBefore, notAfter date }

// date is a SOP DATE: a time, no limit (zero), or "now", which is read when
// the signatures are checked (after the input: in a pipeline the signer may
// finish after the verifier started).
type date struct {
	t   time.Time
	now bool
}

func (d date) at() time.Time {
	if d.now {
		return time.Now()
	}
	return d.t
}

func parseWindow(o *opts) (w window, err error) {
	if w.notBefore, err = parseDate(o.get("not-before", "-")); err != nil {
		return w, err
	}
	w.notAfter, err = parseDate(o.get("not-after", "now"))
	return w, err
}

// parseDate reads "-" (no limit), "now", or an ISO-8601 date.
func parseDate(s string) (date, error) {
	switch s {
	case "-":
		return date{}, nil
	case "now":
		return date{now: true}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05Z0700", "20060102T150405Z", "2006-01-02T15:04Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return date{t: t}, nil
		}
	}
	return date{}, fail(exitUnsupportedOption, "unrecognised DATE %q (want ISO-8601, \"now\" or \"-\")", s)
}

// verifications returns one SOP VERIFICATIONS line per good signature in md
// (which must have been read to the end) and, on stderr, says why each other
// signature does not count.
func verifications(md *pgp.MessageDetails, win window) []string {
	var lines []string
	notBefore, notAfter := win.notBefore.at(), win.notAfter.at()
	for _, c := range md.SignatureCandidates {
		sig := c.CorrespondingSig
		var reason string
		switch {
		case c.SignatureError != nil:
			reason = c.SignatureError.Error()
		case c.SignedBy == nil || sig == nil:
			reason = "no certificate for issuer"
		case !notBefore.IsZero() && sig.CreationTime.Before(notBefore.Truncate(time.Second)):
			reason = "made before --not-before"
		case !notAfter.IsZero() && sig.CreationTime.After(notAfter):
			reason = "made after --not-after"
		}
		if reason != "" {
			fmt.Fprintf(os.Stderr, "go-peer: signature by key ID %016X not counted: %s\n", c.IssuerKeyId, reason)
			continue
		}
		mode := "binary"
		if sig.SigType == packet.SigTypeText {
			mode = "text"
		}
		algo, ok := algoNames[sig.PubKeyAlgo]
		if !ok {
			algo = fmt.Sprintf("public-key algorithm %d", sig.PubKeyAlgo)
		}
		lines = append(lines, fmt.Sprintf("%s %X %X mode:%s go-crypto %s: v%d %s signature, %s",
			sig.CreationTime.UTC().Format("2006-01-02T15:04:05Z"),
			c.SignedBy.PublicKey.Fingerprint, c.SignedBy.Entity.PrimaryKey.Fingerprint,
			mode, goCryptoVersion(), sig.Version, algo, sig.Hash))
	}
	return lines
}

func runVerify(o *opts) error {
	if len(o.args) < 2 {
		return fail(exitMissingArg, "usage: verify SIGFILE CERTFILE... < DATA")
	}
	win, err := parseWindow(o)
	if err != nil {
		return err
	}
	sigData, err := readFile(o.args[0])
	if err != nil {
		return err
	}
	sigs, err := dearmor(sigData, o.args[0], pgp.SignatureType)
	if err != nil {
		return err
	}
	ring, err := readCerts(o.args[1:])
	if err != nil {
		return err
	}
	md, err := pgp.VerifyDetachedSignatureReader(ring, os.Stdin, sigs, &packet.Config{})
	if goerrors.Is(err, errors.ErrUnknownIssuer) {
		return fail(exitBadData, "%s: no signature packet found", o.args[0])
	} else if err != nil {
		return fail(exitBadData, "%s: %v", o.args[0], err)
	}
	if _, err := io.Copy(io.Discard, md.UnverifiedBody); err != nil {
		return fail(exitBadData, "%v", err)
	}
	lines := verifications(md, win)
	if len(lines) == 0 {
		return fail(exitNoSignature, "no good signature")
	}
	for _, l := range lines {
		fmt.Println(l)
	}
	return nil
}

// runInlineVerify checks a cleartext-signed message or a (one-pass-)signed
// message, armored or binary, and writes the signed data only when at least
// one signature is good.
func runInlineVerify(o *opts) error {
	win, err := parseWindow(o)
	if err != nil {
		return err
	}
	ring, err := readCerts(o.args)
	if err != nil {
		return err
	}
	in, err := readStdin()
	if err != nil {
		return err
	}
	var md *pgp.MessageDetails
	var data []byte
	config := &packet.Config{}
	if bytes.HasPrefix(bytes.TrimLeft(in, " \t\r\n"), []byte("-----BEGIN PGP SIGNED MESSAGE-----")) {
		block, _ := clearsign.Decode(in)
		if block == nil {
			return fail(exitBadData, "malformed cleartext-signed message")
		}
		md, err = pgp.VerifyDetachedSignatureReader(ring, bytes.NewReader(block.Bytes), block.ArmoredSignature.Body, config)
		data = block.Plaintext
	} else {
		var body io.Reader
		if body, err = dearmor(in, "standard input", pgp.MessageType); err != nil {
			return err
		}
		md, err = pgp.ReadMessage(body, ring, nil, config)
	}
	if goerrors.Is(err, errors.ErrUnknownIssuer) {
		return fail(exitBadData, "no signature packet found")
	} else if err != nil {
		return fail(exitBadData, "%v", err)
	}
	read, err := io.ReadAll(md.UnverifiedBody)
	if err != nil {
		return fail(exitBadData, "%v", err)
	}
	if data == nil {
		data = read
	}
	if !md.IsSigned {
		return fail(exitNoSignature, "the message is not signed")
	}
	lines := verifications(md, win)
	if len(lines) == 0 {
		return fail(exitNoSignature, "no good signature")
	}
	if f := o.get("verifications-out", ""); f != "" {
		if err := os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	_, err = os.Stdout.Write(data)
	return err
}
