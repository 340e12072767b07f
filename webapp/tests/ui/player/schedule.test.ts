// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  MAX_RENEWAL_MARGIN_MS,
  MIN_RENEWAL_MARGIN_MS,
  RENEWAL_RETRY_MS,
  renewalDelay,
  retryDelay,
} from "@/ui/player/schedule";

const NOW = 1_795_000_000_000;
const HOUR = 3_600_000;

describe("when a stream token is renewed", () => {
  it("an hour-long token: a minute before it expires", () => {
    expect(renewalDelay(NOW + HOUR, NOW, NOW)).toBe(HOUR - MAX_RENEWAL_MARGIN_MS);
  });

  it("a short token: a fifth of its life before it expires", () => {
    // 30 s: renewed 6 s before expiry, after 24 s.
    expect(renewalDelay(NOW + 30_000, NOW, NOW)).toBe(24_000);
    // 100 s: 20 s before.
    expect(renewalDelay(NOW + 100_000, NOW, NOW)).toBe(80_000);
  });

  it("keeps at least 3 s for the request, and never renews before half the life has gone", () => {
    expect(renewalDelay(NOW + 10_000, NOW, NOW)).toBe(10_000 - MIN_RENEWAL_MARGIN_MS);
    // 4 s of life: 3 s of margin would renew after 1 s; half its life (2 s) comes first.
    expect(renewalDelay(NOW + 4_000, NOW, NOW)).toBe(2_000);
  });

  it("counts from now for a token received earlier", () => {
    expect(renewalDelay(NOW + HOUR, NOW, NOW + 10 * 60_000)).toBe(50 * 60_000 - MAX_RENEWAL_MARGIN_MS);
  });

  it("renews at once when the moment has passed (a tab that slept, a token already expired)", () => {
    expect(renewalDelay(NOW + 30_000, NOW, NOW + 29_000)).toBe(0);
    expect(renewalDelay(NOW - 5_000, NOW - 35_000, NOW)).toBe(0);
  });

  it("renews at once, not in a loop of zero delays, when the clock says it expired on arrival", () => {
    // A client clock ahead of the server's: the token's life looks empty; renew now (the caller
    // spaces consecutive renewals apart).
    expect(renewalDelay(NOW - 1_000, NOW, NOW)).toBe(0);
  });
});

describe("after a failed renewal", () => {
  it("tries again after 2 s, then doubling", () => {
    expect(retryDelay(1, NOW + HOUR, NOW)).toBe(RENEWAL_RETRY_MS);
    expect(retryDelay(2, NOW + HOUR, NOW)).toBe(4_000);
    expect(retryDelay(4, NOW + HOUR, NOW)).toBe(16_000);
  });

  it("makes its last try a second before expiry", () => {
    expect(retryDelay(5, NOW + 10_000, NOW)).toBe(9_000);
    expect(retryDelay(1, NOW + 500, NOW)).toBe(0);
  });

  it("gives up once the token has expired (the player shows an error with a retry)", () => {
    expect(retryDelay(1, NOW, NOW)).toBeNull();
    expect(retryDelay(3, NOW - 1, NOW)).toBeNull();
  });
});
