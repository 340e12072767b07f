import { afterEach, vi } from "vitest";
import { cleanup, configure } from "@testing-library/react";
import { authorizeApiCalls } from "@/session/authorization";

// As the app's start-up does (main.tsx): the session signs every call.
authorizeApiCalls();

// findBy*/waitFor give up after 1 s by default: too short on a busy two-core CI machine.
configure({ asyncUtilTimeout: 5000 });
// vi.waitFor has the same 1 s default and no setting for it: every test file gets 5 s unless it asks.
const waitFor = vi.waitFor;
vi.waitFor = (callback, options) =>
  waitFor(callback, typeof options === "number" ? { timeout: options } : { timeout: 5000, ...options });

afterEach(() => {
  // Files without a DOM (`// @vitest-environment node`) have nothing of a browser to clear.
  if (typeof document === "undefined") return;
  cleanup();
  localStorage.clear();
  document.cookie.split(";").forEach((c) => {
    document.cookie = `${c.split("=")[0].trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
