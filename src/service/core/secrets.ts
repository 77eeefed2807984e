import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

/** A new random secret (client secrets, signing keys), URL-safe. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Hashes a client secret with scrypt and a fresh salt; only the hash and salt are stored. */
export async function hashSecret(secret: string): Promise<{ hash: string; salt: string }> {
  const salt = randomBytes(16);
  const hash = await scrypt(secret, salt, KEY_LENGTH);
  return { hash: hash.toString('base64'), salt: salt.toString('base64') };
}

/** Checks a presented secret against a stored hash in constant time. */
export async function verifySecret(secret: string, stored: { hash: string; salt: string }): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(stored.salt, 'base64'), expected.length || KEY_LENGTH);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
