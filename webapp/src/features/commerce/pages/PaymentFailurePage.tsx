import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { CommercePage } from "../components/Section";
import { boughtPath, readPaymentRef } from "../lib/paths";

/** /payment/failure: nothing was charged; why (translated), try again, or back. */
export default function PaymentFailurePage() {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const ref = readPaymentRef(useSearchParams()[0]);
  const reason = ref.reason && /^[a-z_]+$/.test(ref.reason) ? ref.reason : "card_declined";
  const retry =
    ref.record === "purchase" && ref.eventId && ref.productId
      ? `/account/ppv/${ref.eventId}?product=${encodeURIComponent(ref.productId)}`
      : ref.productId
        ? `/account/subscription/buy/${encodeURIComponent(ref.productId)}`
        : null;
  const back = boughtPath(ref);
  const withBack = (path: string) => `${path}${path.includes("?") ? "&" : "?"}redirect=${encodeURIComponent(back)}`;
  return (
    <CommercePage title={t("failure.title")}>
      <FormAlert tone="danger">{errorText({ code: reason })}</FormAlert>
      <p>{t("failure.nothingCharged")}</p>
      <div className="commerce-actions">
        {retry && (
          <Link className="btn btn--primary" to={localePath(withBack(retry))}>
            {t("failure.retry")}
          </Link>
        )}
        <Link to={localePath(back)}>{t("failure.back")}</Link>
      </div>
    </CommercePage>
  );
}
