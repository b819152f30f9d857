// Keys and certificates: generate-key, extract-cert, list-profiles, and
// reading the KEYFILE / CERTFILE arguments of the other verbs.
package main

import (
	"crypto"
	"fmt"
	"io"
	"regexp"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
	pgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// profiles maps the generate-key profiles to RFC 9980 algorithms; the first
// is the default.
var profiles = []struct {
	name string
	algo packet.PublicKeyAlgorithm
	hash crypto.Hash // the hash for the key's self-signatures and preferences
	desc string
}{
	{"slh-dsa-shake-128s", packet.PubKeyAlgoSlhdsaShake128s, crypto.SHA256, "v6 SLH-DSA-SHAKE-128s primary key (algorithm 32)"},
	{"slh-dsa-shake-128f", packet.PubKeyAlgoSlhdsaShake128f, crypto.SHA256, "v6 SLH-DSA-SHAKE-128f primary key (algorithm 33)"},
	{"slh-dsa-shake-256s", packet.PubKeyAlgoSlhdsaShake256s, crypto.SHA512, "v6 SLH-DSA-SHAKE-256s primary key (algorithm 34)"},
}

func runListProfiles(o *opts) error {
	if len(o.args) != 1 {
		return fail(exitMissingArg, "usage: list-profiles SUBCOMMAND")
	}
	if o.args[0] != "generate-key" {
		return fail(exitUnsupportedProfile, "no profiles for %q", o.args[0])
	}
	for i, p := range profiles {
		def := ""
		if i == 0 {
			def = " (default)"
		}
		fmt.Printf("%s: %s%s\n", p.name, p.desc, def)
	}
	return nil
}

// userIDPattern splits "Name (comment) <email>", each part optional, the
// form go-crypto builds User IDs from.
var userIDPattern = regexp.MustCompile(`^([^()<>]*?)\s*(?:\(([^()<>]*)\))?\s*(?:<([^()<>]*)>)?$`)

// runGenerateKey makes an unprotected v6 key whose primary key is SLH-DSA
// (sign and certify). go-crypto always adds an ML-KEM + ECDH encryption
// subkey; --signing-only (as in SOP) drops it.
func runGenerateKey(o *opts) error {
	name := o.get("profile", profiles[0].name)
	if name == "default" {
		name = profiles[0].name
	}
	idx := -1
	for i, p := range profiles {
		if p.name == name {
			idx = i
		}
	}
	if idx < 0 {
		return fail(exitUnsupportedProfile, "unsupported profile %q (see list-profiles generate-key)", name)
	}
	config := &packet.Config{
		V6Keys:      true,
		Algorithm:   profiles[idx].algo,
		DefaultHash: profiles[idx].hash,
	}

	var entity *pgp.Entity
	var err error
	if len(o.args) == 0 {
		entity, err = pgp.NewEntityWithoutId(config)
	} else {
		n, c, e, perr := splitUserID(o.args[0])
		if perr != nil {
			return perr
		}
		entity, err = pgp.NewEntity(n, c, e, config)
		for _, uid := range o.args[1:] {
			if err != nil {
				break
			}
			n, c, e, perr := splitUserID(uid)
			if perr != nil {
				return perr
			}
			err = entity.AddUserId(n, c, e, config)
		}
	}
	if err != nil {
		return fmt.Errorf("go-crypto key generation: %w", err)
	}
	if o.has("signing-only") {
		entity.Subkeys = nil
	}
	return output(o.has("no-armor"), pgp.PrivateKeyType, func(w io.Writer) error {
		// The self-signatures were just made: no need to make them again.
		return entity.SerializePrivateWithoutSigning(w, config)
	})
}

func splitUserID(uid string) (name, comment, email string, err error) {
	m := userIDPattern.FindStringSubmatch(uid)
	if m == nil {
		return "", "", "", fail(exitBadData, "User ID %q: go-crypto builds User IDs as \"name (comment) <email>\" and this one does not fit", uid)
	}
	return m[1], m[2], m[3], nil
}

func runExtractCert(o *opts) error {
	if len(o.args) != 0 {
		return fail(exitUnsupportedOption, "extract-cert takes no arguments")
	}
	data, err := readStdin()
	if err != nil {
		return err
	}
	keys, err := readEntities(data, "standard input")
	if err != nil {
		return err
	}
	return output(o.has("no-armor"), pgp.PublicKeyType, func(w io.Writer) error {
		for _, e := range keys {
			if err := e.Serialize(w); err != nil {
				return err
			}
		}
		return nil
	})
}

// readEntities parses one or more keys or certificates, armored or binary.
func readEntities(data []byte, what string) (pgp.EntityList, error) {
	body, err := dearmor(data, what, pgp.PublicKeyType, pgp.PrivateKeyType)
	if err != nil {
		return nil, err
	}
	list, err := pgp.ReadKeyRing(body)
	if err != nil {
		return nil, fail(exitBadData, "%s: not an OpenPGP key or certificate: %v", what, err)
	}
	if len(list) == 0 {
		return nil, fail(exitBadData, "%s: no key or certificate found", what)
	}
	return list, nil
}

// readCerts reads every CERTFILE into one key ring.
func readCerts(files []string) (pgp.EntityList, error) {
	if len(files) == 0 {
		return nil, fail(exitMissingArg, "no CERTFILE given")
	}
	var ring pgp.EntityList
	for _, f := range files {
		data, err := readFile(f)
		if err != nil {
			return nil, err
		}
		list, err := readEntities(data, f)
		if err != nil {
			return nil, err
		}
		ring = append(ring, list...)
	}
	return ring, nil
}

// readSecretKeys reads every KEYFILE; each key must hold an unprotected
// secret primary key.
func readSecretKeys(files []string) (pgp.EntityList, error) {
	if len(files) == 0 {
		return nil, fail(exitMissingArg, "no KEYFILE given")
	}
	var keys pgp.EntityList
	for _, f := range files {
		data, err := readFile(f)
		if err != nil {
			return nil, err
		}
		list, err := readEntities(data, f)
		if err != nil {
			return nil, err
		}
		for _, e := range list {
			if e.PrivateKey == nil {
				return nil, fail(exitBadData, "%s: %X is a certificate, not a secret key", f, e.PrimaryKey.Fingerprint)
			}
			if e.PrivateKey.Encrypted {
				return nil, fail(exitKeyIsProtected, "%s: %X is password-protected", f, e.PrimaryKey.Fingerprint)
			}
			keys = append(keys, e)
		}
	}
	return keys, nil
}
