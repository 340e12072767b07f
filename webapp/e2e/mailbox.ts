import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { mailDir } from "../playwright.config";

/**
 * The newest confirmation link mailed to `email`, as a path of this server (/auth/verify/?token=…).
 * The e2e server writes every confirmation mail to TOUCHLINE_MAIL_DROP_DIR (e2e/serve.sh), a
 * test-only setting the server refuses in production; staff never see the link.
 */
export async function confirmationLink(email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const mails = readdirSync(mailDir, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith(".json"))
      .map((entry) => entry.name)
      .sort()
      .reverse()
      .map(
        (name) => JSON.parse(readFileSync(join(mailDir, name), "utf8")) as { to: string; kind: string; text: string },
      )
      .filter((mail) => mail.to === email.toLowerCase() && mail.kind === "email_verification");
    const link = mails[0]?.text.match(/\/auth\/verify\/\?token=\S+/)?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no confirmation mail to ${email} in ${mailDir}`);
}

/** After the sign-up form: the page says to check the mail; the mailed link signs the account in. */
export async function confirmSignUp(page: Page, email: string) {
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await page.goto(await confirmationLink(email));
}
