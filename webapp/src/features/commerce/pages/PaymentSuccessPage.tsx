import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { CommercePage } from "../components/Section";
import { boughtPath, readPaymentRef } from "../lib/paths";

/** /payment/success: paid; back to what was bought (the match, the subscription). */
export default function PaymentSuccessPage() {
  const { t } = useTranslation("commerce");
  const localePath = useLocalePath();
  const ref = readPaymentRef(useSearchParams()[0]);
  const ppv = ref.record === "purchase";
  return (
    <CommercePage title={t("success.title")}>
      <FormAlert tone="success">{ppv ? t("success.ppv") : t("success.subscription")}</FormAlert>
      <div className="commerce-actions">
        <Link className="btn btn--primary" to={localePath(boughtPath(ref))}>
          {ppv && ref.eventId ? t("success.watch") : t("success.continue")}
        </Link>
        {ref.id && (
          <Link to={localePath(ppv ? `/account/ppv/${ref.id}` : `/account/subscription/${ref.id}`)}>
            {t("success.receipt")}
          </Link>
        )}
      </div>
    </CommercePage>
  );
}
