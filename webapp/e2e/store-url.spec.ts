import { expect, test } from "@playwright/test";

test("storeUrl on the root redirects only to an allow-listed app store", async ({ page }) => {
  // No internet here: answer for the store so the navigation can be observed.
  await page.route("https://play.google.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<h1>store</h1>" }),
  );
  await page.goto(
    "/?storeUrl=" + encodeURIComponent("https://play.google.com/store/apps/details?id=com.touchline.app"),
  );
  await expect(page).toHaveURL(/^https:\/\/play\.google\.com\/store\/apps\/details\?id=com\.touchline\.app$/);
});

test("storeUrl pointing anywhere else is ignored", async ({ page }) => {
  let left = false;
  await page.route("https://evil.example/**", (route) => {
    left = true;
    return route.fulfill({ status: 200, body: "evil" });
  });
  await page.goto("/?storeUrl=" + encodeURIComponent("https://evil.example/phish"));
  await expect(page.locator("main")).toBeVisible();
  expect(new URL(page.url()).origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  await page.goto("/?storeUrl=undefined");
  await expect(page.locator("main")).toBeVisible();
  expect(left).toBe(false);
});
