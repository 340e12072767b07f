import { useTranslation } from "react-i18next";
import { notify } from "@/lib/notify";
import { setSpoilerFree, useSpoilerFree } from "@/session/spoilers";
import { EyeOffIcon } from "../icons";

/**
 * Spoiler-free mode's switch (issue 31 §1), in every page's header: pressed while scores are
 * hidden, and it says so. A signed-in viewer's choice is kept with the account.
 */
export function SpoilerToggle() {
  const { t } = useTranslation("common");
  const on = useSpoilerFree();
  const state = on ? t("header.spoilers_on") : t("header.spoilers_off");
  return (
    <button
      type="button"
      className="spoiler-toggle"
      aria-pressed={on}
      title={state}
      onClick={() => {
        setSpoilerFree(!on).catch(() => notify.danger(t("header.spoilers_not_saved")));
      }}
    >
      <EyeOffIcon />
      <span>{t("header.spoilers")}</span>
      {on && <span className="visually-hidden">{`: ${state}`}</span>}
    </button>
  );
}
