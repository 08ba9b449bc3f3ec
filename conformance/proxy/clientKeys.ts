// The bearer tokens clients send through the proxy, learnt as they come, and the names the reports
// give them, so that no report ever holds one; keys sent elsewhere (a query string, a cookie, an
// API-key header, a JSON body) are hidden by the names they go under.
import { hideHeaderValue, hideKeyValues } from '../../common/secretPlaces.ts';

/** `Authorization: Bearer <token>` (RFC 6750, 2.1; the scheme in any case, RFC 9110 11.1). */
const bearer = /^bearer +(\S+)$/i;

/** The bearer token an Authorization value carries, if it carries one. */
export const bearerSecret = (authorization: string | undefined): string | undefined => (authorization === undefined ? undefined : bearer.exec(authorization)?.[1]);

export interface ClientKey {
  /**
   * `$CLIENT_KEY_<n>` once the deployment accepted it (answered anything but 401 or 403), numbered
   * in the order they were accepted, for the model judges each one's rate-limit window on its own;
   * `$REFUSED_KEY_<n>` before, numbered in the order they were first seen, which the model reads as
   * a wrong credential.
   */
  token: string;
  accepted: boolean;
}

/** Refused tokens the book holds at most: more are not learnt (and their requests are not judged). */
export const maxRefusedKeys = 256;

export class ClientKeys {
  readonly #keys = new Map<string, ClientKey>();
  #accepted = 0;
  #refused = 0;
  #unaccepted = 0;
  #redactor: ((text: string) => string) | undefined;

  constructor(readonly maxRefused = maxRefusedKeys) {}

  /**
   * Learns a token from a request and whether the deployment accepted it: undefined when the book
   * is full of tokens it never accepted and this is another. Says when this answer is the first
   * that accepted it.
   */
  see(secret: string, accepted: boolean): (ClientKey & { acceptedNow: boolean }) | undefined {
    let key = this.#keys.get(secret);
    if (!key) {
      if (!accepted && this.#unaccepted >= this.maxRefused) return undefined;
      key = accepted ? { token: `$CLIENT_KEY_${++this.#accepted}`, accepted: true } : { token: `$REFUSED_KEY_${++this.#refused}`, accepted: false };
      if (!accepted) this.#unaccepted++;
      this.#keys.set(secret, key);
      this.#redactor = undefined;
      return { ...key, acceptedNow: accepted };
    }
    if (accepted && !key.accepted) {
      key.accepted = true;
      key.token = `$CLIENT_KEY_${++this.#accepted}`;
      this.#unaccepted--;
      this.#redactor = undefined;
      return { ...key, acceptedNow: true };
    }
    return { ...key, acceptedNow: false };
  }

  get(secret: string): ClientKey | undefined {
    return this.#keys.get(secret);
  }

  /** How many tokens it holds that the deployment never accepted. */
  get unaccepted(): number {
    return this.#unaccepted;
  }

  /**
   * An Authorization value with the token it ends with replaced by its name, however the scheme is
   * written (`Token <key>` may still spend the key's quota): the model tells keys apart by it.
   */
  authorization(value: string): string {
    const secret = /\s(\S+)$/.exec(value)?.[1];
    const key = secret === undefined ? undefined : this.#keys.get(secret);
    return key ? `${value.slice(0, value.length - secret!.length)}${key.token}` : value;
  }

  /**
   * Replaces every token the book holds (of 4 characters or more), the longest first, by its name,
   * and hides the value of every key-named query parameter, cookie and JSON field.
   */
  redact(text: string): string {
    this.#redactor ??= this.#build();
    return this.#redactor(text);
  }

  #build(): (text: string) => string {
    const secrets = [...this.#keys.keys()].filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
    if (secrets.length === 0) return hideKeyValues;
    const any = new RegExp(secrets.map((secret) => secret.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'), 'g');
    return (text) => hideKeyValues(text.replace(any, (secret) => this.#keys.get(secret)!.token));
  }
}

/** A token the book named (`$CLIENT_KEY_1`), which the model reads to tell keys apart. */
const named = /\$(CLIENT|REFUSED)_KEY_\d+$/;

/**
 * A value with every string in it (object values, array items) redacted; other values as they are.
 * A credential header's value (an API-key header, a cookie, an Authorization whose token the book
 * does not name) is hidden too: a key never sent as a bearer token is in no book.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T;
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      let redacted = redactDeep(item, redact);
      if (typeof redacted === 'string' && !named.test(redacted)) redacted = hideHeaderValue(name, redacted);
      // Defined, not assigned: a header named `__proto__` stays a header.
      Object.defineProperty(out, name, { value: redacted, enumerable: true, writable: true, configurable: true });
    }
    return out as T;
  }
  return value;
}
