package interop;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.CMSSignedDataStreamGenerator;
import org.bouncycastle.cms.SignerInfoGenerator;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jcajce.spec.SLHDSAParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * The Bouncy Castle side of tests/interop/bc.sh: SLH-DSA (FIPS 205, pure
 * OIDs) keys, self-signed certificates and CMS SignedData (RFC 9814).
 *
 * <pre>
 * keygen ALG KEY.pem CERT.pem                  key pair and self-signed certificate
 * sign der|ber attached|detached KEY CERT CONTENT OUT
 *                                              SignedData with signed attributes:
 *                                              der = CMSSignedDataGenerator (DER),
 *                                              ber = CMSSignedDataStreamGenerator
 *                                              (indefinite lengths)
 * verify SIGNED CERT [CONTENT]                 exit 0 if every SignerInfo verifies
 *                                              with CERT's key, 1 if not
 * </pre>
 * Exit 2 on a usage or setup error.
 */
public final class BcPeer {
    private static final String BC = BouncyCastleProvider.PROVIDER_NAME;

    public static void main(String[] args) {
        Security.addProvider(new BouncyCastleProvider());
        try {
            System.exit(run(args));
        } catch (Exception e) {
            System.err.println("bc-peer: " + e);
            System.exit(2);
        }
    }

    private static int run(String[] a) throws Exception {
        if (a.length == 4 && a[0].equals("keygen")) {
            keygen(a[1], Path.of(a[2]), Path.of(a[3]));
            return 0;
        }
        if (a.length == 7 && a[0].equals("sign")) {
            boolean ber = switch (a[1]) {
                case "der" -> false;
                case "ber" -> true;
                default -> throw new IllegalArgumentException("der or ber, not " + a[1]);
            };
            boolean attached = switch (a[2]) {
                case "attached" -> true;
                case "detached" -> false;
                default -> throw new IllegalArgumentException("attached or detached, not " + a[2]);
            };
            sign(ber, attached, Path.of(a[3]), Path.of(a[4]), Path.of(a[5]), Path.of(a[6]));
            return 0;
        }
        if ((a.length == 3 || a.length == 4) && a[0].equals("verify")) {
            return verify(Path.of(a[1]), Path.of(a[2]), a.length == 4 ? Path.of(a[3]) : null) ? 0 : 1;
        }
        System.err.println("usage: keygen ALG KEY CERT | sign der|ber attached|detached KEY CERT CONTENT OUT"
                + " | verify SIGNED CERT [CONTENT]");
        return 2;
    }

    private static void keygen(String alg, Path keyOut, Path certOut) throws Exception {
        KeyPairGenerator kpg = KeyPairGenerator.getInstance("SLH-DSA", BC);
        kpg.initialize(SLHDSAParameterSpec.fromName(alg));
        KeyPair kp = kpg.generateKeyPair();
        X500Name name = new X500Name("CN=Bouncy Castle " + alg + ",O=sphincs interop");
        long now = System.currentTimeMillis();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                BigInteger.valueOf(now), new Date(now - 60_000L), new Date(now + 30L * 86_400_000L),
                name, kp.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        builder.addExtension(Extension.keyUsage, true,
                new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyCertSign));
        X509CertificateHolder cert = builder.build(signer(kp.getPrivate()));
        writePem(keyOut, kp.getPrivate());
        writePem(certOut, cert);
    }

    private static void sign(boolean ber, boolean attached, Path keyIn, Path certIn, Path content,
            Path out) throws Exception {
        PrivateKey key = readKey(keyIn);
        X509CertificateHolder cert = readCert(certIn);
        SignerInfoGenerator sig = new JcaSignerInfoGeneratorBuilder(
                new JcaDigestCalculatorProviderBuilder().setProvider(BC).build())
                .build(signer(key), cert);
        JcaCertStore certs = new JcaCertStore(List.of(cert));
        byte[] data = Files.readAllBytes(content);
        if (ber) {
            CMSSignedDataStreamGenerator gen = new CMSSignedDataStreamGenerator();
            gen.addSignerInfoGenerator(sig);
            gen.addCertificates(certs);
            try (OutputStream file = new FileOutputStream(out.toFile());
                    OutputStream body = gen.open(file, attached)) {
                body.write(data);
            }
        } else {
            CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
            gen.addSignerInfoGenerator(sig);
            gen.addCertificates(certs);
            CMSSignedData sd = gen.generate(new CMSProcessableByteArray(data), attached);
            Files.write(out, sd.getEncoded(ASN1Encoding.DER));
        }
    }

    private static boolean verify(Path signed, Path certIn, Path content) throws Exception {
        byte[] bytes = unPem(Files.readAllBytes(signed));
        CMSSignedData sd = content == null ? new CMSSignedData(bytes)
                : new CMSSignedData(new CMSProcessableByteArray(Files.readAllBytes(content)), bytes);
        X509Certificate cert = new JcaX509CertificateConverter().setProvider(BC)
                .getCertificate(readCert(certIn));
        int good = 0;
        int total = 0;
        for (SignerInformation si : sd.getSignerInfos().getSigners()) {
            total++;
            boolean ok;
            try {
                ok = si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(BC).build(cert));
            } catch (Exception e) {
                System.err.println("bc-peer: SignerInfo " + total + ": " + e.getMessage());
                ok = false;
            }
            if (ok) {
                good++;
            }
        }
        System.out.println(good + " of " + total + " SignerInfos verified (digest "
                + sd.getDigestAlgorithmIDs().iterator().next().getAlgorithm() + ")");
        return total > 0 && good == total;
    }

    private static ContentSigner signer(PrivateKey key) throws Exception {
        // The key's own name (e.g. SLH-DSA-SHA2-128F) selects its pure OID.
        return new JcaContentSignerBuilder(key.getAlgorithm()).setProvider(BC).build(key);
    }

    private static PrivateKey readKey(Path p) throws Exception {
        Object o = parsePem(p);
        if (!(o instanceof PrivateKeyInfo info)) {
            throw new IllegalArgumentException(p + ": not a PKCS#8 PRIVATE KEY but " + o);
        }
        return new JcaPEMKeyConverter().setProvider(BC).getPrivateKey(info);
    }

    private static X509CertificateHolder readCert(Path p) throws Exception {
        byte[] bytes = Files.readAllBytes(p);
        if (!isPem(bytes)) {
            return new X509CertificateHolder(bytes);
        }
        Object o = parsePem(p);
        if (!(o instanceof X509CertificateHolder cert)) {
            throw new IllegalArgumentException(p + ": not a CERTIFICATE but " + o);
        }
        return cert;
    }

    private static Object parsePem(Path p) throws IOException {
        try (PEMParser parser = new PEMParser(Files.newBufferedReader(p, StandardCharsets.US_ASCII))) {
            return parser.readObject();
        }
    }

    private static boolean isPem(byte[] b) {
        return new String(b, 0, Math.min(b.length, 64), StandardCharsets.ISO_8859_1).contains("-----BEGIN");
    }

    private static byte[] unPem(byte[] b) throws IOException {
        if (!isPem(b)) {
            return b;
        }
        try (PemReader r = new PemReader(new StringReader(new String(b, StandardCharsets.US_ASCII)))) {
            PemObject o = r.readPemObject();
            return o.getContent();
        }
    }

    private static void writePem(Path p, Object o) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (Writer w = new java.io.OutputStreamWriter(buf, StandardCharsets.US_ASCII);
                JcaPEMWriter pem = new JcaPEMWriter(w)) {
            pem.writeObject(o);
        }
        Files.write(p, buf.toByteArray());
    }
}
