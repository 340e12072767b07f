/**
 * The information documents and the order of their parts. The texts live in the `info`
 * namespace under `{type}.sections.{id}` (`heading`, `body`) and, for the FAQ, under
 * `faq.groups.{group}.questions.{id}` (`q`, `a`).
 */
export const INFO_DOCUMENTS = {
  about: { sections: ["mission", "catalogue", "how_it_works"], updated: null },
  terms: {
    sections: ["acceptance", "account", "purchases", "access_codes", "acceptable_use", "availability", "termination"],
    updated: "2026-11-01",
  },
  privacy: {
    sections: ["data_we_collect", "how_we_use", "sharing", "retention", "your_rights"],
    updated: "2026-11-01",
  },
  cookies: { sections: ["what_they_are", "cookies_we_use", "managing"], updated: "2026-11-01" },
  contact: { sections: ["support", "before_you_write", "partners"], updated: null },
} as const satisfies Record<string, { sections: readonly string[]; updated: string | null }>;

export type DocumentType = keyof typeof INFO_DOCUMENTS;

export const FAQ_GROUPS = {
  watching: ["where_to_watch", "live_start", "replays"],
  accounts: ["why_account", "forgot_password"],
  devices: ["device_limit", "supported_devices"],
  payments: ["ppv_vs_subscription", "cancel_subscription"],
  access_codes: ["redeem_code", "code_rejected"],
} as const;

export type FaqGroup = keyof typeof FAQ_GROUPS;

/** Every type /info/{type} can show. */
export type InfoType = DocumentType | "faq";

export function isInfoType(value: string | undefined): value is InfoType {
  return value === "faq" || (value !== undefined && Object.hasOwn(INFO_DOCUMENTS, value));
}
