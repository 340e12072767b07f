import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { newViewer, signInOnPage } from "./event-support";

// The user-experience survey (spec §2, §4, §5, §9) with the server's built-in form (the default
// TOUCHLINE_SURVEY_FORM_URL): accounts are new here, so the browser's clock starts 8 days ahead.
const DAY = 24 * 60 * 60 * 1000;
const NAME = "survey_user_experience_1";

interface SurveyRecord {
  surveyName: string;
  skipped: string | null;
  submitted: string | null;
  closed: string | null;
}

async function surveyRecord(request: APIRequestContext, token: string): Promise<SurveyRecord | undefined> {
  const answer = await request.get("/api/user/get_profile", { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBe(true);
  const body = (await answer.json()) as { content: { options: Record<string, SurveyRecord> } };
  return body.content.options[NAME];
}

/**
 * The page and the survey's code and translations have arrived (the survey's timer starts once
 * they have): only then does moving the clock mean "the viewer stayed this long on the page".
 */
async function settled(page: Page, path?: string) {
  if (path) await page.goto(path);
  await page.waitForLoadState("networkidle");
}

/** A viewer signed in on the page, in a browser whose clock says the account is 8 days old. */
async function eligibleViewer(page: Page, request: APIRequestContext, then = "/about") {
  await page.clock.install({ time: Date.now() + 8 * DAY });
  const viewer = await newViewer(request, "survey");
  await signInOnPage(page, viewer, then);
  await settled(page);
  return viewer;
}

const startDialog = (page: Page) => page.getByRole("dialog", { name: "Help us improve" });
const surveyDialog = (page: Page) => page.getByRole("dialog", { name: "User experience survey" });

test.use({ viewport: { width: 1280, height: 900 } });

test("an eligible viewer is asked after 20 s; Later is recorded and asks again 1,440 minutes later", async ({
  page,
  request,
}) => {
  const viewer = await eligibleViewer(page, request);
  await page.clock.fastForward(15_000);
  await expect(startDialog(page)).toBeHidden();
  // The 20 s count from when the survey's code has arrived, which a busy machine delays past
  // "network idle": move the clock a second at a time until it asks (never before 15 s, above).
  await expect
    .poll(async () => {
      await page.clock.fastForward(1_000);
      return startDialog(page).isVisible();
    })
    .toBe(true);
  await expect(startDialog(page).getByRole("button", { name: "Start" })).toBeVisible();
  await startDialog(page).getByRole("button", { name: "Later" }).click();
  await expect(startDialog(page)).toBeHidden();
  await expect.poll(async () => (await surveyRecord(request, viewer.token))?.skipped ?? null).not.toBeNull();
  const skipped = await surveyRecord(request, viewer.token);
  expect(skipped).toMatchObject({ surveyName: NAME, submitted: null, closed: null });

  // Not before the skip delay...
  await page.clock.fastForward("23:50:00");
  await expect(startDialog(page)).toBeHidden();
  // ... and again after it.
  await page.clock.fastForward("00:11:00");
  await expect(startDialog(page)).toBeVisible();
});

test("the survey never prompts on suppressed routes", async ({ page, request }) => {
  await eligibleViewer(page, request, "/open-app");
  await page.clock.fastForward(60_000);
  await expect(startDialog(page)).toBeHidden();
  await settled(page, "/auth/sign-up/subscription");
  await page.clock.fastForward(60_000);
  await expect(startDialog(page)).toBeHidden();
  // An ordinary page asks.
  await settled(page, "/faq");
  await page.clock.fastForward(21_000);
  await expect(startDialog(page)).toBeVisible();
});

test("Start opens the 600 × 750 form; a submitted form is recorded and never asks again", async ({ page, request }) => {
  const viewer = await eligibleViewer(page, request);
  await page.clock.fastForward(21_000);
  await startDialog(page).getByRole("button", { name: "Start" }).click();
  await expect(surveyDialog(page)).toBeVisible();
  const box = await surveyDialog(page).boundingBox();
  expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([600, 750]);
  const form = page.frameLocator("iframe.survey-dialog__frame");
  await form.getByRole("radio", { name: "5" }).check();
  await form.getByLabel(/what could we do better/i).fill("More football, please");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(surveyDialog(page)).toBeHidden();
  await expect(page.getByText("Thank you for your feedback!")).toBeVisible();
  await expect.poll(async () => (await surveyRecord(request, viewer.token))?.submitted ?? null).not.toBeNull();
  await page.clock.fastForward(3 * DAY);
  await expect(startDialog(page)).toBeHidden();
});

test("the close control is recorded and the survey is not shown again", async ({ page, request }) => {
  const viewer = await eligibleViewer(page, request);
  await page.clock.fastForward(21_000);
  await startDialog(page).getByRole("button", { name: "Start" }).click();
  await surveyDialog(page).getByRole("button", { name: "Close the survey" }).click();
  await expect(surveyDialog(page)).toBeHidden();
  await expect.poll(async () => (await surveyRecord(request, viewer.token))?.closed ?? null).not.toBeNull();
  await page.reload();
  await settled(page);
  await page.clock.fastForward(3 * DAY);
  await expect(startDialog(page)).toBeHidden();
});

test("a message from anywhere but the form does not count as submitted", async ({ page, request }) => {
  const viewer = await eligibleViewer(page, request);
  await page.clock.fastForward(21_000);
  await startDialog(page).getByRole("button", { name: "Start" }).click();
  await expect(surveyDialog(page)).toBeVisible();
  // The page itself (not the form's frame) posts the form's message.
  await page.evaluate(() => window.postMessage({ type: "touchline-survey", status: "submitted" }, "*"));
  await page.clock.fastForward(1_000);
  await expect(surveyDialog(page)).toBeVisible();
  expect((await surveyRecord(request, viewer.token))?.submitted ?? null).toBeNull();
});
