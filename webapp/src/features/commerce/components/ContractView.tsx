import { useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { formatPrice } from "@/entities/product";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { notify } from "@/lib/notify";
import { useCancelContract } from "../api/subscriptions";
import type { Contract } from "../api/model";
import { formatDate } from "../lib/format";
import { StatusBadge } from "./StatusBadge";

/** A contract: status, period, next renewal or end date, last payment, and cancel at period end. */
export function ContractView({ contract, linkTitle }: { contract: Contract; linkTitle?: boolean }) {
  const { t } = useTranslation("commerce");
  const locale = useLocale();
  const localePath = useLocalePath();
  const errorText = useErrorText();
  const cancel = useCancelContract();
  const [confirming, setConfirming] = useState(false);
  const renews = contract.autoRenew && !contract.canceled && contract.nextBillingDate;
  const status = contract.canceled && contract.active ? "canceled" : contract.status;

  const onCancel = async () => {
    try {
      await cancel.mutateAsync(contract.id);
      setConfirming(false);
      void notify.success(t("contract.canceledToast", { date: formatDate(contract.endDate, locale) }));
    } catch (error) {
      void notify.danger(errorText(error));
    }
  };

  return (
    <article className="commerce-card" aria-labelledby={`contract-${contract.id}`}>
      <div className="commerce-card__head">
        <h3 className="commerce-card__title" id={`contract-${contract.id}`}>
          {linkTitle ? (
            <Link to={localePath(`/account/subscription/${contract.id}`)}>{contract.title}</Link>
          ) : (
            contract.title
          )}
        </h3>
        <StatusBadge status={status}>{t(`contract.status.${status}`)}</StatusBadge>
      </div>
      <dl className="commerce-details">
        <div>
          <dt>{t("contract.period")}</dt>
          <dd>
            {formatDate(contract.startDate, locale)} – {formatDate(contract.endDate, locale)}
          </dd>
        </div>
        <div>
          <dt>{renews ? t("contract.nextRenewal") : t("contract.endsOn")}</dt>
          <dd>{formatDate(renews ? contract.nextBillingDate : contract.endDate, locale)}</dd>
        </div>
        <div>
          <dt>{t("contract.lastPayment")}</dt>
          <dd>
            {formatPrice(contract, locale)} · {t(`status.${contract.paymentStatus}`)}
            {contract.card && ` · •••• ${contract.card.last4}`}
          </dd>
        </div>
      </dl>
      {contract.status === "past_due" && <p role="alert">{t("contract.pastDue")}</p>}
      {contract.platform !== "web" && <p>{t("contract.otherPlatform")}</p>}
      {contract.platform === "web" && contract.active && !contract.canceled && !confirming && (
        <div className="commerce-actions">
          <button type="button" className="btn" onClick={() => setConfirming(true)}>
            {t("contract.cancel")}
          </button>
        </div>
      )}
      {confirming && (
        <div role="group" aria-label={t("contract.cancelConfirmTitle")} className="commerce-actions">
          <p>{t("contract.cancelConfirm", { date: formatDate(contract.endDate, locale) })}</p>
          <button type="button" className="btn btn--primary" onClick={onCancel} disabled={cancel.isPending}>
            {t("contract.cancelYes")}
          </button>
          <button type="button" className="btn" onClick={() => setConfirming(false)}>
            {t("contract.keep")}
          </button>
        </div>
      )}
    </article>
  );
}
