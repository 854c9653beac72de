/**
 * A CA and one certificate it signs, made with openssl for verify's local components (valid one day): the API server's
 * front-proxy client (control-plane.ts) and KEDA's gRPC certificate (keda.ts). The CSR and the extension file are
 * written beside the CA's key, out of any folder a component reads its certificates from.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

export interface CertificateFiles {
  /** `-subj` of the CA, e.g. `/CN=front-proxy-ca`. */
  readonly caSubject: string;
  readonly caKey: string;
  readonly caCert: string;
  /** `-subj` of the signed certificate. */
  readonly subject: string;
  readonly key: string;
  readonly cert: string;
  /** x509 v3 extensions of the signed certificate (an `-extfile`), e.g. its subjectAltName. @default - none */
  readonly extensions?: string;
}

export function makeCertificates(openssl: string, f: CertificateFiles): void {
  const ssl = (...args: string[]) => execFileSync(openssl, args, { stdio: 'pipe' });
  const [csr, ext] = [`${f.caKey}.csr`, `${f.caKey}.ext`];
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', f.caSubject, '-keyout', f.caKey, '-out', f.caCert);
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', f.subject, '-keyout', f.key, '-out', csr);
  if (f.extensions !== undefined) writeFileSync(ext, f.extensions);
  ssl('x509', '-req', '-in', csr, '-CA', f.caCert, '-CAkey', f.caKey, '-CAcreateserial', '-days', '1',
    ...(f.extensions === undefined ? [] : ['-extfile', ext]), '-out', f.cert);
}
