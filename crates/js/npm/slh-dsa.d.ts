// Types of slh-dsa-wasm (and slh-dsa-wasm/slh-dsa.js): the surface of
// @noble/post-quantum/slh-dsa.js, plus key files, batches and signAsync.

/** Byte lengths of a parameter set. */
export type Lengths = Readonly<{
  publicKey: number;
  secretKey: number;
  signature: number;
  seed: number;
  signRand: number;
}>;

/** Signing options: a context of at most 255 bytes; `extraEntropy` absent for
 * fresh randomness (hedged), `false` for deterministic, or signRand bytes. */
export type SignOpts = { context?: Uint8Array; extraEntropy?: Uint8Array | false };
/** Verification options. */
export type VerOpts = { context?: Uint8Array };

/** A hash function as noble-hashes makes them: callable, with its DER OID. */
export type PreHashFunction = ((msg: Uint8Array) => Uint8Array) & { oid?: Uint8Array };

export interface Signer {
  readonly info: { type: string };
  readonly lengths: Lengths;
  /** A key pair; from a seed of `lengths.seed` bytes (SK.seed ‖ SK.prf ‖ PK.seed) if given. */
  keygen(seed?: Uint8Array): { publicKey: Uint8Array; secretKey: Uint8Array };
  getPublicKey(secretKey: Uint8Array): Uint8Array;
  sign(msg: Uint8Array, secretKey: Uint8Array, opts?: SignOpts): Uint8Array;
  /** False for a signature that does not verify (or has the wrong length);
   * throws an Error for a malformed key or context. */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerOpts): boolean;
  /** `sign` in a worker (worker_threads in Node, a Web Worker in browsers). */
  signAsync(msg: Uint8Array, secretKey: Uint8Array, opts?: SignOpts): Promise<Uint8Array>;
  /** RFC 9909 PKCS#8 / SubjectPublicKeyInfo, PEM or DER. */
  secretKeyToPem(secretKey: Uint8Array): string;
  secretKeyToDer(secretKey: Uint8Array): Uint8Array;
  publicKeyToPem(publicKey: Uint8Array): string;
  publicKeyToDer(publicKey: Uint8Array): Uint8Array;
}

export interface SlhDsa extends Signer {
  readonly securityLevel: number;
  /** FIPS 205's internal functions (Algorithms 19 and 20) on M' as given. */
  readonly internal: Omit<Signer, 'signAsync' | 'secretKeyToPem' | 'secretKeyToDer' | 'publicKeyToPem' | 'publicKeyToDer'> & {
    sign(msg: Uint8Array, secretKey: Uint8Array, opts?: { extraEntropy?: Uint8Array | false }): Uint8Array;
    verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array): boolean;
  };
  /** HashSLH-DSA (FIPS 205 §10.2.2) with this pre-hash (e.g. noble's sha256). */
  prehash(hash: PreHashFunction): Signer;
}

export declare const slh_dsa_sha2_128f: SlhDsa;
export declare const slh_dsa_sha2_128s: SlhDsa;
export declare const slh_dsa_sha2_192f: SlhDsa;
export declare const slh_dsa_sha2_192s: SlhDsa;
export declare const slh_dsa_sha2_256f: SlhDsa;
export declare const slh_dsa_sha2_256s: SlhDsa;
export declare const slh_dsa_shake_128f: SlhDsa;
export declare const slh_dsa_shake_128s: SlhDsa;
export declare const slh_dsa_shake_192f: SlhDsa;
export declare const slh_dsa_shake_192s: SlhDsa;
export declare const slh_dsa_shake_256f: SlhDsa;
export declare const slh_dsa_shake_256s: SlhDsa;

/** A key read from an RFC 9909 file; `hashMode` when its OID is a HashSLH-DSA one. */
export type ImportedPublicKey = { algorithm: SlhDsa; hashMode: boolean; publicKey: Uint8Array };
export type ImportedSecretKey = ImportedPublicKey & { secretKey: Uint8Array };
export declare function importSecretKey(input: string | Uint8Array): ImportedSecretKey;
export declare function importPublicKey(input: string | Uint8Array): ImportedPublicKey;

export type BatchItem = {
  algorithm: Signer;
  signature: Uint8Array;
  message: Uint8Array;
  publicKey: Uint8Array;
  context?: Uint8Array;
};
/** One boolean per item; false for one that does not verify or cannot be checked. */
export declare function verifyBatch(items: BatchItem[]): boolean[];
/** Stops the signAsync worker (the next signAsync starts another). */
export declare function terminateWorker(): void;
