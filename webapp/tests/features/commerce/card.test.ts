// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  cardDigits,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  formatCardNumber,
  luhnValid,
  parseExpiry,
} from "@/features/commerce/lib/card";

describe("card numbers", () => {
  it("pass the Luhn check for the sandbox's test cards", () => {
    for (const number of [
      "4242424242424242",
      "4000000000000002",
      "4000000000009995",
      "4000000000003220",
      "5555555555554444",
    ])
      expect(luhnValid(number), number).toBe(true);
  });

  it("fail the Luhn check with one digit changed or non-digits", () => {
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("4242a24242424242")).toBe(false);
    expect(luhnValid("")).toBe(false);
  });

  it("are read without spaces and dashes, 12 to 19 digits", () => {
    expect(cardDigits("4242 4242-4242 4242")).toBe("4242424242424242");
    expect(checkCardNumber("4242 4242 4242 4242")).toBeNull();
    expect(checkCardNumber("")).toBe("required");
    expect(checkCardNumber("   ")).toBe("required");
    expect(checkCardNumber("4242424242424241")).toBe("number");
    expect(checkCardNumber("42424")).toBe("number"); // too short, even if it passed Luhn
    expect(checkCardNumber("4".repeat(20))).toBe("number");
  });

  it("are grouped by four while typing", () => {
    expect(formatCardNumber("42424242424242")).toBe("4242 4242 4242 42");
    expect(formatCardNumber("4242-4242x")).toBe("4242 4242");
  });
});

describe("expiry dates", () => {
  const now = new Date(2026, 10, 24); // 24 November 2026

  it("read MM/YY, MM/YYYY and MMYY", () => {
    expect(parseExpiry("12/29")).toEqual({ month: 12, year: 2029 });
    expect(parseExpiry("1/2030")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("0629")).toEqual({ month: 6, year: 2029 });
    expect(parseExpiry("13/29")).toBeNull();
    expect(parseExpiry("00/29")).toBeNull();
    expect(parseExpiry("tomorrow")).toBeNull();
  });

  it("are valid through the last day of their month", () => {
    expect(checkExpiry("11/26", now)).toBeNull();
    expect(checkExpiry("12/26", now)).toBeNull();
    expect(checkExpiry("10/26", now)).toBe("expired");
    expect(checkExpiry("11/25", now)).toBe("expired");
  });

  it("say what is wrong", () => {
    expect(checkExpiry("", now)).toBe("required");
    expect(checkExpiry("99/99", now)).toBe("expiry");
  });
});

describe("security codes", () => {
  it("have 3 or 4 digits, 4 for American Express", () => {
    expect(checkCvc("123")).toBeNull();
    expect(checkCvc("1234")).toBeNull();
    expect(checkCvc("")).toBe("required");
    expect(checkCvc("12")).toBe("cvc");
    expect(checkCvc("12a")).toBe("cvc");
    expect(checkCvc("123", "378282246310005")).toBe("cvc");
    expect(checkCvc("1234", "378282246310005")).toBeNull();
  });
});
