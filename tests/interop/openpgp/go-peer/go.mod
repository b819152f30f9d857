module sphincs.test/go-peer

go 1.23.0

require github.com/ProtonMail/go-crypto v1.5.2

require (
	github.com/cloudflare/circl v1.6.3 // indirect
	golang.org/x/crypto v0.41.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
)
