import { useTranslation } from "react-i18next";
import type { Access } from "@/entities/event";

/** What the viewer needs to watch, in words; null when they may watch now. */
export function useAccessLabel(access: Access): string | null {
  const { t } = useTranslation("catalog");
  switch (access.kind) {
    case "available":
      return null;
    case "region":
      return t("access.region");
    case "locked":
      return t(`access.${access.via}`);
  }
}
