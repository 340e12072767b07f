import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import GeneralSection from "@/features/account/pages/GeneralSection";
import { sessionStore } from "@/session/store";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";
import { PROFILE, categoryList, failure, ok, signIn, signOut, stubApi } from "./accountTestKit";

beforeAll(setUpI18n);
afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

function renderGeneral() {
  return renderWithApp(<GeneralSection />, {
    url: "/account/general",
    path: "/account/general",
    handle: { name: "account-general", layout: "account" },
  });
}

describe("the general section", () => {
  it("shows the profile's fields, the e-mail address read-only", () => {
    signIn({ phone: "+44 20 7946 0000", dateOfBirth: "1990-05-01", gender: "female" });
    stubApi({ "POST /api/identity/list": categoryList });
    renderGeneral();
    expect(screen.getByRole("heading", { level: 2, name: "General" })).toBeTruthy();
    expect((screen.getByLabelText("Full name") as HTMLInputElement).value).toBe("Alex Fan");
    const email = screen.getByLabelText("E-mail") as HTMLInputElement;
    expect(email.value).toBe("fan@touchline.test");
    expect(email.readOnly).toBe(true);
    expect((screen.getByLabelText("Phone") as HTMLInputElement).value).toBe("+44 20 7946 0000");
    expect((screen.getByLabelText("City") as HTMLInputElement).value).toBe("Leeds");
    expect((screen.getByLabelText("Date of birth") as HTMLInputElement).value).toBe("1990-05-01");
    expect((screen.getByLabelText("Gender") as HTMLSelectElement).value).toBe("female");
  });

  it("checks the fields before sending anything", async () => {
    signIn();
    const api = stubApi({ "POST /api/identity/list": categoryList });
    renderGeneral();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText("Full name"));
    await user.type(screen.getByLabelText("Phone"), "call me");
    await user.type(screen.getByLabelText("Postal code"), "X".repeat(21));
    await user.type(screen.getByLabelText("Date of birth"), "2999-01-01");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("Enter your name.")).toBeTruthy();
    expect(screen.getByLabelText("Full name").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Enter a phone number: digits, spaces and + ( ) . / - only.")).toBeTruthy();
    expect(screen.getByText("Use at most 20 characters.")).toBeTruthy();
    expect(screen.getByText("The date of birth cannot be in the future.")).toBeTruthy();
    expect(api.callsTo("POST /api/user/update_profile")).toHaveLength(0);
  });

  it("sends only what changed, the name as displayName and a cleared field as null, and stores the answer", async () => {
    signIn();
    const api = stubApi({
      "POST /api/identity/list": categoryList,
      "POST /api/user/update_profile": () =>
        ok({ ...PROFILE, displayName: "Alex Edited", city: null, phone: "+44 20 7946 0000", gender: "other" }),
    });
    renderGeneral();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText("Full name"));
    await user.type(screen.getByLabelText("Full name"), "  Alex Edited ");
    await user.clear(screen.getByLabelText("City"));
    await user.type(screen.getByLabelText("Phone"), "+44 20 7946 0000");
    await user.selectOptions(screen.getByLabelText("Gender"), "other");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("Your profile has been saved.")).toBeTruthy();
    expect(await api.callsTo("POST /api/user/update_profile")[0].json()).toEqual({
      data: { displayName: "Alex Edited", city: null, phone: "+44 20 7946 0000", gender: "other" },
    });
    expect(sessionStore.getState().user).toMatchObject({ fullName: "Alex Edited", city: null, gender: "other" });
    expect((screen.getByLabelText("Full name") as HTMLInputElement).value).toBe("Alex Edited");
  });

  it("chooses a favourite sport, then one of its leagues, and sends both", async () => {
    signIn();
    const api = stubApi({
      "POST /api/identity/list": categoryList,
      "POST /api/user/update_profile": () =>
        ok({ ...PROFILE, identity: "5f1c0a8e2b3d4c5e6f7a8c01", identityItem: "5f1c0a8e2b3d4c5e6f7a8d02" }),
    });
    renderGeneral();
    const user = userEvent.setup();
    const league = screen.getByLabelText("Favourite league") as HTMLSelectElement;
    expect(league.disabled).toBe(true);
    expect(screen.getByText("Choose a sport first.")).toBeTruthy();

    await user.selectOptions(
      screen.getByLabelText("Favourite sport"),
      await screen.findByRole("option", { name: "Football" }),
    );
    await user.selectOptions(league, await screen.findByRole("option", { name: "Southern League" }));
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Your profile has been saved.")).toBeTruthy();
    expect(await api.callsTo("POST /api/user/update_profile")[0].json()).toEqual({
      data: { identity: "5f1c0a8e2b3d4c5e6f7a8c01", identityItem: "5f1c0a8e2b3d4c5e6f7a8d02" },
    });
    expect(sessionStore.getState().user?.identityItem).toBe("5f1c0a8e2b3d4c5e6f7a8d02");

    // Another sport: its leagues, and the league chosen before is cleared.
    await user.selectOptions(screen.getByLabelText("Favourite sport"), "Basketball");
    expect(league.value).toBe("");
  });

  it("says so when nothing changed, without a call", async () => {
    signIn();
    const api = stubApi({ "POST /api/identity/list": categoryList });
    renderGeneral();
    await userEvent.setup().click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Nothing has changed.")).toBeTruthy();
    expect(api.callsTo("POST /api/user/update_profile")).toHaveLength(0);
  });

  it("shows the server's field errors at their fields", async () => {
    signIn();
    stubApi({
      "POST /api/identity/list": categoryList,
      "POST /api/user/update_profile": () =>
        failure(400, "validation_error", "Invalid request", [
          { field: "data.displayName", message: "The name may not be blank" },
        ]),
    });
    renderGeneral();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Full name"), "!");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("The name may not be blank")).toBeTruthy();
    expect(screen.getByLabelText("Full name").getAttribute("aria-invalid")).toBe("true");
  });

  it("shows other failures above the form", async () => {
    signIn();
    stubApi({
      "POST /api/identity/list": categoryList,
      "POST /api/user/update_profile": () => failure(500, "x_unknown_failure", "Something broke"),
    });
    renderGeneral();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("City"), "s");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Something broke");
  });
});

