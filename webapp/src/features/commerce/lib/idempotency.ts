/**
 * One `Idempotency-Key` per purchase attempt (openapi `IdempotencyKey`): a double click, a retry
 * after a network error and a reload reuse it, so the server charges at most once. An attempt is
 * kept in sessionStorage (this tab only) under its scope ("ppv:{eventId}:{productId}",
 * "subscription:{productId}") for ATTEMPT_LIFETIME_MS, with the single-use card token it pays
 * with: the same key must always carry the same body. It ends when the payment has an outcome
 * (`finishAttempt`), or when the card changes (a new body needs a new key).
 */
export const ATTEMPT_LIFETIME_MS = 15 * 60 * 1000;
const PREFIX = "touchline.payment-attempt.";

export interface Attempt {
  key: string;
  createdAt: number;
  /** What this attempt pays with: "stored", or which new card ("4242/12/2029"). */
  source?: string;
  /** The single-use token of that new card, once tokenized. */
  token?: string;
}

export interface AttemptOptions {
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  now?: () => number;
  newKey?: () => string;
}

function defaults(options: AttemptOptions) {
  return {
    storage: options.storage ?? globalThis.sessionStorage,
    now: options.now ?? Date.now,
    newKey: options.newKey ?? (() => globalThis.crypto.randomUUID()),
  };
}

function read(storage: AttemptOptions["storage"], scope: string): Attempt | null {
  try {
    const raw = storage?.getItem(PREFIX + scope);
    const attempt = raw ? (JSON.parse(raw) as Attempt) : null;
    return attempt && typeof attempt.key === "string" && typeof attempt.createdAt === "number" ? attempt : null;
  } catch {
    return null;
  }
}

function write(storage: AttemptOptions["storage"], scope: string, attempt: Attempt): void {
  try {
    storage?.setItem(PREFIX + scope, JSON.stringify(attempt));
  } catch {
    // Storage full or refused: the key still holds for this page's lifetime through the caller.
  }
}

/** The attempt of `scope`: the stored one while it lives, else a new one. */
export function currentAttempt(scope: string, options: AttemptOptions = {}): Attempt {
  const { storage, now, newKey } = defaults(options);
  const stored = read(storage, scope);
  if (stored && now() - stored.createdAt < ATTEMPT_LIFETIME_MS && stored.createdAt <= now()) return stored;
  const attempt = { key: newKey(), createdAt: now() };
  write(storage, scope, attempt);
  return attempt;
}

/**
 * The attempt that pays with `source` ("stored", or which new card: brand, last 4, expiry), with
 * its card token once there is one. Paying with another source than the attempt's starts a new
 * attempt: the same key with another body would be refused (409 `idempotency_key_reused`).
 */
export function attemptFor(scope: string, source: string, token?: string, options: AttemptOptions = {}): Attempt {
  const { storage, now, newKey } = defaults(options);
  const current = currentAttempt(scope, options);
  const attempt: Attempt =
    current.source && current.source !== source
      ? { key: newKey(), createdAt: now(), source, ...(token && { token }) }
      : { ...current, source, ...(token && { token }) };
  write(storage, scope, attempt);
  return attempt;
}

/** The payment has an outcome (paid, refused, processing): the next purchase is a new attempt. */
export function finishAttempt(scope: string, options: AttemptOptions = {}): void {
  try {
    defaults(options).storage?.removeItem(PREFIX + scope);
  } catch {
    // nothing stored
  }
}
