// go-peer: a small Stateless OpenPGP CLI (SOP) subset over ProtonMail's
// go-crypto (openpgp/v2), used by the interop tests as an independent
// OpenPGP implementation of RFC 9580 v6 keys with RFC 9980 SLH-DSA.
//
// This file holds the command dispatch, the option parser, the SOP exit
// codes and the input/output helpers shared by the verbs.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
)

// SOP exit codes (draft-dkg-openpgp-stateless-cli).
const (
	exitOK                  = 0
	exitFailure             = 1
	exitNoSignature         = 3
	exitMissingArg          = 19
	exitUnsupportedOption   = 37
	exitBadData             = 41
	exitExpectedText        = 53
	exitMissingInput        = 61
	exitKeyIsProtected      = 67
	exitUnsupportedCommand  = 69
	exitIncompatibleOptions = 83
	exitUnsupportedProfile  = 89
)

const goCryptoModule = "github.com/ProtonMail/go-crypto"

// sopError is an error that carries the SOP exit code to end with.
type sopError struct {
	code int
	msg  string
}

func (e *sopError) Error() string { return e.msg }

func fail(code int, format string, args ...any) error {
	return &sopError{code, fmt.Sprintf(format, args...)}
}

type verb struct {
	run   func(o *opts) error
	flags []string // accepted options; a trailing "=" means it takes a value
}

var verbs = map[string]verb{
	"version":       {runVersion, []string{"--backend", "--extended"}},
	"list-profiles": {runListProfiles, nil},
	"generate-key":  {runGenerateKey, []string{"--no-armor", "--profile=", "--signing-only"}},
	"extract-cert":  {runExtractCert, []string{"--no-armor"}},
	"sign":          {runSign, []string{"--no-armor", "--as="}},
	"verify":        {runVerify, []string{"--not-before=", "--not-after="}},
	"inline-sign":   {runInlineSign, []string{"--no-armor", "--as="}},
	"inline-verify": {runInlineVerify, []string{"--not-before=", "--not-after=", "--verifications-out="}},
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "go-peer: usage: go-peer SUBCOMMAND [OPTIONS] [ARGS]")
		return exitUnsupportedCommand
	}
	v, ok := verbs[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "go-peer: unsupported subcommand %q\n", args[0])
		return exitUnsupportedCommand
	}
	err := func() error {
		o, err := parseOpts(args[1:], v.flags)
		if err != nil {
			return err
		}
		return v.run(o)
	}()
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(os.Stderr, "go-peer %s: %v\n", args[0], err)
	var se *sopError
	if errors.As(err, &se) {
		return se.code
	}
	return exitFailure
}

// opts is a parsed command line: options by name (without the leading
// dashes) and the positional arguments.
type opts struct {
	set  map[string]string
	args []string
}

func (o *opts) has(name string) bool { _, ok := o.set[name]; return ok }

func (o *opts) get(name, def string) string {
	if v, ok := o.set[name]; ok {
		return v
	}
	return def
}

// parseOpts accepts "--name", "--name=value" and "--name value" (for options
// that take a value); "--" ends the options.
func parseOpts(args []string, known []string) (*opts, error) {
	o := &opts{set: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.args = append(o.args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "--") {
			o.args = append(o.args, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		takesValue, ok := false, false
		for _, k := range known {
			if k == name || k == name+"=" {
				ok, takesValue = true, strings.HasSuffix(k, "=")
			}
		}
		if !ok {
			return nil, fail(exitUnsupportedOption, "unsupported option %s", name)
		}
		if takesValue && !hasValue {
			if i+1 == len(args) {
				return nil, fail(exitMissingArg, "option %s needs a value", name)
			}
			i++
			value = args[i]
		} else if !takesValue && hasValue {
			return nil, fail(exitUnsupportedOption, "option %s takes no value", name)
		}
		o.set[strings.TrimPrefix(name, "--")] = value
	}
	return o, nil
}

// goCryptoVersion is the version of go-crypto compiled in, from the build
// information.
func goCryptoVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == goCryptoModule {
				if dep.Replace != nil {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	return "unknown"
}

func runVersion(o *opts) error {
	if o.has("backend") {
		fmt.Printf("go-crypto %s\n", goCryptoVersion())
		return nil
	}
	fmt.Printf("go-peer %s\n", goCryptoVersion())
	if o.has("extended") {
		fmt.Printf("%s %s\n%s\n", goCryptoModule, goCryptoVersion(), runtime.Version())
	}
	return nil
}

// readFile reads a file named on the command line.
func readFile(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fail(exitMissingInput, "cannot read %s: %v", name, err)
	}
	return data, nil
}

func readStdin() ([]byte, error) {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	return data, nil
}

func isArmored(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("-----BEGIN PGP "))
}

// dearmor returns the packets of data: its armor body when armored (the armor
// type must be one of types), else data itself.
func dearmor(data []byte, what string, types ...string) (io.Reader, error) {
	if !isArmored(data) {
		return bytes.NewReader(data), nil
	}
	block, err := armor.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fail(exitBadData, "%s: bad armor: %v", what, err)
	}
	for _, t := range types {
		if block.Type == t {
			return block.Body, nil
		}
	}
	return nil, fail(exitBadData, "%s: unexpected armor type %q", what, block.Type)
}

// output writes what emit produces to stdout, armored with the given type
// unless noArmor. RFC 9580 armor has no CRC-24 for v6 data, so none is written.
func output(noArmor bool, armorType string, emit func(w io.Writer) error) error {
	if noArmor {
		return emit(os.Stdout)
	}
	w, err := armor.EncodeWithChecksumOption(os.Stdout, armorType, nil, false)
	if err != nil {
		return err
	}
	if err := emit(w); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	_, err = os.Stdout.Write([]byte("\n"))
	return err
}