describe("deleting the account", () => {
  it("names what is lost, can be cancelled, and once confirmed deletes, signs out and goes home", async () => {
    signIn();
    const api = stubApi({
      "POST /api/identity/list": categoryList,
      "POST /api/user/delete_account": () => ok(null),
      "POST /api/user/logout": () => ok(null),
    });
    const { router } = renderGeneral();
    const user = userEvent.setup();

    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    let dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    const lost = within(dialog)
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    for (const word of ["pay-per-view", "subscriptions", "clips", "watchlist", "follow", "devices", "card"])
      expect(lost.some((text) => text?.includes(word))).toBe(true);
    expect(document.activeElement?.textContent).toBe("Keep my account");
    await user.click(within(dialog).getByRole("button", { name: "Keep my account" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(api.callsTo("POST /api/user/delete_account")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete for good" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(api.callsTo("POST /api/user/delete_account")).toHaveLength(1);
    // The server has revoked the sessions already: nothing to revoke.
    expect(api.callsTo("POST /api/user/logout")).toHaveLength(0);
    expect(sessionStore.getState().token).toBeNull();
    expect(sessionStore.getState().user).toBeNull();
  });

  it("keeps the viewer signed in and says why when the deletion fails", async () => {
    signIn();
    stubApi({
      "POST /api/identity/list": categoryList,
      "POST /api/user/delete_account": () => failure(503, "x_unknown_failure", "Try again later"),
    });
    renderGeneral();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    await user.click(screen.getByRole("button", { name: "Delete for good" }));
    const dialog = screen.getByRole("dialog");
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Try again later");
    expect(sessionStore.getState().token).toBe("access-token");
  });
});
