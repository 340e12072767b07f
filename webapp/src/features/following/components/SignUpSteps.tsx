import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";

/** The sign-up flow's way on: back to the personalization step, and Done. */
export function SignUpSteps({ next = "/auth/sign-up/personalization/" }: { next?: string }) {
  const { t } = useTranslation("following");
  const localePath = useLocalePath();
  const [params] = useSearchParams();
  const redirect = params.get("redirect");
  const query = redirect ? `?redirect=${encodeURIComponent(redirect)}` : "";
  return (
    <div className="following-steps">
      <Link className="btn btn--primary" to={localePath(next) + query}>
        {t("signUp.next")}
      </Link>
    </div>
  );
}
