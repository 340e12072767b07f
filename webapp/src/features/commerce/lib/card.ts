/**
 * Card checks made before anything is sent (the server checks again: 400 `invalid_card`).
 * Pure functions: the form shows their codes as translated messages (commerce:card.errors.*).
 */
export type CardError = "required" | "number" | "expiry" | "expired" | "cvc";

/** The digits of what was typed, spaces and dashes dropped ("4242 4242-…" → "4242…"). */
export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/** The Luhn checksum of a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** 12 to 19 digits (the contract's limits) passing the Luhn check. */
export function checkCardNumber(value: string): CardError | null {
  const digits = cardDigits(value);
  if (!digits) return "required";
  if (!/^[0-9]{12,19}$/.test(digits) || !luhnValid(digits)) return "number";
  return null;
}

export interface Expiry {
  month: number;
  year: number;
}

/** "MM/YY", "MM/YYYY", "MM YY" or "MMYY" → month and four-digit year; null when unreadable. */
export function parseExpiry(value: string): Expiry | null {
  const match = /^\s*(\d{1,2})\s*[/\s-]?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12 || year > 2100) return null;
  return { month, year };
}

/** A readable expiry that has not passed: a card is valid through the last day of its month. */
export function checkExpiry(value: string, now: Date = new Date()): CardError | null {
  if (!value.trim()) return "required";
  const expiry = parseExpiry(value);
  if (!expiry) return "expiry";
  const thisMonth = now.getFullYear() * 12 + now.getMonth();
  if (expiry.year * 12 + (expiry.month - 1) < thisMonth) return "expired";
  return null;
}

/** Three digits, or four for American Express (numbers starting 34 or 37). */
export function checkCvc(value: string, cardNumber = ""): CardError | null {
  const cvc = value.trim();
  if (!cvc) return "required";
  const amex = /^3[47]/.test(cardDigits(cardNumber));
  const valid = amex ? /^[0-9]{4}$/.test(cvc) : /^[0-9]{3,4}$/.test(cvc);
  return valid ? null : "cvc";
}

/** "4242424242424242" → "4242 4242 4242 4242" while typing (groups of four). */
export function formatCardNumber(value: string): string {
  return cardDigits(value)
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}
