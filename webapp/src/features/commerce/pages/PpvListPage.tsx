import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { formatPrice } from "@/entities/product";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { usePurchases } from "../api/purchases";
import { AccountSection, Loading } from "../components/Section";
import { formatDate } from "../lib/format";
import { StatusBadge } from "../components/StatusBadge";

/** /account/ppv: the viewer's pay-per-view purchases, newest first, each opening its receipt. */
export default function PpvListPage() {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const locale = useLocale();
  const localePath = useLocalePath();
  const query = usePurchases();
  return (
    <AccountSection title={t("ppv.title")}>
      {query.isPending ? (
        <Loading label={t("loading")} />
      ) : query.isError ? (
        <FormAlert tone="danger">{errorText(query.error)}</FormAlert>
      ) : query.data.entries.length === 0 ? (
        <p>{t("ppv.empty")}</p>
      ) : (
        <ul className="commerce-list">
          {query.data.entries.map((purchase) => (
            <li key={purchase.id} className="commerce-card">
              <div className="commerce-card__head">
                <h3 className="commerce-card__title">
                  <Link to={localePath(`/account/ppv/${purchase.id}`)}>{purchase.title}</Link>
                </h3>
                <StatusBadge status={purchase.status}>{t(`status.${purchase.status}`)}</StatusBadge>
              </div>
              <p>
                {formatPrice(purchase, locale)} · {formatDate(purchase.added, locale)}
                {purchase.validUntil && (
                  <> · {t("ppv.validUntil", { date: formatDate(purchase.validUntil, locale) })}</>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}
