import { afterEach } from "vitest";
import { cleanup, configure } from "@testing-library/react";
import { authorizeApiCalls } from "@/session/authorization";

// As the app's start-up does (main.tsx): the session signs every call.
authorizeApiCalls();

// findBy*/waitFor give up after 1 s by default: too short on a busy two-core CI machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.cookie.split(";").forEach((c) => {
    document.cookie = `${c.split("=")[0].trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
