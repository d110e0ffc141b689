// Test certificates made at test time by the openssl command: a CA, a loopback server and named clients.
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PEM certificate with its key, and its RFC 8705 `x5t#S256` (base64url SHA-256 of the DER). */
export interface IssuedCertificate {
  cert: string;
  key: string;
  /** base64url SHA-256 of the DER: what `certificate: { sha256 }` and `cnf.x5t#S256` hold. */
  sha256: string;
  /** The same digest as openssl prints it (`openssl x509 -fingerprint -sha256`): hex with colons. */
  fingerprint: string;
}

export interface TestPki {
  /** The CA's PEM certificate: the server's `ca` (client certificates) and the clients' `ca` (server's). */
  ca: string;
  /** For 127.0.0.1 and localhost. */
  server: IssuedCertificate;
  /** Clients by the names asked, each signed by the CA. */
  clients: Record<string, IssuedCertificate>;
  /** A client certificate signed by a CA the server does not trust. */
  stranger: IssuedCertificate;
}

const openssl = (cwd: string, args: string[]) => execFileSync('openssl', args, { cwd, stdio: 'pipe' });

function selfSignedCa(dir: string, name: string): void {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
  ]);
}

function issue(dir: string, ca: string, name: string, extensions: string): IssuedCertificate {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  ]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    `${name}.crt`,
    '-extfile',
    `${name}.ext`,
  ]);
  const cert = readFileSync(join(dir, `${name}.crt`), 'utf8');
  const x509 = new X509Certificate(cert);
  return {
    cert,
    key: readFileSync(join(dir, `${name}.key`), 'utf8'),
    sha256: createHash('sha256').update(x509.raw).digest('base64url'),
    fingerprint: x509.fingerprint256,
  };
}

/** A fresh PKI in a temporary folder (removed before returning): one CA, the server, `clientNames`. */
export function makeTestPki(clientNames: readonly string[] = ['pos-vendor']): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'fin-pki-'));
  try {
    selfSignedCa(dir, 'test-ca');
    selfSignedCa(dir, 'other-ca');
    const server = issue(
      dir,
      'test-ca',
      'server',
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
    );
    const client = (ca: string, name: string) => issue(dir, ca, name, 'extendedKeyUsage=clientAuth\n');
    return {
      ca: readFileSync(join(dir, 'test-ca.crt'), 'utf8'),
      server,
      clients: Object.fromEntries(clientNames.map((name) => [name, client('test-ca', name)])),
      stranger: client('other-ca', 'stranger'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
