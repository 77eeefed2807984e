import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

/** The PEM certificate (chain) and private key the console serves HTTPS with. */
export interface ConsoleTls {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** Where the certificate and key were given, to name them in a refusal. */
export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/** A TLS file the console cannot serve with; the message names the flag and the file. */
export class TlsFileError extends Error {}

/**
 * Reads both PEM files once, at start, and checks them together the way the TLS server will (a key that
 * does not match the certificate fails here, not on the first browser's handshake). Read at start, not per
 * connection: a renewed certificate takes effect on the next start.
 */
export function readTlsFiles(files: TlsFiles): ConsoleTls {
  const cert = readPem(files.certFile, '--tls-cert', /-----BEGIN CERTIFICATE-----/, 'CERTIFICATE');
  const key = readPem(files.keyFile, '--tls-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'PRIVATE KEY');
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    // OpenSSL's reason ("key values mismatch", "no start line"), without its error-stack prefix.
    const reason = (err as Error).message.replace(/^error:[0-9A-F]+:[^:]*:[^:]*:/i, '').trim();
    throw new TlsFileError(
      `--tls-key ${files.keyFile} does not fit --tls-cert ${files.certFile}: ${reason || 'not a usable PEM pair'}`,
    );
  }
  return { cert, key };
}

/** The file's bytes, when it holds the PEM block the flag needs (a certificate given as the key is named as such). */
function readPem(file: string, flag: string, block: RegExp, label: string): Buffer {
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable');
    throw new TlsFileError(`${flag} ${file}: cannot read it (${why})`);
  }
  if (!block.test(text.toString('latin1')))
    throw new TlsFileError(`${flag} ${file}: not a PEM ${label} (no "-----BEGIN ...${label}-----" line)`);
  return text;
}
