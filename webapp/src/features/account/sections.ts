/** The account area's sections in menu order; each is /account/{section} (spec §2). */
export const ACCOUNT_SECTIONS = ["general", "password", "devices", "billing", "subscription", "ppv"] as const;
export type AccountSection = (typeof ACCOUNT_SECTIONS)[number];

/** The section a route belongs to: "account-ppv-id" → ppv, "account" → general. */
export function accountSectionOf(routeName: string | undefined): AccountSection {
  const first = routeName?.split("-")[1];
  return ACCOUNT_SECTIONS.find((section) => section === first) ?? "general";
}
